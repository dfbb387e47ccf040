# vmregress matrix --numa-tiered: the guest has two NUMA nodes, the second
# without CPUs and slower by the ACPI HMAT, which Debian's 6.12 kernel puts
# in a memory tier below the first (without the HMAT both nodes share one
# tier and nothing can be demoted); numa.demotion_enabled can be set and is
# put back.  Then the tiering workload in two such guests, demotion on and
# off: with it on, the pages of the working set that reached node 1 are the
# pages the sandbox's memory.stat says were demoted, and with it off they
# are swapped instead; a page damaged while away fails its case; the two
# runs are stored and compared.  Three guests,
# about 65 s under TCG; skipped under ASan and with VMR_NO_GUEST=1, as the
# other guest tests.
. "$(dirname "$0")/lib.sh"
K=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
run "$VMR" matrix --help
expect_out "help lists --numa-tiered" "--numa-tiered"
run "$VMR" test tiering --size 0.9x
expect_rc "a working set within node 0 is refused (exit 2)" 2
expect_err "saying nothing would be demoted" "^vmregress: --size: 0.9x is not more than the fast node has free"
if [ "$(cat /sys/devices/system/node/has_memory 2>/dev/null)" = 0 ] && is_root; then
	run "$VMR" test tiering --mem 64M --swap none
	expect_rc "on this one-node machine tiering cannot run (exit 3)" 3
	expect_err "and says why" "needs two memory tiers; this machine has 1 NUMA node"
fi
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "a tiered guest" "guests are off"; done_testing; exit 0; fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "a tiered guest" "needs build/vmregress-static, jq and qemu-system-x86_64"; done_testing; exit 0
fi
cat > "$T_TMP/tiers.sh" <<'SH'
T=/sys/devices/virtual/memory_tiering
echo "nodes=$(cat /sys/devices/system/node/online)"
echo "cpu_nodes=$(cat /sys/devices/system/node/has_cpu)"
for t in $T/memory_tier*; do echo "tier_${t##*memory_tier}=$(cat $t/nodelist)"; done
echo "demotion_before=$(cat /sys/kernel/mm/numa/demotion_enabled)"
/vmregress sandbox exec --no-sandbox --set numa.demotion_enabled=true -- cat /sys/kernel/mm/numa/demotion_enabled |
	sed 's/^/demotion_during=/'
echo "demotion_after=$(cat /sys/kernel/mm/numa/demotion_enabled)"
SH
run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --numa-tiered --guest-script "$T_TMP/tiers.sh" \
	--timeout 300s --name tiers --log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && registry_unreachable "$K"; then
	skip "a tiered guest" "Debian's package registry cannot be reached: ${ERR:0:200}"; done_testing; exit 0
fi
expect_rc "the tiered guest ran (exit 0)" 0
label=$(jq -r '.guests[0].label' <<< "$OUT")
F=$T_TMP/logs/$label.stdout
fact() { sed -n "s/^$1=//p" "$F" | head -1; }
sed 's/^/# /' "$F"
check "it has nodes 0-1" [ "$(fact nodes)" = 0-1 ]
check "only node 0 has CPUs" [ "$(fact cpu_nodes)" = 0 ]
check "two memory tiers" [ "$(grep -c '^tier_' "$F")" = 2 ]
lower=$(grep '^tier_' "$F" | sed 's/^tier_//' | sort -n | tail -1)
check "node 1 is the lower tier ($lower)" [ "${lower#*=}" = 1 ]
check "numa.demotion_enabled is set in the sandbox's life" [ "$(fact demotion_during)" = true ]
check "and put back" [ "$(fact demotion_before) $(fact demotion_after)" = "false false" ]

# --- the tiering workload, demotion on and off, each a guest and a stored run
# The working set a little over what node 0 has free or in page cache
# (1.1x, 1.15x without demotion), so that that case swaps but stays quick, in
# guests of 512M (a 256M node 0, and room for the sandbox's 256M limit).
for d in on off; do
	# off: no promotion to wait for, and every sampled load of a swapped page is a swap-in
	# and a little more over node 0, so that the page cache dropped does not make room for it all
	v=true re=4s samples=500 size=1.1x; [ $d = off ] && v=false re=0 samples=100 size=1.15x
	cat > "$T_TMP/tier-$d.ini" <<INI
[global]
iterations = 1
timeout = 200s
[tiering]
workload = tiering
mem = 256M
swap = file:128M
size = $size
samples = $samples
reaccess = $re
set = numa.demotion_enabled=$v
set = kernel.numa_balancing=2
INI
	# a page damaged after the fill must fail the case (a test failed: the guest exits 1)
	[ $d = on ] && cat >> "$T_TMP/tier-$d.ini" <<INI
