# The sandbox: refused inputs, swapping inside the limit with intact data,
# OOM confined to the sandbox, and the host left exactly as it was.
. "$(dirname "$0")/sandbox-lib.bash"

run "$VMR" sandbox --help
expect_rc "sandbox --help exits 0" 0; expect_out "help lists the sandbox options" '--mem'
run "$VMR" sandbox status
expect_rc "status exits 0" 0; expect_out "status names the state directory" "^state directory: $SB_STATE"
expect_no_out "status lists no journal of ours" "^journal"
run "$VMR" sandbox status --json
expect_rc "status --json exits 0" 0
expect_json "status --json is one JSON document with no journal" '.journals == [] and (.changed|type) == "boolean"'

# Refused inputs: exit 2, one line naming the input, nothing changed.
knobs_watch
knobs0=$(knobs_snap)
refuse() { # refuse NAME RC REGEX ARGS...
	local name=$1 rc=$2 re=$3; shift 3
	run "$VMR" sandbox exec "$@" -- true
	expect_rc "$name: exit $rc" "$rc"; expect_err "$name: says why" "$re"
	check "$name: one line on stderr" one_line_err
}
refuse "unknown knob" 2 "'nosuch.knob=1' is not an allow-listed knob" --set nosuch.knob=1
refuse "path as a knob" 2 "names a path" --set vm/../kernel/core_pattern=x
refuse "knob set twice" 2 "second time" --set vm.page-cluster=3 --set vm.page-cluster=4
refuse "limit 0" 2 "--mem: 0 is not a usable limit" --mem 0
refuse "limit above the host" 2 "more than this host's memory" --mem 100T
refuse "unknown swap kind" 2 "--swap: 'disk'" --swap disk
refuse "mem-high above mem" 2 "mem-high" --mem 64M --mem-high 128M
total_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
refuse "limit beyond free memory" 3 "not enough free memory" --mem $(( total_kb - 1024 ))K --swap none
refuse "swap file beyond free disk" 3 "not enough disk" --mem 64M --swap file:900T
mkdir -m 700 "$T_TMP/real"; ln -s "$T_TMP/real" "$T_TMP/link"
VMREGRESS_STATE_DIR=$T_TMP/link run "$VMR" sandbox exec --mem 64M -- true
expect_rc "symlinked state directory: exit 2" 2; expect_err "symlinked state directory: says so" 'is a symbolic link'
mkdir -m 700 "$T_TMP/st2"; ln -s "$T_TMP/real" "$T_TMP/st2/swap"
VMREGRESS_STATE_DIR=$T_TMP/st2 run "$VMR" sandbox exec --mem 64M -- true
expect_rc "symlinked swap directory: exit 2" 2; expect_err "symlinked swap directory: says so" 'swap: is a symbolic link'
check "nothing created through the symlink" [ -z "$(ls -A "$T_TMP/real")" ]
mkdir -m 777 "$T_TMP/st3"
VMREGRESS_STATE_DIR=$T_TMP/st3 run "$VMR" sandbox exec --mem 64M -- true
expect_rc "world-writable state directory: exit 2" 2; expect_err "world-writable: says so" 'writable by others'
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$VMR"; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$VMR" sandbox exec --mem 64M -- true
	expect_rc "not root: exit 3" 3; expect_err "not root: says so" 'needs root'
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$VMR" cleanup
	expect_rc "cleanup not as root: exit 3" 3
else
	skip "not root refusal" "cannot run $VMR as nobody here"
fi
run "$VMR" sandbox exec --mem 64M --swap none -- /nonexistent/program
expect_rc "missing command: exit 2" 2; expect_err "missing command: says so" "cannot run '/nonexistent/program'"
check "refusals leave every knob as it was" knobs_same "$knobs0"
knobs_release
check "refusals leave nothing of ours" [ -z "$(ours_left)" ]

# 1.5x the limit with a swap file: it swaps, and every page comes back intact.
knobs_watch
knobs0=$(knobs_snap)
run "$VMR" sandbox exec --json --mem 64M -- "$MEMFILL" 96
echo "$OUT" > "$T_TMP/file.json"
expect_rc "1.5x with a swap file exits 0 (data intact)" 0
expect_err "memfill reported intact data" 'intact'
expect_json "the sandbox swapped out (pswpout rose)" '.pswpout > 0'
expect_json "the memcg's swap usage rose" '.swap_peak_bytes > 0'
expect_json "time -v fields are reported" '.user_s >= 0 and .system_s > 0 and .elapsed_s > 0 and .max_rss_kb > 0
	and .minor_faults > 0 and .cpu_percent > 0 and (.voluntary_switches|type) == "number"
	and (.involuntary_switches|type) == "number" and (.major_faults|type) == "number"'
