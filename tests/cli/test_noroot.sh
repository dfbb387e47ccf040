# Without root: one rule (sandbox_plan) for test, run and sandbox exec.
# Anything that needs a sandbox, or asks to --set a knob, exits 3 with a
# one-line reason before doing any work; --no-sandbox runs on the host,
# within free memory unless --force.  The checks run as nobody.
. "$(dirname "$0")/lib.sh"

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if ! is_root || ! command -v setpriv >/dev/null || ! "${NOBODY[@]}" test -x "$VMR"; then
	skip "unprivileged runs" "not root, no setpriv, or nobody cannot run $VMR"
	done_testing; exit 0
fi

# A directory nobody may write: the store and every temporary file go there,
# so "nothing changed" is "it is still empty".
D=$T_TMP/nobody
mkdir -m 0777 "$D"
chmod 0755 "$T_TMP"
as_nobody() { TMPDIR=$D "${NOBODY[@]}" "$@"; }
empty_dir() { [ -z "$(ls -A "$D")" ]; }
json_holds() { # json_holds FILTER: the last run printed JSON for which FILTER holds
	[ -n "$OUT" ] && jq -e "$1" <<< "$OUT" >/dev/null 2>&1
}

# run quick: refused up front, at once, with nothing stored or made.
t0=$EPOCHREALTIME
run as_nobody "$VMR" run quick --db "$D/results.db"
t1=$EPOCHREALTIME
ms=$(( (${t1/[.,]/} - ${t0/[.,]/}) / 1000 ))
expect_rc "run quick without root exits 3" 3
expect_err "and says it needs root" '^vmregress: [a-z0-9-]+: sandbox: needs root'
check "in one line" one_line_err
check "within 5 seconds (took ${ms}ms)" [ "$ms" -lt 5000 ]
check "no store, no trace, no work directory made" empty_dir

run as_nobody "$VMR" run quick --db "$D/results.db" --iterations 3 --name x
expect_rc "refused before any case starts, whatever the options" 3
check "still nothing made" empty_dir

# test: a workload that needs a sandbox, and null, both refused without --no-sandbox.
run as_nobody "$VMR" test fault --pages 10
expect_rc "test fault without root exits 3" 3
expect_err "and says it needs root" 'needs root'
check "in one line" one_line_err
run as_nobody "$VMR" test null
expect_rc "test null without root or --no-sandbox exits 3" 3
expect_err "and suggests --no-sandbox" -- '--no-sandbox runs on the host'

# --set: never ignored.
run as_nobody "$VMR" test null --no-sandbox --set vm.swappiness=10
expect_rc "test --set without root exits 3" 3
expect_err "and says --set needs root" '^vmregress: --set: needs root'
check "in one line" one_line_err
run as_nobody "$VMR" run quick --no-sandbox --set vm.swappiness=10 --db "$D/results.db"
expect_rc "run --set without root exits 3" 3
expect_err "and says --set needs root" -- '--set: needs root'
check "nothing stored" empty_dir
run as_nobody "$VMR" sandbox exec --no-sandbox --set vm.swappiness=10 -- true
expect_rc "sandbox exec --set without root exits 3" 3
expect_err "and says --set needs root" -- '--set: needs root'

# --no-sandbox: the user asked for the host.
run as_nobody "$VMR" test null --no-sandbox --spin 10ms
expect_rc "test null --no-sandbox runs without root" 0
expect_out "and passes" '^null: pass'
run as_nobody "$VMR" test null --no-sandbox --json
expect_rc "test null --no-sandbox --json exits 0" 0
check "its result says it ran unsandboxed" json_holds '.outcome == "pass" and (.sandbox == null or .sandbox.sandboxed == false)'
run as_nobody "$VMR" sandbox exec --no-sandbox -- true
expect_rc "sandbox exec --no-sandbox runs without root" 0

printf '[null]\nworkload = null\nspin = 5ms\n' > "$D/tiny.ini"
run as_nobody "$VMR" run "$D/tiny.ini" --no-sandbox --db "$D/results.db" --json
expect_rc "run --no-sandbox runs without root" 0
check "and stores the run" json_holds '.run.status == "complete" and .cases[0].options.sandbox["no-sandbox"] == true'
rm -f "$D/results.db" "$D/tiny.ini"

# Never beyond free memory without --force, for run as for test: twice the
# free pages is refused (a skip naming --force) before anything is allocated.
free_kb=$(awk '/^MemFree:/ { print $2 }' /proc/meminfo)
big=$(( free_kb / 2 ))   # pages of 4K: twice the free memory
printf '[big]\nworkload = alloc\npages = %s\npasses = 1\n' "$big" > "$D/big.ini"
run as_nobody "$VMR" test alloc --no-sandbox --pages "$big" --passes 1
expect_rc "test: beyond free memory is refused without --force (exit 3)" 3
expect_err "and names --force" -- '--force to run anyway'
run as_nobody "$VMR" run "$D/big.ini" --no-sandbox --db "$D/results.db" --json
expect_rc "run: a case beyond free memory does not fail the run" 0
check "it is skipped, naming --force" json_holds \
	'.cases[0].results[0].outcome == "skip" and (.cases[0].results[0].reason | test("--force"))'
rm -f "$D/results.db" "$D/big.ini"
check "nothing left behind by the runs on the host" empty_dir
done_testing
