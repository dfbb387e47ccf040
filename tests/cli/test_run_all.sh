# tests/run-all itself, over fake test files: a file that stops early with
# exit 0 (no plan), one whose checks do not match its plan, one that prints
# no check, one that exits non-zero after passing checks, one that calls
# done_testing twice, a C test without its plan, each fails; a file of skips only is listed as skipped, not
# passed; a good file and a good C test pass.  Guards against a suite that
# passes because a test stopped before it checked anything.  No root, no
# vmregress.  (The inner run-all is given no VMR_TESTS of the outer one.)
. "$(dirname "$0")/lib.sh"
LIB=$(cd "$(dirname "$0")" && pwd)/lib.sh
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$T_TMP/unit" "$T_TMP/cli" "$T_TMP/logs"
fake() { # fake NAME BODY: a CLI test file that sources lib.sh
	printf '. %q\n%s\n' "$LIB" "$2" > "$T_TMP/cli/$1"
}
fake test_good.sh 'ok "one"; skip "two" "not here"; ok "three"; done_testing'
fake test_early.sh 'ok "one"; exit 0; ok "two"; done_testing'
fake test_plan.sh 'ok "one"; echo "ok - not through the helpers"; done_testing'
fake test_none.sh 'done_testing'
fake test_crash.sh 'ok "one"; done_testing; exit 3'
fake test_twice.sh 'ok "one"; done_testing; ok "two"; done_testing'
fake test_skips.sh 'skip "a" "no widget here"; skip "b" "no widget here"; done_testing'
cat > "$T_TMP/good.c" <<'C'
#include "t.h"
int main(void) { CHECK(1, "a C check"); T_DONE(); }
C
cat > "$T_TMP/noplan.c" <<'C'
#include "t.h"
int main(void) { CHECK(1, "a C check"); return 0; }
C
cc_ok=yes
for c in good noplan; do
	cc -I"$ROOT/tests/unit" -o "$T_TMP/unit/test_c_$c" "$T_TMP/$c.c" 2>>"$T_TMP/cc.err" || cc_ok=no
done
check "the fake C tests build" [ $cc_ok = yes ]

run env -u VMR_TESTS VMR_TEST_DIRS="$T_TMP/unit $T_TMP/cli $T_TMP/logs" VMR_NO_ASAN=1 VMR_NO_FUZZ=1 VMR_NO_MEMCHECK=1 \
	VMR_SLOWEST=0 VMR="$ROOT/vmregress" "$ROOT/tests/run-all"
expect_rc "run-all fails when a file fails" 1
# the lines of run-all's list of failures
failures() { awk '/^== failures/ { f = 1; next } /^==/ { f = 0 } f' <<< "$OUT"; }
fails() { failures | grep -qE -- "^  $1"; }
check "a file that exits 0 before its end fails: no plan" fails 'test_early.sh: printed no plan'
check "a file whose checks differ from its plan fails" fails 'test_plan.sh: printed 2 checks, but its plan says 1'
check "a file with a plan but no check fails" fails 'test_none.sh: printed no check'
check "a file that exits non-zero after passing checks fails" fails 'test_crash.sh: exited 3'
check "a file that calls done_testing twice fails" fails 'test_twice.sh: done_testing called again \(the first printed 1\.\.1\)'
check "a C test that returns without T_DONE fails: no plan" fails 'test_c_noplan: printed no plan'
check "the good files do not fail" bash -c '! grep -qE "test_good.sh|test_c_good" <<< "$1"' _ "$(failures)"
check "a file of skips only is listed as skipped" \
	bash -c 'grep -A5 "^== files that ran no check, only skips" <<< "$1" | grep -q "test_skips.sh: a # SKIP no widget here"' _ "$OUT"
check "... and not as failed" bash -c '! grep -q test_skips.sh <<< "$1"' _ "$(failures)"
# the good files' 2 + 1 passes, the early, plan, crash, twice and no-plan C
# files' 7; the skips' 2 and the good file's 1 skip
expect_out "the last line counts checks, failed files and skipped ones" \
	'^10 passed, 6 failed, 3 skipped \(1 files skipped whole\)$'

# only good files: exit 0
rm "$T_TMP"/cli/test_{early,plan,none,crash,twice}.sh "$T_TMP/unit/test_c_noplan"
run env -u VMR_TESTS VMR_TEST_DIRS="$T_TMP/unit $T_TMP/cli $T_TMP/logs" VMR_NO_ASAN=1 VMR_NO_FUZZ=1 VMR_NO_MEMCHECK=1 \
	VMR_SLOWEST=0 VMR="$ROOT/vmregress" "$ROOT/tests/run-all"
expect_rc "run-all passes when every file ran to its plan" 0
expect_out "... and still lists the file that only skipped" '^3 passed, 0 failed, 3 skipped \(1 files skipped whole\)$'
done_testing
