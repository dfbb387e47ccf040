# The coefficient of variation is one figure everywhere, in percent, and
# its name says so: compare's text (CoeffVar, "CV 20%"), JSON (cv_pct,
# unstable_cv_pct) and CSV (cv_pct) give the same number.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F=$(cd "$HERE/../fixtures/runs" && pwd)
A=$F/pc3.json B=$F/pc0.json
sel=(--cases fault-zero --metrics time-pass1)

run "$VMR" compare "$A" "$B" "${sel[@]}" --all
text=$(awk '$1 == "CoeffVar" && $2 == "fault-zero" { gsub(/%/, "", $4); print $4 }' <<< "$OUT")
run "$VMR" compare "$A" "$B" "${sel[@]}" --json
expect_json "JSON names the CV in percent and has no bare cv" \
	'[.rows[0].runs[] | has("cv_pct") and (has("cv") | not)] == [true, true]'
json=$(jq -r '.rows[0].runs[0].cv_pct' <<< "$OUT" 2>/dev/null)
limit=$(jq -r '.verdict.unstable_cv_pct' <<< "$OUT" 2>/dev/null)
run "$VMR" compare "$A" "$B" "${sel[@]}" --format csv
csv=$(python3 -c 'import csv, sys; print(next(csv.DictReader(sys.stdin))["cv_pct"])' <<< "$OUT" 2>/dev/null)
if [ -n "$text" ] && [ -n "$json" ] && [ -n "$csv" ] &&
   python3 -c 'import sys; t, j, c = map(float, sys.argv[1:]); sys.exit(not (abs(t - j) < 5e-4 and abs(j - c) < 1e-9 and j > 0.1))' \
	"$text" "$json" "$csv"; then
	ok "text, JSON and CSV give one CV in percent ($text%, $json, $csv)"
else
	not_ok "text, JSON and CSV give one CV in percent (text '$text', JSON '$json', CSV '$csv')"
fi
[ "$limit" = 20 ] || [ "$limit" = 20.0 ] && ok "the noisy limit is in percent too ($limit)" \
	|| not_ok "the noisy limit is in percent too (${limit:-none})"
run "$VMR" compare "$A" "$B" "${sel[@]}" --headline time-pass1 --unstable 0.001
expect_out "the text says the same limit" 'noisy: CV [0-9.]+% and [0-9.]+% \(above 0\.1%\)'
done_testing
