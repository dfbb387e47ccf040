# The mthp workload against the kernel's own per-size counters: the
# swap-out and swap-in it reports for a size are the deltas of that size's
# stats/swpout and stats/swpin, its pages in swap agree with them, damaged
# data fails, and a size whose policy is never is a skip with the fix.
. "$(dirname "$0")/sandbox-lib.bash"
T=/sys/kernel/mm/transparent_hugepage
if ! command -v jq >/dev/null; then skip "mthp" "jq is not installed"; done_testing; exit 0; fi
if [ ! -d $T/hugepages-64kB/stats ]; then skip "mthp" "no multi-size THP stats (hugepages-64kB/stats) here"; done_testing; exit 0; fi
knobs_change  # the cases set thp.64K.enabled
metric() { jq -r --arg n "$1" '.metrics[] | select(.name == $n) | .value' <<< "$OUT"; }
stat() { cat $T/hugepages-64kB/stats/$1; }
json_has() { # json_has NAME FILTER: the last run exited 0, printed, and FILTER holds
	if [ "$RC" = 0 ] && [ -n "$OUT" ] && jq -e "$2" >/dev/null 2>&1 <<< "$OUT"; then ok "$1"
	else not_ok "$1 (exit $RC; stderr: ${ERR:0:300})"; fi
}
before=$(knobs_snap)

# A size left at never: a skip that says which knob to set.
if [ "$(sed 's/.*\[\(.*\)\].*/\1/' $T/hugepages-64kB/enabled)" = never ]; then
	run "$VMR" test mthp --mem 64M --sizes 64K
	expect_rc "64K at never: a skip (exit 3)" 3
	expect_err "... saying which knob to set" 'skip: thp.64K.enabled is never here: run with --set thp.64K.enabled=madvise'
fi
run "$VMR" test mthp --mem 64M --sizes 64K,3K
expect_rc "--sizes 3K is not an mTHP size: exit 2" 2
expect_err "... naming the option" "^vmregress: --sizes: '64K,3K' is not a list of mTHP sizes"
run "$VMR" test mthp --mem 64M --sizes 64K,64K
expect_rc "a size twice: exit 2" 2

# check_against_kernel KIND: one run on that swap; its per-size figures
# against the deltas of hugepages-64kB/stats around it.
check_against_kernel() {
	local kind=$1 o0 f0 i0 a0 o1 f1 i1 a1
	o0=$(stat swpout); f0=$(stat swpout_fallback); i0=$(stat swpin); a0=$(stat anon_fault_alloc)
	run "$VMR" test mthp --mem 64M --swap "$kind" --set thp.64K.enabled=madvise --sizes 64K --size 8M --json
	o1=$(stat swpout); f1=$(stat swpout_fallback); i1=$(stat swpin); a1=$(stat anon_fault_alloc)
	json_has "$kind: mthp 64K passes" '.outcome == "pass"'
	[ -n "$OUT" ] || return
	local so sf si fa sp
	so=$(metric swpout-64K); sf=$(metric swpout-fallback-64K); si=$(metric swpin-64K)
	fa=$(metric fault-alloc-64K); sp=$(metric swapped-pages-64K)
	echo "# $kind: fault-alloc $fa swpout $so swpout-fallback $sf swpin $si swapped-pages $sp"
	check "$kind: swpout-64K ($so) is the delta of stats/swpout ($((o1 - o0)))" [ "$so" = $((o1 - o0)) ]
	check "$kind: swpout-fallback-64K ($sf) is the delta of stats/swpout_fallback ($((f1 - f0)))" [ "$sf" = $((f1 - f0)) ]
	check "$kind: swpin-64K ($si) is the delta of stats/swpin ($((i1 - i0)))" [ "$si" = $((i1 - i0)) ]
	check "$kind: fault-alloc-64K ($fa) is the delta of stats/anon_fault_alloc ($((a1 - a0)))" [ "$fa" = $((a1 - a0)) ]
	check "$kind: 8M is 128 folios of 64K, all allocated as such" [ "$fa" = 128 ]
	check "$kind: every folio went out whole or split ($so + $sf = 128)" [ $((so + sf)) = 128 ]
	check "$kind: the pages in swap (pagemap) are all 2048" [ "$sp" = 2048 ]
}
check_against_kernel file
check_against_kernel zram
# zram is synchronous I/O, the one kind the kernel reads mTHPs back whole
# from, and only on a boot where zswap was never enabled; folios still in
# the swap cache come back without a read at all.  So how many are read
# whole varies, but never more than went out whole.
so=$(metric swpout-64K); si=$(metric swpin-64K)
if [ -n "$so" ] && [ -n "$si" ]; then
	check "zram: no more folios read back whole ($si) than went out whole ($so)" [ "$si" -le "$so" ]
