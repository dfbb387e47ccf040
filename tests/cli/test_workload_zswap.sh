# The zswap workload: with zswap off it is a skip naming the knob; with it
# on, text-like pages go to the compressed pool and come back from it,
# zero-filled ones go out without I/O, every page is checked, and the
# knobs are restored.
. "$(dirname "$0")/sandbox-lib.bash"
Z=/sys/module/zswap/parameters
if ! command -v jq >/dev/null; then skip "zswap" "jq is not installed"; done_testing; exit 0; fi
if [ ! -e $Z/enabled ]; then skip "zswap" "this kernel has no zswap"; done_testing; exit 0; fi
# Turning zswap on for the first time in a boot flips a switch that the
# kernel never flips back (no whole large-folio swap-in until the next
# boot): vmregress refuses it without --force, as a case that cannot run
# here (exit 3), and these tests do not force it on a machine where it
# would change something that lasts.  What needs zswap off runs either way.
fresh=no
if [ "$(cat $Z/enabled)" = N ] && ! awk '$1 == "zswpout" && $2 > 0 { f = 1 } END { exit !f }' /proc/vmstat; then
	fresh=yes
	run "$VMR" test zswap --mem 32M --set zswap.enabled=Y
	expect_rc "zswap never on this boot: turning it on cannot run here (exit 3)" 3
	expect_err "... saying what would last, and that --force allows it" \
		'turns zswap on for the first time this boot.*--force sets it anyway'
	check "... on one line" one_line_err
	check "... and zswap is still off" grep -qx N $Z/enabled
fi
knobs_change
before=$(knobs_snap)
metric() { jq -r --arg n "$1" '.metrics[] | select(.name == $n) | .value' <<< "$OUT"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 > b + 0) }'; }
ZS=(--set zswap.enabled=Y --set zswap.max_pool_percent=5)

if [ "$(cat $Z/enabled)" = N ]; then
	run "$VMR" test zswap --mem 32M
	expect_rc "zswap off: a skip (exit 3)" 3
	expect_err "... naming the knob" 'skip: zswap is off: run with --set zswap.enabled=Y'
fi
if [ $fresh = no ]; then
	run "$VMR" test zswap --mem 32M --zswap off "${ZS[@]}"
	expect_rc "--zswap off with zswap on: a skip" 3
	expect_err "... naming the knob" 'skip: zswap is on and --zswap off was asked for: run with --set zswap.enabled=N'
fi
run "$VMR" test zswap --mem 32M --swap file:128M --size 1.5x --zswap off --set zswap.enabled=N --json
expect_rc "--zswap off: passes" 0
echo "# off: pswpout $(metric pswpout) pswpin $(metric pswpin) p50 $(metric reread-latency-p50)ns"
check "--zswap off: the pages went to the swap device ($(metric pswpout))" gt "$(metric pswpout)" 2048
run "$VMR" test zswap --mem 32M --fill lots
expect_rc "--fill lots: exit 2" 2
if [ $fresh = yes ]; then
	check "every knob is as it was" knobs_same "$before"
	check "zswap was never turned on" grep -qx N $Z/enabled
	skip "zswap on" "zswap was never on this boot: turning it on would last until the next boot (vmregress test zswap --force does it)"
	done_testing; exit 0
fi

run "$VMR" test zswap --mem 32M --swap file:128M --size 1.5x --fill text "${ZS[@]}" --json
expect_rc "text: passes with every page checked" 0
zo=$(metric zswpout); zi=$(metric zswpin); cr=$(metric compression-ratio); sp=$(metric swapped-pages)
echo "# text: zswpout $zo zswpin $zi pswpout $(metric pswpout) pswpin $(metric pswpin) ratio $cr" \
	"p50 $(metric reread-latency-p50)ns p99 $(metric reread-latency-p99)ns"
check "text: pages were away when the re-read began ($sp)" gt "$sp" 2048
check "text: zswap stored pages ($zo)" gt "$zo" 2048
check "text: the re-read loaded pages from zswap ($zi)" gt "$zi" 2048
check "text: the pool holds them compressed better than 1.5:1 ($cr)" gt "$cr" 1.5
expect_json "text: the re-read's latency is measured" '.hists[]? | select(.name == "reread-latency") | .hist.count > 0'

if grep -q '^swpout_zero ' /proc/vmstat; then
	run "$VMR" test zswap --mem 32M --swap file:128M --size 1.5x --fill zero "${ZS[@]}" --json
	expect_rc "zero: passes" 0
	z0=$(metric swpout-zero); zo=$(metric zswpout)
	echo "# zero: swpout-zero $z0 swpin-zero $(metric swpin-zero) zswpout $zo"
	check "zero: zero-filled pages went out without I/O ($z0)" gt "$z0" 2048
	# (zswpout is the host's: other sandboxes swap into zswap too while it is on)
fi

run "$VMR" test zswap --mem 32M --swap file:128M --size 1.5x --fill random "${ZS[@]}" --corrupt-page 1000
expect_rc "a page damaged while away fails (exit 1)" 1
expect_err "... naming it" 'fail: page 1000 of 12288 came back with the wrong data'
check "every knob is as it was" knobs_same "$before"
done_testing
