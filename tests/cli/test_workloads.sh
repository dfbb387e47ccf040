# Every workload in a small real sandbox (root, memory cgroup, swap file):
# the seed's expectations, data checks that catch a damaged page, and OOM.
. "$(dirname "$0")/lib.sh"

metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

if ! is_root; then
	skip "workloads in a sandbox" "needs root"
	done_testing; exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "workloads in a sandbox" "no memory cgroup controller"
	done_testing; exit 0
fi
# A private TMPDIR: the runner's work directories must all be gone at the end.
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"
SB=(--mem 64M --timeout 60s)

# fault: pass 0 brings in every page; a small region then stays resident.
run "$VMR" test fault "${SB[@]}" --pages 2000 --passes 2 --json
expect_rc "fault runs in a sandbox" 0
expect_json "fault pass 0 has Refd == N" '.tables[] | select(.name == "passes") | .rows[0][1] == 2000'
expect_json "fault pass 0 leaves every page present" '.tables[] | select(.name == "passes") | .rows[0][2] == 2000'
expect_json "fault records one row per pass" '.tables[] | select(.name == "passes") | (.rows | length) == 3'
expect_json "fault keeps a map per pass" '(.maps | length) == 3 and (.maps[0].pages | length) == 2000'
expect_json "fault times first touches" '.hists[] | select(.name == "first-touch-latency") | .hist.count == 2000'
expect_json "fault result carries the sandbox's counters" '.info.sandbox_after != null and .info.sandbox != null'

# fault at level zero: 1.25x the limit must swap, every pass.
run "$VMR" test fault "${SB[@]}" --level zero --passes 3 --json
expect_rc "fault --level zero passes" 0
expect_json "level zero maps 1.25x the limit" '.info.pages == 20480'
expect_json "level zero: later passes have Refd > 0" '[.tables[] | select(.name == "passes") | .rows[1:][][1]] | all(. > 0)'
expect_json "level zero: pswpout moves" "$(metric vmstat-pswpout) > 0"
expect_json "level zero: pswpin moves" "$(metric vmstat-pswpin) > 0"
expect_json "level zero: major faults are counted" "$(metric major-faults-passes) > 0"
expect_json "level zero: refault latency histogram is filled" '.hists[] | select(.name == "fault-latency") | .hist.count > 0'

# The seed's report layout, with the map.
run "$VMR" test fault "${SB[@]}" --size 1000p --passes 1 --map
expect_rc "fault text report exits 0" 0
for section in '^test_fault_fast Test Results\.$' '^Sandbox Starting Information$' '^Mapped Area Information$' \
	'length: +4096000 \(1000 pages\)' '^Test Parameters$' '^Test Results \(Pass Refd Present Time\)$' \
	'^0 +1000 +1000 ' '^Post Test Information$' 'Schedule\(\) calls' 'Failed mappings: +0' \
	'^Test completed successfully$' '^Map pass1 ' "^Map pass1 in the seed's encoding" '^       0 o{64}$'; do
	expect_out "fault report has $section" "$section"
done

# Data checks: a page damaged behind the workload's back is a FAIL naming it.
for kind in "" "--shmem" "--file $TMPDIR/vmr-fault-test.$$"; do
	run "$VMR" test fault "${SB[@]}" --pages 500 --passes 1 --corrupt-page 17 $kind
	expect_rc "fault ${kind%% *} catches a damaged page (exit 1)" 1
	expect_err "fault ${kind%% *} names the damaged page" 'fail: page 17 of 500 read back wrong data'
	check "fault ${kind%% *} failure is one line" one_line_err
	expect_out "fault ${kind%% *} report says why" '^Test failed: page 17'
done
[ ! -e "$TMPDIR/vmr-fault-test.$$" ] && ok "fault --file removes its file" || not_ok "fault --file removes its file"

# alloc: allocation and free timed per pass; mlock beyond the limit is an OOM.
run "$VMR" test alloc "${SB[@]}" --level low --passes 2 --json
expect_rc "alloc runs" 0
expect_json "alloc times every pass" '.tables[] | select(.name == "passes") | (.rows | length) == 2'
expect_json "alloc reports its rate" "$(metric alloc-rate) > 0"
run "$VMR" test alloc "${SB[@]}" --pages 300 --passes 1 --populate --corrupt-page 5
expect_rc "alloc catches a damaged page" 1; expect_err "alloc names the page" 'page 5 of 300'
run "$VMR" test alloc "${SB[@]}" --level zero --lock --passes 1 --json
expect_rc "locking 1.25x the limit fails the test" 1
expect_json "and the outcome is oom" '.outcome == "oom"'
expect_json "the OOM result has the memcg's counters" '.info.sandbox_after | length > 0'
expect_json "and says the workload sent no result" '.info.workload_result == false'
run "$VMR" test alloc "${SB[@]}" --level zero --lock --passes 1
expect_rc "an OOM-killed workload's text report exits 1" 1
expect_out "an OOM-killed workload's report gives what was measured, not its own empty layout" \
	'^alloc: oom: killed by the OOM killer'

