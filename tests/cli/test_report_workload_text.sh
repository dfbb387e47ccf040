# The text layouts of alloc, fault, mmap and reread (report/workload_text.c)
# from fresh runs in a small sandbox: each layout's key lines, with the
# figures that follow from the options (pages, sizes, passes) checked as
# numbers.  tests/unit/test_workload_text.c holds the same layouts, byte
# for byte, to results loaded from a store.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "workload text layouts in a sandbox" "needs root"
	done_testing; exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "workload text layouts in a sandbox" "no memory cgroup controller"
	done_testing; exit 0
fi
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"
ps=$(getconf PAGESIZE)
SB=(--mem 64M --swap file:128M --timeout 60s)
T='[0-9.]+(ns|us|ms|s)'

run "$VMR" test alloc "${SB[@]}" --pages 2000 --passes 2
expect_rc "alloc runs" 0
expect_out "alloc: the seed's title" '^test_alloc_fast Test Results\.$'
expect_out "alloc: the sandbox's starting information" '^Sandbox Starting Information$'
expect_out "alloc: the sandbox's swap in pages" "^ o swap->size        = $((128 * 1024 * 1024 / ps)) pages$"
expect_out "alloc: the pages of each pass" '^ o Allocations per pass: 2000$'
expect_out "alloc: the pass table's header" '^Test Results \(Pass Alloc Free\)$'
expect_out "alloc: the last pass's times" "^1 +$T +$T$"
expect_out "alloc: no failed allocation" '^ o Failed allocations:   0$'
expect_out "alloc: the outcome" '^Test completed successfully$'

run "$VMR" test fault "${SB[@]}" --pages 2000 --passes 2 --no-map
expect_rc "fault runs" 0
expect_out "fault: the seed's title" '^test_fault_fast Test Results\.$'
expect_out "fault: the mapped area" "^ o length:  $((2000 * ps)) \\(2000 pages\\)$"
expect_out "fault: the references" '^ o References:          2000$'
expect_out "fault: pass 0 brings in every page" "^0 +2000 +2000  $T$"
expect_out "fault: the fault table's header" '^Fault Information \(Pass Swapped MajFlt MinFlt\)$'
expect_out "fault: no failed mapping" '^ o Failed mappings:      0$'
expect_out "fault: the outcome" '^Test completed successfully$'

"$VMR" refs generate --pages 4000 --references 20000 --pattern smooth_sin -o "$T_TMP/t.refs" >/dev/null ||
	not_ok "a trace for mmap"
run "$VMR" test mmap "${SB[@]}" --refs "$T_TMP/t.refs" --passes 2
expect_rc "mmap runs" 0
expect_out "mmap: the region" "^mmap benchmark: anon read, 4000 pages \\($((4000 * ps)) bytes\\)$"
expect_out "mmap: the trace" '^Trace: .*t\.refs \(pattern=smooth_sin .*\), 20000 references x 2 passes$'
expect_out "mmap: the pass table's header" '^Pass +Time +Refs/s +Minor +Major +Slow$'
expect_out "mmap: the last pass" '^ +1 +[0-9]+ms( +[0-9]+){4}$'
expect_out "mmap: the faults of the replay" '^Faults: +[0-9]+ minor, [0-9]+ major \(the replay; with set-up'
expect_out "mmap: the batches" '^Timing: +[0-9]+ batches of 32 to 1024 references'
expect_out "mmap: the outcome" '^Test completed successfully$'

run "$VMR" test reread "${SB[@]}" --sleep 0
expect_rc "reread runs" 0
expect_out "reread: sp_tester's sizes" "^Ram $((64 * 1024 * 1024))  Swap $((128 * 1024 * 1024))$"
# sp_tester's sizing: together min(limit + swap/2, 1.5 x limit), each half of it.
expect_out "reread: the first buffer" "^Starting first malloc of $((48 * 1024 * 1024)) bytes$"
expect_out "reread: both buffers" "^Total ram to be malloced: $((96 * 1024 * 1024)) bytes$"
expect_out "reread: sp_tester's timed portion" '^Timed portion [0-9]+ milliseconds$'
expect_out "reread: what the reads touch" '^Reads touch every byte; buffers filled with a per-page pattern$'
expect_out "reread: the ratio" '^Re-read / first read: +[0-9]+\.[0-9]{2}x$'
expect_out "reread: the pages swapped before" '^Swapped before the re-read:  [0-9]+ pages$'
expect_out "reread: the outcome" '^Test completed successfully$'
done_testing
