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
# Without --from: a pilot A/A run first, said on stderr, then the plan
# from it, saying how it was made and how long it took; into --db (kept)
# or a scratch store (removed).
run "$VMR" plan "$T_TMP/n.ini" --db "$DB" --pilot 3
expect_rc "without --from: a pilot run, then the plan" 0
expect_err "it says it runs a pilot first" \
	'^vmregress: plan: no --from: a pilot run first, 3 interleaved blocks of two alike variants of .*n\.ini \(group pilot-n-[0-9]{8}-[0-9]{6}-[0-9]+, .*p\.db\)$'
expect_out "and how long it took, and where it is" \
	'^Planned from a pilot run made first: 3 blocks of two alike variants, which took [0-9.]+ (s|min|h) \(group (pilot-n-[0-9-]+), kept in .*p\.db\)\.$'
expect_out "planned from it" '^To see a 5% change in .* from pilot-n-[0-9-]+:$'
expect_out "with the run options that stop there: --iterations auto --effect, counting as plan does" \
	'^--iterations auto --effect 5% stops each case at about these counts: it counts as this plan does'
pilot=$(grep -oE 'group pilot-n-[0-9-]+' <<< "$OUT" | head -n 1 | cut -d' ' -f2)
run "$VMR" show "${pilot}-a" --db "$DB" --json
expect_json "the pilot is kept in --db: 3 iterations a variant" '[.cases[].iterations | length] == [3]'
export XDG_DATA_HOME=$T_TMP/nodefault
unset VMREGRESS_DB
run "$VMR" plan "$T_TMP/n.ini" --pilot 3
expect_rc "without --db: the pilot goes into a scratch store" 0
expect_out "which is said, and removed" 'in a scratch store, removed\)\.$'
[ ! -e "$T_TMP/nodefault/vmregress/results.db" ] && ok "the default store is not touched" \
	|| not_ok "the default store is not touched"
run "$VMR" plan "$T_TMP/n.ini" --from aa --db "$DB" --effect lots
expect_rc "a bad --effect: exit 2" 2
expect_err "naming it" "plan: --effect 'lots': not a change in percent"
run "$VMR" plan "$T_TMP/n.ini" --from aa-a --db "$DB"
expect_rc "one run is no group: exit 2" 2
# --iterations auto --budget: a minimum that will pass the budget is said
# before the run starts, from the store's last run of the suite.
# Three cases of null, 6 iterations each at the first guess of 0.1 s: 1.8 s.
printf '[global]\nswap = none\nmem = 32M\n[s1]\nworkload = null\nspin = 50ms\n[s2]\nworkload = null\nspin = 50ms\n[s3]\nworkload = null\nspin = 50ms\n' > "$T_TMP/b.ini"
run "$VMR" run "$T_TMP/b.ini" --db "$DB" --variant a: --variant b: --iterations auto --budget 1s
expect_err "a budget under the minimum is said, with where the estimate comes from" \
	'^vmregress: warning: --budget 1\.000 s: the minimum of 3 iterations a variant of every case takes about .* \(by a rough guess per workload\), and runs whatever the budget$'
first=$(grep -n 'budget 1\.000 s' <<< "$ERR" | cut -d: -f1)
iter=$(grep -n 'iteration 1/' <<< "$ERR" | head -n 1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$iter" ] && [ "$first" -lt "$iter" ] && ok "before the first iteration" \
	|| not_ok "before the first iteration (lines ${first:-none} and ${iter:-none})"
run "$VMR" run "$T_TMP/b.ini" --db "$DB" --variant a: --variant b: --iterations auto --budget 1s
expect_err "the second time from the last run" 'takes about .* \(by the store.s last run of the suite\)'
# (a loose --precision ends it after the minimum: the budget is not waited out)
run "$VMR" run "$T_TMP/b.ini" --db "$DB" --variant a: --variant b: --iterations auto --budget 10m --precision 50%
expect_no_err_budget() { if grep -q 'warning: --budget' <<< "$ERR"; then not_ok "$1"; else ok "$1"; fi; }
expect_no_err_budget "a budget above it: nothing said"

run "$VMR" help plan
expect_out "help comes from the command table" 'plan SUITE \[--from GROUP\]'
done_testing