fi

# Data that changed while in swap fails the run, naming the page.
run "$VMR" test mthp --mem 64M --set thp.64K.enabled=madvise --sizes 64K --size 8M --corrupt-page 300
expect_rc "a page damaged in swap fails (exit 1)" 1
expect_err "... naming the page" 'fail: page 300 of the 64K region came back from swap with the wrong data'
check "... on one line" one_line_err
# The base page size is the baseline row: the same region with no THP of
# any size, even with every size at always, and each size's ratios to it.
run "$VMR" test mthp --mem 64M --swap zram:128M --set thp.enabled=always --set thp.64K.enabled=always \
	--sizes 4K,64K --size 8M --json
json_has "4K,64K passes, one row each" '.outcome == "pass" and (.tables[] | select(.name == "sizes") | .rows | length) == 2'
m() { printf '(.metrics[] | select(.name == "%s") | .value)' "$1"; }
json_has "the 4K row used no large folio with 2M and 64K at always (pagemap: $(metric thp-pages-4K))" "$(m thp-pages-4K) == 0"
# Compaction elsewhere on the host can hold a few small pages off the LRU
# through all three MADV_PAGEOUT passes (migrated pages wait in another
# CPU's batch): all but two batches' worth must go.
json_has "the 4K row went to swap ($(metric swapped-pages-4K) of 2048 pages, at least 1984)" \
	"$(m swapped-pages-4K) >= 1984 and $(m swapped-pages-4K) <= 2048"
json_has "the 64K row did, every page ($(metric thp-pages-64K) of 2048)" "$(m thp-pages-64K) == 2048"
json_has "the 4K row has no per-size counters (there are none)" '[.metrics[] | select(.name == "fault-alloc-4K")] | length == 0'
json_has "faultin-ratio-64K is the rows' quotient" \
	"($(m faultin-ratio-64K) - $(m faultin-per-sec-64K) / $(m faultin-per-sec-4K) | fabs) < 1e-6 * $(m faultin-ratio-64K)"
json_has "swapin-ratio-64K is the rows' quotient" \
	"($(m swapin-ratio-64K) - $(m swapin-per-sec-64K) / $(m swapin-per-sec-4K) | fabs) < 1e-6 * $(m swapin-ratio-64K)"
json_has "pageout-ratio-64K is the 4K pageout time over the 64K one" \
	"($(m pageout-ratio-64K) - $(m time-pageout-4K) / $(m time-pageout-64K) | fabs) < 1e-6 * $(m pageout-ratio-64K)"
run "$VMR" test mthp --mem 64M --sizes 4K --size 8M --corrupt-page 300
expect_rc "a page of the 4K region damaged in swap fails (exit 1)" 1
expect_err "... naming the page and the row" 'fail: page 300 of the 4K region came back from swap with the wrong data'
run "$VMR" test mthp --mem 64M --sizes 2K
expect_rc "--sizes 2K, below the page size, is bad input" 2
check "every knob is as it was" knobs_same "$before"
done_testing
