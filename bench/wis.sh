#!/usr/bin/env bash
# will-it-scale's page_fault1 case against a bare C loop doing the same
# mmap, one write per page, munmap (bench/wis_bare.c, will-it-scale's own
# loop), both in a sandbox of the same size (the bare loop through `sandbox
# exec`), one task, side by side.  Each round runs both, in alternating
# order, and takes the ratio within the round; the rows give the CPU ns per
# operation (the cost of the fault itself, which time spent waiting for a
# CPU on a busy machine does not disturb) and per-process-ops (LKP's figure,
# wall time), each with the median of the rounds' ratios of cost.  Target:
# the harness costs at most 5% (ratio <= 1.05).
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
make -s vmregress
mkdir -p build/bench
cc -O2 -o build/bench/wis_bare bench/wis_bare.c
rounds=${ROUNDS:-7} secs=${SECS:-2} mib=${SIZE_MIB:-128}
SB=(--mem 512M --swap none)
run_vmr() { # per-process-ops and ops-per-cpu-sec of one run
	bench_out "$VMR" test will-it-scale "${SB[@]}" --test page_fault1 --mode processes --tasks 1 \
		--size "${mib}M" --duration "${secs}s" --json |
		jq -er '[(.metrics[] | select(.name == "per-process-ops-t1") | .value),
			 (.metrics[] | select(.name == "ops-per-cpu-sec-t1") | .value)] | select(length == 2) | @tsv'
}
run_bare() {
	bench_out "$VMR" sandbox exec "${SB[@]}" -- build/bench/wis_bare "$mib" "$secs" 2>/dev/null | tr ' ' '\t'
}
wall_v=() wall_b=() wall_r=() cpu_v=() cpu_b=() cpu_r=()
for ((i = 0; i < rounds; i++)); do
	if ((i % 2)); then
		v=$(run_vmr); b=$(run_bare)
	else
		b=$(run_bare); v=$(run_vmr)
	fi
	read -r vw vc <<< "$v"
	read -r bw bc <<< "$b"
	bench_nums "will-it-scale's and wis_bare's rates" "$vw" "$vc" "$bw" "$bc"
	wall_v+=("$vw") wall_b+=("$bw") wall_r+=("$(awk -v b="$bw" -v v="$vw" 'BEGIN { print b / v }')")
	cpu_v+=("$vc") cpu_b+=("$bc") cpu_r+=("$(awk -v b="$bc" -v v="$vc" 'BEGIN { print b / v }')")
	echo "round $i: will-it-scale $vw ops/s ($vc per CPU s), bare $bw ops/s ($bc per CPU s)"
done
range() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }'; }
bench_row "will-it-scale page_fault1, 1 process, ${mib}M, CPU ns/op" \
	"$(awk -v v="$(bench_median "${cpu_v[@]}")" 'BEGIN { printf "%.1f", 1e9 / v }')" \
	"$(awk -v v="$(bench_median "${cpu_b[@]}")" 'BEGIN { printf "%.1f", 1e9 / v }')" \
	"$(awk -v v="$(bench_median "${cpu_r[@]}")" 'BEGIN { printf "%.2f", v }')" "$(range "${cpu_r[@]}")" "$rounds"
bench_row "will-it-scale page_fault1, 1 process, ${mib}M, per-process-ops" \
	"$(awk -v v="$(bench_median "${wall_v[@]}")" 'BEGIN { printf "%.0f", v }')" \
	"$(awk -v v="$(bench_median "${wall_b[@]}")" 'BEGIN { printf "%.0f", v }')" \
	"$(awk -v v="$(bench_median "${wall_r[@]}")" 'BEGIN { printf "%.2f", v }')" "$(range "${wall_r[@]}")" "$rounds"
