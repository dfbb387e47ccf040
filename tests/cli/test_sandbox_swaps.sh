#!/usr/bin/env bash
# /proc/swaps names a path with its spaces, tabs, new lines and backslashes
# as octal escapes ("\040"); every reader of it must undo them, or a swap
# file of ours whose path holds a space is not recognised as ours: status
# does not list it and cleanup leaves it enabled.  A real swap file, in a
# state directory whose path holds a space; the journal holds that path too.
. "$(dirname "$0")/sandbox-lib.bash"

SB_STATE="$T_TMP/state with space"
mkdir -m 700 "$SB_STATE"
export VMREGRESS_STATE_DIR=$SB_STATE

"$VMR" sandbox exec --mem 64M --swap file:16M -- sleep 30 2>"$T_TMP/bg.err" {SB_LOCK_FD}<&- &
VPID=$!; SB_PIDS+=("$VPID")
if ! wait_built "$VPID"; then
	not_ok "a sandbox with its swap file in a path with a space came up ($(head -c 300 "$T_TMP/bg.err"))"
	done_testing
	exit
fi
swapfile=$(ls "$SB_STATE"/swap/*.swap 2>/dev/null | head -1)
check "its swap file is in the state directory" test -n "$swapfile"
check "and is enabled, escaped in /proc/swaps" grep -qF "${swapfile// /\\040} " /proc/swaps

run "$VMR" sandbox status --json
expect_json_is "status lists the swap file as ours, by its real path" \
	'[.swaps[] | select(.path == $p) | .owner_pid] | .[0]' "$VPID" --arg p "$swapfile"
run "$VMR" sandbox status
expect_out "and so does its text" "^swap $swapfile \(pid $VPID, running\)"

# kill -9 and no journal: only the swap directory and /proc/swaps tell
# cleanup that the swap file is ours and still enabled.
kill -9 "$VPID"; wait "$VPID" 2>/dev/null
rm -f "$SB_STATE"/*.journal
run "$VMR" cleanup
expect_rc "cleanup of the orphan exits 0" 0
check "cleanup disabled the swap file" bash -c "! grep -qF '${swapfile// /\\040} ' /proc/swaps"
check "and removed it" test ! -e "$swapfile"

# kill -9 with the journal kept: it holds the state directory's path, space
# and all (escaped as /proc/swaps escapes it), and cleanup undoes from it
# everything the sandbox changed: the knob, the swap, its file, the cgroup.
# Then the same from a journal of version 1, as a vmregress before the
# escapes wrote it (the path as it is): it is read as it was written.
crc() { printf '%s #%s\n' "$1" "$(printf '%s' "$1" | gzip -c | tail -c8 | od -An -tx4 -N4 | tr -d ' ')"; }
knobs_change
knob=/proc/sys/vm/page-cluster
old=$(cat $knob); new=$(( old == 4 ? 5 : 4 ))
for ver in 2 1; do
	"$VMR" sandbox exec --mem 64M --swap file:16M --set vm.page-cluster=$new -- sleep 30 2>"$T_TMP/bg.err" \
		{SB_LOCK_FD}<&- &
	VPID=$!; SB_PIDS+=("$VPID")
	if ! wait_built "$VPID"; then
		not_ok "v$ver: a sandbox with a knob and a swap file in a path with a space came up" \
			"($(head -c 300 "$T_TMP/bg.err"))"
		break
	fi
	swapfile=$(ls "$SB_STATE"/swap/*.swap 2>/dev/null | head -1)
	j=$(ls "$SB_STATE"/*.journal)
	cg=$(sed -n 's/^cgroup \(\/[^ ]*\) .*/\1/p' "$j")
	for _ in $(seq 100); do [ -s "$cg/cgroup.procs" ] && break; sleep 0.05; done  # the command runs
	kill -9 "$VPID"; wait "$VPID" 2>/dev/null
	check "v$ver: kill -9 leaves the knob changed" [ "$(cat $knob)" = "$new" ]
	check "v$ver: and the swap file enabled" grep -qF "${swapfile// /\\040} " /proc/swaps
	check "v$ver: its journal names the swap file, escaped" grep -qF "swapfile ${swapfile// /\\040} #" "$j"
	if [ "$ver" = 1 ]; then
		sed 's/ #[0-9a-f]*$//; s/\\040/ /g; 1s/^vmregress-journal 2 /vmregress-journal 1 /' "$j" |
			while IFS= read -r line; do crc "$line"; done > "$j.new" && mv "$j.new" "$j"
		check "v1: the journal names the swap file as it is" grep -qF "swapfile $swapfile #" "$j"
	fi
	run "$VMR" cleanup
	expect_rc_v "v$ver: cleanup from the journal exits 0" 0
	expect_out "v$ver: cleanup says it restored the knob" "restored knob vm.page-cluster=$old \(left by pid $VPID\)"
	check "v$ver: the knob is restored" [ "$(cat $knob)" = "$old" ]
	check "v$ver: the swap file is disabled" bash -c "! grep -qF '${swapfile// /\\040} ' /proc/swaps"
	check "v$ver: and removed" test ! -e "$swapfile"
	check "v$ver: the cgroup is removed" test -n "$cg" -a ! -e "$cg"
	check "v$ver: and the journal" test -z "$(ls "$SB_STATE"/*.journal 2>/dev/null)"
done
knobs_release
done_testing
