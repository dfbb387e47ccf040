# --stats-flush: while a sandbox exists a child process of vmregress
# (vmr-statflush) reads its
# cgroup's memory.stat every interval, which makes the kernel refresh the
# statistics its reclaim reads (src/sandbox/statflush.h says why: without
# it, anonymous workloads that swap were OOM-killed with swap to spare).
# Guards against: the reader not running, running when turned off, not
# stopping with the sandbox, and the interval not being recorded.
. "$(dirname "$0")/sandbox-lib.bash"

# The program run inside: the reader process's read bytes (rchar), a child
# of its parent vmregress, now and after a while; "none" when there is no
# reader.  It is a process, not a thread of vmregress (whose threads, such
# as sandbox exec's swap sampler, have other names).
cat > "$T_TMP/watch.sh" <<'EOF'
rchar() { sed -n 's/^rchar: //p' "$1/io"; }
n=$(cat /proc/$PPID/task/*/comm | grep -cx vmr-statflush)
[ "$n" = 0 ] || { echo "threads $n" > "$1"; exit 0; }
for p in /proc/[0-9]*; do
	[ "$(cat "$p/comm" 2>/dev/null)" = vmr-statflush ] || continue
	[ "$(sed 's/.*) //' "$p/stat" 2>/dev/null | cut -d' ' -f2)" = "$PPID" ] || continue
	a=$(rchar "$p"); sleep 0.4; b=$(rchar "$p")
	echo "read $((b - a)) bytes ${p#/proc/}" > "$1"
	exit 0
done
echo none > "$1"
EOF

run "$VMR" sandbox exec --json --mem 32M --swap none -- sh "$T_TMP/watch.sh" "$T_TMP/default.txt"
echo "$OUT" > "$T_TMP/default.json"
expect_rc "default: exec exits 0" 0
expect_json "default: the interval is recorded (50ms)" '.sandbox.stats_flush_ns == 50000000'
read -r what n _ reader < "$T_TMP/default.txt"
check "default: the reader read memory.stat while the program ran ($what ${n:-} bytes)" \
	test "$what" = read -a "${n:-0}" -gt 0
left=$(ours_left "$T_TMP/default.json")
check "default: nothing of ours is left ($left)" [ -z "$left" ]
# the reader seen while the program ran is no longer alive
check "default: the reader is gone with the sandbox (${reader:-none})" \
	bash -c '[ -n "$1" ] && ! grep -qs "(vmr-statflush) [^Z]" "/proc/$1/stat"' _ "${reader:-}"

run "$VMR" sandbox exec --json --mem 32M --swap none --stats-flush 0 -- sh "$T_TMP/watch.sh" "$T_TMP/off.txt"
expect_rc "--stats-flush 0: exec exits 0" 0
check "--stats-flush 0: no reader process" [ "$(cat "$T_TMP/off.txt")" = none ]
expect_json "--stats-flush 0: recorded as 0" '.sandbox.stats_flush_ns == 0'

run "$VMR" sandbox exec --mem 32M --stats-flush 11s -- true
expect_rc "--stats-flush beyond 10s: exit 2" 2
expect_err "--stats-flush beyond 10s: says the range" "stats-flush: '11s' is out of range"
check "--stats-flush beyond 10s: one line on stderr" one_line_err
run "$VMR" sandbox exec --mem 32M --stats-flush often -- true
expect_rc "--stats-flush not a time: exit 2" 2
check "--stats-flush not a time: one line on stderr" one_line_err
done_testing
