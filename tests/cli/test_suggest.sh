#!/usr/bin/env bash
# "Did you mean" for commands, options, knobs, workloads and suites; global
# options before the command; the list of built-in suites.
. "$(dirname "$0")/lib.sh"

run "$VMR" compre
expect_rc "a mistyped command exits 2" 2
expect_err "a mistyped command suggests the right one" "unknown command 'compre'; did you mean 'compare'\?"
check "and says it on one line" one_line_err
run "$VMR" help lsit
expect_rc "help of a mistyped command exits 2" 2
expect_err "help of a mistyped command suggests it" "did you mean 'list'\?"
run "$VMR" xyzzy
expect_rc "a word like no command exits 2" 2
expect_err "and gets no suggestion" "^vmregress: unknown command 'xyzzy' \(see vmregress --help\)$"

run "$VMR" list --kernl x
expect_rc "a mistyped option exits 2" 2
expect_err "a mistyped option suggests the right one" "unknown option '--kernl'; did you mean '--kernel'\?"
run "$VMR" run quick --iteratons 2
expect_rc "a mistyped option of run exits 2" 2
expect_err "run's options and the suite's are offered" "did you mean '--iterations'\?"

run "$VMR" test null --set vm.pagecluster=0
expect_rc "a mistyped knob exits 2" 2
expect_err "a mistyped knob suggests the right one" "did you mean 'vm.page-cluster'\?"
run "$VMR" test null --set no.such.knob=1
expect_rc "an unknown knob exits 2" 2
expect_err "an unknown knob lists the allow-list" "the allow-list: vm.page-cluster .*vm.swappiness"

run "$VMR" test faul
expect_rc "a mistyped workload exits 2" 2
expect_err "a mistyped workload suggests the right one" "did you mean 'fault'\?"
cat > "$T_TMP/s.ini" <<'INI'
[c]
workload = mtest1
INI
run "$VMR" run "$T_TMP/s.ini"
expect_rc "a suite file's mistyped workload exits 2" 2
expect_err "a suite file's mistyped workload too" "s.ini:2: workload 'mtest1' is not in this build; did you mean 'mtest01'\?"

run "$VMR" run quik
expect_rc "a mistyped suite exits 2" 2
expect_err "a mistyped suite suggests the right one" "quik: no such suite; did you mean 'quick'\?"

run "$VMR" suites
expect_rc "suites exits 0" 0
expect_out "suites has a header" "^NAME +DESCRIPTION +CASES$"
expect_out "suites lists quick with its description" "^quick +every workload once at small sizes +[0-9]+$"
expect_out "and seeds" "^seeds "
run "$VMR" suites --json
expect_rc "suites --json exits 0" 0
if [ -n "$OUT" ] && jq -e 'map(select(.name == "quick"))[0].cases | length > 0' <<< "$OUT" >/dev/null; then
	ok "suites --json names quick's cases"
else
	not_ok "suites --json names quick's cases (stdout: ${OUT:0:200})"
fi

db=$T_TMP/r.db
run "$VMR" --json suites
expect_rc "an option before the command goes to the command" 0
[ -n "$OUT" ] && jq -e 'length > 0' <<< "$OUT" >/dev/null && ok "and is honoured" || not_ok "and is honoured (stdout: ${OUT:0:200})"
run "$VMR" --db "$db"
expect_rc "options with no command exit 2" 2
expect_err "and say where they go" "'--db' is an option of a command: put it after the command"
done_testing
