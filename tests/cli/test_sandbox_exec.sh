# sandbox exec runs its command through the runner (runner_exec) and keeps
# what a user of `time -v` expects: the command's exit status is vmregress's,
# a command killed by a signal gives 128 + the signal, the command shares
# vmregress's process group and standard streams (on a terminal it stays in
# the foreground and gets Ctrl-C), Ctrl-C to the group ends both and leaves
# nothing, and a signal to vmregress alone kills the command even when no
# cgroup holds it (--no-sandbox).  Only our own processes are looked at.
. "$(dirname "$0")/sandbox-lib.bash"
if ! command -v jq >/dev/null; then skip "sandbox exec" "jq is not installed"; done_testing; exit 0; fi
if ! command -v setsid >/dev/null; then skip "sandbox exec" "setsid is not installed"; done_testing; exit 0; fi

# exit_is NAME RC CMD...: sandbox exec of CMD exits RC
exit_is() {
	local name=$1 want=$2; shift 2
	run "$VMR" sandbox exec --mem 32M --swap none -- "$@"
	expect_rc "$name: exit $want" "$want"
	expect_err "$name: the report says how it ended" "Outcome: "
}
exit_is "true" 0 true
exit_is "false" 1 false
exit_is "sh -c 'exit 7'" 7 sh -c 'exit 7'
exit_is "a command that kills itself with SIGTERM" 143 sh -c 'kill -TERM $$'
exit_is "a command that kills itself with SIGINT" 130 sh -c 'kill -INT $$'
run "$VMR" sandbox exec --json --mem 32M --swap none -- sh -c 'kill -TERM $$'
expect_rc "--json, SIGTERM: exit 143" 143
expect_json "--json, SIGTERM: signaled by 15" '.outcome == "signaled" and .signal == 15 and (has("exit_status") | not)'
run "$VMR" sandbox exec --json --mem 32M --swap none -- sh -c 'exit 3'
expect_rc "--json, exit 3: exit 3" 3
expect_json "--json, exit 3: exited with 3" '.outcome == "exited" and .exit_status == 3 and .oom_kills == 0'

run "$VMR" sandbox exec --mem 32M --swap none -- /nonexistent/program
expect_rc "a command that cannot be executed: exit 2" 2
check "it says so in one line" one_line_err
expect_err "naming the command and the reason" "^vmregress: cannot run '/nonexistent/program': No such file or directory$"

# standard input and output are the caller's
run bash -c "echo hello | '$VMR' sandbox exec --mem 32M --swap none -- cat"
expect_out "the command reads vmregress's standard input and writes its output" '^hello$'

# child_named PARENT NAME: the PID of PARENT's child called NAME, waiting for it
child_named() {
	local i c
	for i in $(seq 200); do
		c=$(pgrep -P "$1" -x "$2") && { echo "$c"; return 0; }
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
gone() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }

# Ctrl-C: the terminal signals the foreground process group; vmregress
# leads one of its own here (setsid), as a shell's job does.
setsid "$VMR" sandbox exec --mem 32M --swap file:16M -- sleep 30 2>"$T_TMP/int.err" {SB_LOCK_FD}<&- &
p=$!; SB_PIDS+=("$p")
if c=$(child_named "$p" sleep); then
	check "the command is in vmregress's process group" [ "$(ps -o pgid= "$c")" = "$(ps -o pgid= "$p")" ]
	cg=$(sed -n 's/^[0-9]*:\(memory\)\?:\(.*\)$/\2/p' "/proc/$c/cgroup" | grep vmregress | head -1)
	check "the command runs in a vmregress cgroup ($cg)" [ -n "$cg" ]
	kill -INT -- "-$p"
	{ wait "$p"; rc=$?; } 2>/dev/null
	check "Ctrl-C: vmregress dies by SIGINT (exit $rc)" [ "$rc" = 130 ]
	check "Ctrl-C: the command is gone" gone "$c"
	check "Ctrl-C: its cgroup is gone" bash -c "! ls -d /sys/fs/cgroup/memory$cg /sys/fs/cgroup$cg 2>/dev/null | grep -q ."
	left=$(ours_left)
	check "Ctrl-C: no swap or journal of ours is left${left:+ ($left)}" [ -z "$left" ]
else
	not_ok "the command of a sandbox exec started ($(head -c 300 "$T_TMP/int.err"))"
fi

# A signal to vmregress alone, with no cgroup around the command: the
# command is killed before vmregress dies.
"$VMR" sandbox exec --no-sandbox -- sleep 30 2>"$T_TMP/term.err" {SB_LOCK_FD}<&- &
p=$!; SB_PIDS+=("$p")
if c=$(child_named "$p" sleep); then
	kill -TERM "$p"
	{ wait "$p"; rc=$?; } 2>/dev/null
	check "--no-sandbox, SIGTERM: vmregress dies by SIGTERM (exit $rc)" [ "$rc" = 143 ]
	sleep 0.1
	check "--no-sandbox, SIGTERM: the command is gone too" gone "$c"
	kill -9 "$c" 2>/dev/null || true  # (gone, as it should be)
else
	not_ok "the command of a sandbox exec --no-sandbox started ($(head -c 300 "$T_TMP/term.err"))"
fi
done_testing
