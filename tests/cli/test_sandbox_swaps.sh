#!/usr/bin/env bash
# /proc/swaps names a path with its spaces, tabs, new lines and backslashes
# as octal escapes ("\040"); every reader of it must undo them, or a swap
# file of ours whose path holds a space is not recognised as ours: status
# does not list it and cleanup leaves it enabled.  A real swap file, in a
# state directory whose path holds a space.
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
done_testing
