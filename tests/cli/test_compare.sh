# vmregress compare: the layout against checked-in expectations, the
# formats, the filters and bad input.
. "$(dirname "$0")/lib.sh"
F=$(cd "$(dirname "$0")/../fixtures/runs" && pwd)
A=$F/pc3.json B=$F/pc0.json

run "$VMR" compare "$A" "$B" --all
expect_rc "compare two runs exits 0" 0
if diff -u "$F/pc3-pc0.txt" "$T_TMP/out" > "$T_TMP/diff"; then ok "text output matches its format snapshot"
else not_ok "text output matches its format snapshot: $(head -c 600 "$T_TMP/diff")"; fi
expect_out "significant mean is starred, mmtests style" '^Amean +fault-zero +time-pass1 +[0-9.]+ [a-z]+ \( +0\.00%\) +[0-9.]+ [a-z]+ \* *-17\.[0-9]{2}%\*$'
expect_out "too few iterations are marked" '^Amean +reread +time .*\?  -1\.00%\?$'
expect_out "environment diff shows page-cluster" 'sysctl\.vm\.page-cluster +3 +0'
expect_no_out "environment diff hides uptime" uptime
expect_out "no headline metric is said first" '^No headline metric to judge'
run "$VMR" compare "$A" "$B" --headline 'faults-per-sec' --all
expect_out "a metric made headline is judged" '^0 regressions, 1 improvement, 0 unchanged, 0 unstable \(FDR 5%'
expect_out "improvement named with ratio, CI and q" \
	'^  improved   fault-zero faults-per-sec in pc0: \+20\.4% \[95% CI \+[0-9.]+%, \+[0-9.]+%\] q=[0-9.e-]+ \(p='
expect_out "the explanation follows" '^  fault-zero faults-per-sec \+20\.4% in pc0: time-pass1 -17\.6%$'
expect_out "left-out case named" "case 'pft' is only in pc0, not in the base"
expect_out "legend printed" '^Each column is a run'

run "$VMR" compare "$A" "$B" --format csv
if diff -u "$F/pc3-pc0.csv" "$T_TMP/out" > "$T_TMP/diff"; then ok "csv output matches the expectation"
else not_ok "csv output matches the expectation: $(head -c 600 "$T_TMP/diff")"; fi
# The expected files are regenerated with the code (make-fixtures.py), so a
# match alone proves nothing about the figures.  The CSV's figures are
# checked here against a computation from the runs' iterations with
# Python's standard library (Welch's p by tests/unit/welch_ref.py); the
# text and markdown files are format snapshots of the same figures, to be
# reviewed by eye when regenerated (docs/testing.md).
py_checks "" "$(cat <<'PY'
import csv, json, math, sys
import contextlib, io
sys.path.insert(0, sys.argv[2] + "/../../unit")
with contextlib.redirect_stdout(io.StringIO()):  # (it prints its table when run)
    import welch_ref
F = sys.argv[2]
runs = {n: json.load(open(f"{F}/{n}.json")) for n in ("pc3", "pc0")}
def values(run, case, metric):
    for c in runs[run]["cases"]:
        if c["name"] == case:
            return [m["value"] for it in c["iterations"] if it["outcome"] == "pass"
                    for m in it["metrics"] if m["name"] == metric]
    return []
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
base = {}
near = lambda a, b, rel=1e-9: abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)
checked = 0
for r in rows:
    v = values(r["run"], r["case"], r["metric"])
    if not v:
        continue
    n = len(v)
    mean = n / sum(1 / x for x in v) if r["combine"] == "hmean" else sum(v) / n
    sd = math.sqrt(sum((x - sum(v) / n) ** 2 for x in v) / (n - 1)) if n > 1 else 0
    ok = int(r["n"]) == n and near(float(r["mean"]), mean) and near(float(r["min"]), min(v)) and near(float(r["max"]), max(v))
    if n > 1 and r["stddev"] != "":
        ok &= near(float(r["stddev"]), sd, 1e-5)
    key = (r["case"], r["metric"])
    if r["run"] == "pc3":
        base[key] = (v, mean)
    elif key in base:
        bv, bm = base[key]
        ch = (mean - bm) / abs(bm) * 100 if bm else 0  # run / base - 1, whatever is better
        ok &= near(float(r["change_pct"]), ch, 1e-5)
        if r["test"] == "welch" and r["p"] != "" and len(bv) > 1 and n > 1:
            # a rate (hmean) is tested on its reciprocals, the time per event
            rec = (lambda x: [1 / y for y in x]) if r["combine"] == "hmean" else (lambda x: x)
            t, df, p = welch_ref.welch(rec(bv), rec(v))
            ok &= near(float(r["p"]), p, 1e-4)
    checked += 1
    if not ok:
        bad.append(f"{r['case']} {r['metric']} {r['run']}")
