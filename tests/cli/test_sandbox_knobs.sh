# Knobs and concurrent runs: a workload measured under the host's knobs
# holds the knob lock shared, so it never runs under another vmregress's
# temporary values (it waits for the sandbox that set them, and a sandbox
# setting knobs waits for it); and values that endanger the host are refused
# unless --force, naming the knob, the value and the bound.
. "$(dirname "$0")/sandbox-lib.bash"

knob=/proc/sys/vm/page-cluster
# page_cluster RESULT-JSON: the value the result says was in force
page_cluster() { jq -r '.info.sandbox.knobs["vm.page-cluster"] | "\(.value) \(.set)"' <<< "${1:-null}"; }

knobs_change  # this file changes vm.page-cluster
old=$(cat $knob); new=$(( old == 4 ? 5 : 4 ))

# 1. A writer holds the knobs; a run that sets none starts meanwhile.
"$VMR" sandbox exec --mem 32M --swap none --set vm.page-cluster=$new -- sleep 2 2>/dev/null {SB_LOCK_FD}<&- &
writer=$!; SB_PIDS+=("$writer")
wait_built "$writer" || not_ok "the knob-setting sandbox came up"
check "the writer's value is in force" [ "$(cat $knob)" = "$new" ]
run "$VMR" test null --json --mem 32M --swap none
writer_alive=no; kill -0 "$writer" 2>/dev/null && writer_alive=yes
expect_rc "a run without --set beside a writer succeeds" 0
expect_err "it says it waits for the writer" "waiting for another vmregress that is setting knobs"
check "it ran after the writer was gone (alive: $writer_alive)" [ "$writer_alive" = no ]
check "it ran under the host's value, not the writer's ($(page_cluster "$OUT"))" \
	[ "$(page_cluster "$OUT")" = "$old false" ]
expect_json "the result says it held the knob lock shared" '.info.knob_lock == "shared"' 
wait "$writer" 2>/dev/null

# 2. A reader that cannot wait that long gives up with the reason.
"$VMR" sandbox exec --mem 32M --swap none --set vm.page-cluster=$new -- sleep 5 2>/dev/null {SB_LOCK_FD}<&- &
writer=$!; SB_PIDS+=("$writer")
wait_built "$writer" || not_ok "the knob-setting sandbox came up"
run "$VMR" test null --json --mem 32M --swap none --timeout 300ms
expect_rc "with a short --timeout it gives up: exit 1" 1
expect_err "and says why" "another vmregress kept the knobs set .* longer than --timeout"
expect_json "the outcome is an error, not a measurement" '.outcome == "error"' 
kill -TERM "$writer"; wait "$writer" 2>/dev/null

# 3. A reader runs; a writer that starts meanwhile waits for it.
"$VMR" test reread --json --size 1M --second 1M --sleep 2s --mem 32M --swap file:16M \
	>"$T_TMP/reader.json" 2>"$T_TMP/reader.err" {SB_LOCK_FD}<&- &