# reread: the re-read of memory pushed out to swap takes major faults.
run "$VMR" test reread "${SB[@]}" --sleep 0 --json
expect_rc "reread runs" 0
expect_json "reread: pages were in swap before the re-read" "$(metric swapped-before-reread) > 0"
expect_json "reread: the re-read takes major faults" "$(metric major-faults-reread) > 0"
expect_json "reread: pswpin moves during the re-read" "$(metric pswpin) > 0"
expect_json "reread: the re-read is slower than the first read" "$(metric reread-ratio) > 1"
run "$VMR" test reread "${SB[@]}" --sleep 0 --corrupt-page 100
expect_rc "reread catches a damaged page" 1; expect_err "reread names the page" 'page 100 of [0-9]+ read back wrong data on the re-read'

# mmap001: write, msync, drop the cache, check from the disk.
run "$VMR" test mmap001 "${SB[@]}" --pages 3000 --json
expect_rc "mmap001 runs" 0
expect_json "mmap001 reads the file back from the disk" "$(metric vmstat-pgpgin) > 0"
run "$VMR" test mmap001 "${SB[@]}" --pages 300 --corrupt-page 42
expect_rc "mmap001 catches a damaged page" 1; expect_err "mmap001 names the page" 'page 42 of 300'

# mtest01: children write 60% of memory plus swap (115M in 64M), so they
# swap.  (At 80%, swap-cache pages counted twice under cgroup v1's
# memory+swap limit can end in an OOM kill when the disk is slow.)
run "$VMR" test mtest01 "${SB[@]}" --write --percent 60 --json
expect_rc "mtest01 --write runs" 0
expect_json "mtest01 allocates 60% of memory plus swap" "$(metric bytes-allocated) >= 110000000"
expect_json "mtest01 pushes pages to swap" "$(metric vmstat-pswpout) > 0"
run "$VMR" test mtest01 "${SB[@]}" --swap none --write --percent 150 --json
expect_rc "mtest01 writing 1.5x the limit without swap fails the test" 1
expect_json "and a child's death is the oom outcome" '.outcome == "oom"'
run "$VMR" test mtest01 "${SB[@]}" --write --bytes 16M --corrupt-page 77
expect_rc "mtest01 catches a damaged page" 1; expect_err "mtest01 names the page" 'page 77 of a child'

# pft: every kind and mode, a rate for each task count, a damaged page caught.
for kind in anon private-file shared-file; do
	for mode in threads processes; do
		run "$VMR" test pft "${SB[@]}" --size 8M --duration 100ms --tasks 1,2 --kind $kind --mode $mode --json
		expect_rc "pft $kind $mode runs" 0
		expect_json "pft $kind $mode has a rate per task count" "$(metric faults-per-sec-t1) > 0 and $(metric faults-per-sec-t2) > 0"
		expect_json "pft $kind $mode has the scaling table" '.tables[] | select(.name == "scaling") | (.rows | length) == 2'
	done
done
run "$VMR" test pft "${SB[@]}" --size 8M --duration 100ms --corrupt-page 33
expect_rc "pft catches a damaged page" 1; expect_err "pft names the page" 'page 33 of task 0'

# Without root, workloads that need a sandbox say so and exit 3.
if command -v setpriv >/dev/null; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$VMR" test fault --pages 10
	expect_rc "fault without root cannot run here (exit 3)" 3
	check "and says why in one line" one_line_err
else
	skip "fault without root cannot run here" "no setpriv to drop root"
fi

# The work directory of a vmregress killed with -9 is removed by the next run;
# one of a live vmregress, and anything not named like one, is left alone.
dead=4194303   # above any pid_max: certainly not a running process
while [ -e /proc/$dead ]; do dead=$((dead - 1)); done
mkdir "$TMPDIR/vmregress-$dead-AbC123" && touch "$TMPDIR/vmregress-$dead-AbC123/mmap001.$dead"
mkdir "$TMPDIR/not-vmregress-1-AbC123"
"$VMR" test null --spin 20s --no-sandbox >/dev/null 2>&1 & live=$!
sleep 0.3
mkdir "$TMPDIR/vmregress-$live-LiVe12"
run "$VMR" test null "${SB[@]}"
expect_rc "null runs beside stale work directories" 0
[ ! -e "$TMPDIR/vmregress-$dead-AbC123" ] && ok "a dead vmregress's work directory is removed" \
	|| not_ok "a dead vmregress's work directory is removed"
[ -d "$TMPDIR/not-vmregress-1-AbC123" ] && ok "other directories are left alone" || not_ok "other directories are left alone"
[ -d "$TMPDIR/vmregress-$live-LiVe12" ] && ok "a live vmregress's work directory is left alone" \
	|| not_ok "a live vmregress's work directory is left alone"
kill $live 2>/dev/null; wait $live 2>/dev/null
rm -rf "$TMPDIR"/vmregress-$live-* "$TMPDIR/not-vmregress-1-AbC123"

left=$(ls -A "$TMPDIR")
[ -z "$left" ] && ok "no work directories or files are left behind" \
	|| not_ok "no work directories or files are left behind ($left)"
done_testing
