#!/usr/bin/env bash
# pft with one task against a bare C loop doing the same mmap/touch/munmap,
# side by side: rounds alternate so that both see the same machine.
# Target: pft reaches at least 95% of the bare loop's fault rate.
set -eu
cd "$(dirname "$0")/.."
VMR=${VMR:-./vmregress}
mkdir -p build/bench
cc -O2 -o build/bench/pft_bare bench/pft_bare.c
rounds=${ROUNDS:-5} secs=${SECS:-2}
bare=() vmr=()
for ((i = 0; i < rounds; i++)); do
	bare+=("$(build/bench/pft_bare 128 "$secs")")
	vmr+=("$("$VMR" test pft --no-sandbox --tasks 1 --size 128M --duration "${secs}s" --json |
		jq '.metrics[] | select(.name == "faults-per-sec-t1") | .value')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
b=$(median "${bare[@]}") v=$(median "${vmr[@]}")
awk -v b="$b" -v v="$v" 'BEGIN {
	r = v / b
	printf "pft 1 task, anon 128M: vmregress %.0f faults/s, bare loop %.0f faults/s, ratio %.3f (target >= 0.95) %s\n",
		v, b, r, (r >= 0.95 ? "ok" : "BELOW TARGET")
}'
