#!/usr/bin/env bash
# pft with one task against a bare C loop doing the same mmap/touch/munmap,
# side by side.  Each round runs both, in alternating order, and takes the
# ratio within the round; the median of the rounds' ratios is reported, for
# the rate per second of CPU time (the cost of the fault path itself, which
# time spent waiting for a CPU on a busy machine does not disturb) and for
# the rate per wall-clock second.  Target: pft reaches at least 95% of the
# bare loop's rate.
cd "$(dirname "$0")/.."
. bench/lib.bash
mkdir -p build/bench
cc -O2 -o build/bench/pft_bare bench/pft_bare.c
rounds=${ROUNDS:-9} secs=${SECS:-1}
run_vmr() { # pft's faults per wall-clock and per CPU second
	local w c
	read -r w c <<< "$(bench_out "$VMR" test pft --no-sandbox --tasks 1 --size 128M --duration "${secs}s" --json |
		jq -r '[.metrics[] | select(.name == "faults-per-sec-t1" or .name == "faults-per-cpu-sec-t1") | .value] | "\(.[0]) \(.[1])"')"
	bench_nums "pft's rates" "$w" "$c"
	echo "$w $c"
}
run_bare() { # the bare loop's faults per wall-clock and per CPU second
	local w c
	read -r w c <<< "$(bench_out build/bench/pft_bare 128 "$secs")"
	bench_nums "pft_bare's rates" "$w" "$c"
	echo "$w $c"
}
cpu=() wall=() bcpu=() vcpu=()
for ((i = 0; i < rounds; i++)); do
	if ((i % 2)); then
		v=$(run_vmr); b=$(run_bare)
	else
		b=$(run_bare); v=$(run_vmr)
	fi
	read -r vw vc <<< "$v"; read -r bw bc <<< "$b"
	cpu+=("$(awk -v b="$bc" -v v="$vc" 'BEGIN { print v / b }')")
	wall+=("$(awk -v b="$bw" -v v="$vw" 'BEGIN { print v / b }')")
	bcpu+=("$bc") vcpu+=("$vc")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
awk -v c="$(median "${cpu[@]}")" -v w="$(median "${wall[@]}")" -v b="$(median "${bcpu[@]}")" \
    -v v="$(median "${vcpu[@]}")" -v n="$rounds" 'BEGIN {
	printf "pft 1 task, anon 128M, %d rounds: vmregress %.0f, bare loop %.0f faults per CPU-second (medians); median ratio %.3f (target >= 0.95) %s; per wall-clock second: median ratio %.3f\n",
		n, v, b, c, (c >= 0.95 ? "ok" : "BELOW TARGET"), w
}'