expect_json "max RSS stays within the limit" '.max_rss_kb <= 65536 + 2048'
expect_json "describe names a v1 or v2 cgroup, the limit and the swap file" '(.sandbox.cgroup_version == 1 or
	.sandbox.cgroup_version == 2) and .sandbox.limit_bytes == 67108864 and .sandbox.swap.kind == "file"
	and .sandbox.swap.bytes == 134217728 and .sandbox.swap.priority == 32767'
expect_json "describe records every allow-listed knob" '(.sandbox.knobs | length) == 48'
check "after exec every knob is as it was" knobs_same "$knobs0"
knobs_release
left=$(ours_left "$T_TMP/file.json")
check "after exec no cgroup, swap area, swap file or journal is left ($left)" [ -z "$left" ]

# The text report is the time -v one.
run "$VMR" sandbox exec --mem 64M --swap none -- sh -c 'exit 7'
expect_rc "the command's exit status passes through" 7
expect_err "text report has time -v's lines" 'Maximum resident set size \(kbytes\)'
expect_err "text report has the swap lines" 'Swap-outs \(pages, /proc/vmstat pswpout\)'

# 3x the limit without swap: an OOM kill inside the sandbox, nothing outside.
sleep 60 {SB_LOCK_FD}<&- & bystander=$!; SB_PIDS+=("$bystander")
run "$VMR" sandbox exec --json --mem 64M --swap none -- "$MEMFILL" 192
echo "$OUT" > "$T_TMP/oom.json"
expect_rc "3x without swap ends killed by SIGKILL (137)" 137
expect_json "the outcome is oom" '.outcome == "oom" and .oom_kills >= 1'
check "a process outside the sandbox survived" kill -0 "$bystander"
expect_json "the harness itself was not killed (it printed its report)" '.signal == 9'
left=$(ours_left "$T_TMP/oom.json")
check "after the OOM nothing of ours is left ($left)" [ -z "$left" ]
kill "$bystander" 2>/dev/null

# The watchdog.
run "$VMR" sandbox exec --json --mem 64M --swap none --timeout 500ms -- sleep 20
expect_rc "a command over --timeout ends with 124" 124
expect_json "the outcome is timeout, soon" '.outcome == "timeout" and .elapsed_s < 5'

# Knobs apply inside and are restored after; one sandbox holds them at a time.
knobs_change
refuse "kernel refuses a knob value" 2 "the kernel refused it" --mem 64M --swap none --set vm.page-cluster=banana
"$VMR" sandbox exec --mem 64M --swap none --set vm.page-cluster=3 -- sleep 30 2>/dev/null {SB_LOCK_FD}<&- &
holder=$!; SB_PIDS+=("$holder")
wait_built "$holder" || not_ok "a knob-holding sandbox came up"
run "$VMR" sandbox exec --mem 64M --swap none --timeout 300ms --set vm.swappiness=60 -- true
expect_rc "a second sandbox setting knobs waits, then gives up: exit 3" 3
expect_err "it says it waits" "^vmregress: warning: waiting for another vmregress that is setting knobs"
expect_err "and why it gave up" "another vmregress kept the knobs .* longer than --timeout"
run "$VMR" sandbox exec --mem 64M --swap none -- true
expect_rc "a sandbox without --set runs beside it" 0
kill -TERM "$holder"; wait "$holder" 2>/dev/null
old=$(cat /proc/sys/vm/page-cluster); new=$(( old == 4 ? 5 : 4 ))
run "$VMR" sandbox exec --json --mem 64M --swap none --set vm.page-cluster=$new -- cat /proc/sys/vm/page-cluster
expect_rc "exec with --set exits 0" 0
expect_err "the knob is in force inside" "^$new\$"
expect_json "describe marks it set" '.sandbox.knobs["vm.page-cluster"] == {"value": $v, "set": true}' --arg v "$new"
check "the knob is restored after" [ "$(cat /proc/sys/vm/page-cluster)" = "$old" ]
knobs_release

# --no-sandbox: no cgroup, no swap of its own.
run "$VMR" sandbox exec --json --no-sandbox -- true
expect_rc "--no-sandbox runs" 0
expect_json "--no-sandbox is described as unsandboxed" '.sandbox.sandboxed == false'
check "nothing left at the end" [ -z "$(ours_left)" ]
done_testing
