#!/usr/bin/env bash
# fault's passes over a fully resident region against a bare loop over the
# same pages (bench/fault_bare.c), side by side, at 4 sizes (16M to 1G) so
# that the cost per page is seen to be flat.  The bare loop reads back and
# compares the same two words per page (what fault does to a present page)
# and, between its passes, does what fault does there (getrusage, the page
# state scan, the copy of the map), untimed in both.  Each run takes its
# fastest pass (the cost least disturbed by other work on the machine); the
# ratio is taken within each round (run in alternating order).  Target:
# ratio <= 1.10.  Start-up costs are bench/startup.sh's.
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
make -s vmregress
mkdir -p build/bench
cc -O2 -Isrc -o build/bench/fault_bare bench/fault_bare.c
passes=${PASSES:-21} rounds=${ROUNDS:-15}
run_vmr() {
	bench_out "$VMR" test fault --no-sandbox --pages "$pages" --passes "$passes" --json |
		jq -e '[.tables[] | select(.name == "passes") | .rows[1:][][4]] | min'
}
run_bare() {
	bench_out build/bench/fault_bare "$pages" "$passes" | awk '{ print $1 }'
}
for pages in ${PAGES:-4096 16384 65536 262144}; do
	vmr=() bare=() ratio=()
	for ((i = 0; i < rounds; i++)); do
		if ((i % 2)); then
			v=$(run_vmr); c=$(run_bare)
		else
			c=$(run_bare); v=$(run_vmr)
		fi
		bench_nums "fault's and fault_bare's fastest passes" "$v" "$c"
		vmr+=("$v") bare+=("$c") ratio+=("$(awk -v c="$c" -v v="$v" 'BEGIN { print v / c }')")
	done
	mib=$((pages * $(getconf PAGESIZE) / 1048576))
	bench_row "fault resident pass, ${mib}M, ns/page" \
		"$(awk -v v="$(bench_median "${vmr[@]}")" -v n="$pages" 'BEGIN { printf "%.2f", v / n }')" \
		"$(awk -v v="$(bench_median "${bare[@]}")" -v n="$pages" 'BEGIN { printf "%.2f", v / n }')" \
		"$(awk -v v="$(bench_median "${ratio[@]}")" 'BEGIN { printf "%.2f", v }')" \
		"$(printf '%s\n' "${ratio[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')" \
		"$rounds"
done
