#!/usr/bin/env bash
# usemem with one task against a bare C loop doing the same walk
# (bench/usemem_bare.c): anon-w-seq's write of every word, twice so the
# second pass checks the first, and anon-r-rand's random reads.  Both run
# unsandboxed; each round runs both, in alternating order, and takes the
# ratio of their throughputs within the round, per second of the walk's
# own CPU time (time spent waiting for a CPU on a busy machine would
# otherwise be most of the difference).  Rows: MiB per CPU-second of each,
# the median of the rounds' ratios (the bare loop's over usemem's: what the
# harness costs).  Target: ratio <= 1.05.
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
make -s vmregress
mkdir -p build/bench
cc -O2 -o build/bench/usemem_bare bench/usemem_bare.c
rounds=${ROUNDS:-7} mib=${SIZE_MIB:-256}
run_vmr() {
	bench_out "$VMR" test usemem --no-sandbox --tasks 1 --size "${mib}M" $1 --json |
		jq -er '[.metrics[] | select(.name == "throughput-per-cpu-sec") | .value][0]'
}
run_bare() {
	bench_out build/bench/usemem_bare "$mib" $1 | awk '{ print $2 }'
}
row() { # row NAME VMR_ARGS BARE_ARGS
	local vmr=() bare=() ratio=() v b i
	for ((i = 0; i < rounds; i++)); do
		if ((i % 2)); then
			v=$(run_vmr "$2"); b=$(run_bare "$3")
		else
			b=$(run_bare "$3"); v=$(run_vmr "$2")
		fi
		bench_nums "usemem's and usemem_bare's throughputs" "$v" "$b"
		vmr+=("$v") bare+=("$b") ratio+=("$(awk -v b="$b" -v v="$v" 'BEGIN { print b / v }')")
	done
	bench_row "$1, ${mib}M, MiB per CPU-second" \
		"$(awk -v v="$(bench_median "${vmr[@]}")" 'BEGIN { printf "%.1f", v / 1048576 }')" \
		"$(awk -v v="$(bench_median "${bare[@]}")" 'BEGIN { printf "%.1f", v / 1048576 }')" \
		"$(awk -v v="$(bench_median "${ratio[@]}")" 'BEGIN { printf "%.2f", v }')" \
		"$(printf '%s\n' "${ratio[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')" \
		"$rounds"
}
row "usemem write, sequential, 2 passes" "--repeat 2" "2 write"
row "usemem read, random" "--readonly --random" "1 read"
