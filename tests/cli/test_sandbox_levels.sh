# --levels memcg: the fault and alloc levels from the thresholds of a
# cgroup v2 memory controller, which the sandbox sets on its own cgroup
# (--mem-low, --mem-high) and removes with it.  On a host whose memory
# controller is on cgroup v1 both are refused with the reason (exit 3);
# tests/guest/sandbox-guest.sh runs this file on a v2 kernel.
. "$(dirname "$0")/sandbox-lib.bash"

v2=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
if [ -z "$v2" ] || ! grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null; then
	run "$VMR" test fault --levels memcg --level min --mem 64M --swap none
	expect_rc "v1: --levels memcg cannot run here (exit 3)" 3
	expect_err "v1: it says it needs the v2 memory controller" \
		"test fault: skip: --levels memcg needs the cgroup v2 memory controller \(memory.low, memory.high\): the memory controller here is on cgroup v1"
	run "$VMR" test alloc --levels memcg --mem 64M --swap none
	expect_rc "v1: alloc --levels memcg cannot run here (exit 3)" 3
	run "$VMR" test fault --mem-low 32M --mem 64M --swap none
	expect_rc "v1: --mem-low is refused (exit 3)" 3
	expect_err "v1: --mem-low says why" "^vmregress: --mem-low: needs the cgroup v2 memory controller \(memory.low\); the memory controller here is on cgroup v1"
	left=$(ours_left)
	check "v1: the refusal left nothing ($left)" [ -z "$left" ]
	skip "cgroup v2 levels" "the memory controller is not on the unified hierarchy here (bound to cgroup v1)"
	done_testing; exit 0
fi

run "$VMR" test fault --mem-low 70M --mem 64M --swap none
expect_rc "--mem-low above --mem is bad input (exit 2)" 2

# 64M = 16384 pages: memory.low 8192, memory.high 12288, memory.max 16384
run "$VMR" test fault --levels memcg --level min --mem 64M --mem-low 32M --mem-high 48M --swap file --passes 2 --json
echo "$OUT" > "$T_TMP/min.json"
expect_rc "v2: level min against memory.high passes" 0
expect_json "v2: the sandbox set and recorded memory.low and memory.high" \
	'.info.sandbox | .cgroup_version == 2 and .low_bytes == 33554432 and .high_bytes == 50331648'
expect_json "v2: the thresholds were read back from the cgroup" \
	'.info.levels == "memcg" and .info.start.low_pages == 8192 and .info.start.high_pages == 12288'
expect_json "v2: min ends midway between memory.high and memory.max" \
	'.info.pages + .info.start.usage_pages == 14336'
expect_json "v2: min crossed memory.high (memory.events high counted)" '.info["sandbox-after"]["events.high"] > 0'
expect_json "v2: the meaning is named" '.info.level_meaning | test("between memory.high and memory.max")'

run "$VMR" test fault --levels memcg --level fast --mem 64M --mem-low 32M --mem-high 48M --swap file --passes 2 --json
expect_rc "v2: level fast against memory.low passes" 0
expect_json "v2: fast ends at memory.low" '.info.pages + .info.start.usage_pages == 8192'
expect_json "v2: fast stays below memory.high (no high events)" '.info["sandbox-after"]["events.high"] == 0'

run "$VMR" test fault --levels memcg --level low --mem 64M --mem-low 32M --mem-high 48M --swap file --passes 1
expect_rc "v2: level low, the text report" 0
expect_out "v2: the report prints the thresholds" "memcg->low += 8192 pages"
expect_out "v2: the report names the level's meaning" "level low: midway between memory.low and memory.high"

run "$VMR" test alloc --levels memcg --level min --mem 64M --mem-high 48M --swap file --passes 1 --json
expect_rc "v2: alloc at level min against memory.high" 0

run "$VMR" test fault --levels memcg --level min --mem 64M --swap file --passes 1
expect_rc "v2: level min without memory.high cannot run (exit 3)" 3
expect_err "v2: it names the option to give" "level min needs memory.high, which the sandbox has not set \(give --mem-high\)"
left=$(ours_left "$T_TMP/min.json")
check "v2: nothing of ours is left ($left)" [ -z "$left" ]
done_testing
