# Every signal whose default action ends vmregress undoes what it made,
# with no 'cleanup' afterwards: for each one, a 'vmregress run' of a small
# suite (its cgroup, swap file, work directory and generated reference
# traces) and a 'sandbox exec' (its cgroup, swap file or zram device, and a
# knob it set) are signalled once they are up, and everything of THAT
# process is checked gone.  SIGPIPE is ignored instead: a run whose output
# is closed stops, undoes its sandbox and is stored as interrupted.  The
# workload processes get the default dispositions back.  Only what our own
# processes made is looked at (by PID), so that other vmregress runs on the
# host cannot make this fail.
. "$(dirname "$0")/sandbox-lib.bash"

ulimit -c 0  # SIGQUIT, SIGABRT, SIGSYS... would dump core
export TMPDIR=$T_TMP/tmp  # scratch directories of our runs, and only those
mkdir "$TMPDIR"
SIGS=(HUP INT QUIT TERM USR1 USR2 ALRM XCPU XFSZ VTALRM PROF STKFLT IO PWR SYS TRAP ABRT
	RTMIN RTMIN+1 RTMAX-1 RTMAX)
ZRAM=no; [ -e /sys/class/zram-control/hot_add ] && ZRAM=yes

# The caught signals as a mask like /proc/PID/status's SigCgt.
fatal_mask() {
	local s m=0 n
	for s in "${SIGS[@]}"; do n=$(kill -l "$s"); m=$(( m | (1 << (n - 1)) )); done
	printf '%016x' "$m"
}
FATAL_MASK=$(fatal_mask)
PIPE_BIT=$(( 1 << ($(kill -l PIPE) - 1) ))
# dispositions_default PID: none of the caught signals has a handler of
# ours, SIGPIPE is not ignored and nothing is blocked.
dispositions_default() {
	local st cgt ign blk
	st=$(cat "/proc/$1/status" 2>/dev/null) || return 2
	cgt=$(sed -n 's/^SigCgt:\s*//p' <<< "$st"); ign=$(sed -n 's/^SigIgn:\s*//p' <<< "$st")
	blk=$(sed -n 's/^SigBlk:\s*//p' <<< "$st")
	[ -n "$cgt" ] && [ -n "$ign" ] && [ -n "$blk" ] || return 2
	(( (0x$cgt & 0x$FATAL_MASK) == 0 && (0x$ign & PIPE_BIT) == 0 && 0x$blk == 0 ))
}

