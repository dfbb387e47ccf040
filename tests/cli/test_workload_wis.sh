# will-it-scale: every test in both modes gives LKP's per-task figure per
# task count, the tests that write pages catch a damaged one, a sandbox too
# small for the tasks' regions is refused rather than measuring reclaim, and
# page_fault2 (a copy of a page-cache page per fault) is slower per
# operation than page_fault1.
. "$(dirname "$0")/lib.sh"

metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

if ! is_root; then
	skip "will-it-scale in a sandbox" "needs root"
	done_testing
	exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "will-it-scale in a sandbox" "no memory cgroup controller"
	done_testing
	exit 0
fi
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"
SB=(--mem 128M --swap none --timeout 60s)

for t in page_fault1 page_fault2 page_fault3 mmap1 mmap2 brk1 malloc1 tlb_flush1; do
	for mode in processes threads; do
		[ $mode = processes ] && per=per-process-ops || per=per-thread-ops
		run "$VMR" test will-it-scale "${SB[@]}" --test $t --mode $mode --size 8M --duration 100ms --tasks 1,2 --json
		expect_rc "$t $mode runs" 0
		expect_json "$t $mode has $per per task count" "$(metric $per-t1) > 0 and $(metric $per-t2) > 0"
		expect_json "$t $mode: the total is the per-task figure times the tasks" \
			"($(metric ops-per-sec-t2) - 2 * $(metric $per-t2) | fabs) < 0.001 * $(metric ops-per-sec-t2)"
		expect_json "$t $mode has the scaling table" '.tables[] | select(.name == "scaling") | (.rows | length) == 2'
	done
done

# The tests that write pages check them: a page damaged behind the test's
# back is a FAIL naming it, in either mode.
for t in page_fault1 page_fault2 page_fault3 tlb_flush1; do
	for mode in processes threads; do
		run "$VMR" test will-it-scale "${SB[@]}" --test $t --mode $mode --size 8M --duration 100ms --corrupt-page 33
		expect_rc "$t $mode catches a damaged page (exit 1)" 1
		expect_err "$t $mode names the page" 'fail: page 33 of task 0 read back wrong data'
	done
done
run "$VMR" test will-it-scale "${SB[@]}" --test mmap1 --corrupt-page 3
expect_rc "--corrupt-page with a test that touches no data is bad input" 2
expect_err "and says why" "mmap1 touches no data"
run "$VMR" test will-it-scale "${SB[@]}" --tasks 1,x
expect_rc "a bad task list is bad input" 2
expect_err "and is named" "^vmregress: --tasks: '1,x'"

# page_fault2 holds its file's page cache and the copies: 2 x 2 x 64M is
# more than 7/8 of a 256M sandbox.
run "$VMR" test will-it-scale --mem 256M --swap none --test page_fault2 --size 64M --tasks 2
expect_rc "tasks that would not fit in the sandbox cannot run here (exit 3)" 3
expect_err "and it says what they would hold" "2 tasks of page_fault2 hold 256M"
check "in one line" one_line_err

# The effect LKP reports lean on: a private file fault copies a page-cache
# page, an anonymous one only zeroes a page.  Interleaved rounds, compared
# by the medians of an operation's cost in the tasks' own CPU time, so that
# time spent waiting for a CPU on a busy machine does not decide (the
# wall-time rate, per-process-ops, moves with whatever else runs).
pf1=() pf2=()
for i in 1 2 3 4 5; do
	for t in page_fault1 page_fault2; do
		run "$VMR" test will-it-scale "${SB[@]}" --test $t --size 32M --duration 300ms --json
		[ "$RC" = 0 ] || { not_ok "$t round $i runs (exit $RC: ${ERR:0:200})"; continue; }
		v=$(jq -r "$(metric ops-per-cpu-sec-t1)" <<< "$OUT")
		[ "$t" = page_fault1 ] && pf1+=("$v") || pf2+=("$v")
	done
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
m1=$(median "${pf1[@]}") m2=$(median "${pf2[@]}")
if [ ${#pf1[@]} = 5 ] && [ ${#pf2[@]} = 5 ] && awk -v a="$m1" -v b="$m2" 'BEGIN { exit !(b < a) }'; then
	ok "page_fault2 is slower per operation than page_fault1 (medians $m2 < $m1 ops per CPU second)"
else
	not_ok "page_fault2 is slower per operation than page_fault1 (medians ${m2:-none} and ${m1:-none} ops per CPU second)"
fi
done_testing
