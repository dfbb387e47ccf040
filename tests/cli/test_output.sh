# What run and show print for people: a one-screen summary in human units
# ending with a totals line, the raw numbers with their units kept for
# JSON and CSV, and a time left that comes from the suite's last run.
# No root needed: the cases run without a sandbox.
. "$(dirname "$0")/lib.sh"

DB=$T_TMP/results.db
# 3 cases, 7 iterations: one of them fails (null's fail = yes)
cat > "$T_TMP/three.ini" <<'EOF2'
[global]
no-sandbox = yes
probe-period = 5ms
monitor-interval = 50ms

[spin]
workload = null
spin = 20ms
iterations = 3

[short]
workload = null
iterations = 2

[slow]
; the last case is the slow one: an estimate from the cases done so far says 0s left
workload = null
spin = 1500ms
iterations = 1
EOF2
printf '[ok]\nworkload = null\nno-sandbox = yes\n\n[bad]\nworkload = null\nno-sandbox = yes\nfail = yes\n' > "$T_TMP/fail.ini"

run "$VMR" run "$T_TMP/three.ini" --db "$DB" --name three-1
expect_rc "a passing run exits 0" 0
[ -n "$OUT" ] && ok "run prints a summary" || not_ok "run prints no summary"
lines=$(printf '%s\n%s\n' "$OUT" "$ERR" | grep -c '')
# 6 progress lines, run line, column heads, 3 cases, the ± legend, totals,
# stored: 14, and room for a warning of the shared machine's (the old
# summary was 168 lines)
[ "$lines" -le 18 ] && ok "progress and summary of 3 cases fit in 18 lines ($lines)" \
	|| not_ok "progress and summary of 3 cases fit in 18 lines ($lines: ${OUT:0:300} ${ERR:0:300})"
expect_out "the totals line counts cases and iterations" '^3 passed, 0 failed, 0 skipped \(cases; 6 iterations\)$'
[ "$(tail -n 1 <<< "$OUT")" = "Stored as run 1 in $DB" ] && ok "the last line says where it is stored" \
	|| not_ok "the last line says where it is stored: $(tail -n 1 <<< "$OUT")"
RUN_OUT=$OUT
expect_out "a headline metric as mean ± CI in human units" '^  spin +3 +pass +time [0-9.]+ ms ± [0-9.]+ [mun]?s( |$)'
expect_out "two iterations show ± stddev, and the legend says so" '^  ±: .*stddev from 2$'
expect_out "one iteration shows the mean alone" '^  slow +1 +pass +time [0-9.]+ s( |$)'
if grep -qE '[0-9]e[+-][0-9]' <<< "$OUT"; then not_ok "no figure in e-notation: $OUT"; else ok "no figure in e-notation"; fi

run "$VMR" show three-1 --db "$DB"
expect_rc "show RUN" 0
[ "$OUT" = "$(grep -v '^Stored as' <<< "$RUN_OUT")" ] && ok "show prints the summary run printed" \
	|| not_ok "show prints the summary run printed: $OUT"
expect_out "show has the totals line" '^3 passed, 0 failed, 0 skipped \(cases; 6 iterations\)$'
# --all: every metric, but the all-zero ones only counted
run "$VMR" show three-1 --db "$DB" --all
expect_rc "show --all" 0
ALL=$OUT
expect_out "show --all has the environment" '^Environment:'
expect_out "show --all prints times in human units" '^  time +[0-9.]+ ms +[0-9.]+ [mun]?s +[0-9.]+ ms +[0-9.]+ ms$'
run "$VMR" show three-1 --db "$DB" --json
zeros=$(jq -r '.cases[0].metrics[] | select(.min == 0 and .max == 0) | .name' <<< "$OUT")
[ "$RC" = 0 ] && [ -n "$zeros" ] || not_ok "the spin case has metrics that are zero in every iteration (rc $RC)"
listed=0
for m in $zeros; do
	sed -n '/^Case spin/,/^Case short/p' <<< "$ALL" | grep -qE "^  $m " && listed=$((listed + 1))
done
n=$(wc -w <<< "$zeros")
[ "$listed" = 0 ] && grep -qE "^  \($n more metrics are zero in every iteration" <<< "$ALL" \
	&& ok "all-zero metrics are counted, not listed ($n of them)" \
	|| not_ok "all-zero metrics are counted, not listed ($listed of $n listed)"
run "$VMR" show three-1 --db "$DB" -v
[ "$RC" = 0 ] && [ "$OUT" = "$ALL" ] && ok "-v is --all" || not_ok "-v is --all (rc $RC)"

# raw numbers, with their unit, in JSON and CSV
run "$VMR" show three-1 --db "$DB" --json
t=$(jq -r '.cases[0].metrics[] | select(.name == "time") | "\(.unit) \(.mean)"' <<< "$OUT")
[[ "$t" =~ ^ns\ [0-9]{8}(\.[0-9]+)?$ ]] && ok "show --json keeps ns raw ($t)" || not_ok "show --json keeps ns raw ($t)"
run "$VMR" export three-1 --db "$DB"
[ "$RC" = 0 ] && head -n 1 <<< "$OUT" | grep -q 'metric,unit,value' && grep -qE '^three-1,.*,spin,.*,time,ns,[0-9]{8}(\.[0-9]+)?$' <<< "$OUT" \
	&& ok "export CSV keeps ns raw with the unit named" || not_ok "export CSV keeps ns raw (rc $RC: ${OUT:0:200})"
run "$VMR" run "$T_TMP/fail.ini" --db "$DB" --json -q
v=$(jq -r '.cases[0].results[0].metrics[] | select(.name == "time") | "\(.unit) \(.value)"' <<< "$OUT" 2>/dev/null)
[ -n "$OUT" ] && [[ "$v" =~ ^ns\ [0-9]+(\.[0-9]+)?$ ]] && ok "run --json keeps ns raw ($v)" || not_ok "run --json keeps ns raw ($v)"

# a failing case: counted, its reason shown, exit 1
run "$VMR" run "$T_TMP/fail.ini" --db "$DB"
expect_rc "a run with a failed case exits 1" 1
expect_out "the failed case is counted" '^1 passed, 1 failed, 0 skipped \(cases; 2 iterations\)$'
expect_out "the failed case shows its outcome" '^  bad +1 +fail '
expect_out "and its reason" '^  bad iteration 1: fail: '

# the time left: after the fast cases, the slow one is still to come
run "$VMR" run "$T_TMP/three.ini" --db "$DB" --name three-2
first=$(grep -m1 '^\[5/6\]' <<< "$ERR")
left=$(sed -nE 's/.*left ([0-9]+)s$/\1/p' <<< "$first")
[ "$RC" = 0 ] && [ "${left:-0}" -ge 1 ] && ok "the time left counts the slow case still to come ($first)" \
	|| not_ok "the time left counts the slow case still to come (rc $RC: $first)"
last=$(grep '^\[6/6\]' <<< "$ERR")
[[ "$last" =~ left\ 0s$ ]] && ok "nothing is left at the end" || not_ok "nothing is left at the end: $last"
done_testing
