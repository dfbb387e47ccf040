# compare --noise-from GROUP: a stored A/A group's spread sets each
# headline metric's noise floor (the larger of --noise-floor and the
# group's CV) and its MDE; the output names the group; a group that is not
# A/A, is no group, or shares no case is refused in one line with exit 2.
# (The arithmetic and its direction are the unit test test_compare_noise's.)
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/n.db
printf '[global]\nswap = none\nmem = 32M\n[null]\nworkload = null\nspin = 5ms\n' > "$T_TMP/n.ini"
printf '[global]\nswap = none\nmem = 32M\n[other]\nworkload = null\nspin = 5ms\n' > "$T_TMP/o.ini"
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name aa --variant a: --variant b: -n 4 --quiet
expect_rc "an A/A group" 0
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name ab --variant a:spin=5ms --variant b:spin=6ms -n 4 --quiet
expect_rc "a group to compare" 0
run "$VMR" run "$T_TMP/o.ini" --db "$DB" --name oo --variant a: --variant b: -n 4 --quiet
expect_rc "an A/A group of another case" 0

run "$VMR" compare ab --db "$DB" --noise-from aa
expect_rc "compare --noise-from exits 0" 0
expect_out "the verdict names the group that gave the floor" \
	'^Noise floor and MDE from A/A group aa: its CV and spread, for 1 of 1 headline metric$'
run "$VMR" compare ab --db "$DB" --noise-from aa --json
expect_json_is "JSON names it" '.verdict.noise_from.group' aa
expect_json "and marks the headline cell" '.verdict.headline[0].noise_from_aa == true'
# the floor is max(--noise-floor, the A/A variants' CV) of the metric
with=$OUT
run "$VMR" compare aa --db "$DB" --json
cv=$(jq -r '[.rows[] | select(.case == "null" and .metric == "time") | .runs[].cv_pct] | max / 100' <<< "$OUT")
floor=$(jq -r '.verdict.headline[0].noise_floor' <<< "$with")
if [ -n "$cv" ] && [ -n "$floor" ] && python3 -c "import sys; f, c = map(float, sys.argv[1:]); sys.exit(abs(f - max(0.01, c)) > 1e-6)" "$floor" "$cv"; then
	ok "the floor is the larger of 1% and the A/A group's CV ($floor, CV $cv)"
else not_ok "the floor is the larger of 1% and the A/A group's CV (floor '$floor', CV '$cv')"; fi
run "$VMR" compare ab --db "$DB" --json
expect_json "without it: no group, no cell from it" \
	'.verdict.noise_from == null and .verdict.headline[0].noise_from_aa == false'
run "$VMR" compare ab --db "$DB"
expect_no_out "nor a line" '^Noise floor and MDE from'

run "$VMR" compare ab --db "$DB" --noise-from ab
expect_rc "a group whose variants differ: exit 2" 2
expect_err "saying they differ" "^vmregress: compare: --noise-from 'ab': not an A/A group: its variants differ \('spin=5ms' and 'spin=6ms'\)"
one_line_err && ok "in one line" || not_ok "in one line: $ERR"
run "$VMR" compare ab --db "$DB" --noise-from aa-a
expect_rc "one run: exit 2" 2
expect_err "is no group" "^vmregress: compare: --noise-from 'aa-a': not a group of two variants or more"
run "$VMR" compare ab --db "$DB" --noise-from oo
expect_rc "an A/A group of other cases: exit 2" 2
expect_err "shares no case" "^vmregress: compare: --noise-from 'oo': shares no headline metric of a case"
run "$VMR" compare ab --db "$DB" --noise-from nosuch
expect_rc "no such group: exit 2" 2

run "$VMR" help compare
expect_out "help comes from the option table" '--noise-from GROUP'
done_testing
