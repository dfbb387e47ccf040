#!/usr/bin/env bash
# pft with one task against a bare C loop doing the same mmap/touch/munmap
# (bench/pft_bare.c), side by side, at 4 sizes (16M to 1G) so that the cost
# per page is seen to be flat.  Each round runs both, in alternating order,
# and takes the ratio within the round; the rows give the CPU ns per fault
# (the cost of the fault path itself, which time spent waiting for a CPU on
# a busy machine does not disturb) and the median of the rounds' ratios of
# cost.  Target: pft's rate at least 95% of the bare loop's (ratio <= 1.05).
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
make -s vmregress
mkdir -p build/bench
cc -O2 -o build/bench/pft_bare bench/pft_bare.c
rounds=${ROUNDS:-5} secs=${SECS:-1}
run_vmr() {
	bench_out "$VMR" test pft --no-sandbox --tasks 1 --size "${mib}M" --duration "${secs}s" --json |
		jq -er '[.metrics[] | select(.name == "faults-per-cpu-sec-t1") | .value][0]'
}
run_bare() {
	bench_out build/bench/pft_bare "$mib" "$secs" | awk '{ print $2 }'
}
for mib in ${SIZES_MIB:-16 64 256 1024}; do
	vmr=() bare=() ratio=()
	for ((i = 0; i < rounds; i++)); do
		if ((i % 2)); then
			v=$(run_vmr); b=$(run_bare)
		else
			b=$(run_bare); v=$(run_vmr)
		fi
		bench_nums "pft's and pft_bare's rates" "$v" "$b"
		vmr+=("$v") bare+=("$b") ratio+=("$(awk -v b="$b" -v v="$v" 'BEGIN { print b / v }')")
	done
	bench_row "pft 1 task, ${mib}M, CPU ns/fault" \
		"$(awk -v v="$(bench_median "${vmr[@]}")" 'BEGIN { printf "%.1f", 1e9 / v }')" \
		"$(awk -v v="$(bench_median "${bare[@]}")" 'BEGIN { printf "%.1f", 1e9 / v }')" \
		"$(awk -v v="$(bench_median "${ratio[@]}")" 'BEGIN { printf "%.2f", v }')" \
		"$(printf '%s\n' "${ratio[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')" \
		"$rounds"
done