# What the sandbox of vmregress PID made, from its journal while it runs:
# "cgroup DIR", "swapfile FILE", "swapon DEV", "zram N".
journal_of() { cat "$SB_STATE"/vmregress-"$1"-*.journal 2>/dev/null | sed 's/ #[0-9a-f]*$//'; }
# wait_up PID [SCRATCH]: its journal has a cgroup record (and, with
# SCRATCH, a vmregress-traces- directory of it exists).  Saves the journal
# in $T_TMP/made.PID.
wait_up() {
	local i
	for i in $(seq 600); do
		if journal_of "$1" | grep -q '^cgroup '; then
			if [ -z "${2:-}" ] || ls -d "$TMPDIR"/vmregress-traces-"$1"-* >/dev/null 2>&1; then
				journal_of "$1" > "$T_TMP/made.$1"
				return 0
			fi
		fi
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
# The first process in the cgroup that the journal of PID names.
child_of() { local cg; cg=$(sed -n 's/^cgroup //p' "$T_TMP/made.$1"); head -1 "$cg/cgroup.procs" 2>/dev/null; }
# left_of PID: prints whatever of PID is still on the host (nothing when clean).
left_of() {
	local p=$1 what path
	ls "$SB_STATE"/vmregress-"$p"-* "$SB_STATE"/swap/vmregress-"$p"-* 2>/dev/null
	ls -d "$TMPDIR"/vmregress-"$p"-* "$TMPDIR"/vmregress-traces-"$p"-* /var/tmp/vmregress-"$p"-* \
		/var/tmp/vmregress-traces-"$p"-* 2>/dev/null
	grep "vmregress-$p-" /proc/swaps
	ls -d /sys/fs/cgroup/vmregress-"$p"-* /sys/fs/cgroup/*/vmregress-"$p"-* \
		/sys/kernel/tracing/instances/vmregress-"$p"-* /sys/kernel/debug/tracing/instances/vmregress-"$p"-* 2>/dev/null
	while read -r what path _; do
		case $what in
		cgroup|swapfile) [ -e "$path" ] && echo "$what $path";;
		swapon)  # a zram id may be someone else's by now: its header says whose
			case $path in
			/dev/zram*) grep -q "^$path " /proc/swaps && zram_ours "${path#/dev/zram}" "$p" && echo "swapon $path";;
			*) grep -q "^$path " /proc/swaps && echo "swapon $path";;
			esac;;
		zram) zram_ours "$path" "$p" && echo "zram /dev/zram$path";;
		esac
	done < "$T_TMP/made.$p"
	return 0
}
# zram_ours N PID: /dev/zramN still holds a swap header naming PID (the id
# may have gone to someone else since: then it is not ours).
zram_ours() {
	local size; size=$(cat "/sys/block/zram$1/disksize" 2>/dev/null) || return 1
	[ "$size" != 0 ] || return 1
	local le; le=$(od -An -tu4 -j1040 -N4 "/dev/zram$1" 2>/dev/null | tr -d ' ')
	[ "$le" = "$2" ]
}

SUITE=$T_TMP/small.ini
cat > "$SUITE" <<'EOF'
[global]
mem = 32M
swap = file:16M
no-monitor = yes
no-probe = yes
[traced]
; a reference trace generated for the run: a scratch directory
workload = mmap
refs-generate = --pages 64 --references 2000 --seed 1
[waits]
workload = reread
size = 1M
second = 1M
sleep = 40s
EOF

# Runs: all at once, each signalled when it is up.
declare -A RUNPID
for sig in "${SIGS[@]}"; do
	"$VMR" run "$SUITE" --db "$T_TMP/r.db" --name "sig-$sig" -q >"$T_TMP/run.$sig.out" 2>"$T_TMP/run.$sig.err" \
		{SB_LOCK_FD}<&- &
	RUNPID[$sig]=$!; SB_PIDS+=("$!")
done
for sig in "${SIGS[@]}"; do
	p=${RUNPID[$sig]}
	if ! wait_up "$p" traces; then
		not_ok "run, SIG$sig: the sandbox came up ($(head -c 300 "$T_TMP/run.$sig.err"))"
		continue
	fi
	# the workload child, once it is in the cgroup
	c=; for _ in $(seq 100); do c=$(child_of "$p"); [ -n "$c" ] && dispositions_default "$c"; r=$?
		[ -n "$c" ] && [ $r != 2 ] && break; sleep 0.05; done
	check "run, SIG$sig: the workload process has the default signal dispositions" [ "${r:-2}" = 0 ]
	kill -"$sig" "$p"
done
for sig in "${SIGS[@]}"; do
	p=${RUNPID[$sig]}
	{ wait "$p"; rc=$?; } 2>/dev/null  # no job notice
	check "run, SIG$sig: vmregress dies by the signal (exit $rc)" [ "$rc" = $(( 128 + $(kill -l "$sig") )) ]
	[ -s "$T_TMP/made.$p" ] || continue
	left=$(left_of "$p")
	check "run, SIG$sig: cgroup, swap, journal, work directory and traces are gone${left:+ (left: $left)}" \
		[ -z "$left" ]
done
run "$VMR" list --db "$T_TMP/r.db" --json
n=$(jq '[.[] | select(.name | startswith("sig-")) | select(.status == "incomplete" and .running == false)] | length' <<< "${OUT:-null}")
if [ "$RC" = 0 ] && [ -n "$OUT" ] && [ "$n" = "${#SIGS[@]}" ]; then ok "the signalled runs are stored, interrupted"
else not_ok "the signalled runs are stored, interrupted ($n of ${#SIGS[@]}; list exit $RC)"; fi

# SIGPIPE: the reader of the output goes away after the first line.
cat > "$T_TMP/pipe.ini" <<'EOF'
[global]
mem = 32M
swap = file:16M
no-monitor = yes
no-probe = yes
iterations = 20
[waits]
workload = reread
size = 1M
second = 1M
sleep = 200ms
EOF
pipe_run() {
	"$VMR" run "$T_TMP/pipe.ini" --db "$T_TMP/r.db" --name sig-PIPE 2>&1 {SB_LOCK_FD}<&- &
	echo $! > "$T_TMP/pipe.pid"
	wait $!; echo $? > "$T_TMP/pipe.rc"
}
first=$(pipe_run | head -1)
p=$(cat "$T_TMP/pipe.pid"); rc=$(cat "$T_TMP/pipe.rc")
check "run, closed output: the first line came through ($first)" [ -n "$first" ]
check "run, closed output: exit 141, as if killed by SIGPIPE (exit $rc)" [ "$rc" = 141 ]
: > "$T_TMP/made.$p"
left=$(left_of "$p")
check "run, closed output: nothing is left${left:+ (left: $left)}" [ -z "$left" ]
run "$VMR" list --db "$T_TMP/r.db" --json
expect_json "run, closed output: stored as interrupted" \
	'[.[] | select(.name == "sig-PIPE")][0] | .status == "incomplete" and .running == false' 

# Tracing: the tracer's handler runs first for every caught signal, then
# the sandbox's.  tracefs is mounted privately so that we see instances.
TFS=$T_TMP/tracefs
mkdir "$TFS"
if mount -t tracefs nodev "$TFS" 2>/dev/null; then
	sb_extra_teardown() { umount "$TFS" 2>/dev/null; }
	for sig in USR1 QUIT RTMAX; do
		"$VMR" test reread --size 1M --second 1M --sleep 20s --mem 32M --swap file:16M --trace reclaim \
			>/dev/null 2>"$T_TMP/trace.err" {SB_LOCK_FD}<&- &
		p=$!; SB_PIDS+=("$p")
		inst=
		for _ in $(seq 200); do inst=$(ls -d "$TFS"/instances/vmregress-"$p"-* 2>/dev/null); [ -n "$inst" ] && break
			sleep 0.05; done
		if [ -z "$inst" ] || ! wait_up "$p"; then
			not_ok "traced test, SIG$sig: tracing came up ($(head -c 300 "$T_TMP/trace.err"))"
			continue
		fi
		kill -"$sig" "$p"; { wait "$p"; rc=$?; } 2>/dev/null
		check "traced test, SIG$sig: vmregress dies by the signal (exit $rc)" [ "$rc" = $(( 128 + $(kill -l "$sig") )) ]
		check "traced test, SIG$sig: its tracing instance is gone" [ ! -e "$inst" ]
		left=$(left_of "$p")
		check "traced test, SIG$sig: cgroup, swap, journal and work directory are gone${left:+ (left: $left)}" [ -z "$left" ]
	done
	umount "$TFS"
else
	skip "signals while tracing" "cannot mount tracefs"
fi

# sandbox exec: one after another, each setting a knob (the knobs are
# host-wide: vmregress lets one sandbox hold them at a time).
knobs_change
knob=/proc/sys/vm/page-cluster
old=$(cat $knob); new=$(( old == 4 ? 5 : 4 ))
i=0
for sig in "${SIGS[@]}" PIPE; do
	swap=file:16M
	[ $ZRAM = yes ] && (( i++ % 2 )) && swap=zram:16M
	"$VMR" sandbox exec --mem 32M --swap $swap --set vm.page-cluster=$new -- sleep 30 \
		2>"$T_TMP/exec.err" {SB_LOCK_FD}<&- &
	p=$!; SB_PIDS+=("$p")
	if ! wait_up "$p"; then
		not_ok "exec, SIG$sig: the sandbox came up ($(head -c 300 "$T_TMP/exec.err"))"
		continue
	fi
	c=; for _ in $(seq 100); do c=$(child_of "$p"); [ -n "$c" ] && break; sleep 0.05; done
	check "exec, SIG$sig: the knob is set while it runs" [ "$(cat $knob)" = "$new" ]
	if [ "$sig" = PIPE ]; then
		check "exec ($swap): the command has the default signal dispositions" dispositions_default "$c"
		kill -PIPE "$p"; sleep 0.2
		check "exec, SIGPIPE: ignored, the sandbox stays" kill -0 "$p"
		kill -TERM "$p"; sig=TERM
	else
		kill -"$sig" "$p"
	fi
	{ wait "$p"; rc=$?; } 2>/dev/null  # no job notice
	check "exec ($swap), SIG$sig: vmregress dies by the signal (exit $rc)" [ "$rc" = $(( 128 + $(kill -l "$sig") )) ]
	left=$(left_of "$p")
	check "exec ($swap), SIG$sig: cgroup, swap and journal are gone${left:+ (left: $left)}" [ -z "$left" ]
	# (only the knob we set: other runs on the host may change the rest)
	check "exec, SIG$sig: the knob is restored" [ "$(cat $knob)" = "$old" ]
	check "exec, SIG$sig: the command inside is gone" \
		bash -c "[ ! -e /proc/$c ] || grep -q '^State:.*Z' /proc/$c/status"
done
knobs_release
done_testing
