# vmregress sense thp|swap|lru_gen against this kernel, and against captured
# trees of kernels without multi-size THP or with MGLRU (tests/fixtures/).
. "$(dirname "$0")/lib.sh"
FIX=$(dirname "$0")/../fixtures

if ! command -v jq >/dev/null; then skip "sense thp/swap/lru_gen JSON checks" "jq is not installed"; done_testing; exit 0; fi
# jq_has NAME FILTER: the last run exited 0, printed something, and FILTER holds
jq_has() {
	if [ "$RC" = 0 ] && [ -n "$OUT" ] && jq -e "$2" >/dev/null 2>&1 <<< "$OUT"; then ok "$1"
	else not_ok "$1 (exit $RC; stdout: ${OUT:0:200}; stderr: ${ERR:0:200})"; fi
}

# --- thp
run "$VMR" sense thp --json
jq_has "sense thp --json has settings and khugepaged" '.settings.enabled and (.khugepaged | type == "object")'
if [ -d /sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats ]; then
	want=$(cat /sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats/swpout)
	jq_has "64K's stats/swpout is read generically" ".sizes[\"64K\"].stats.swpout | type == \"number\""
	# the counter only grows: it is at least what was read just before
	jq_has "64K's swpout is the kernel's" ".sizes[\"64K\"].stats.swpout >= $want"
	enabled=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled)
	jq_has "64K's enabled is the bracketed choice ($enabled)" ".sizes[\"64K\"].enabled == \"$enabled\""
	run "$VMR" sense thp
	expect_rc "sense thp exits 0" 0
	expect_out "the text lays the sizes side by side" '^  size +.* 64K .* 2M'
	expect_out "the text has a swpout row" '^  swpout +[0-9]'
else
	skip "per-size stats" "no hugepages-64kB/stats in this kernel"
fi
run "$VMR" sense thp --root "$FIX/thp/linux-6.1"
expect_rc "a kernel without multi-size THP: exit 0" 0
expect_out "... says so" '^multi-size THP: not in this kernel'
run "$VMR" sense thp --root "$FIX/thp/linux-6.8"
expect_out "6.8 (sizes, no stats/): says stats are not in this kernel" 'stats: not in this kernel'
run "$VMR" sense thp --root "$T_TMP/none"
expect_rc "no THP at all: exit 3" 3
expect_err "... with the reason" 'sense thp: .*no transparent huge pages'
check "... on one line" one_line_err
run "$VMR" sense thp extra
expect_rc "sense thp takes no argument" 2

# --- swap
# Other vmregress runs may set these knobs meanwhile: the value read just
# before or just after the view is the kernel's.
mp=$(cat /sys/module/zswap/parameters/max_pool_percent 2>/dev/null)
ra=$(cat /sys/kernel/mm/swap/vma_ra_enabled 2>/dev/null)
pc=$(cat /proc/sys/vm/page-cluster)
run "$VMR" sense swap --json
mp2=$(cat /sys/module/zswap/parameters/max_pool_percent 2>/dev/null)
ra2=$(cat /sys/kernel/mm/swap/vma_ra_enabled 2>/dev/null)
pc2=$(cat /proc/sys/vm/page-cluster)
jq_has "sense swap --json has devices, meminfo and vmstat" \
	'(.devices | type == "array") and (.meminfo_bytes.SwapCached | type == "number") and (.vmstat.pswpout | type == "number")'
if grep -q '^swpout_zero ' /proc/vmstat; then
	jq_has "zero-page swap counters" '(.vmstat.swpout_zero | type == "number") and (.vmstat.swpin_zero | type == "number")'
fi
if grep -q '^zswpwb ' /proc/vmstat; then
	jq_has "zswap's vmstat counters" '.vmstat.zswpout and .vmstat.zswpin and (.vmstat.zswpwb | type == "number")'
fi
if [ -e /sys/module/zswap/parameters/max_pool_percent ]; then
	jq_has "zswap's parameters (max_pool_percent $mp)" \
		".zswap.available and (.zswap.parameters.max_pool_percent | . == $mp or . == $mp2)"
fi
[ -n "$ra" ] && jq_has "vma_ra_enabled ($ra)" ".vma_ra_enabled | . == $ra or . == $ra2"
jq_has "page-cluster ($pc)" ".page_cluster | . == $pc or . == $pc2"
nz=$(ls -d /sys/block/zram* 2>/dev/null | wc -l)
jq_has "every zram device ($nz)" ".zram | length == $nz"
if [ "$nz" -gt 0 ]; then
	jq_has "zram devices have their mm_stat" '.zram[0].mm_stat.orig_data_size | type == "number"'
fi
run "$VMR" sense swap
expect_rc "sense swap exits 0" 0
expect_out "the text has the zswap section" '^(zswap parameters|zswap: not in this kernel)'

# --- lru_gen
run "$VMR" sense lru_gen
if [ -d /sys/kernel/mm/lru_gen ]; then
	expect_rc "sense lru_gen exits 0" 0
else
	expect_rc "no MGLRU here: exit 3" 3
	expect_err "... says it is not in this kernel" '^vmregress: sense lru_gen: not in this kernel'
	check "... on one line" one_line_err
fi
run "$VMR" sense lru_gen --root "$FIX/lru_gen/linux-6.1" --json
jq_has "6.1's lru_gen: mask and bits" '.enabled == "0x0007" and .core and .mm_walk and .nonleaf_young and .min_ttl_ms == 1000'
run "$VMR" sense lru_gen --root "$FIX/lru_gen/linux-6.1"
expect_out "the text names the bits" '^  nonleaf_young \(0x0004\) +on'
run "$VMR" sense lru_gen --root "$FIX/lru_gen/bad-mask"
expect_rc "a mask that is none: exit 3" 3
expect_err "... naming the file" 'bad-mask/enabled: line 1: expected a mask'

# --- the fingerprint
run "$VMR" sense system --json
jq_has "the fingerprint has lru_gen and swap" '(.lru_gen.available | type == "boolean") and .swap'
if [ -e /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled ]; then
	jq_has "the fingerprint has each mTHP size's enabled" ".thp.sizes[\"64K\"].enabled == \"$enabled\""
fi
done_testing
