# zram swap: a hot-added device with our header takes the sandbox's pages,
# gives them back intact, and is reset and removed after; a device left by
# a killed vmregress is found by its header tag even without a journal.
. "$(dirname "$0")/sandbox-lib.bash"

if [ ! -e /sys/class/zram-control/hot_add ]; then
	skip "zram sandbox" "no /sys/class/zram-control (zram not built in or loaded)"
	done_testing; exit 0
fi
algo=$(sed 's/\[//; s/\].*//; s/ .*//' /sys/block/zram0/comp_algorithm 2>/dev/null || echo lzo)
knobs_watch
knobs0=$(knobs_snap)
run "$VMR" sandbox exec --json --mem 64M --swap "zram:128M:$algo" -- "$MEMFILL" 96
echo "$OUT" > "$T_TMP/zram.json"
expect_rc "1.5x with zram exits 0 (data intact)" 0
expect_err "memfill reported intact data" 'intact'
expect_json "it swapped out to zram (pswpout rose)" '.pswpout > 0 and .swap_peak_bytes > 0'
expect_json "describe names the zram device, size and algorithm" '.sandbox.swap.kind == "zram" and
	(.sandbox.swap.device | startswith("/dev/zram")) and .sandbox.swap.bytes == 134217728 and
	.sandbox.swap.algorithm == $a' --arg a "$algo"
dev=$(jq -r '.sandbox.swap.device' "$T_TMP/zram.json")
check "the hot-added device $dev is removed after" [ ! -e "/sys/block/${dev#/dev/}" ]
check "knobs are as they were" knobs_same "$knobs0"
knobs_release
left=$(ours_left "$T_TMP/zram.json")
check "nothing of ours is left ($left)" [ -z "$left" ]

