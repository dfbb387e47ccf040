# vmregress matrix --numa-tiered: the guest has two NUMA nodes, the second
# without CPUs and slower by the ACPI HMAT, which Debian's 6.12 kernel puts
# in a memory tier below the first (without the HMAT both nodes share one
# tier and nothing can be demoted); numa.demotion_enabled can be set and is
# put back.  One guest, about 20 s under TCG; skipped under ASan and with
# VMR_NO_GUEST=1, as the other guest tests.
. "$(dirname "$0")/lib.sh"
K=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
run "$VMR" matrix --help
expect_out "help lists --numa-tiered" "--numa-tiered"
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "a tiered guest" "guests are off"; exit 0; fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "a tiered guest" "needs build/vmregress-static, jq and qemu-system-x86_64"; exit 0
fi
cat > "$T_TMP/tiers.sh" <<'SH'
T=/sys/devices/virtual/memory_tiering
echo "nodes=$(cat /sys/devices/system/node/online)"
echo "cpu_nodes=$(cat /sys/devices/system/node/has_cpu)"
for t in $T/memory_tier*; do echo "tier_${t##*memory_tier}=$(cat $t/nodelist)"; done
echo "demotion_before=$(cat /sys/kernel/mm/numa/demotion_enabled)"
/vmregress sandbox exec --no-sandbox --set numa.demotion_enabled=true -- cat /sys/kernel/mm/numa/demotion_enabled |
	sed 's/^/demotion_during=/'
echo "demotion_after=$(cat /sys/kernel/mm/numa/demotion_enabled)"
SH
run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --numa-tiered --guest-script "$T_TMP/tiers.sh" \
	--timeout 300s --name tiers --log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && grep -q "cannot fetch\|apt-get" <<< "$ERR"; then skip "a tiered guest" "cannot fetch a kernel"; exit 0; fi
expect_rc "the tiered guest ran (exit 0)" 0
label=$(jq -r '.guests[0].label' <<< "$OUT")
F=$T_TMP/logs/$label.stdout
fact() { sed -n "s/^$1=//p" "$F" | head -1; }
sed 's/^/# /' "$F"
check "it has nodes 0-1" [ "$(fact nodes)" = 0-1 ]
check "only node 0 has CPUs" [ "$(fact cpu_nodes)" = 0 ]
check "two memory tiers" [ "$(grep -c '^tier_' "$F")" = 2 ]
lower=$(grep '^tier_' "$F" | sed 's/^tier_//' | sort -n | tail -1)
check "node 1 is the lower tier ($lower)" [ "${lower#*=}" = 1 ]
check "numa.demotion_enabled is set in the sandbox's life" [ "$(fact demotion_during)" = true ]
check "and put back" [ "$(fact demotion_before) $(fact demotion_after)" = "false false" ]
