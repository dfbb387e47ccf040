# What this host cannot run, in a guest of the kernel matrix: proactive
# reclaim through cgroup v2's memory.reclaim, with swappiness= a skip on
# kernels before 6.7; mthp a skip naming the missing size on kernels
# before 6.8; and the guest's fingerprint carries its MGLRU state.  One
# guest, 20-30 s under TCG; skipped in the ASan pass and with VMR_NO_GUEST=1
# (as test_matrix.sh).
. "$(dirname "$0")/lib.sh"
KPKG=${VMR_TEST_KERNEL:-linux-image-6.1.0-57-cloud-amd64}
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "modern cases in a guest" "guests are off"; exit 0; fi
if [ ! -x "$(dirname "$VMR")/vmregress-static" ] && [ ! -x "$(dirname "$VMR")/build/vmregress-static" ]; then
	skip "modern cases in a guest" "no build/vmregress-static (make build/vmregress-static)"; exit 0
fi
if ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "modern cases in a guest" "needs jq and qemu-system-x86_64"; exit 0
fi
cat > "$T_TMP/m.ini" <<'INI'
[global]
iterations = 1
mem = 64M
swap = file:128M
timeout = 300s
[reclaim]
workload = reclaim
[reclaim-swappiness0]
workload = reclaim
swappiness = 0
[mthp]
workload = mthp
sizes = 64K
size = 8M
INI
run "$VMR" matrix --kernel "$KPKG" --suite "$T_TMP/m.ini" --timeout 600s --name mod --db "$T_TMP/r.db" \
	--log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && grep -q "cannot fetch\|apt-get" <<< "$ERR"; then skip "modern cases in a guest" "cannot fetch $KPKG"; exit 0; fi
expect_rc "the guest runs the modern cases (exit 0)" 0
label=$(jq -r '.guests[0].version // empty' <<< "$OUT")
run "$VMR" show "mod-$label" --db "$T_TMP/r.db" --json
expect_rc "the guest's run is stored" 0
echo "$OUT" > "$T_TMP/run.json"
case_is() { jq -e --arg c "$1" "[.cases[] | select(.name == \$c) | $2] | length == 1" "$T_TMP/run.json" >/dev/null; }
if jq -e '.env.cgroup.memory_controller == "v2"' "$T_TMP/run.json" >/dev/null; then
	check "reclaim passes under cgroup v2" case_is reclaim '.outcomes.pass == 1'
	check "and took memory from the sandbox" case_is reclaim \
		'.metrics[] | select(.name == "reclaimed-bytes") | select(.mean > 0)'
	check "each request is timed" case_is reclaim '.metrics[] | select(.name == "reclaim-latency-mean") | select(.mean > 0)'
	echo "# guest reclaim: $(jq -c '[.cases[] | select(.name == "reclaim") | .metrics[] |
		select(.name | test("reclaim|asked|refault|short")) | {(.name): .mean}] | add' "$T_TMP/run.json")"
else
	skip "reclaim in the guest" "the guest's memory controller is not v2"
fi
v=${label%%-*}
if [ "$(printf '%s\n' 6.7 "$v" | sort -V | head -1)" != 6.7 ]; then
	check "swappiness= before 6.7 is a skip that says so" case_is reclaim-swappiness0 \
		'select(.outcomes.skip == 1) | .reasons[] | select(.reason | test("takes no swappiness"))'
fi
if [ "$(printf '%s\n' 6.8 "$v" | sort -V | head -1)" != 6.8 ]; then
	check "mthp before 6.8 is a skip naming the size" case_is mthp \
		'select(.outcomes.skip == 1) | .reasons[] | select(.reason | test("no multi-size THP of 64K"))'
fi
envq() { jq -e "$1" "$T_TMP/run.json" >/dev/null; }
check "the guest's fingerprint has its lru_gen state" envq '.env.lru_gen.available | type == "boolean"'
jq -c '.env.lru_gen' "$T_TMP/run.json" | sed 's/^/# guest lru_gen: /'
