# The knobs of today's VM (multi-size THP per size, the THP shrinker,
# zswap's shrinker and accept threshold, NUMA demotion and balancing, MGLRU) are set for
# the sandbox's lifetime and restored after a normal exit, SIGINT, and
# kill -9 followed by cleanup; a knob this kernel lacks is refused with
# nothing left changed.
. "$(dirname "$0")/sandbox-lib.bash"

knobs_change  # this file changes host-wide knobs
T=/sys/kernel/mm/transparent_hugepage
Z=/sys/module/zswap/parameters
# val FILE: the value in force (the bracketed choice of a selector)
val() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }

# The knobs this kernel has, each with a value other than its own.
NAMES=() FILES=() NEW=()
add() { # add NAME FILE NEW-IF-OLD-DIFFERS ALTERNATIVE
	[ -w "$2" ] || { skip "$1" "this kernel has no $2"; return; }
	local old; old=$(val "$2")
	NAMES+=("$1"); FILES+=("$2"); NEW+=("$( [ "$old" = "$3" ] && echo "$4" || echo "$3")")
}
add thp.64K.enabled $T/hugepages-64kB/enabled always never
add thp.64K.shmem_enabled $T/hugepages-64kB/shmem_enabled always never
add thp.2M.enabled $T/hugepages-2048kB/enabled never inherit
add thp.shrink_underused $T/shrink_underused 0 1
add zswap.shrinker_enabled $Z/shrinker_enabled Y N
add zswap.accept_threshold_percent $Z/accept_threshold_percent 80 70
add numa.demotion_enabled /sys/kernel/mm/numa/demotion_enabled true false
add kernel.numa_balancing /proc/sys/kernel/numa_balancing 1 0
if [ ${#NAMES[@]} = 0 ]; then skip "modern knobs" "this kernel has none of them"; done_testing; exit 0; fi
SETS=(); for i in "${!NAMES[@]}"; do SETS+=(--set "${NAMES[$i]}=${NEW[$i]}"); done
snap() { local f; for f in "${FILES[@]}"; do echo "$f=$(val "$f")"; done; }
# now_new: every knob has its new value
now_new() { local i; for i in "${!FILES[@]}"; do [ "$(val "${FILES[$i]}")" = "${NEW[$i]}" ] || return 1; done; }
before=$(snap)
restored() { [ "$(snap)" = "$before" ] || { diff <(echo "$before") <(snap) | sed -n 's/^[<>]/#&/p'; return 1; }; }
echo "# setting: ${SETS[*]}"

# --- normal exit: the command inside sees the new values
cmd="for f in ${FILES[*]}; do sed 's/.*\[\(.*\)\].*/\1/' \$f; done"
run "$VMR" sandbox exec --mem 64M --swap none "${SETS[@]}" -- sh -c "$cmd"
expect_rc "sandbox exec with the modern knobs exits 0" 0
[ "$OUT" = "$(printf '%s\n' "${NEW[@]}")" ] && ok "inside, every knob has its new value" \
	|| not_ok "inside, every knob has its new value (got $(echo $OUT), want ${NEW[*]})"
check "after a normal exit every knob is restored" restored

# --- the values in force are recorded with the sandbox
run "$VMR" sandbox exec --mem 64M --swap none --json --set "${NAMES[0]}=${NEW[0]}" -- true
expect_rc "--json with one knob exits 0" 0
expect_json "the sandbox's description records ${NAMES[0]} as set" \
	'.sandbox.knobs[$k].set and .sandbox.knobs[$k].value == $v' --arg k "${NAMES[0]}" --arg v "${NEW[0]}"
check "and restores it" restored

# start_bg: a sandbox with the knobs set, up once its command has started
start_bg() {
	rm -f "$T_TMP/up"
	"$VMR" sandbox exec --mem 64M --swap none "${SETS[@]}" -- sh -c "touch $T_TMP/up; sleep 30" \
		2>"$T_TMP/bg.err" {SB_LOCK_FD}<&- &
	VPID=$!; SB_PIDS+=("$VPID")
	for _ in $(seq 600); do [ -e "$T_TMP/up" ] && return 0; kill -0 "$VPID" 2>/dev/null || break; sleep 0.05; done
	not_ok "the sandbox came up ($(cat "$T_TMP/bg.err"))"
	return 1
}

# --- SIGINT
if start_bg; then
	check "SIGINT: the knobs are changed while the sandbox runs" now_new
	kill -INT "$VPID"; wait "$VPID"; rc=$?
	check "SIGINT: vmregress dies by the signal (exit $rc)" [ "$rc" = 130 ]
	check "SIGINT: every knob is restored" restored
fi

# --- kill -9, then cleanup
if start_bg; then
	kill -9 "$VPID"; wait "$VPID" 2>/dev/null
	check "kill -9 leaves the knobs changed" now_new
	run "$VMR" cleanup
	expect_rc_v "cleanup exits 0" 0
	expect_out "cleanup says it restored ${NAMES[0]}" "restored knob ${NAMES[0]}=.*\(left by pid $VPID\)"
	check "cleanup restored every knob" restored
fi

# --- knobs this kernel lacks
if [ ! -e /sys/kernel/mm/lru_gen/enabled ]; then
	run "$VMR" sandbox exec --mem 64M --swap none --set "${NAMES[0]}=${NEW[0]}" --set lru_gen.enabled=0x0007 -- true
	expect_rc "lru_gen.enabled without MGLRU: exit 3" 3
	expect_err "... naming the file" "lru_gen.enabled: this kernel has no /sys/kernel/mm/lru_gen/enabled"
	check "... and the knob set before it is restored" restored
	run "$VMR" sandbox exec --mem 64M --swap none --set lru_gen.min_ttl_ms=1000 -- true
	expect_rc "lru_gen.min_ttl_ms without MGLRU: exit 3" 3
else
	skip "a missing lru_gen" "this kernel has MGLRU"
fi
if [ -e $T/hugepages-8kB/shmem_enabled ] && [ ! -e $T/hugepages-8kB/enabled ]; then
	run "$VMR" sandbox exec --mem 64M --swap none --set thp.8K.enabled=always -- true
	expect_rc "thp.8K.enabled where 8K is shmem-only: exit 3" 3
	expect_err "... naming the file" "thp.8K.enabled: this kernel has no $T/hugepages-8kB/enabled"
fi
if [ -w $T/hugepages-64kB/enabled ]; then
	run "$VMR" sandbox exec --mem 64M --swap none --set thp.64K.enabled=sometimes -- true
	expect_rc "a value the kernel refuses: exit 2" 2
	expect_err "... saying so" "'thp.64K.enabled=sometimes': the kernel refused it"
	check "... and nothing is left changed" restored
fi
run "$VMR" sandbox exec --mem 64M --swap none --set thp.64KB.enabled=always -- true
expect_rc "a size spelt otherwise is not a knob: exit 2" 2
check "at the end every knob is as it was" restored
done_testing
