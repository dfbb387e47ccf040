# vmregress plan: per headline metric the iterations a variant needs to
# see a change, from a stored group's spread; bad input is one line and
# exit 2.  (The arithmetic is the unit test test_plan.c's.)
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/p.db
printf '[global]\nswap = none\nmem = 32M\n[null]\nworkload = null\nspin = 5ms\n' > "$T_TMP/n.ini"
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name aa --variant a: --variant b: -n 4 --quiet
expect_rc "an A/A group to plan from" 0
run "$VMR" plan "$T_TMP/n.ini" --from aa --db "$DB" --effect 5%
expect_rc "plan exits 0" 0
expect_out "it says what it plans for" '^To see a 5% change in .* at FDR 5% with 80% power \(1 headline tests?\), from aa:$'
expect_out "a row per headline metric: test, spread, blocks had, iterations and time" \
	'^  null +time +paired t +[0-9.]+% +4  ([0-9]+ \([0-9.]+ (s|min|h)\)|more than 100000)'
expect_out "and the whole" '^In all about [0-9.]+ (s|min|h) for 2 variants'
run "$VMR" plan "$T_TMP/n.ini" --db "$DB"
expect_rc "without --from: exit 2" 2
expect_err "saying how to make a group" 'plan: --from GROUP .* --variant a: --variant b:'
run "$VMR" plan "$T_TMP/n.ini" --from aa --db "$DB" --effect lots
expect_rc "a bad --effect: exit 2" 2
expect_err "naming it" "plan: --effect 'lots': not a change in percent"
run "$VMR" plan "$T_TMP/n.ini" --from aa-a --db "$DB"
expect_rc "one run is no group: exit 2" 2
run "$VMR" help plan
expect_out "help comes from the command table" 'plan SUITE --from GROUP'
done_testing
