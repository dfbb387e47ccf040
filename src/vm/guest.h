/* Booting a guest: QEMU with -kernel/-initrd, its serial console read
 * through a pipe into a log, under a watchdog. */
#ifndef VMR_GUEST_H
#define VMR_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

enum guest_accel { GUEST_ACCEL_AUTO, GUEST_ACCEL_KVM, GUEST_ACCEL_TCG };

/* Can this host run a KVM guest?  Opening /dev/kvm is not enough (a nested
 * or restricted host may refuse to run vCPUs), so this creates a VM with one
 * page of real-mode code (`hlt`), runs it, and expects a KVM_EXIT_HLT.
 * Returns true, or false with the reason in why. */
bool guest_kvm_works(char *why, size_t whylen);

/* Choose the accelerator: kvm or tcg as asked (kvm refused with a reason
 * when it does not work), auto = kvm when it works, else tcg with the
 * reason in why.  Returns -1 when kvm was asked for and does not work. */
int guest_pick_accel(enum guest_accel want, enum guest_accel *got, char *why, size_t whylen);

struct guest_config {
	const char *kernel, *initrd, *append;
	const char *disk;          /* raw image attached as a virtio disk, or NULL */
	uint64_t disk_write_bps;   /* QEMU's write throttle on it in bytes/s; 0: none */
	const char *log_path;      /* the console log, written as it arrives */
	uint64_t mem_bytes;
	int cpus;
	enum guest_accel accel;    /* KVM or TCG, already picked */
	uint64_t timeout_ns;       /* the watchdog */
	const char *qemu;          /* binary; NULL: qemu-system-x86_64 */
	volatile sig_atomic_t *stop; /* set by a signal handler: kill the guest now */
	bool numa_tiered;          /* two NUMA nodes of half the memory each, the second
				      without CPUs and, by the ACPI HMAT, ten times slower:
				      a lower memory tier (numa.demotion_enabled) */
};

struct guest_outcome {
	char *log;                 /* everything the console and QEMU printed */
	size_t log_len;
	int exit_status;           /* QEMU's, or -1 */
	bool timed_out;            /* the watchdog killed it */
	bool done_seen;            /* VMR-DONE arrived */
	bool panicked;             /* "Kernel panic" on the console */
	bool kvm_failed;           /* QEMU reported a KVM internal error */
	bool stopped;              /* cfg->stop was set */
	double elapsed_s;
};

/* Boot the guest and wait for it: until QEMU exits (the guest powered off,
 * or panicked with panic=-1 and -no-reboot), or a few seconds after VMR-DONE,
 * or the watchdog, or at once when QEMU reports a KVM internal error (a
 * host whose KVM runs simple code but fails on a real kernel; QEMU would
 * sit paused until the watchdog).  Returns 0 when it ran (whatever the guest did), -1 after
 * a one-line error when QEMU could not be started. */
int guest_run(const struct guest_config *cfg, struct guest_outcome *out);
void guest_outcome_free(struct guest_outcome *out);

#endif
