# One set of statistics: run's closing summary, show (text and JSON) and
# compare (JSON) count the same iterations of a case with a warm-up (the
# warm-up, stored as skipped, is left out) and give the same mean.  The
# harmonic mean of rates is checked by the unit test test_summary.c.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/s.db
printf '[global]\nswap = none\nmem = 32M\n[null]\nworkload = null\nspin = 5ms\n' > "$T_TMP/n.ini"
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name g --variant a: --variant b: -n 3 --warmup 1
expect_rc "a group of two variants with a warm-up runs" 0
expect_out "run's summary says the warm-up was skipped" '^  null +4  3 pass 1 skip  time [0-9.]+ ms ± '
run_line=$(grep -E '^  null +4 ' <<< "$OUT" | tail -n 1)

run "$VMR" show g-b --db "$DB" --json
expect_json "show --json counts the 3 passing iterations, not the warm-up" \
	'.cases[0].metrics[] | select(.name == "time") | .n == 3'
show_mean=$(jq -r '.cases[0].metrics[] | select(.name == "time") | .mean' <<< "$OUT" 2>/dev/null)
run "$VMR" compare g --db "$DB" --json
expect_json "compare counts the same 3" '.rows[] | select(.metric == "time") | .runs[1].n == 3'
cmp_mean=$(jq -r '.rows[] | select(.metric == "time") | .runs[1].mean' <<< "$OUT" 2>/dev/null)
if [ -n "$show_mean" ] && [ -n "$cmp_mean" ] &&
   python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 1e-6 * abs(a))' "$show_mean" "$cmp_mean"; then
	ok "show and compare give one mean ($show_mean ns)"
else not_ok "show and compare give one mean (show '$show_mean', compare '$cmp_mean')"; fi

run "$VMR" show g-b --db "$DB"
show_line=$(grep -E '^  null +4 ' <<< "$OUT")
# the mean the line prints, in ns, against show --json's
shown=$(sed -nE 's/.* time ([0-9.]+) (ns|us|ms|s) ± .*/\1 \2/p' <<< "$show_line")
if [ -n "$show_line" ] && [ "$show_line" = "$run_line" ] && [ -n "$shown" ] &&
   python3 -c 'import sys; v, u, m = sys.argv[1], sys.argv[2], float(sys.argv[3])
x = float(v) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[u]
sys.exit(abs(x - m) > 1e-3 * m)' $shown "${show_mean:-0}"; then
	ok "run's summary and show print the same line, with that mean ($shown)"
else not_ok "run's summary and show print the same line, with that mean ($shown, $show_mean ns): run '$run_line', show '$show_line'"; fi
done_testing
