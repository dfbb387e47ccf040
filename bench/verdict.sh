#!/usr/bin/env bash
# Whether compare's verdict can be believed on this machine, as it is (busy
# or not): three A/A runs of the quick suite (two identical variants, their
# iterations interleaved, 5 each) should flag no headline metric (at the
# false-discovery rate of 5%, about one A/A run in twenty may flag one: the
# floor of interleaved variants is 1%, not their CV), and an A/B
# run of sp_tester's re-read (vm.page-cluster 0 against 5, 5 each) must flag
# the re-read time with a confidence interval that excludes no change.
# Prints, per A/A round, how many headline tests were flagged and the noise
# floor found per headline metric; then the A/B's ratio and interval.
# Fails when more A/A rounds flag a headline metric than the FDR allows
# (under it each round flags any with a chance of at most 5%: more rounds
# than a binomial of that chance gives in 99 tries of 100), or when the A/B
# does not flag reread-time with an interval that excludes no change.
# Needs root (sandboxes, a knob).  VMR_BENCH_VERDICT_ROUNDS sets the A/A
# rounds (default 3), VMR_BENCH_VERDICT_N the iterations per variant.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
[ "$(id -u)" = 0 ] || { echo "$BENCH: skipped: needs root (sandboxes, vm.page-cluster)"; exit 0; }
ROUNDS=${VMR_BENCH_VERDICT_ROUNDS:-3}
N=${VMR_BENCH_VERDICT_N:-5}
make -s vmregress
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/v.db

flagged_total=0 tests_total=0 rounds_flagged=0
for r in $(seq 1 "$ROUNDS"); do
	bench_run "$VMR" run quick --db "$db" --quiet -n "$N" --name "aa$r" --variant a: --variant b:
	json=$(bench_out "$VMR" compare "aa$r" --db "$db" --json)
	read -r reg imp tests <<< "$(jq -r '.verdict | [.regressions, .improvements, (.headline | length)] | @tsv' <<< "$json")"
	bench_nums "A/A round $r counts" "$reg" "$imp" "$tests"
	[ "$tests" -gt 0 ] || bench_fail "A/A round $r: compare judged no headline metric"
	flagged_total=$((flagged_total + reg + imp)) tests_total=$((tests_total + tests))
	[ $((reg + imp)) = 0 ] || rounds_flagged=$((rounds_flagged + 1))
	echo "A/A round $r: $reg regressions, $imp improvements of $tests headline tests" \
		"($(jq -r '.verdict.unstable' <<< "$json") unstable)"
	jq -r '.verdict.headline[] | "  noise floor \(.case) \(.metric): \(.noise_floor * 1000 | round / 10)%, could have seen \(if .mde then "\(.mde * 1000 | round / 10)%" else "-" end)"' <<< "$json" > "$tmp/floor$r"
	cat "$tmp/floor$r"
done
echo "A/A: $flagged_total of $tests_total headline tests flagged over $ROUNDS rounds" \
	"(want 0; at FDR 5% about one round in twenty may flag one)"
bench_row "A/A quick, headline tests flagged (of $tests_total)" "$flagged_total" 0 - - "$ROUNDS"
# the most rounds that may flag: the smallest k whose binomial tail
# P(X >= k + 1), X ~ B(ROUNDS, 0.05), is below 1% (1 of 3 rounds, 3 of 10)
allowed=$(awk -v n="$ROUNDS" 'BEGIN { p = 0.05
	for (k = 0; k <= n; k++) { c = 1; for (i = 0; i < k; i++) c = c * (n - i) / (i + 1)
		pk[k] = c * p ^ k * (1 - p) ^ (n - k) }
	for (k = 0; k <= n; k++) { tail = 0; for (j = k + 1; j <= n; j++) tail += pk[j]
		if (tail < 0.01) { print k; exit } } }')
bench_nums "A/A rounds allowed to flag" "$allowed"
[ "$rounds_flagged" -le "$allowed" ] ||
	bench_fail "A/A: $rounds_flagged of $ROUNDS rounds flagged a headline metric; the FDR of 5% allows $allowed"

cat > "$tmp/reread.ini" <<'INI'
[global]
mem = 64M
swap = file:128M
[reread]
workload = reread
sleep = 1s
INI
bench_run "$VMR" run "$tmp/reread.ini" --db "$db" --quiet -n "$N" --name ab --variant pc0:vm.page-cluster=0 \
	--variant pc5:vm.page-cluster=5
json=$(bench_out "$VMR" compare ab --db "$db" --json)
row=$(jq -r '.verdict.headline[] | select(.case == "reread" and .metric == "reread-time") |
	[.verdict, .ratio, .ci_low, .ci_high, .q] | @tsv' <<< "$json")
[ -n "$row" ] || bench_fail "A/B: compare has no verdict on reread-time"
read -r verdict ratio lo hi q <<< "$row"
bench_nums "A/B ratio and interval" "$ratio" "$lo" "$hi"
echo "A/B reread-time pc5/pc0: $verdict, ratio $ratio [95% CI $lo, $hi], q=$q" \
	"($(awk -v h="$hi" 'BEGIN { print (h < 1) ? "the interval excludes 1" : "the interval includes 1" }'))"
bench_row "A/B reread-time, page-cluster 5 over 0 ($verdict)" "$ratio" 1 "$ratio" "$lo..$hi" "$N"
case $verdict in
improved | regressed | changed) ;;
*) bench_fail "A/B: compare did not flag reread-time (verdict $verdict, ratio $ratio [$lo, $hi], q=$q)" ;;
esac
awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(h < 1 || l > 1) }' ||
	bench_fail "A/B: reread-time's interval [$lo, $hi] includes no change (1)"
