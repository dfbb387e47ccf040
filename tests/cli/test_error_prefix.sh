#!/usr/bin/env bash
# A workload's complaint about its options begins with the command the
# user ran: "test fault: ..." under test, "run fault: ..." under run, where
# it once said "test fault:" whatever the command.  Nothing runs: the
# options are refused before any sandbox is made.
. "$(dirname "$0")/lib.sh"

run "$VMR" test fault --file "$T_TMP/x" --shmem
expect_rc "test refuses --file with --shmem" 2
expect_err "and names test" "^vmregress: test fault: --file and --shmem: choose one kind of memory$"

printf '[global]\niterations = 1\n\n[f]\nworkload = fault\nfile = %s/x\nshmem = 1\n' "$T_TMP" > "$T_TMP/both.suite"
run "$VMR" run "$T_TMP/both.suite" --db "$T_TMP/results.db"
expect_rc "run refuses the same case" 2
expect_err "and names run" "^vmregress: run fault: --file and --shmem: choose one kind of memory$"
if [ -e "$T_TMP/results.db" ]; then not_ok "nothing is stored for a refused suite"
else ok "nothing is stored for a refused suite"; fi
done_testing