[tiering-corrupt]
workload = tiering
mem = 256M
swap = file:128M
size = 1.1x
samples = 100
reaccess = 0
corrupt-page = 5
set = numa.demotion_enabled=true
INI
	want=0; [ $d = on ] && want=1
	run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --numa-tiered --suite "$T_TMP/tier-$d.ini" \
		--timeout 300s --name "tier$d" --db "$T_TMP/r.db" --log-dir "$T_TMP/logs-$d" --json
	expect_rc "the tiered guest runs the tiering workload, demotion $d (exit $want)" $want
	ver=$(jq -r '.guests[0].version' <<< "$OUT")
	run "$VMR" show "tier$d-$ver" --db "$T_TMP/r.db" --json
	expect_rc "demotion $d: its run is stored" 0
	echo "$OUT" > "$T_TMP/run-$d.json"
done
# m on|off METRIC: its value, "-" when the run lacks it (which no check takes)
m() { jq -r --arg n "$2" '[.cases[] | select(.name == "tiering") | .metrics[] | select(.name == $n) | .mean]
	| if length == 1 then .[0] else "-" end' "$T_TMP/run-$1.json" 2>/dev/null || echo -; }
jqq() { jq -e "$@" >/dev/null; }   # jq -e, quietly (the files are checked to be there)
# is EXPR a b: an awk condition on two numbers, false when either is missing
is() { awk -v a="$2" -v b="${3:-0}" "BEGIN { if (a !~ /^[0-9.e+-]+\$/ || b !~ /^[0-9.e+-]+\$/) exit 1; exit !($1) }"; }
for d in on off; do
	echo "# demotion $d: demoted $(m $d demoted) (cgroup $(m $d cgroup-demoted), of which promoted back by" \
		"the fill's end $(m $d cgroup-promoted-by-fill)), on node 1 after the fill" \
		"$(m $d lower-after-fill) (hot $(m $d hot-lower-after-fill)), swapped $(m $d absent-after-fill)," \
		"promoted $(m $d promoted); access p50 before/after/re-read" \
		"$(m $d access-before-p50)/$(m $d access-after-p50)/$(m $d access-reaccessed-p50) ns"
	check "demotion $d: the case passed" jqq '.cases[] | select(.name == "tiering") | .outcomes.pass == 1' \
		"$T_TMP/run-$d.json"
done
check "a page damaged while away fails the case, naming it" jqq '.cases[] | select(.name == "tiering-corrupt")
	| .outcomes.fail == 1 and (.reasons[0].reason | test("page 5 of [0-9]+ came back with the wrong data"))' \
	"$T_TMP/run-on.json"
low=$(m on lower-after-fill) cg=$(m on cgroup-demoted) all=$(m on demoted)
check "demotion on: pages of the working set moved to node 1 ($low)" is 'a > 0' "$low"
check "and the hot set, idle during the fill, among them ($(m on hot-lower-after-fill))" \
	is 'a > 0' "$(m on hot-lower-after-fill)"
# memory.stat is flushed once 64 updates per CPU are pending: that much may lag
check "the pages it found on node 1 are the sandbox's pgdemote_* delta ($low, $cg)" \
	is '(a > b ? a - b : b - a) <= 64 + b / 100 && b > 0' "$low" "$cg"
check "which the machine's pgdemote_* ($all) include" is 'a >= b && a > 0' "$all" "$cg"
sum=$(jq -r '[.cases[] | select(.name == "tiering") | .metrics[] | select(.name | startswith("pgdemote_")) | .mean]
	| add // "-"' "$T_TMP/run-on.json" 2>/dev/null)
check "the stored pgdemote_* counters are there ($sum over the run)" is 'a >= b && b > 0' "$sum" "$all"
# promotion (kernel.numa_balancing=2) waits for the balancer's scanner, so
# a 4 s re-read promotes thousands of pages in some runs and none in others
# (docs/modern.md): what every run shows is that it was measured, and that
# the sandbox's promoted pages are among the machine's (memory.stat may lag
# by its flush batch).  They are not bounded by what was on node 1 after the
# fill: a page demoted again during the re-read is promoted again, and
# counted each time (3615 promotions of 2481 pages seen)
pr=$(m on promoted) cpr=$(m on cgroup-promoted)
echo "# demotion on: promoted $pr in the re-read (the sandbox's $cpr)"
check "demotion on: promotion in the re-read is measured ($pr, the sandbox's $cpr)" \
	is 'a >= 0 && b >= 0' "$pr" "$cpr"
check "and are among the machine's ($cpr of $pr)" is 'a <= b + 64' "$cpr" "$pr"
check "demotion off: nothing demoted" [ "$(m off cgroup-demoted) $(m off lower-after-fill)" = "0 0" ]
check "so nothing of the sandbox's promoted ($(m off cgroup-promoted))" is 'a == 0' "$(m off cgroup-promoted)"
check "but swapped ($(m off absent-after-fill) pages)" is 'a > 0' "$(m off absent-after-fill)"
run "$VMR" compare "tieron-$ver" "tieroff-$ver" --db "$T_TMP/r.db" --json
expect_rc "compare takes the two guests' runs" 0
expect_json "and compares the demoted pages" '[.. | objects | select(.metric? == "demoted" or .name? == "demoted")] | length > 0'
done_testing
