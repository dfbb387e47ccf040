# stutter in a guest of the kernel matrix: cgroup v2, a fresh boot, and a
# disk that writes 2M a second (--disk-write-rate), so that writeback lags
# behind the writers as on a real disk (the guest's disk is otherwise the
# host's page cache).  Checks that the throttle holds (a 4M write with
# fsync takes its two seconds), that stutter runs there with 1 and with 6
# writers, and that its share of stalled faults (1 ms and more) is the one
# its stored histogram holds.  Whether the stalls grow with the writers is
# measured in interleaved rounds by bench/stutter-writers.sh (docs/peers.md
# has the figures); one pair here would be a coin toss on a busy host, so it
# is printed, not asserted.  One guest, about 50 s under TCG; skipped under
# ASan and with VMR_NO_GUEST=1, as the other guest tests.
. "$(dirname "$0")/lib.sh"
K=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "stutter in a guest" "guests are off"; done_testing; exit 0; fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "stutter in a guest" "needs build/vmregress-static, jq and qemu-system-x86_64"; done_testing; exit 0
fi
# The writers' files on the guest's disk (the tmpfs would never write back);
# the sandbox's swap on zram, so that only the writers wait for the disk.
cat > "$T_TMP/stutter.sh" <<'SH'
mkdir -p /mnt/disk/tmp && export TMPDIR=/mnt/disk/tmp
t0=$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/zero of=/mnt/disk/dd bs=1M count=4 conv=fsync 2>/dev/null
echo "dd_s=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { print b - a }')"
rm -f /mnt/disk/dd
for w in 1 6; do
	/vmregress test stutter --mem 128M --swap zram:256M --timeout 120s --threads 4 --writers $w \
		--duration 1s --warmup 500ms --reader-size 4M --json > /tmp/s.json 2> /tmp/s.err
	echo "rc_$w=$?"
	echo "err_$w=$(tail -1 /tmp/s.err)"
	echo "json_$w=$(tr -d '\n' < /tmp/s.json)"
done
SH
run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --guest-script "$T_TMP/stutter.sh" --disk-write-rate 2M \
	--timeout 300s --name stutter --log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && registry_unreachable "$K"; then skip "stutter in a guest" "cannot fetch $K"; done_testing; exit 0; fi
expect_rc "the guest ran (exit 0)" 0
label=$(jq -r '.guests[0].label' <<< "$OUT")
F=$T_TMP/logs/$label.stdout
fact() { sed -n "s/^$1=//p" "$F" | head -1; }
jqok() { jq -e "$@" >/dev/null; }
is() { awk -v a="$2" -v b="${3:-0}" "BEGIN { if (a !~ /^-?[0-9][0-9.e+-]*\$/ || b !~ /^-?[0-9][0-9.e+-]*\$/) exit 1; exit !($1) }"; }
check "the disk took 4M in no less than 1.5 s ($(fact dd_s) s at 2M a second)" is 'a >= 1.5' "$(fact dd_s)"
for w in 1 6; do
	fact "json_$w" > "$T_TMP/s$w.json"
	m() { jq -r --arg n "$1" '[.metrics[] | select(.name == $n) | .value] | if length == 1 then .[0] else "-" end' \
		"$T_TMP/s$w.json" 2>/dev/null || echo -; }
	check "$w writer(s): stutter passed in the guest (exit $(fact rc_$w): $(fact err_$w))" [ "$(fact rc_$w)" = 0 ]
	check "$w writer(s): in a cgroup v2 sandbox" jqok '.info.sandbox.cgroup_version == 2' "$T_TMP/s$w.json"
	check "$w writer(s): the steps table has them ($w writers, 1 hog)" \
		jqok --argjson w $w '[.tables[] | select(.name == "steps") | .rows[0][1:3]] == [[$w, 1]]' "$T_TMP/s$w.json"
	# the 1 ms bucket of core/hist.h: 2^19 <= 1e6 < 2^20, so 13 * 128 + (1e6 >> 12) - 128 = 1780
	share=$(jq -r '.hists[] | select(.name == "fault-latency-t4") | .hist |
		100 * ([.buckets[] | select(.[0] >= 1780) | .[1]] | add // 0) / .count' "$T_TMP/s$w.json" 2>/dev/null)
	echo "# $w writer(s): stalled $(m stalled-faults-t4)% of $(m probe-faults-t4) faults, p99 $(m fault-latency-p99-t4) ns," \
		"round p99 $(m probe-round-p99-t4) ns, writers $(m write-byte-rate-t4) B/s"
	check "$w writer(s): stalled-faults is the histogram's share from 1 ms ($(m stalled-faults-t4) = $share)" \
		is '(a - b) ^ 2 < 1e-12 && a >= 0 && a <= 100' "$(m stalled-faults-t4)" "$share"
	check "$w writer(s): the writers wrote" is 'a > 0' "$(m write-byte-rate-t4)"
done
done_testing
