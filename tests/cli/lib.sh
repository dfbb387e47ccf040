# Helpers for command-line tests.  Each test script is run by tests/run-all
# with $VMR set to the binary under test; every check prints a TAP-ish line.
#
# Every helper that reads a command's output (expect_out, expect_no_out,
# expect_err, expect_json, expect_json_is) first checks that the last `run`
# exited as expected and printed something: a check must not pass because
# the command crashed or printed nothing (jq 1.6 takes empty input for true).
# "As expected" is exit 0, unless an expect_rc after the run said otherwise.
# tests/cli/test_helpers.sh holds each helper to that.
set -u
VMR=${VMR:-./vmregress}
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT

T_CHECKS=0
ok() { T_CHECKS=$((T_CHECKS + 1)); echo "ok - $*"; }
not_ok() { T_CHECKS=$((T_CHECKS + 1)); echo "not ok - $*"; }
skip() { T_CHECKS=$((T_CHECKS + 1)); echo "ok - $1 # SKIP ${2:-}"; }
# done_testing: the last line of every test script.  It prints the plan
# ("1..N", N the checks this script printed through the helpers above), so
# that a script which stops early, even with exit 0, is seen to have stopped.
# A second call in one script is a failed check and ends it: the checks
# between the two would otherwise pass under a plan that moved with them.
T_PLANNED=
done_testing() {
	if [ -n "$T_PLANNED" ]; then
		not_ok "done_testing called again (the first printed 1..$T_PLANNED): it ends the script, once"
		echo "1..$T_CHECKS"
		exit 1
	fi
	T_PLANNED=$T_CHECKS
	echo "1..$T_CHECKS"
}
check() { # check NAME CMD...: passes when CMD exits 0
	local name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
# run CMD...: captures stdout in $OUT, stderr in $ERR, exit code in $RC;
# the exit status expected of it is 0 until an expect_rc says otherwise.
run() {
	"$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
	WANT_RC=0
}
expect_rc() { # expect_rc NAME RC: the last run exited RC
	WANT_RC=$2
	if [ "$RC" = "$2" ]; then ok "$1"; else not_ok "$1 (exit $RC, want $2; stderr: ${ERR:0:300})"; fi
}
# ran_as_expected STREAM: the last run exited with the status expected of
# it and printed something on STREAM (out or err); otherwise $WHY says
# which of the two it did not do.
ran_as_expected() {
	local text
	if [ "$1" = err ]; then text=$ERR; else text=$OUT; fi
	WHY=
	if [ "${RC:-none}" != "${WANT_RC:-0}" ]; then
		WHY="exit ${RC:-none}, want ${WANT_RC:-0}; stderr: ${ERR:0:300}"
	elif ! grep -q '[^[:space:]]' <<< "$text"; then  # (bash's own ${x//} is slow on megabytes)
		WHY="nothing on std$1"
	fi
	[ -z "$WHY" ]
}
expect_err() { # expect_err NAME REGEX: stderr of the last run matches
	if ! ran_as_expected err; then not_ok "$1 ($WHY)"
	elif grep -qE -- "$2" <<< "$ERR"; then ok "$1"; else not_ok "$1 (stderr: ${ERR:0:300})"; fi
}
expect_out() { # expect_out NAME REGEX: stdout of the last run matches
	if ! ran_as_expected out; then not_ok "$1 ($WHY)"
	elif grep -qE -- "$2" <<< "$OUT"; then ok "$1"; else not_ok "$1 (stdout: ${OUT:0:300})"; fi
}
expect_no_out() { # expect_no_out NAME REGEX: the last run printed, but no line matching
	if ! ran_as_expected out; then not_ok "$1 ($WHY)"
	elif grep -qE -- "$2" <<< "$OUT"; then not_ok "$1 (stdout has: $(grep -m1 -E -- "$2" <<< "$OUT" | cut -c1-200))"
	else ok "$1"; fi
}
# expect_json NAME FILTER [JQ-OPTIONS...]: the last run printed JSON on
# which `jq -e FILTER` holds (its last value is neither false nor null).
expect_json() {
	local name=$1 filter=$2 got; shift 2
	if ! ran_as_expected out; then not_ok "$name ($WHY)"; return; fi
	if got=$(jq -e "$@" "$filter" <<< "$OUT" 2>&1); then ok "$name"
	else not_ok "$name (jq: $(tail -1 <<< "$got" | cut -c1-200); stdout: ${OUT:0:300})"; fi
}
# expect_json_is NAME FILTER WANT [JQ-OPTIONS...]: `jq -r FILTER` on the
# last run's JSON prints exactly WANT.
expect_json_is() {
	local name=$1 filter=$2 want=$3 got; shift 3
	if ! ran_as_expected out; then not_ok "$name ($WHY)"; return; fi
	if got=$(jq -r "$@" "$filter" <<< "$OUT" 2>&1) && [ "$got" = "$want" ]; then ok "$name"
	else not_ok "$name (got '${got:0:200}', want '${want:0:200}')"; fi
}
# expect_json_or_skip NAME HAVE WHY: the last run's JSON has a feature
# (jq filter HAVE holds), or says why not (filter WHY gives the reason as a
# string), which is a SKIP with that reason; neither is not ok.
expect_json_or_skip() {
	local why
	if ! ran_as_expected out; then not_ok "$1 ($WHY)"; return; fi
	if jq -e "$2" <<< "$OUT" > /dev/null 2>&1; then ok "$1"; return; fi
	why=$(jq -r "$3 | strings" <<< "$OUT" 2>/dev/null)
	if [ -n "$why" ]; then skip "$1" "$why"; else not_ok "$1 (neither there nor said why; stdout: ${OUT:0:300})"; fi
}
# py_checks PREFIX SCRIPT ARGS...: the Python SCRIPT, given the file of the
# last run's stdout and ARGS, prints "ok - NAME" / "not ok - NAME" lines,
# passed on with PREFIX before each NAME; a script that raises, exits
# non-zero or prints no check, or a run that failed, is not ok.
py_checks() {
	local prefix=$1 script=$2 out rc; shift 2
	if ! ran_as_expected out; then not_ok "${prefix}the checks of the result ($WHY)"; return; fi
	out=$(python3 -c "$script" "$T_TMP/out" "$@" 2>&1); rc=$?
	grep -E '^(not )?ok - ' <<< "$out" | sed -E "s/^(not )?ok - /&$prefix/"
	T_CHECKS=$((T_CHECKS + $(grep -cE '^(not )?ok - ' <<< "$out")))
	if [ "$rc" != 0 ] || ! grep -qE '^(not )?ok - ' <<< "$out"; then
		not_ok "${prefix}the checks of the result ran to the end (exit $rc: $(tail -1 <<< "$out" | cut -c1-200))"
	fi
}
one_line_err() { # stderr is exactly one line (besides a note that another
	# vmregress on the host holds the knob lock, which a busy machine may add)
	[ "$(printf '%s' "$ERR" | grep -v 'waiting for another vmregress' | grep -c '')" = 1 ]
}
is_root() { [ "$(id -u)" = 0 ]; }
# registry_unreachable PKG...: Debian's package registry cannot be reached
# for one of the packages (a guest test's kernels), which is a reason to
# skip; a package apt does not know (a wrong name) is not: it fails the test.
registry_unreachable() {
	local pkg url
	for pkg in "$@"; do
		url=$(apt-get download --print-uris "$pkg" 2>/dev/null | sed -n "1s/^'\([^']*\)'.*/\1/p")
		[ -n "$url" ] || continue
		python3 -c 'import sys, urllib.request
urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="HEAD"), timeout=20)' "$url" \
			> /dev/null 2>&1 || return 0
	done
	return 1
}
