# What compare leaves out is data with a text rendering: JSON's left_out
# holds one object per entry (reason, case, and the metric, run, counts or
# metrics it is about), and the text, Markdown and the report say the same
# entries as sentences.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F=$(cd "$HERE/../fixtures/runs" && pwd)
# the fixtures have a case and a metric only the second run has, a case
# only the base has and an iteration that failed; add a metric that is
# zero in every iteration of both
for r in pc3 pc0; do
	python3 - "$F/$r.json" "$T_TMP/$r.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
for c in run["cases"]:
    if c["name"] == "fault-zero":
        for it in c["iterations"]:
            it["metrics"].append({"name": "always-zero", "unit": "pages", "better": "none", "combine": "amean", "value": 0})
json.dump(run, open(sys.argv[2], "w"))
PY
done
A=$T_TMP/pc3.json B=$T_TMP/pc0.json

run "$VMR" compare "$A" "$B" --json
expect_json "every entry is an object with a reason and a case" \
	'.left_out | length >= 5 and all(.[]; type == "object" and (.reason | type) == "string" and (.case | type) == "string")'
expect_json "a metric only in one run names the metric and the run" \
	'any(.left_out[]; . == {"reason": "only-in-run", "case": "fault-zero", "metric": "major-faults", "run": "pc0"})'
expect_json "a case only in one run has no metric" \
	'any(.left_out[]; . == {"reason": "only-in-run", "case": "pft", "run": "pc0"})'
expect_json "a case the run lacks" 'any(.left_out[]; . == {"reason": "not-in-run", "case": "latency", "run": "pc0"})'
expect_json "iterations that did not pass are counted" \
	'any(.left_out[]; . == {"reason": "did-not-pass", "case": "fault-zero", "run": "pc0", "iterations": 1, "of": 6})'
expect_json "metrics zero in every run are listed whole" \
	'any(.left_out[]; .reason == "zero-in-every-run" and .case == "fault-zero" and (.metrics | index("always-zero")) != null and (has("run") | not))'
n=$(jq '.left_out | length' <<< "$OUT" 2>/dev/null)

run "$VMR" compare "$A" "$B" --all
lines=$(sed -n '/^Left out:$/,/^$/p' <<< "$OUT" | grep -c '^  ')
[ -n "$n" ] && [ "$lines" = "$n" ] && ok "the text says each entry once ($lines)" \
	|| not_ok "the text says each entry once ($lines lines, ${n:-?} entries)"
expect_out "as a sentence" "^  1 of 6 iterations of case 'fault-zero' in pc0 did not pass and are not counted$"
expect_out "the zero metrics as a sentence" "^  [0-9]+ metrics? of case 'fault-zero' (is|are) zero in every run: .*always-zero"
run "$VMR" compare "$A" "$B" --format markdown
expect_out "Markdown says it too" "^- metric 'major-faults' of case 'fault-zero' is only in pc0, not in the base$"
run "$VMR" report "$A" "$B" -o "$T_TMP/r" --no-graphs
[ "$RC" = 0 ] && grep -q "<li>case &#39;latency&#39; is not in pc0</li>\|<li>case 'latency' is not in pc0</li>" "$T_TMP/r/index.html" \
	&& ok "the report says it as a list" || not_ok "the report says it as a list (exit $RC)"
done_testing
