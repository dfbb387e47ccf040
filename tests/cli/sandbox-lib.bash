# Shared by the sandbox's command-line tests (sourced, not run): a private
# state directory, the memfill helper, host snapshots, and a teardown that
# undoes whatever a failed test left, even when the test itself fails.
. "$(dirname "$0")/lib.sh"

SB_KNOBS=(/proc/sys/vm/page-cluster /proc/sys/vm/swappiness /proc/sys/vm/watermark_scale_factor
	/proc/sys/vm/min_free_kbytes /proc/sys/vm/overcommit_memory /proc/sys/vm/overcommit_ratio
	/proc/sys/vm/vfs_cache_pressure /sys/kernel/mm/transparent_hugepage/enabled
	/sys/kernel/mm/transparent_hugepage/defrag /sys/kernel/mm/transparent_hugepage/shmem_enabled
	/sys/kernel/mm/swap/vma_ra_enabled /sys/module/zswap/parameters/enabled
	/sys/module/zswap/parameters/compressor /sys/module/zswap/parameters/max_pool_percent
	/sys/kernel/mm/ksm/run /sys/kernel/mm/transparent_hugepage/hugepages-*kB/*enabled
	/sys/kernel/mm/transparent_hugepage/shrink_underused /sys/module/zswap/parameters/shrinker_enabled
	/sys/module/zswap/parameters/accept_threshold_percent /sys/kernel/mm/lru_gen/enabled
	/sys/kernel/mm/lru_gen/min_ttl_ms /sys/kernel/mm/numa/demotion_enabled /proc/sys/kernel/numa_balancing)
SB_PIDS=()

sb_teardown() {
	local p
	for p in "${SB_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	declare -F sb_extra_teardown >/dev/null && sb_extra_teardown
	[ -d "${SB_STATE:-}" ] && VMREGRESS_STATE_DIR=$SB_STATE "$VMR" cleanup >/dev/null 2>&1
	rm -rf "$T_TMP"
}

if ! is_root; then
	skip "sandbox tests" "needs root"
	exit 0
fi
trap sb_teardown EXIT
SB_STATE=$T_TMP/state
mkdir -m 700 "$SB_STATE"
export VMREGRESS_STATE_DIR=$SB_STATE
MEMFILL=$T_TMP/memfill
cc -O2 -o "$MEMFILL" "$(dirname "$0")/../helpers/memfill.c" || { not_ok "build memfill"; exit 1; }

# Every allow-listed knob's value, one per line; with PATTERN (a glob),
# only the knobs whose path matches it.
knobs_snap() { # knobs_snap [PATTERN]
	local f
	for f in "${SB_KNOBS[@]}"; do
		[[ $f == ${1:-*} ]] && [ -r "$f" ] && echo "$f=$(cat "$f")"
	done
	return 0
}
# What of ours is on the host: swap areas and files in our state directory,
# journals, and vmregress cgroups/zram devices named in $1 (a JSON file).
ours_left() {
	grep -F "$SB_STATE" /proc/swaps
	ls "$SB_STATE"/*.journal "$SB_STATE"/swap/* 2>/dev/null
	if [ -n "${1:-}" ] && [ -s "$1" ]; then
		local cg dev
		cg=$(jq -r '.sandbox.cgroup // empty' "$1")
		dev=$(jq -r '.sandbox.swap.device // empty' "$1")
		[ -n "$cg" ] && [ -e "$cg" ] && echo "cgroup $cg"
		[ -n "$dev" ] && grep -q "^$dev " /proc/swaps && echo "swap $dev"
		case $dev in /dev/zram*) [ "$(cat /sys/block/${dev#/dev/}/disksize 2>/dev/null || echo 0)" != 0 ] &&
			echo "zram $dev";; esac
	fi
	return 0
}
# The paths a running sandbox's journal names (cgroup, swap) for later checks.
journal_paths() { sed -n 's/^\(cgroup\|swapfile\|swapon\) \(\/[^ ]*\) .*/\2/p' "$SB_STATE"/*.journal 2>/dev/null; }
# Wait until a journal with a cgroup record exists (the sandbox PID builds is up).
wait_built() { # wait_built PID: (it may wait for another run's knobs)
	local i
	for i in $(seq 1200); do
		grep -qs '^cgroup ' "$SB_STATE"/*.journal && return 0
		kill -0 "$1" 2>/dev/null || return 1  # it gave up
		sleep 0.05
	done
	return 1
}
# knobs_same SNAPSHOT [PATTERN]: every knob (matching PATTERN, as the
# snapshot was taken) still has its snapshot value; otherwise the
# differences are printed as comments for the log.
knobs_same() {
	local now; now=$(knobs_snap "${2:-*}")
	[ "$1" = "$now" ] && return 0
	diff <(echo "$1") <(echo "$now") | sed -n 's/^[<>]/#&/p'
	return 1
}
# Several copies of these tests may run at once on one host (several
# checkouts); knobs are host-wide, so a test that changes one holds an
# exclusive lock and a test comparing snapshots holds a shared one.  The
# lock is on a directory that exists anyway, so nothing is left behind.
SB_LOCK_DIR=/run/lock
[ -d "$SB_LOCK_DIR" ] || SB_LOCK_DIR=/tmp
exec {SB_LOCK_FD}<"$SB_LOCK_DIR"
if command -v flock >/dev/null; then
	knobs_watch() { flock -s "$SB_LOCK_FD"; }     # from a snapshot to its comparison
	knobs_change() { flock -x "$SB_LOCK_FD"; }    # while changing knobs
	knobs_release() { flock -u "$SB_LOCK_FD"; }
else  # a minimal system (a test guest) runs one suite at a time
	knobs_watch() { :; }; knobs_change() { :; }; knobs_release() { :; }
fi
# expect_rc with stdout shown (as comments) when it fails: cleanup's report.
expect_rc_v() {
	expect_rc "$@"
	[ "$RC" = "$2" ] || sed 's/^/# /' <<< "$OUT"
}
