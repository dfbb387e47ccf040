# Two runs at once with different knobs: the second run's environment
# records the host's own values, not the first run's temporary ones that
# were in force when its fingerprint was taken (it then waits for the
# knobs).  Its environment names those knobs as another run's.  The host's
# own value is the one the first run's journal keeps to restore.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/r.db
is_root || { skip "two runs with different knobs" "needs root (knobs)"; done_testing; exit 0; }
mthp=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
selected() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$1"; }
host_pc=$(cat /proc/sys/vm/page-cluster)
a_pc=0; [ "$host_pc" = 0 ] && a_pc=1
b_pc=5; [ "$host_pc" = 5 ] && b_pc=4
sets_a=(--set "vm.page-cluster=$a_pc") sets_b=(--set "vm.page-cluster=$b_pc")
if [ -r "$mthp" ]; then
	host_mthp=$(selected "$mthp")
	a_mthp=madvise; [ "$host_mthp" = madvise ] && a_mthp=never
	sets_a+=(--set "thp.64K.enabled=$a_mthp")
fi
suite() { # suite FILE SPIN
	printf '[global]\niterations = 1\nmem = 32M\nswap = none\nno-monitor = yes\nno-probe = yes\n[n]\nworkload = null\nspin = %s\n' \
		"$2" > "$1"
}
suite "$T_TMP/a.ini" 4s
suite "$T_TMP/b.ini" 10ms
"$VMR" run "$T_TMP/a.ini" --db "$DB" --name pc-a --quiet "${sets_a[@]}" >/dev/null 2>"$T_TMP/a.err" &
a=$!
# The host's own values, as the first run's journal keeps them to restore
# them (another vmregress, or a person, may have changed them since this
# test began: the machine may be busy)
knob_before() { # knob_before KNOB: the value the first run found
	"$VMR" sandbox status --json 2>/dev/null | jq -r --argjson p "$a" --arg k "$1" \
		'[.journals[] | select(.owner_pid == $p) | .changes[]? | select(.what == "knob" and .path == $k) | .old_value][0] // empty'
}
# wait until the first run's knobs are in force: its journal names the knob
# (written before the change) and the knob has its value (it may wait for
# the knobs itself on a busy machine)
host_pc=
for _ in $(seq 1200); do
	host_pc=$(knob_before vm.page-cluster)
	[ -n "$host_pc" ] && [ "$(cat /proc/sys/vm/page-cluster)" = "$a_pc" ] && break
	kill -0 $a 2>/dev/null || break
	sleep 0.05
done
if [ -z "$host_pc" ] || [ "$(cat /proc/sys/vm/page-cluster)" != "$a_pc" ]; then
	wait $a
	skip "two runs with different knobs" "the first run's knobs never came into force ($(head -c 200 "$T_TMP/a.err"))"
	done_testing; exit 0
fi
[ -n "${host_mthp:-}" ] && host_mthp=$(knob_before thp.64K.enabled)
check "the first run's journal keeps the host's vm.page-cluster ($host_pc), not its own ($a_pc)" \
	[ "$host_pc" != "$a_pc" ]
run "$VMR" run "$T_TMP/b.ini" --db "$DB" --name pc-b --quiet "${sets_b[@]}"
wait $a; a_rc=$?
check "the first run ran (exit $a_rc: $(head -c 200 "$T_TMP/a.err"))" [ "$a_rc" = 0 ]
expect_rc "the second run ran" 0
run sqlite3 "$DB" "SELECT env FROM runs WHERE name = 'pc-b'"
expect_json_is "the second run records the host's vm.page-cluster ($host_pc), not the first run's ($a_pc)" \
	'.sysctl["vm.page-cluster"]' "$host_pc"
expect_json_is "and names it as another run's, with the value in force" \
	'.others_knobs["vm.page-cluster"] | "\(.host) \(.in_force)"' "$host_pc $a_pc"
if [ -n "${host_mthp:-}" ] && [ "$host_mthp" = "$a_mthp" ]; then
	skip "64K mTHP enabled recorded as the host's" "another vmregress had set it to the first run's value ($a_mthp) as this test began"
elif [ -n "${host_mthp:-}" ]; then
	expect_json_is "the second run records the host's 64K mTHP enabled ($host_mthp), not the first run's ($a_mthp)" \
		'.thp.sizes["64K"].enabled' "$host_mthp"
else
	skip "64K mTHP enabled recorded as the host's" "this kernel has no 64K mTHP"
fi
done_testing
