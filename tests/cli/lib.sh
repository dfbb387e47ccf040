# Helpers for command-line tests.  Each test script is run by tests/run-all
# with $VMR set to the binary under test; every check prints a TAP-ish line.
set -u
VMR=${VMR:-./vmregress}
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }
skip() { echo "ok - $1 # SKIP ${2:-}"; }
check() { # check NAME CMD...: passes when CMD exits 0
	local name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
# run CMD...: captures stdout in $OUT, stderr in $ERR, exit code in $RC
run() {
	"$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}
expect_rc() { # expect_rc NAME RC: the last run exited RC
	if [ "$RC" = "$2" ]; then ok "$1"; else not_ok "$1 (exit $RC, want $2; stderr: ${ERR:0:300})"; fi
}
expect_err() { # expect_err NAME REGEX: stderr of the last run matches
	if grep -qE -- "$2" <<< "$ERR"; then ok "$1"; else not_ok "$1 (stderr: ${ERR:0:300})"; fi
}
expect_out() { # expect_out NAME REGEX: stdout of the last run matches
	if grep -qE -- "$2" <<< "$OUT"; then ok "$1"; else not_ok "$1 (stdout: ${OUT:0:300})"; fi
}
one_line_err() { # stderr is exactly one line
	[ "$(printf '%s' "$ERR" | grep -c '')" = 1 ]
}
is_root() { [ "$(id -u)" = 0 ]; }
