# The cgroup v2 path (memory.max, memory.swap.max, memory.high,
# memory.events): exercised wherever the unified hierarchy's root hands the
# memory controller to its children; elsewhere a SKIP with the reason.
. "$(dirname "$0")/sandbox-lib.bash"

v2=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
if [ -z "$v2" ]; then
	skip "cgroup v2 sandbox" "no cgroup2 file system is mounted"
	done_testing; exit 0
fi
if ! grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null; then
	skip "cgroup v2 sandbox" "the memory controller is not on the unified hierarchy at $v2 (bound to cgroup v1 here)"
	done_testing; exit 0
fi
knobs_watch
knobs0=$(knobs_snap)
run "$VMR" sandbox exec --json --mem 64M --mem-high 60M -- "$MEMFILL" 96
echo "$OUT" > "$T_TMP/v2.json"
expect_rc "v2: 1.5x with a swap file exits 0 (data intact)" 0
expect_json "v2: the sandbox is a v2 cgroup" '.sandbox.cgroup_version == 2'
expect_json "v2: it swapped" '.pswpout > 0 and .swap_peak_bytes > 0'
expect_json "v2: memory.events were read" '.after | has("events.max") and has("stat.anon")'
run "$VMR" sandbox exec --json --mem 64M --swap none -- "$MEMFILL" 192
expect_rc "v2: 3x without swap is an OOM kill" 137
expect_json "v2: memory.events counts the oom_kill" '.outcome == "oom" and .oom_kills >= 1'
check "v2: knobs are as they were" knobs_same "$knobs0"
knobs_release
left=$(ours_left "$T_TMP/v2.json")
check "v2: nothing of ours is left ($left)" [ -z "$left" ]
done_testing
