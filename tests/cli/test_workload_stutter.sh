# stutter (mmtests' stutterp): the probe's fault latency and the writers'
# throughput per step, every worker's data checked (a damaged page of a hog
# is a FAIL naming it), and refused without a sandbox.
. "$(dirname "$0")/lib.sh"

metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

if ! is_root; then
	skip "stutter in a sandbox" "needs root"
	done_testing
	exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "stutter in a sandbox" "no memory cgroup controller"
	done_testing
	exit 0
fi
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"
SB=(--mem 128M --swap file:256M --timeout 60s)

run "$VMR" test stutter "${SB[@]}" --threads 4,5 --duration 500ms --warmup 100ms --json
expect_rc "stutter runs two steps" 0
for t in 4 5; do
	expect_json "step $t: the probe's p50 <= p99 <= max, all above zero" \
		"$(metric fault-latency-p50-t$t) > 0 and $(metric fault-latency-p50-t$t) <= $(metric fault-latency-p99-t$t) and $(metric fault-latency-p99-t$t) <= $(metric fault-latency-max-t$t)"
	expect_json "step $t: the writers wrote and the reader read" "$(metric write-byte-rate-t$t) > 0 and $(metric read-byte-rate-t$t) > 0"
	expect_json "step $t: every fault the probe timed is in its histogram" \
		"(.hists[] | select(.name == \"fault-latency-t$t\") | .hist.count) == $(metric probe-faults-t$t) and $(metric probe-faults-t$t) >= 256"
done
expect_json "the steps table splits 4 and 5 workers as stutterp does (1 writer, 1 and 2 hogs)" \
	'[.tables[] | select(.name == "steps") | .rows[] | .[0:3]] == [[4, 1, 1], [5, 1, 2]]'
expect_json "the hogs and writers held more than the limit: the sandbox reached it" \
	'.info.sandbox_after.peak_bytes >= .info.sandbox_after.limit_bytes * 0.95'

run "$VMR" test stutter "${SB[@]}" --threads 4 --duration 200ms --warmup 0 --corrupt-page 42
expect_rc "a damaged page of a hog is caught (exit 1)" 1
expect_err "and named" 'fail: page 42 of hog 0 read back wrong data'
run "$VMR" test stutter --no-sandbox --threads 4 --duration 200ms
expect_rc "without a sandbox it cannot run (exit 3)" 3
expect_err "and says why" "needs a sandbox"
run "$VMR" test stutter "${SB[@]}" --threads 4-x
expect_rc "a bad --threads is bad input" 2
expect_err "named" "^vmregress: --threads: '4-x'"

# The effect reports lean on: the probe's stalls grow with the writers'
# count.  Measured in interleaved rounds (1 writer, then 4, the hogs
# alike) as the share of the probe's faults of 1 ms and more
# (stalled-faults): p99 falls on the fast faults in one run and on the
# stalls in the next where about 1% of faults stall, so it is printed, not
# judged.  The direction is asserted only where it shows with margin in
# every round: on a cgroup v1 host, with no per-cgroup dirty throttling,
# the writers dirty the page cache faster than the disk takes it whatever
# their number, and on a busy machine the tail is other work's.  Otherwise
# it is a SKIP with the figures, not a pass.  (In a guest with a slow disk:
# bench/stutter-writers.sh.)
s1=() s4=() p1=() p4=()
for i in 1 2 3; do
	for w in 1 4; do
		run "$VMR" test stutter --mem 256M --swap file:512M --timeout 60s --threads 4 --writers $w --duration 2s --json
		[ "$RC" = 0 ] || { not_ok "stutter with $w writers runs (exit $RC: ${ERR:0:200})"; continue; }
		v=$(jq -r "$(metric stalled-faults-t4)" <<< "$OUT") p=$(jq -r "$(metric fault-latency-p99-t4)" <<< "$OUT")
		if [ $w = 1 ]; then s1+=("$v") p1+=("$p"); else s4+=("$v") p4+=("$p"); fi
	done
done
if [ ${#s1[@]} = 3 ] && [ ${#s4[@]} = 3 ]; then
	ok "stutter runs with 1 and 4 writers in interleaved rounds"
	grows=yes
	for i in 0 1 2; do
		awk -v a="${s1[$i]}" -v b="${s4[$i]}" 'BEGIN { exit !(b > 1.2 * a && b - a >= 0.05) }' || grows=no
	done
	figures="stalled with 1 writer ${s1[*]} %, with 4 ${s4[*]} %; p99 ${p1[*]} ns against ${p4[*]} ns"
	if [ $grows = yes ]; then
		ok "the probe's stalled share grows with the writers' count ($figures)"
	else
		skip "the probe's stalled share grows with the writers' count" "not shown reliably here: $figures"
	fi
fi
done_testing
