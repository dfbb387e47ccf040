# The monitor's series of today's counters: per mTHP size, the changes of
# its stats/ add up to the workload's own figure for the case, and the
# zero-page and zswap counters are recorded where the kernel has them.  The
# built-in modern suite runs.
. "$(dirname "$0")/sandbox-lib.bash"
T=/sys/kernel/mm/transparent_hugepage
if ! command -v jq >/dev/null; then skip "monitor series" "jq is not installed"; done_testing; exit 0; fi
if [ ! -d $T/hugepages-64kB/stats ]; then skip "mTHP series" "no hugepages-64kB/stats here"; done_testing; exit 0; fi
knobs_change
before=$(knobs_snap)
cat > "$T_TMP/m.ini" <<'INI'
[global]
iterations = 1
mem = 64M
swap = zram:128M
set = thp.64K.enabled=madvise
[m]
workload = mthp
sizes = 64K
size = 16M
INI
run "$VMR" run "$T_TMP/m.ini" --db "$T_TMP/r.db" --monitor-interval 50ms --json
expect_rc "a run of mthp with the monitor exits 0" 0
res=$(jq -c '.cases[0].results[0]' <<< "$OUT" 2>/dev/null)
[ -n "$res" ] && [ "$res" != null ] && ok "the run has its iteration's result" || not_ok "the run has a result"
# sum_is NAME SERIES METRIC: the series adds up to the metric
sum_is() {
	local s m
	s=$(jq --arg n "$2" '[.series[] | select(.name == $n) | .v[]] | add' <<< "$res")
	m=$(jq --arg n "$3" '.metrics[] | select(.name == $n) | .value' <<< "$res")
	if [ -n "$m" ] && [ "$s" = "$m" ]; then ok "$1 ($2 sums to $s, $3 is $m)"
	else not_ok "$1 ($2 sums to $s, $3 is $m)"; fi
}
sum_is "the series of 64K swap-outs adds up to the case's" mthp.64K.swpout swpout-64K
sum_is "the series of 64K swap-ins adds up to the case's" mthp.64K.swpin swpin-64K
sum_is "the series of 64K fault allocations adds up to the case's" mthp.64K.anon_fault_alloc fault-alloc-64K
resq() { jq -e "$@" <<< "$res" > /dev/null; }
check "a size at never has no series (32K)" resq '[.series[] | select(.name | startswith("mthp.32K."))] | length == 0'
grep -q '^swpout_zero ' /proc/vmstat && check "swpout_zero is a series" \
	resq '[.series[] | select(.name == "vmstat.swpout_zero")] | length == 1'
grep -q '^zswpwb ' /proc/vmstat && check "zswpwb is a series" \
	resq '[.series[] | select(.name == "vmstat.zswpwb")] | length == 1'
grep -q '^Zswapped:' /proc/meminfo && check "Zswapped is a series" \
	resq '[.series[] | select(.name == "meminfo.Zswapped")] | length == 1'

zswap_was=on
[ -e /sys/module/zswap/parameters/enabled ] && [ "$(cat /sys/module/zswap/parameters/enabled)" = N ] &&
	! awk '$1 == "zswpout" && $2 > 0 { f = 1 } END { exit !f }' /proc/vmstat && zswap_was=fresh
run "$VMR" run modern --db "$T_TMP/r.db" --iterations 1 --json
expect_rc "the built-in modern suite runs (exit 0)" 0
expect_json "modern ran mthp on a swap file and on zram, each passing" '[.cases[] | select(.name == "mthp-file" or
	.name == "mthp-zram") | select(.results[0].outcome == "pass")] | length == 2'
expect_json "modern measured 16K, 64K and 2M" '[.cases[0].results[0].metrics[] | select(.name |
	test("^swpout-(16K|64K|2M)$"))] | length == 3'
# On a boot where zswap was never on, the zswap cases that turn it on are
# skips naming --force (the first enable lasts until the next boot), and
# the other cases run; where it was on, they run.
Z=/sys/module/zswap/parameters
if [ ! -e $Z/enabled ]; then
	expect_json "no zswap here: its cases are skips naming the missing knob" '[.cases[] | select(.name |
		startswith("zswap-")) | select(.results[0].outcome == "skip" and (.results[0].reason |
		test("this kernel has no")))] | length == 5'
elif [ "$zswap_was" = fresh ]; then
	expect_json "zswap never on this boot: the cases turning it on are skips naming --force" '[.cases[] |
		select(.name | startswith("zswap-")) | select(.results[0].outcome == "skip" and (.results[0].reason |
		test("first time this boot.*--force")))] | length == 4'
	expect_json "... and zswap-off, which turns nothing on, passes" \
		'[.cases[] | select(.name == "zswap-off" and .results[0].outcome == "pass")] | length == 1'
	check "... and zswap is still off" grep -qx N $Z/enabled
else
	expect_json "zswap was on this boot: its cases ran" '[.cases[] | select(.name | startswith("zswap-")) |
		select(.results[0].outcome == "pass")] | length == 5'
fi
check "every knob is as it was" knobs_same "$before"
done_testing