# Reusing a free device instead of hot-adding one: it is reset, not removed.
free_dev=
for d in /sys/block/zram*; do
	[ -e "$d/disksize" ] && [ "$(cat "$d/disksize")" = 0 ] && ! grep -q "^/dev/${d##*/} " /proc/swaps &&
		{ free_dev=${d##*/}; break; }
done
if [ -n "$free_dev" ]; then
	# an algorithm other than the device's, to see that it is put back
	algo0=$(sed 's/.*\[\([^]]*\)\].*/\1/' "/sys/block/$free_dev/comp_algorithm")
	other=$(tr -d '[]' < "/sys/block/$free_dev/comp_algorithm" | tr ' ' '\n' | grep -vx "$algo0" | grep . | head -1)
	run "$VMR" sandbox exec --json --mem 64M --swap "zram:128M:${other:-$algo0}" --zram-reuse -- "$MEMFILL" 96
	if [ "$RC" = 3 ] && grep -q "no free zram device" <<< "$ERR"; then
		skip "reusing a free zram device" "another run took the free devices meanwhile"
	else
		echo "$OUT" > "$T_TMP/reuse.json"
		expect_rc "a reused zram device takes the pages and gives them back intact" 0
		rdev=$(jq -r '.sandbox.swap.device' "$T_TMP/reuse.json")
		expect_json "it swapped to the reused device $rdev" '.pswpout > 0'
		check "the reused device is still there, reset" \
			eval '[ -e "/sys/block/${rdev#/dev/}" ] && [ "$(cat "/sys/block/${rdev#/dev/}/disksize")" = 0 ]'
		expect_json "it ran with ${other:-$algo0}" '.sandbox.swap.algorithm == $a' --arg a "${other:-$algo0}"
		if [ "$rdev" = "/dev/$free_dev" ]; then
			check "its algorithm is $algo0 again" grep -q "\[$algo0\]" "/sys/block/$free_dev/comp_algorithm"
		else
			skip "its algorithm is $algo0 again" "the sandbox took $rdev, not the free /dev/$free_dev seen before"
		fi
		left=$(ours_left "$T_TMP/reuse.json")
		check "nothing of ours is left ($left)" [ -z "$left" ]
	fi
else
	skip "reusing a free zram device" "no free zram device here"
fi

run "$VMR" sandbox exec --mem 64M --swap zram:64M:nosuchalgo -- true
expect_rc "an unknown zram algorithm: exit 2" 2
expect_err "it lists the algorithms there are" "zram compression algorithm 'nosuchalgo' is not one of: "
check "the refused device is not left behind" [ -z "$(ours_left)" ]

# kill -9, the journal lost too: the header tag proves the device ours.
"$VMR" sandbox exec --mem 64M --swap zram:64M -- sleep 30 2>/dev/null {SB_LOCK_FD}<&- &
vpid=$!; SB_PIDS+=("$vpid")
wait_built "$vpid" || not_ok "zram sandbox came up"
zid=$(sed -n 's/^zram \([0-9]*\) .*/\1/p' "$SB_STATE"/*.journal)
kill -9 "$vpid"; wait "$vpid" 2>/dev/null
rm -f "$SB_STATE"/*.journal
check "after kill -9 /dev/zram$zid is still swap" grep -q "^/dev/zram$zid " /proc/swaps
run "$VMR" sandbox status --json
expect_json "status shows the orphaned zram device and its dead owner" \
	'.zram | map(select(.path == $d and .owner_pid == $p and .owner_alive == false)) | length == 1' \
	--arg d "/dev/zram$zid" --argjson p "$vpid"
run "$VMR" cleanup
expect_rc_v "cleanup exits 0" 0
# (a concurrent cleanup from another vmregress may have got there first)
check "cleanup says it removed the zram device" eval 'grep -qE "removed zram device /dev/zram$zid \(left by pid $vpid\)" <<< "$OUT" || [ ! -e /sys/block/zram$zid ]'
check "the orphaned zram device is off swap and removed" [ ! -e "/sys/block/zram$zid" ]

# kill -9, and before cleanup the device id is someone else's swap (here a
# stand-in made with mkswap): cleanup must leave it alone.
if command -v mkswap >/dev/null; then
	"$VMR" sandbox exec --mem 64M --swap zram:64M -- sleep 30 2>/dev/null {SB_LOCK_FD}<&- &
	vpid=$!; SB_PIDS+=("$vpid")
	wait_built "$vpid" || not_ok "zram sandbox came up"
	zid=$(sed -n 's/^zram \([0-9]*\) .*/\1/p' "$SB_STATE"/*.journal)
	kill -9 "$vpid"; wait "$vpid" 2>/dev/null
	FOREIGN=$zid
	sb_extra_teardown() {
		swapoff "/dev/zram$FOREIGN" 2>/dev/null
		[ -e "/sys/block/zram$FOREIGN" ] || return 0
		echo 1 2>/dev/null > "/sys/block/zram$FOREIGN/reset"
		echo "$FOREIGN" 2>/dev/null > /sys/class/zram-control/hot_remove
	}
	swapoff "/dev/zram$zid"; echo 1 > "/sys/block/zram$zid/reset"
	echo 64M > "/sys/block/zram$zid/disksize"
	mkswap -L someone-else "/dev/zram$zid" >/dev/null && swapon "/dev/zram$zid"
	run "$VMR" cleanup
	expect_rc_v "cleanup with a reused zram id exits 0" 0
	check "someone else's swap on /dev/zram$zid is still on" grep -q "^/dev/zram$zid " /proc/swaps
	check "and its device is not reset" [ "$(cat /sys/block/zram$zid/disksize)" != 0 ]
	check "the rest of the dead sandbox is cleaned up" [ -z "$(ls "$SB_STATE"/*.journal 2>/dev/null)" ]
	sb_extra_teardown
	check "the stand-in is gone again" [ ! -e "/sys/block/zram$zid" ]
else
	skip "zram id reused by someone else" "no mkswap here"
fi
done_testing
