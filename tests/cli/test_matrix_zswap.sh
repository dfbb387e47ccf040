# A suite whose case turns zswap on, in a freshly booted guest whose kernel
# has zswap (Debian's generic kernel; the cloud ones have none) and where it
# was never on: that case is a skip naming --force, since the first enable
# lasts until the next boot, and the case that keeps zswap off runs; the run
# exits 0.  The same suite with force = yes in that case runs both (a
# guest's boot is thrown away).  The host's zswap is never touched.  Two guests, a minute or two
# each under TCG; skipped under ASan and with VMR_NO_GUEST=1, as the other
# guest tests.
. "$(dirname "$0")/lib.sh"
K=${VMR_TEST_KERNEL_ZSWAP:-linux-image-6.12.117+deb12-amd64}
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then
	skip "a suite turning zswap on in a fresh guest" "guests are off"; done_testing; exit 0
fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "a suite turning zswap on in a fresh guest" "needs build/vmregress-static, jq and qemu-system-x86_64"
	done_testing; exit 0
fi
host_zswap=$(cat /sys/module/zswap/parameters/enabled 2>/dev/null)
cat > "$T_TMP/z.ini" <<'INI'
[global]
iterations = 1
mem = 32M
swap = file:128M
timeout = 300s
[zswap-text]
workload = zswap
size = 1.5x
fill = text
set = zswap.enabled=Y
set = zswap.max_pool_percent=5
[zswap-off]
workload = zswap
size = 1.5x
zswap = off
set = zswap.enabled=N
INI
sed 's/^\[zswap-text\]$/[zswap-text]\nforce = yes/' "$T_TMP/z.ini" > "$T_TMP/z-force.ini"
# case_is RUN CASE JQ: the stored run's case satisfies JQ
case_is() {
	"$VMR" show "$1" --db "$T_TMP/r.db" --json |
		jq -e --arg c "$2" "[.cases[] | select(.name == \$c) | $3] | length == 1" > /dev/null
}
for mode in fresh force; do
	ini=$T_TMP/z.ini; [ $mode = force ] && ini=$T_TMP/z-force.ini
	run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --suite "$ini" \
		--timeout 900s --name "z$mode" --db "$T_TMP/r.db" --log-dir "$T_TMP/logs-$mode" --json
	if [ "$RC" != 0 ] && registry_unreachable "$K"; then
		skip "a suite turning zswap on in a fresh guest" "Debian's package registry cannot be reached: ${ERR:0:200}"
		done_testing; exit 0
	fi
	expect_rc "$mode: the guest's run of the suite exits 0" 0
	ver=$(jq -r '.guests[0].version' <<< "$OUT")
	check "$mode: the guest's kernel has zswap" bash -c '[ "$(jq -r ".env.zswap.available" <<< "$1")" = true ]' _ \
		"$("$VMR" show "z$mode-$ver" --db "$T_TMP/r.db" --json)"
	if [ $mode = fresh ]; then
		check "fresh: the case turning zswap on is a skip naming --force" case_is "z$mode-$ver" zswap-text \
			'select(.outcomes.skip == 1) | .reasons[] | select(.reason |
				test("zswap.enabled=Y turns zswap on for the first time this boot.*--force"))'
	else
		check "force = yes: the case turning zswap on runs and passes" case_is "z$mode-$ver" zswap-text \
			'.outcomes.pass == 1'
		check "force = yes: and stores zswap's pool figures, which this kernel's meminfo gives" \
			case_is "z$mode-$ver" zswap-text \
			'select([.metrics[].name] | (index("zswap-pool-bytes") != null) and (index("compression-ratio") != null))'
	fi
	check "$mode: the case keeping zswap off passes" case_is "z$mode-$ver" zswap-off '.outcomes.pass == 1'
done
check "the host's zswap is as it was ($host_zswap)" [ "$(cat /sys/module/zswap/parameters/enabled 2>/dev/null)" = "$host_zswap" ]
done_testing
