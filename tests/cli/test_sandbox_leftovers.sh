# What 'cleanup' promises to remove after kill -9 includes the run's scratch
# directories (generated reference traces, the work directory); and a sandbox
# that fails because its swap file's name is taken removes nothing it did
# not make.
. "$(dirname "$0")/sandbox-lib.bash"

export TMPDIR=$T_TMP/tmp  # the scratch directories of our runs, and only those
mkdir "$TMPDIR"

cat > "$T_TMP/traced.ini" <<'EOF'
[global]
mem = 32M
swap = file:16M
no-monitor = yes
no-probe = yes
[waits]
workload = reread
size = 1M
second = 1M
sleep = 30s
[traced]
workload = mmap
refs-generate = --pages 64 --references 2000 --seed 1
EOF
# The run generates every case's trace before its first case, so while the
# first case sleeps, its work directory and the traces directory exist
# together.  (With the short case first, its work directory could be gone
# between two looks.)

# kill -9 while the run's sandbox, work directory and traces exist.
"$VMR" run "$T_TMP/traced.ini" --db "$T_TMP/r.db" -q 2>"$T_TMP/run.err" {SB_LOCK_FD}<&- &
p=$!; SB_PIDS+=("$p")
for _ in $(seq 1200); do  # up to a minute: ASan on a busy machine is slow
	ls -d "$TMPDIR"/vmregress-traces-"$p"-* >/dev/null 2>&1 && ls -d "$TMPDIR"/vmregress-"$p"-* >/dev/null 2>&1 &&
		grep -qs '^cgroup ' "$SB_STATE"/vmregress-"$p"-*.journal && break
	sleep 0.05
done
traces=$(ls -d "$TMPDIR"/vmregress-traces-"$p"-* 2>/dev/null)
work=$(ls -d "$TMPDIR"/vmregress-"$p"-* 2>/dev/null)
check "the run made a traces directory ($traces) and a work directory ($work)" [ -n "$traces" -a -n "$work" ]
if [ -z "$traces" ] || [ -z "$work" ]; then
	{ echo "run: $(ps -o pid=,stat=,etime=,args= -p "$p" 2>&1)"; ls -la "$TMPDIR" "$SB_STATE"; cat "$T_TMP/run.err"
	  lslocks -o PID,COMMAND,TYPE,MODE,PATH 2>&1 | grep -E 'COMMAND|/proc/sys/vm|vmregress'; } 2>&1 | sed 's/^/# /'
fi
check "the traces directory holds the generated trace" bash -c "ls '$traces'/*.refs >/dev/null"
kill -9 "$p"; wait "$p" 2>/dev/null
check "kill -9 leaves the traces directory" [ -d "$traces" ]
# a directory of a dead owner that is not ours to remove: a symbolic link
mkdir "$T_TMP/keep"; : > "$T_TMP/keep/precious"
ln -s "$T_TMP/keep" "$TMPDIR/vmregress-traces-$p-linked"
run "$VMR" cleanup
expect_rc_v "cleanup succeeds" 0
check "cleanup removed the traces directory" [ ! -e "$traces" ]
check "cleanup removed the work directory" [ ! -e "$work" ]
expect_out "cleanup says so" "removed scratch directory $traces \(left by pid $p\)"
check "cleanup does not follow a symbolic link named like a scratch directory" \
	[ -e "$T_TMP/keep/precious" -a -L "$TMPDIR/vmregress-traces-$p-linked" ]
rm -f "$TMPDIR/vmregress-traces-$p-linked"
run "$VMR" cleanup
check "a second cleanup finds nothing more of it (exit $RC)" bash -c "[ $RC = 0 ] && ! grep -q 'pid $p)' <<< \"\$1\"" _ "$OUT"

# A live run's scratch directories are not touched by another's cleanup.
"$VMR" run "$T_TMP/traced.ini" --db "$T_TMP/r.db" -q 2>"$T_TMP/run.err" {SB_LOCK_FD}<&- &
p=$!; SB_PIDS+=("$p")
for _ in $(seq 1200); do ls -d "$TMPDIR"/vmregress-traces-"$p"-* >/dev/null 2>&1 && break; sleep 0.05; done
traces=$(ls -d "$TMPDIR"/vmregress-traces-"$p"-* 2>/dev/null)
run "$VMR" cleanup
check "cleanup leaves a live run's traces directory ($traces)" [ -n "$traces" -a -d "$traces" ]
kill -TERM "$p"; wait "$p" 2>/dev/null
check "SIGTERM removes it" [ ! -e "$traces" ]

# The owner is told by its PID and start time, not by its name: a copy of
# vmregress under another name keeps its directories while it runs, and a
# live PID with another start time (a reused PID) is not their owner.
cp "$VMR" "$T_TMP/vmr"
"$T_TMP/vmr" run "$T_TMP/traced.ini" --db "$T_TMP/r.db" -q 2>"$T_TMP/run.err" {SB_LOCK_FD}<&- &
p=$!; SB_PIDS+=("$p")
for _ in $(seq 1200); do ls -d "$TMPDIR"/vmregress-traces-"$p"-* >/dev/null 2>&1 && break; sleep 0.05; done
traces=$(ls -d "$TMPDIR"/vmregress-traces-"$p"-* 2>/dev/null)
reused=$TMPDIR/vmregress-traces-$$-1-abcdef  # this shell is alive, but did not start at 1
old=$TMPDIR/vmregress-2147483646-abcdef      # a name from before the start time was in it
mkdir "$reused" "$old"
run "$VMR" cleanup
check "cleanup leaves the traces directory of a live copy named otherwise ($traces)" [ -n "$traces" -a -d "$traces" ]
check "cleanup removes a directory whose PID lives but started at another time" [ ! -e "$reused" ]
check "cleanup removes a directory of the older naming whose owner is gone" [ ! -e "$old" ]
kill -TERM "$p"; wait "$p" 2>/dev/null

# The swap file's name is taken: pre-create it for a vmregress stopped
# before it execs (its PID and start time, which the name holds, are known
# then), and let it go.
sh -c 'kill -STOP $$; exec "$0" "$@"' "$VMR" sandbox exec --mem 32M --swap file:16M -- true \
	2>"$T_TMP/eexist.err" {SB_LOCK_FD}<&- &
p=$!; SB_PIDS+=("$p")
for _ in $(seq 100); do grep -q '^State:.*T' "/proc/$p/status" 2>/dev/null && break; sleep 0.02; done
start=$(sed 's/.*) //' "/proc/$p/stat" | awk '{print $20}')
taken=$SB_STATE/swap/vmregress-$p-$start-0.swap
echo precious > "$taken"
kill -CONT "$p"; wait "$p"; rc=$?
ERR=$(cat "$T_TMP/eexist.err")
check "a taken swap-file name: the sandbox is refused (exit $rc, want 3)" [ "$rc" = 3 ]
expect_err "it names the file and the reason" "cannot create swap file .*vmregress-$p-$start-0.swap: File exists"
check "the file that was there is left as it was" [ "$(cat "$taken" 2>/dev/null)" = precious ]
check "no journal is left" [ -z "$(ls "$SB_STATE"/vmregress-"$p"-*.journal 2>/dev/null)" ]
rm -f "$taken"
done_testing
