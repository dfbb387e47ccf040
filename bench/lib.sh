# Helpers every bench/*.sh sources.  A benchmark prints its results as rows
#   row <TAB> measurement <TAB> vmregress <TAB> reference <TAB> ratio <TAB> range <TAB> rounds
# (ratio: vmregress's cost over the reference's, the median of the rounds'
# ratios; range: the smallest and largest round's ratio), which bench/run-all
# gathers into one report; any other line is commentary.  A command that
# fails ends the benchmark with its exit status and its output, never a row
# made of nothing.

# The fail-loudly rules (set -Eeuo pipefail, bench_fail, bench_out,
# bench_nums) are bench/lib.bash's.
. bench/lib.bash

# bench_median V...
bench_median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# bench_row MEASUREMENT VMREGRESS REFERENCE RATIO RANGE ROUNDS
bench_row() { printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"; }

# bench_time_ns CMD...: wall nanoseconds of one run of CMD (output thrown
# away); stops loudly when CMD fails.
bench_time_ns() {
	local t0 t1 rc=0
	t0=$(date +%s%N)
	"$@" > /dev/null 2> "${BENCH_ERR:-/dev/null}" || rc=$?
	t1=$(date +%s%N)
	if [ "$rc" != 0 ]; then
		[ -n "${BENCH_ERR:-}" ] && cat "$BENCH_ERR" >&2
		bench_fail "'$*' exited $rc"
	fi
	echo $((t1 - t0))
}

# bench_pair NAME ROUNDS UNIT_DIV A_CMD :: B_CMD: time A (vmregress) and B
# (the reference) in turn, A B then B A, ROUNDS times; print one row with the
# medians (in ns divided by UNIT_DIV, e.g. 1000000 for ms) and the ratio A/B
# taken within each round.
bench_pair() {
	local name=$1 rounds=$2 div=$3 a=() b=() ta tb i
	shift 3
	while [ "$1" != :: ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	local as=() bs=() rs=()
	for ((i = 0; i < rounds; i++)); do
		if ((i % 2)); then
			tb=$(bench_time_ns "${b[@]}"); ta=$(bench_time_ns "${a[@]}")
		else
			ta=$(bench_time_ns "${a[@]}"); tb=$(bench_time_ns "${b[@]}")
		fi
		as+=("$ta") bs+=("$tb") rs+=("$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.4f", a / b }')")
	done
	local lo hi
	lo=$(printf '%s\n' "${rs[@]}" | sort -g | head -1)
	hi=$(printf '%s\n' "${rs[@]}" | sort -g | tail -1)
	bench_row "$name" "$(awk -v v="$(bench_median "${as[@]}")" -v d="$div" 'BEGIN { printf "%.2f", v / d }')" \
		"$(awk -v v="$(bench_median "${bs[@]}")" -v d="$div" 'BEGIN { printf "%.2f", v / d }')" \
		"$(awk -v v="$(bench_median "${rs[@]}")" 'BEGIN { printf "%.2f", v }')" \
		"$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%.2f-%.2f", l, h }')" "$rounds"
}