reader=$!; SB_PIDS+=("$reader")
wait_built "$reader" || not_ok "the reader's sandbox came up"
cg=$(sed -n 's/^cgroup \(\/[^ ]*\) .*/\1/p' "$SB_STATE"/vmregress-"$reader"-*.journal)
for _ in $(seq 100); do [ -n "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break; sleep 0.05; done
"$VMR" sandbox exec --mem 32M --swap none --set vm.page-cluster=$new -- sh -c "cat $knob; sleep 1" \
	>"$T_TMP/writer.out" 2>"$T_TMP/writer.err" {SB_LOCK_FD}<&- &
writer=$!; SB_PIDS+=("$writer")
changed=no
# the workload runs while its cgroup holds it: before and after the sample
busy() { [ -n "$(cat "$cg/cgroup.procs" 2>/dev/null)" ]; }
while kill -0 "$reader" 2>/dev/null; do
	busy && [ "$(cat $knob)" = "$new" ] && busy && changed=yes
	sleep 0.02
done
wait "$reader"; rc=$?
wait "$writer"; wrc=$?
OUT=$(cat "$T_TMP/reader.json")
check "the reader ran (exit $rc)" [ "$rc" = 0 ]
check "the knob did not change while the reader ran" [ "$changed" = no ]
check "the reader's result has the host's value ($(page_cluster "$OUT"))" [ "$(page_cluster "$OUT")" = "$old false" ]
check "the writer waited, then set its value (exit $wrc)" \
	bash -c '[ "$1" = 0 ] && grep -q "waiting for another vmregress" "$2" && grep -qx "$3" "$4"' _ "$wrc" \
	"$T_TMP/writer.err" "$new" "$T_TMP/writer.out"
check "the knob is restored" [ "$(cat $knob)" = "$old" ]
knobs_release

# 4. Bounds: refused before anything is changed (exit 2), naming the knob,
# the value and the bound; --force lets a value through.
knobs_change
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
knob_file() { case $1 in vm.*) echo "/proc/sys/vm/${1#vm.}";; zswap.*) echo "/sys/module/zswap/parameters/${1#zswap.}";; esac; }
bound() { # bound NAME VALUE REGEX: --set NAME=VALUE is refused, saying REGEX
	local f before; f=$(knob_file "$1"); before=$(cat "$f")
	run "$VMR" sandbox exec --mem 32M --swap none --set "$1=$2" -- true
	expect_rc "$1=$2 is refused: exit 2" 2
	expect_err "$1=$2: the error names the knob, the value and the bound" \
		"^vmregress: --set: $1=$2 is $3 --force sets it anyway$"
	check "$1=$2: one line, and nothing changed" \
		bash -c '[ "$(printf "%s" "$1" | grep -c "")" = 1 ] && [ "$2" = "$3" ]' _ "$ERR" "$before" "$(cat "$f")"
}
bound vm.min_free_kbytes $(( mem_kb / 2 )) "above its bound of $(( mem_kb / 20 )) \(.*memory.*\);"
bound vm.min_free_kbytes 100 "below its bound of 1024 .*;"
bound vm.watermark_scale_factor 3000 "above its bound of 1000 \(.*kswapd.*\);"
bound vm.vfs_cache_pressure 0 "below its bound of 1 \(.*never reclaimed.*\);"
if [ -e /sys/module/zswap/parameters/max_pool_percent ]; then
	bound zswap.max_pool_percent 90 "above its bound of 50 .*;"
else
	skip "zswap.max_pool_percent bound" "no zswap"
fi
# overcommit 2 with a ratio whose commit limit is below what is committed
run "$VMR" sandbox exec --mem 32M --swap none --set vm.overcommit_memory=2 --set vm.overcommit_ratio=0 -- true
expect_rc "vm.overcommit_memory=2 with vm.overcommit_ratio=0 is refused: exit 2" 2
expect_err "it names both knobs, the limit and its bound" \
	"^vmregress: --set: vm.overcommit_memory=2 with vm.overcommit_ratio=0: the commit limit would be [0-9]+ kB, below its bound of [0-9]+ kB"
run "$VMR" sandbox exec --mem 32M --swap none --set vm.overcommit_ratio=0 --set vm.overcommit_memory=2 -- true
expect_rc "in either order" 2
# the value in force now is within the bounds
cur=$(cat /proc/sys/vm/min_free_kbytes)
run "$VMR" sandbox exec --mem 32M --swap none --set vm.min_free_kbytes=$cur -- true
expect_rc "vm.min_free_kbytes=$cur (the value in force) is accepted" 0
old_vfs=$(cat /proc/sys/vm/vfs_cache_pressure)
run "$VMR" sandbox exec --mem 32M --swap none --force --set vm.vfs_cache_pressure=0 -- cat /proc/sys/vm/vfs_cache_pressure
expect_rc "with --force, vm.vfs_cache_pressure=0 is set" 0
check "it was in force inside" grep -qx 0 <<< "$OUT"
check "and is restored after" [ "$(cat /proc/sys/vm/vfs_cache_pressure)" = "$old_vfs" ]
knobs_release
done_testing
