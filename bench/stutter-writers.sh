#!/usr/bin/env bash
# stutter's probe against the writers' count, in a matrix guest (cgroup v2,
# a fresh boot) whose disk writes 2M a second (--disk-write-rate, RATE), so
# that writeback lags behind the writers as on a real disk: ROUNDS interleaved
# rounds of `test stutter --threads 4` with 1 writer and with $WRITERS (one
# hog either way), the order alternating.  Rows: each figure with many
# writers (vmregress column) and with one (reference column), the median of
# the rounds' ratios and their range.  The guest is emulated (TCG): absolute
# times mean little, ratios within a round do.  What it showed is in
# docs/peers.md (stutter).
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
K=${KERNEL:-linux-image-6.12.117+deb12-cloud-amd64}
rounds=${ROUNDS:-5} writers=${WRITERS:-6} rate=${RATE:-2M}   # RATE=0: the host cache's speed
cpus=${CPUS:-1}   # more than the writers, so that they can dirty faster together (a KVM host)
make -s vmregress build/vmregress-static
command -v qemu-system-x86_64 >/dev/null || bench_fail "needs qemu-system-x86_64"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/stutter.sh" <<SH
mkdir -p /mnt/disk/tmp && export TMPDIR=/mnt/disk/tmp
for r in \$(seq 1 $rounds); do
	if [ \$((r % 2)) = 1 ]; then order="1 $writers"; else order="$writers 1"; fi
	for w in \$order; do
		/vmregress test stutter --mem 128M --swap zram:256M --timeout 120s --threads 4 --writers \$w \\
			--duration 2s --warmup 1s --reader-size 4M --json > /tmp/s.json 2> /tmp/s.err
		echo "stutter r=\$r w=\$w rc=\$? \$(tr -d '\n' < /tmp/s.json)"
	done
done
SH
bench_out "$VMR" matrix --kernel "$K" --guest-script "$T/stutter.sh" --mem 512M --cpus "$cpus" --disk-write-rate "$rate" \
	--timeout 1200s --name stutter-writers --log-dir "$T/logs" --db "$T/r.db" --json > /dev/null
F=$(ls "$T"/logs/*.stdout)
grep -q "^stutter .* rc=0 {" "$F" || bench_fail "no stutter run came back: $(head -c 500 "$F")"
if grep "^stutter " "$F" | grep -qv " rc=0 "; then bench_fail "a stutter run failed: $(grep -v ' rc=0 ' "$F" | head -c 300)"; fi
# fig R W METRIC: METRIC of round R's run with W writers
fig() { grep "^stutter r=$1 w=$2 " "$F" | sed 's/^[^{]*//' | jq -er --arg n "$3-t4" '.metrics[] | select(.name == $n) | .value'; }
row() { # row NAME METRIC
	local many=() one=() ratio=() a b r
	for ((r = 1; r <= rounds; r++)); do
		a=$(fig $r "$writers" "$2"); b=$(fig $r 1 "$2")
		bench_nums "$2 with $writers writers and 1" "$a" "$b"
		echo "# round $r: $2 $b with 1 writer, $a with $writers"
		many+=("$a") one+=("$b") ratio+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print (b > 0 ? a / b : 0) }')")
	done
	bench_row "$1, $writers writers over 1" "$(bench_median "${many[@]}")" "$(bench_median "${one[@]}")" \
		"$(awk -v v="$(bench_median "${ratio[@]}")" 'BEGIN { printf "%.2f", v }')" \
		"$(printf '%s\n' "${ratio[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')" \
		"$rounds"
}
row "stalled faults (1 ms and more), %" stalled-faults
row "fault latency p99, ns" fault-latency-p99
row "fault latency p50, ns" fault-latency-p50
row "probe round p99 (stutterp's figure), ns" probe-round-p99
row "writers' bytes per second" write-byte-rate
