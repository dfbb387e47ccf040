# vmregress compare: the layout against checked-in expectations, the
# formats, the filters and bad input.
. "$(dirname "$0")/lib.sh"
F=$(cd "$(dirname "$0")/../fixtures/runs" && pwd)
A=$F/pc3.json B=$F/pc0.json

run "$VMR" compare "$A" "$B"
expect_rc "compare two runs exits 0" 0
if diff -u "$F/pc3-pc0.txt" "$T_TMP/out" > "$T_TMP/diff"; then ok "text output matches the expectation"
else not_ok "text output matches the expectation: $(head -c 600 "$T_TMP/diff")"; fi
expect_out "significant mean is starred, mmtests style" '^Amean +fault-zero +time-pass1 +[0-9.]+ \( +0\.00%\) +[0-9.]+ \* +17\.[0-9]{2}%\*$'
expect_out "too few iterations are marked" '^Amean +reread +time .*\?   1\.00%\?$'
expect_out "environment diff shows page-cluster" 'sysctl\.vm\.page-cluster +3 +0'
grep -q uptime <<< "$OUT" && not_ok "environment diff hides uptime" || ok "environment diff hides uptime"
expect_out "improvement named" '^  improved +fault-zero faults-per-sec in pc0: \+20\.'
expect_out "left-out case named" "case 'pft' is only in pc0, not in the base"
expect_out "legend printed" '^Each column is a run'

run "$VMR" compare "$A" "$B" --format csv
if diff -u "$F/pc3-pc0.csv" "$T_TMP/out" > "$T_TMP/diff"; then ok "csv output matches the expectation"
else not_ok "csv output matches the expectation: $(head -c 600 "$T_TMP/diff")"; fi
run "$VMR" compare "$A" "$B" --format markdown --only-significant
if diff -u "$F/pc3-pc0-significant.md" "$T_TMP/out" > "$T_TMP/diff"; then ok "markdown --only-significant matches"
else not_ok "markdown --only-significant matches: $(head -c 600 "$T_TMP/diff")"; fi

run "$VMR" compare "$A" "$B" --json
expect_rc "--json exits 0" 0
if jq -e '.rows[] | select(.case=="fault-zero" and .metric=="time-pass1") | .runs[1] |
	  .significant and .verdict=="improved" and (.p < 0.05) and (.change_pct > 17)' <<< "$OUT" >/dev/null
then ok "--json is one document with verdicts"; else not_ok "--json is one document with verdicts"; fi
run "$VMR" compare "$A" "$B" --format=json --cases 'fault-*' --metrics 'time-*'
if [ "$(jq -r '[.rows[] | .case + ":" + .metric] | join(",")' <<< "$OUT")" = "fault-zero:time-pass1,fault-zero:time-pass2" ]
then ok "--cases and --metrics narrow"; else not_ok "--cases and --metrics narrow: $OUT"; fi
run "$VMR" compare "$A" "$B" --alpha 1e-12 --only-significant
expect_out "a tiny alpha leaves nothing significant" '^No metric to compare'
run "$VMR" compare "$A" "$A" "$B"
expect_rc "three runs compare" 0
expect_out "same-named runs are told apart" 'pc3#1'

run "$VMR" compare "$A"
expect_rc "one run is a usage error" 2
check "one-run error is one line" one_line_err
run "$VMR" compare "$A" "$B" --format yaml
expect_rc "unknown format exits 2" 2
run "$VMR" compare "$A" "$B" --alpha 2
expect_rc "alpha out of range exits 2" 2
echo '{"cases": [' > "$T_TMP/bad.json"
run "$VMR" compare "$A" "$T_TMP/bad.json"
expect_rc "malformed run file exits 2" 2
expect_err "malformed run file is named" "bad\.json:[0-9]+: not JSON"
check "malformed run file error is one line" one_line_err
[ -z "$OUT" ] && ok "nothing on stdout after an error" || not_ok "nothing on stdout after an error"
echo '{"name": "x"}' > "$T_TMP/notrun.json"
run "$VMR" compare "$A" "$T_TMP/notrun.json"
expect_rc "JSON that is not a run exits 2" 2
expect_err "and says why" "notrun\.json: not a run object"
run "$VMR" compare "$A" nosuchrun --db "$T_TMP/none.db"
expect_rc "missing store exits 2" 2
expect_err "missing store is named" "none\.db"
