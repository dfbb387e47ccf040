# A case that the OOM killer ends carries the kernel's own report of the
# kill (the cgroup's counters at that moment, from /dev/kmsg) in its result,
# in the store and in the printed reason: a workload twice the limit with
# no swap, so the kill is certain.
. "$(dirname "$0")/sandbox-lib.bash"

run "$VMR" test mtest01 --bytes 128M --write --mem 64M --swap none --json
echo "$OUT" > "$T_TMP/oom.json"
expect_rc "2x the limit without swap fails (exit 1)" 1
expect_json_is "it is an OOM kill" '.outcome' oom
expect_json "the reason carries the counters at the kill" \
	'.reason | test("^killed by the OOM killer \\(kernel log: memory [0-9]+ of 65536 kB, (memory\\+swap|swap) [0-9]+ of [0-9]+ kB, .*charged in ")'
cg=$(jq -r '.info.sandbox.cgroup | split("/") | last' "$T_TMP/oom.json")
expect_json "the report is of this sandbox's kill" \
	'.info.oom_report.oom_kill | contains("oom_memcg=/" + $cg + ",")' --arg cg "$cg"
expect_json "the report has usage, limit and failcnt at the kill" \
	'.info.oom_report.memory | .usage_kb > 60000 and .limit_kb == 65536 and (.failcnt | type) == "number"'
expect_json "the report has the memory.stat lines at the kill (anon charged)" \
	'.info.oom_report.stat | ((.rss // .anon) > 32 * 1048576) and has("swapcached")'
expect_json "the report has the call trace of the failed charge" \
	'.info.oom_report.trace | index("mem_cgroup_out_of_memory") != null'
expect_json "the counters read after the kill are kept beside it" \
	'.info.sandbox_after | has("peak_bytes") and has("oom_kill")'
expect_err "stderr says why, with the counters" "test mtest01: oom: killed by the OOM killer \(kernel log: memory "

run "$VMR" test mtest01 --bytes 128M --write --mem 64M --swap none
expect_rc "the text report: exit 1" 1
expect_out "the text report carries the counters" "^mtest01: oom: killed by the OOM killer \(kernel log: memory [0-9]+ of 65536 kB"

cat > "$T_TMP/oom.ini" <<'INI'
[global]
iterations = 1
mem = 64M
swap = none

[over]
workload = mtest01
bytes = 128M
write = yes
INI
DB=$T_TMP/oom.db
run "$VMR" run "$T_TMP/oom.ini" --db "$DB" --name oomrun --quiet
expect_rc "a suite whose case is OOM-killed exits 1" 1
run "$VMR" show oomrun --db "$DB" --json
expect_json "the stored reason carries the counters" \
	'.cases[0].reasons[0] | .outcome == "oom" and (.reason | test("kernel log: memory [0-9]+ of 65536 kB"))'
if command -v sqlite3 > /dev/null; then
	rep=$(sqlite3 "$DB" "SELECT result FROM iterations")
	jqq() { jq -e "$@" > /dev/null; }   # (a redirect after check would hide its line)
	check "the stored result holds the whole report" \
		jqq '.info.oom_report | .memory.limit_kb == 65536 and (.lines | length) > 20' <<< "${rep:-null}"
else
	skip "the stored result holds the whole report" "no sqlite3 program here"
fi
# sandbox exec: the same report, for any program
run "$VMR" sandbox exec --json --mem 64M --swap none -- "$MEMFILL" 192
expect_rc "exec: 3x without swap is an OOM kill (137)" 137
expect_json "exec: the JSON has the kernel's report of this sandbox's kill" \
	'. as $r | $r.oom_report.memory.limit_kb == 65536 and ($r.oom_report.oom_kill | contains("oom_memcg=/" + ($r.sandbox.cgroup | split("/") | last) + ","))'
run "$VMR" sandbox exec --mem 64M --swap none -- "$MEMFILL" 192
expect_rc "exec: the text report, exit 137" 137
expect_err "exec: the text report has the counters at the kill" "At the OOM kill \(kernel log\): memory [0-9]+ of 65536 kB, "
left=$(ours_left "$T_TMP/oom.json")
check "nothing of ours is left ($left)" [ -z "$left" ]
done_testing
