# Signals and kill -9: SIGINT/SIGTERM/SIGHUP during 'sandbox exec' restore
# everything; after kill -9, 'cleanup' (or the next sandbox) restores it and
# a second cleanup is a no-op; corrupt, foreign and live journals are never
# acted on.
. "$(dirname "$0")/sandbox-lib.bash"

knobs_change  # this whole file changes vm.page-cluster
knob=/proc/sys/vm/page-cluster
old=$(cat $knob); new=$(( old == 4 ? 5 : 4 ))
# Gone, or a zombie waiting for an init that may be slow to reap.
is_dead() { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" = Z ]; }
dead_pid() { sh -c 'exit 0' & local p=$!; wait $p; echo $p; }
start_of() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $20}'; }

# start_sandbox: a sandbox running sleep, with the knob changed; sets VPID,
# CHILD and PATHS (what its journal names).
start_sandbox() {
	"$VMR" sandbox exec --mem 64M "$@" --set vm.page-cluster=$new -- sleep 30 2>"$T_TMP/bg.err" {SB_LOCK_FD}<&- &
	VPID=$!; SB_PIDS+=("$VPID")
	wait_built "$VPID" || not_ok "sandbox came up"
	PATHS=$(journal_paths)
	local cg; cg=$(grep -m1 '^/sys/' <<< "$PATHS")
	for _ in $(seq 50); do CHILD=$(cat "$cg/cgroup.procs" 2>/dev/null | head -1); [ -n "$CHILD" ] && break; sleep 0.05; done
	SB_PIDS+=("$CHILD")
}
all_gone() { local p; for p in $PATHS; do [ -e "$p" ] && return 1; grep -q "^$p " /proc/swaps && return 1; done; return 0; }

for sig in INT TERM HUP; do
	start_sandbox
	check "SIG$sig: the knob is changed while the sandbox runs" [ "$(cat $knob)" = "$new" ]
	kill -$sig "$VPID"; wait "$VPID"; rc=$?
	want=$(( 128 + $(kill -l $sig) ))
	check "SIG$sig: vmregress dies by the signal (exit $rc)" [ "$rc" = "$want" ]
	check "SIG$sig: the knob is restored" [ "$(cat $knob)" = "$old" ]
	check "SIG$sig: cgroup, swap and swap file are gone" all_gone
	check "SIG$sig: the journal is gone" [ -z "$(ls "$SB_STATE"/*.journal 2>/dev/null)" ]
	check "SIG$sig: the command inside was killed" is_dead "$CHILD"
done

# kill -9, then cleanup.
start_sandbox
kill -9 "$VPID"; wait "$VPID" 2>/dev/null
check "kill -9 leaves the knob changed" [ "$(cat $knob)" = "$new" ]
run "$VMR" sandbox status --json
expect_json "status shows the dead owner's journal" \
	'.journals | map(select(.owner_pid == $p and .owner_alive == false)) | length == 1' --argjson p "$VPID"
run "$VMR" cleanup
expect_rc_v "cleanup exits 0" 0
expect_out "cleanup says it restored the knob" "restored knob vm.page-cluster=$old \(left by pid $VPID\)"
expect_out "cleanup says it removed the cgroup" "removed cgroup .*vmregress-$VPID-"
check "cleanup restored the knob" [ "$(cat $knob)" = "$old" ]
check "cleanup removed cgroup, swap and swap file" all_gone
check "cleanup killed the orphaned command" is_dead "$CHILD"
run "$VMR" cleanup --json
expect_rc "second cleanup exits 0" 0
expect_json "second cleanup is a no-op for what we left" \
	'.clean and (.actions | map(select(.owner_pid == $p or (.path | contains($s)))) | length == 0)' \
	--argjson p "$VPID" --arg s "$SB_STATE"

# kill -9, then the next sandbox cleans up first and says so.
start_sandbox --swap none
kill -9 "$VPID"; wait "$VPID" 2>/dev/null
run "$VMR" sandbox exec --mem 64M --swap none -- true
expect_rc "the next sandbox runs after cleaning up" 0
expect_err "it says it cleaned up first" "cleaning up after a killed vmregress first: .*\(left by pid $VPID\)"
check "and the knob is restored" [ "$(cat $knob)" = "$old" ]
check "and the cgroup is gone" all_gone

# Corrupt and foreign journals are refused, with what to do.
dp=$(dead_pid)
j=$SB_STATE/vmregress-$dp-1-0.journal
printf 'garbage\n' > "$j"; chmod 600 "$j"
run "$VMR" cleanup
expect_rc "a corrupt journal makes cleanup fail" 1
expect_err "it says the journal is corrupt and what to do" "journal $j is corrupt or foreign \(line 1: no checksum\): nothing was undone from it; .*then delete it"
check "the corrupt journal is kept" [ -f "$j" ]
run "$VMR" sandbox exec --mem 64M --swap none -- true
expect_rc "a sandbox refuses to start beside a corrupt journal" 3
expect_err "and says to look at status" "sandbox status"
# A journal line: text, then its CRC-32 (gzip's trailer holds the same CRC).
crc() { printf '%s #%s\n' "$1" "$(printf '%s' "$1" | gzip -c | tail -c8 | od -An -tx4 -N4 | tr -d ' ')"; }
{ crc "vmregress-journal 1 $dp 1"; crc "cgroup /sys/fs/cgroup/memory/system.slice"; } > "$j"
run "$VMR" cleanup
expect_rc "a journal naming a cgroup not its own is refused" 1
expect_err "it says why" "cgroup not named for this journal's owner"
{ crc "vmregress-journal 1 $dp 1"; crc "knob vm.page-cluster $new"; } > "$j"
chown 65534 "$j"
run "$VMR" cleanup
expect_rc "a journal not owned by root is refused" 1
expect_err "it says why" "not owned by root"
check "a refused journal changes nothing" [ "$(cat $knob)" = "$old" ]
rm -f "$j"

# A journal whose owner is alive is left alone (here: this shell).
j=$SB_STATE/vmregress-$$-$(start_of $$)-0.journal
{ crc "vmregress-journal 1 $$ $(start_of $$)"; crc "knob vm.page-cluster $new"; } > "$j"; chmod 600 "$j"
run "$VMR" cleanup
expect_rc_v "cleanup with a live owner's journal exits 0" 0
check "a live owner's journal is not acted on" eval '[ -f "$j" ] && [ "$(cat $knob)" = "$old" ]'
rm -f "$j"

# Orphans without a journal: only a dead owner's are removed.
memroot=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {print $5; exit}' /proc/self/mountinfo)
if [ -n "$memroot" ]; then
	dead_cg=$memroot/vmregress-$dp-1-0
	live_cg=$memroot/vmregress-$$-$(start_of $$)-9
	mkdir "$dead_cg" "$live_cg"
	: > "$SB_STATE/swap/vmregress-$dp-1-0.swap"
	run "$VMR" cleanup
	expect_rc_v "cleanup of orphans exits 0" 0
	check "a dead owner's orphaned cgroup is removed" [ ! -e "$dead_cg" ]
	check "a dead owner's orphaned swap file is removed" [ ! -e "$SB_STATE/swap/vmregress-$dp-1-0.swap" ]
	check "a live owner's cgroup is left alone" [ -d "$live_cg" ]
	rmdir "$live_cg"
else
	skip "orphaned cgroups" "no cgroup v1 memory hierarchy here"
fi
check "the knob is as it was at the end" [ "$(cat $knob)" = "$old" ]
done_testing
