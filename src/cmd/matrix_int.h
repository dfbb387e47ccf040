/* The matrix's guest options, shared by the commands that boot guests as
 * the matrix does (matrix, bisect): one table entry each, expanded with
 * the command's own offsetof macro O(field of struct matrix_opts). */
#ifndef VMR_CMD_MATRIX_INT_H
#define VMR_CMD_MATRIX_INT_H

#define MATRIX_GUEST_OPTS(O) \
	{ "mem", OPT_SIZE, O(mem), "512M", 64 << 20, 1ull << 40, NULL, "SIZE", "guest memory", 0, 0 }, \
	{ "cpus", OPT_INT, O(cpus), "1", 1, 64, NULL, "N", "guest CPUs", 0, 0 }, \
	{ "swap", OPT_ENUM, O(swap), "none", 0, 0, "virtio|zram|none", NULL, \
	  "the guest's own swap besides the sandbox's: a file on the virtio disk, zram, or none", 0, 0 }, \
	{ "swap-size", OPT_SIZE, O(swap_size), "256M", 1 << 20, 1ull << 40, NULL, "SIZE", "guest swap size", 0, 0 }, \
	{ "disk", OPT_SIZE, O(disk_size), "2G", 64 << 20, 1ull << 42, NULL, "SIZE", \
	  "the guest's virtio disk (sparse): the sandbox's swap files and the guest's swap", 0, 0 }, \
	{ "disk-write-rate", OPT_SIZE, O(disk_write_rate), "0", 0, 1ull << 40, NULL, "SIZE", \
	  "bytes per second the guest's disk takes (0: as fast as the host's cache), so that writeback " \
	  "lags as on a real disk", 0, 0 }, \
	{ "numa-tiered", OPT_FLAG, O(numa_tiered), NULL, 0, 0, NULL, NULL, \
	  "two NUMA nodes of half the memory, the second CPU-less and slower by the ACPI HMAT: a lower " \
	  "memory tier for demotion", 0, 0 }, \
	{ "accel", OPT_ENUM, O(accel), "auto", 0, 0, "auto|kvm|tcg", NULL, \
	  "KVM, TCG (emulation), or KVM when it works", 0, 0 },

#define MATRIX_WATCH_OPTS(O) \
	{ "timeout", OPT_TIME, O(timeout), "30m", 1e9, 86400e9, NULL, "TIME", "watchdog per guest", 0, 0 }, \
	{ "cache", OPT_STR, O(cache), NULL, 0, 0, NULL, "DIR", \
	  "kernel package cache (default $XDG_CACHE_HOME/vmregress/kernels)", 0, 0 },

#define MATRIX_HOST_OPTS(O) \
	{ "db", OPT_STR, O(db), NULL, 0, 0, NULL, "PATH", "results store", 0, 0 }, \
	{ "static-binary", OPT_STR, O(static_bin), NULL, 0, 0, NULL, "PATH", \
	  "statically linked vmregress for the guests (default: found next to this one)", 0, 0 }, \
	{ "keep", OPT_FLAG, O(keep), NULL, 0, 0, NULL, NULL, "keep the work directory (initramfs, swap disk)", 0, 0 },

#endif