print(("ok - " if checked >= 10 and not bad else "not ok - ") +
      f"the CSV's n, mean, stddev, min, max, change and Welch p agree with a computation from the runs ({checked} rows; wrong: {', '.join(bad[:5])})")
PY
)" "$F"
run "$VMR" compare "$A" "$B" --format markdown --only-significant
if diff -u "$F/pc3-pc0-significant.md" "$T_TMP/out" > "$T_TMP/diff"; then ok "markdown --only-significant matches its format snapshot"
else not_ok "markdown --only-significant matches its format snapshot: $(head -c 600 "$T_TMP/diff")"; fi

run "$VMR" compare "$A" "$B" --json
expect_rc "--json exits 0" 0
expect_json "--json is one document with verdicts" '[.rows[] | select(.case=="fault-zero" and .metric=="time-pass1") | .runs[1] |
	  .significant and .verdict=="improved" and (.p < 0.05) and (.change_pct < -17)] == [true]'
run "$VMR" compare "$A" "$B" --format=json --cases 'fault-*' --metrics 'time-*'
if [ "$(jq -r '[.rows[] | .case + ":" + .metric] | join(",")' <<< "$OUT")" = "fault-zero:time-pass1,fault-zero:time-pass2" ]
then ok "--cases and --metrics narrow"; else not_ok "--cases and --metrics narrow: $OUT"; fi
run "$VMR" compare "$A" "$B" --alpha 1e-12 --only-significant --all
expect_rc "compare --alpha 1e-12 exits 0" 0
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

# A trace a run generates (refs-generate) lies in a directory of that run's
# own: two runs of one suite must not differ by its path, and two runs of
# different traces must differ by what the traces hold.
if is_root; then
	printf '[global]\niterations = 1\nmem = 32M\nswap = none\n[replay]\nworkload = mmap\n%s\n' \
		'refs-generate = --pages 256 --references 4000 --pattern zipf --alpha 1.1 --seed 1' > "$T_TMP/tr.ini"
	sed 's/--seed 1/--seed 2/' "$T_TMP/tr.ini" > "$T_TMP/tr2.ini"
	rc=0
	for r in a:tr b:tr c:tr2; do
		TMPDIR=$T_TMP "$VMR" run "$T_TMP/${r#*:}.ini" --db "$T_TMP/tr.db" --name "tr-${r%%:*}" --quiet \
			>/dev/null 2>"$T_TMP/err" || rc=$?
	done
	if [ "$rc" = 0 ]; then
		run "$VMR" compare tr-a tr-b --db "$T_TMP/tr.db" --json
		if [ "$RC" = 0 ] && [ "$(jq -c '[.env_diff[] | select(.key | test("refs"))]' <<< "$OUT")" = "[]" ]; then
			ok "two runs of one generated trace show no trace difference"
		else not_ok "two runs of one generated trace show no trace difference: $(jq -c .env_diff <<< "$OUT" | head -c 400)"; fi
		run "$VMR" compare tr-a tr-c --db "$T_TMP/tr.db" --json
		want='^pattern=zipf alpha=1\.1, 256 pages, 4000 references, seed 1, crc32 [0-9a-f]{8}[|]'
		want+='pattern=zipf alpha=1\.1, 256 pages, 4000 references, seed 2, crc32 [0-9a-f]{8}$'
		if [[ $(jq -r '.env_diff[] | select(.key == "case.replay.options.refs") | .values | join("|")' <<< "$OUT") =~ $want ]]; then
			ok "runs of different generated traces differ by the traces' headers"
		else not_ok "runs of different generated traces differ by the traces' headers: $(jq -c .env_diff <<< "$OUT" | head -c 400)"; fi
	else
		not_ok "runs of a generated trace for compare (exit $rc: $(head -c 300 "$T_TMP/err"))"
	fi
else
	skip "generated traces in the environment diff" "needs root to build a sandbox"
fi
done_testing
