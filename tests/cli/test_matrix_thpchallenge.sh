# thpchallenge (mmtests'): refused on this machine, where fragmenting memory
# would disturb everything else on it, with the reason and exit 3; then run
# in a Debian-kernel guest of the matrix (a fresh boot, thrown away after):
# small files fragment its memory, THP-sized regions are faulted, and the
# success rate, the fault latency and the compaction counters are stored;
# a page damaged before it is read back fails its case.  One guest, about
# two minutes under TCG; skipped under ASan and with VMR_NO_GUEST=1, as the
# other guest tests.
. "$(dirname "$0")/lib.sh"
K=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

why="fragments the whole machine's memory, which no sandbox bounds"
run "$VMR" test thpchallenge
expect_rc "in a sandbox on this machine it cannot run (exit 3)" 3
expect_err "and says why" "$why"
check "in one line" one_line_err
run "$VMR" test thpchallenge --no-sandbox
expect_rc "nor without a sandbox, unless --force (exit 3)" 3
expect_err "and says what it takes" "it runs only with --no-sandbox --force"

if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "thpchallenge in a guest" "guests are off"; done_testing; exit 0; fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "thpchallenge in a guest" "needs build/vmregress-static, jq and qemu-system-x86_64"; done_testing; exit 0
fi
# The small files go to the guest's disk (ext2, page cache without the
# tmpfs's half-of-memory limit), so that they can fill most of its memory;
# Debian's cloud kernels boot with THP never, so the policy is madvise for
# the run and MADV_HUGEPAGE regions compact for a huge page.
cat > "$T_TMP/thpc.sh" <<'SH'
mkdir -p /mnt/disk/tmp && export TMPDIR=/mnt/disk/tmp
K="--no-sandbox --force --set thp.enabled=madvise --set thp.defrag=madvise --json"
/vmregress test thpchallenge $K --fragment 0.8x --size 0.2x --threads 2 > /tmp/a.json; echo "rc_main=$?"
/vmregress test thpchallenge $K --fragment 16M --size 8M --corrupt-page 77 > /tmp/b.json 2> /tmp/b.err; echo "rc_corrupt=$?"
echo "policy_after=$(cat /sys/kernel/mm/transparent_hugepage/enabled)"
echo "corrupt_err=$(tail -1 /tmp/b.err)"
echo "json_main=$(tr -d '\n' < /tmp/a.json)"
SH
run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --guest-script "$T_TMP/thpc.sh" --mem 256M --timeout 400s --name thpc \
	--log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && grep -q "cannot fetch\|apt-get" <<< "$ERR"; then skip "thpchallenge in a guest" "cannot fetch a kernel"; done_testing; exit 0; fi
expect_rc "the guest ran (exit 0)" 0
label=$(jq -r '.guests[0].label' <<< "$OUT")
F=$T_TMP/logs/$label.stdout
fact() { sed -n "s/^$1=//p" "$F" | head -1; }
fact json_main > "$T_TMP/main.json"
m() { jq -r --arg n "$1" '[.metrics[] | select(.name == $n) | .value] | if length == 1 then .[0] else "-" end' \
	"$T_TMP/main.json" 2>/dev/null || echo -; }
is() { awk -v a="$2" -v b="${3:-0}" -v c="${4:-0}" "BEGIN { if (a !~ /^-?[0-9][0-9.e+-]*\$/ || b !~ /^-?[0-9][0-9.e+-]*\$/ || c !~ /^-?[0-9][0-9.e+-]*\$/) exit 1; exit !($1) }"; }
echo "# guest $label: $(m huge-regions) of $(m regions) regions huge ($(m thp-success-rate)%)," \
	"fault p50/p99/max $(m fault-latency-p50)/$(m fault-latency-p99)/$(m fault-latency-max) ns," \
	"compact stall/success/fail $(m compact-stall)/$(m compact-success)/$(m compact-fail)," \
	"thp_fault_alloc/fallback $(m thp-fault-alloc)/$(m thp-fault-fallback), $(m files-kept) files kept"
check "thpchallenge passed in the guest (exit $(fact rc_main))" [ "$(fact rc_main)" = 0 ]
check "and stored its outcome" jq -e '.outcome == "pass"' "$T_TMP/main.json"
check "it faulted regions of 2M, as many as 0.2x of the guest's memory holds ($(m regions))" \
	is 'a >= 15 && a <= 26' "$(m regions)"
check "its success rate is its huge regions over all" \
	is '(a - 100 * b / c) ^ 2 < 1e-6' "$(m thp-success-rate)" "$(m huge-regions)" "$(m regions)"
check "the kernel's thp_fault_alloc counts at least the huge regions" is 'a >= b' "$(m thp-fault-alloc)" "$(m huge-regions)"
check "the small files left no free 2M block: faults compacted (compact_stall $(m compact-stall))" \
	is 'a > 0' "$(m compact-stall)"
check "compaction succeeded no more often than it stalled" is 'a <= b' "$(m compact-success)" "$(m compact-stall)"
check "each region's fault was timed (p50 <= p99 <= max)" \
	is 'a > 0 && a <= b && b <= c' "$(m fault-latency-p50)" "$(m fault-latency-p99)" "$(m fault-latency-max)"
check "half the small files stayed in the page cache ($(m files-kept))" is 'a > 500' "$(m files-kept)"
check "the THP policy is back to never after the runs" [ "$(fact policy_after)" = "always madvise [never]" ]
check "a page damaged before it was read back fails (exit $(fact rc_corrupt))" [ "$(fact rc_corrupt)" = 1 ]
check "naming it" grep -q "page 77 of thread 0 read back wrong data" <<< "$(fact corrupt_err)"
done_testing
