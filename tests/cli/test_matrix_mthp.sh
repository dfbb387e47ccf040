# mTHP swap-in whole, in a fresh Debian 6.12 guest: large folios paged out
# to zram (synchronous I/O) come back as large folios on a boot where zswap
# was never enabled (6.12's alloc_swap_folio() in do_swap_page()), which a
# host whose zswap was once on cannot show.  6.12 has no per-size swpin
# counter (6.13 added it), so the test reads what the workload measures for
# itself: the major faults the swap-in took (one per folio read whole) and
# the region's pages in large folios afterwards (pagemap), against the 4K
# row of the same run.  One guest, about 40 s under TCG; skipped under ASan
# and with VMR_NO_GUEST=1, as the other guest tests.
. "$(dirname "$0")/lib.sh"
K=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "mthp swap-in in a guest" "guests are off"; done_testing; exit 0; fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "mthp swap-in in a guest" "needs build/vmregress-static, jq and qemu-system-x86_64"; done_testing; exit 0
fi
cat > "$T_TMP/mthp.sh" <<'SH'
/vmregress test mthp --mem 64M --swap zram:128M --set thp.64K.enabled=madvise --sizes 4K,64K --size 8M --json \
	> /tmp/m.json 2> /tmp/m.err
echo "rc=$?"
echo "err=$(tail -1 /tmp/m.err)"
echo "stats=$(ls /sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats | tr '\n' ' ')"
echo "json=$(tr -d '\n' < /tmp/m.json)"
SH
run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --guest-script "$T_TMP/mthp.sh" --timeout 300s --name mthp \
	--log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && registry_unreachable "$K"; then skip "mthp swap-in in a guest" "cannot fetch $K"; done_testing; exit 0; fi
expect_rc "the guest ran (exit 0)" 0
label=$(jq -r '.guests[0].label' <<< "$OUT")
F=$T_TMP/logs/$label.stdout
fact() { sed -n "s/^$1=//p" "$F" | head -1; }
fact json > "$T_TMP/m.json"
m() { jq -r --arg n "$1" '[.metrics[] | select(.name == $n) | .value] | if length == 1 then .[0] else "-" end' \
	"$T_TMP/m.json" 2>/dev/null || echo -; }
is() { awk -v a="$2" -v b="${3:-0}" "BEGIN { if (a !~ /^-?[0-9][0-9.e+-]*\$/ || b !~ /^-?[0-9][0-9.e+-]*\$/) exit 1; exit !($1) }"; }
echo "# guest $label: 4K swapped $(m swapped-pages-4K) pages in $(m swapin-faults-4K) faults;" \
	"64K swapped $(m swapped-pages-64K) pages (swpout $(m swpout-64K)) in $(m swapin-faults-64K) faults," \
	"$(m swapin-thp-pages-64K) in large folios after; swap-in $(m swapin-ratio-64K)x the 4K rate"
check "mthp passed in the guest (exit $(fact rc): $(fact err))" [ "$(fact rc)" = 0 ]
check "every 64K folio went to zram whole ($(m swpout-64K) of 128)" [ "$(m swpout-64K)" = 128 ]
check "the 4K row came back a page a fault ($(m swapin-faults-4K) faults for $(m swapped-pages-4K) pages)" \
	is 'a >= b && b >= 1984' "$(m swapin-faults-4K)" "$(m swapped-pages-4K)"
check "the 64K row came back a folio a fault: at most one per 16 pages ($(m swapin-faults-64K))" \
	is 'a >= 1 && a <= b / 16' "$(m swapin-faults-64K)" "$(m swapped-pages-64K)"
check "and in large folios: every page of it ($(m swapin-thp-pages-64K))" [ "$(m swapin-thp-pages-64K)" = 2048 ]
check "the 4K row had none before or after" is 'a == 0 && b == 0' "$(m thp-pages-4K)" "$(m swapin-thp-pages-4K)"
check "swapin-ratio-64K is stored ($(m swapin-ratio-64K))" is 'a > 0' "$(m swapin-ratio-64K)"
if grep -qw swpin <<< "$(fact stats)"; then
	check "the kernel counts the folios read whole (swpin-64K $(m swpin-64K))" is 'a > 0' "$(m swpin-64K)"
else
	check "this kernel has no swpin counter: no swpin-64K metric, not a 0" [ "$(m swpin-64K)" = - ]
fi
done_testing
