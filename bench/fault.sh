#!/usr/bin/env bash
# fault's passes over a fully resident region against a bare loop over the
# same pages, side by side.  Target: within 10% of the bare loop that reads
# and compares the same two words per page (what fault does to a present
# page); the one-word read loop is printed for reference.  Each run takes
# its fastest pass (the cost least disturbed by other work on the machine),
# the ratio is taken within each round (run in alternating order), and the
# median ratio is reported.
cd "$(dirname "$0")/.."
. bench/lib.bash
mkdir -p build/bench
cc -O2 -Isrc -o build/bench/fault_bare bench/fault_bare.c
passes=${PASSES:-41} rounds=${ROUNDS:-7}
run_vmr() { # the fastest resident pass of one vmregress run, in ns
	local v
	v=$(bench_out "$VMR" test fault --no-sandbox --pages "$pages" --passes "$passes" --json |
		jq '[.tables[] | select(.name == "passes") | .rows[1:][][4]] | min')
	bench_nums "fault's fastest pass" "$v"
	echo "$v"
}
run_bare() { # the bare check loop's and read loop's fastest pass, in ns
	local c r
	read -r c r <<< "$(bench_out build/bench/fault_bare "$pages" "$passes")"
	bench_nums "fault_bare's passes" "$c" "$r"
	echo "$c $r"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Two sizes: the touched lines of 128M (4 MiB) are about a core's L2, those
# of 256M are not, and the caches decide much of a resident pass's cost.
for pages in ${PAGES:-32768 65536}; do
chk=() rd=() vmr=() ratio=() rratio=()
for ((i = 0; i < rounds; i++)); do
	if ((i % 2)); then
		v=$(run_vmr); b=$(run_bare)
	else
		b=$(run_bare); v=$(run_vmr)
	fi
	read -r c r <<< "$b"
	chk+=("$c") rd+=("$r") vmr+=("$v")
	ratio+=("$(awk -v c="$c" -v v="$v" 'BEGIN { print v / c }')")
	rratio+=("$(awk -v r="$r" -v v="$v" 'BEGIN { print v / r }')")
done
awk -v c="$(median "${chk[@]}")" -v r="$(median "${rd[@]}")" -v v="$(median "${vmr[@]}")" \
    -v x="$(median "${ratio[@]}")" -v y="$(median "${rratio[@]}")" -v n="$pages" -v k="$rounds" 'BEGIN {
	printf "fault resident pass, %d pages, %d rounds: vmregress %.0f ns, bare check loop %.0f ns (medians); median ratio %.3f (target <= 1.10) %s; bare one-word read %.0f ns, ratio %.3f\n",
		n, k, v, c, x, (x <= 1.10 ? "ok" : "ABOVE TARGET"), r, y
}'
done
