# The test helpers themselves (tests/cli/lib.sh, which sandbox-lib.bash
# sources): a helper that reads a command's output must say "not ok" when
# the command exited other than expected or printed nothing, and "ok" when
# it printed what was asked.  Each helper runs, in a subshell whose TAP
# line is caught here, against `false`, a command that prints nothing, and
# a good command.  Guards against checks that pass on a crashed binary
# (jq 1.6 exits 0 on empty input).  No root, no vmregress.
. "$(dirname "$0")/lib.sh"

# verdict CMD...: the first word of the line CMD printed: ok, not (for
# "not ok"), skip (for "ok - ... # SKIP"), or "none"/"many" lines.
verdict() {
	local out n
	out=$("$@" 2>&1)
	n=$(grep -cE '^(not )?ok - ' <<< "$out")
	if [ "$n" = 0 ]; then echo none; return; fi
	if [ "$n" != 1 ]; then echo many; return; fi
	case $out in
	"not ok - "*) echo not ;;
	"ok - "*"# SKIP "?*) echo skip ;;
	"ok - "*) echo ok ;;
	*) echo "other: $out" ;;
	esac
}
# want NAME VERDICT CMD...: CMD (a helper call) gives VERDICT.
want() {
	local name=$1 v=$2 got; shift 2
	got=$(verdict "$@")
	if [ "$got" = "$v" ]; then ok "$name"; else not_ok "$name (said '$got', want '$v')"; fi
}

# Each helper: its call (after the run), and a good command for it.
declare -A CALL GOOD
CALL[expect_out]="expect_out x hello";               GOOD[expect_out]="echo hello"
CALL[expect_no_out]="expect_no_out x bye";           GOOD[expect_no_out]="echo hello"
CALL[expect_err]="expect_err x oops";                GOOD[expect_err]="echo oops >&2"
CALL[expect_json]="expect_json x .a==1";             GOOD[expect_json]="echo '{\"a\":1}'"
CALL[expect_json_is]="expect_json_is x .a 1";        GOOD[expect_json_is]="echo '{\"a\":1}'"
CALL[expect_json_or_skip]="expect_json_or_skip x .a==1 .why"; GOOD[expect_json_or_skip]="echo '{\"a\":1}'"
CALL[py_checks]="py_checks p: $(printf '%q' 'import json,sys; assert json.load(open(sys.argv[1]))["a"] == 1; print("ok - a is 1")')"
GOOD[py_checks]="echo '{\"a\":1}'"
CALL[expect_rc]="expect_rc x 0";                     GOOD[expect_rc]="echo hello"

for h in $(printf '%s\n' "${!CALL[@]}" | sort); do
	run false
	want "$h: a command that exits 1 is not ok" not eval "${CALL[$h]}"
	if [ "$h" != expect_rc ]; then  # expect_rc reads no output
		run true
		want "$h: a command that prints nothing is not ok" not eval "${CALL[$h]}"
		run sh -c 'printf "\n \n"; printf "\n \n" >&2'
		want "$h: a command that prints only blank lines is not ok" not eval "${CALL[$h]}"
	fi
	run eval "${GOOD[$h]}"
	want "$h: a good command is ok" ok eval "${CALL[$h]}"
done

# Every helper lib.sh defines that checks something is covered above.
for f in $(declare -F | awk '{ print $3 }' | grep -E '^(expect_|py_checks$)'); do
	[ -n "${CALL[$f]:-}" ] && ok "$f is tested here" || not_ok "$f is tested here (add it to CALL and GOOD)"
done

# An expected non-zero exit: after expect_rc N the output helpers hold the
# run to N, and a run that exited 0 instead is not ok.
run sh -c 'echo out; echo err >&2; exit 3'
expect_rc "a command exiting 3 as expected" 3
want "after expect_rc 3, expect_out reads the output" ok expect_out x '^out$'
want "after expect_rc 3, expect_err reads the output" ok expect_err x '^err$'
run sh -c 'echo out; echo err >&2'
WANT_RC=3
want "expect_out on a run that exited 0 where 3 was expected is not ok" not expect_out x '^out$'
want "expect_err on a run that exited 0 where 3 was expected is not ok" not expect_err x '^err$'
run sh -c 'echo out; exit 3'
want "a new run expects exit 0 again" not expect_out x '^out$'

# The JSON helpers: a filter that fails, output that is not JSON.
run echo '{"a":2}'
want "expect_json with a false filter is not ok" not expect_json x '.a == 1'
want "expect_json with jq options" ok expect_json x '.a == $v' --argjson v 2
want "expect_json_is with another value is not ok" not expect_json_is x .a 1
want "expect_no_out with a matching line is not ok" not expect_no_out x '"a"'
run echo 'not json'
want "expect_json on text that is not JSON is not ok" not expect_json x 'true'
run echo '{"why":"no such counter here"}'
want "expect_json_or_skip with a reason is a SKIP" skip expect_json_or_skip x '.a == 1' .why
run echo '{"why":7}'
want "expect_json_or_skip with a reason that is not a string is not ok" not expect_json_or_skip x '.a == 1' .why
run echo '{}'
want "expect_json_or_skip with neither is not ok" not expect_json_or_skip x '.a == 1' .why

# py_checks: a script that raises after a passing check, or prints nothing.
run echo '{"a":1}'
out=$(py_checks "p: " 'import sys; print("ok - first"); raise KeyError("b")')
grep -q '^not ok - p: the checks of the result ran to the end (exit 1: KeyError' <<< "$out" &&
	ok "py_checks: a script that raises is not ok" || not_ok "py_checks: a script that raises is not ok (said: $out)"
grep -q '^ok - p: first$' <<< "$out" && ok "py_checks: the script's own checks are passed on, prefixed" ||
	not_ok "py_checks: the script's own checks are passed on, prefixed (said: $out)"
want "py_checks: a script that prints no check is not ok" not py_checks "" 'pass'
want "py_checks: a script whose check fails is not ok" not py_checks "" 'print("not ok - a is 2")'

# check and one_line_err, which take a predicate rather than reading output.
want "check of false is not ok" not check x false
want "check of true is ok" ok check x true
run false
want "one_line_err with no stderr is false" not check x one_line_err
run sh -c 'echo one >&2; echo two >&2'
want "one_line_err with two lines is false" not check x one_line_err
run sh -c 'echo one >&2'
want "one_line_err with one line is true" ok check x one_line_err
done_testing
