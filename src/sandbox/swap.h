/* The sandbox's own swap: a swap file or a zram device, each with a swap
 * header written here (version 1, last_page, label "vmregress" and a UUID
 * that names the owner, SWAPSPACE2 magic) and enabled with the highest
 * priority so the sandbox's pages go to it first.
 *
 * The owner tag in the UUID lets `cleanup` prove that a device whose
 * journal is gone is vmregress's and that its owner is dead. */
#ifndef VMR_SWAP_H
#define VMR_SWAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox/journal.h"

#define SWAP_LABEL "vmregress"
#define SWAP_PRIO_MAX 32767
#define SWAP_MIN_PAGES 10

struct swap_tag {
	struct owner owner;
	bool added;          /* zram: hot-added, so hot_remove after reset */
};

/* Fill one page (page_size bytes) with a swap header for a device of bytes
 * bytes.  0, or -1 when the size is below SWAP_MIN_PAGES pages or above
 * what a version-1 header can describe. */
int swap_header_fill(void *page, size_t page_size, uint64_t bytes, const struct swap_tag *tag);
/* Parse a header page.  Returns 1 when it is a valid swap header written by
 * vmregress (tag filled), 0 for any other valid swap header, -1 otherwise. */
int swap_header_parse(const void *page, size_t page_size, struct swap_tag *tag, uint64_t *last_page);

/* What --swap asked for. */
enum swap_kind { SWAP_FILE, SWAP_ZRAM, SWAP_HOST, SWAP_NONE };
struct swap_spec {
	enum swap_kind kind;
	uint64_t bytes;      /* 0: default (2x the limit) */
	char algo[32];       /* zram compressor, "" = the device's default */
};
/* Parse "file[:SIZE]|zram[:SIZE[:ALGO]]|host|none".  0, or -1 with *why. */
int swap_spec_parse(const char *s, struct swap_spec *out, const char **why);

/* Create a swap file dir/name of bytes bytes: O_CREAT|O_EXCL|O_NOFOLLOW,
 * 0600, allocated (fallocate where the file system can swap on it, zeros
 * written elsewhere), header written, fsync'd.  Returns 0; -1 bad input,
 * -2 cannot here, after reporting.  On failure the file is removed. */
int swap_file_create(const char *dir, const char *name, uint64_t bytes, const struct swap_tag *tag);

/* Write zeros over a swap file and its header again: for file systems that
 * refuse to swap on fallocate'd (unwritten) extents.  0 or -errno. */
int swap_file_fill(const char *path, uint64_t bytes, const struct swap_tag *tag);

/* swapon with SWAP_FLAG_PREFER at SWAP_PRIO_MAX.  0 or -errno. */
int swap_on(const char *path);
/* swapoff; "not a swap area" counts as done (async-signal-safe).  0 or -errno. */
int swap_off(const char *path);
/* True when /proc/swaps lists path. */
bool swap_active(const char *path);

/* zram devices through /sys/class/zram-control. */
int zram_hot_add(void);                 /* new device id or -errno */
int zram_find_free(int from);           /* an unused device id >= from, or -1 */
/* Set algorithm and size of device id, then write the swap header.
 * 0, -1 bad input (unknown algorithm), -2 cannot, after reporting; or -2
 * with *taken set, silently, when someone else took the device first. */
int zram_setup(int id, uint64_t bytes, const char *algo, const struct swap_tag *tag, bool *taken);
/* Remove a hot-added device (the kernel resets it as it goes), or reset a
 * reused one or one hot_remove refuses (frees its memory).
 * Async-signal-safe.  0 or -errno. */
int zram_release(int id, bool added);
/* Set a free device's compression algorithm (async-signal-safe); 0 or -errno. */
int zram_set_algo(int id, const char *algo);
/* The device's algorithm now, from "[lzo-rle] lzo lz4".  0 or -errno. */
int zram_current_algo(int id, char *buf, size_t len);
/* Read the swap header of /dev/zramN: as swap_header_parse, -1 if unreadable. */
int zram_read_tag(int id, struct swap_tag *tag);
/* Read the swap header of a file. */
int swap_file_read_tag(const char *path, struct swap_tag *tag);

#endif
