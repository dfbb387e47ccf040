#!/usr/bin/env bash
# The seed programs as vmregress runs them, at vm.page-cluster 0 and 5 with
# a swap file, interleaved (the order of the two settings alternates each
# round): sp_tester's re-read (reread), LTP's mtest01 -w and LTP's
# mmap001.  For each: the median of the timed portion at each setting,
# the effect ratio (page-cluster 0 / page-cluster 5) and the median major
# faults, to hold against the originals' behaviour in docs/seeds.md.
# First, the cost of reread's check folded into its timed reads, against
# a bare loop over the same bytes (target: within 10% for --touch byte).
# Any command that fails, or prints nothing, stops the benchmark (the
# rules of bench/lib.bash), and so does a check above its target.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.bash
ROUNDS=${ROUNDS:-3}
mkdir -p build/bench
cc -O2 -Isrc -o build/bench/reread_touch bench/reread_touch.c

die() { bench_fail "$@"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== reread's check in its timed reads, against a bare read of the same bytes"
out=$(taskset -c "${VMR_BENCH_CPU:-0}" build/bench/reread_touch 16384 9) || die "reread_touch failed"
[ -n "$out" ] || die "reread_touch printed nothing"
awk '{ printf "touch %-4s checked %9.0f ns, bare %9.0f ns: ratio %.3f%s\n", $1, $2, $3, $4,
	($1 == "byte" ? ($4 <= 1.10 ? " (target <= 1.10) ok" : " (target <= 1.10) ABOVE TARGET") : "") }' <<< "$out"
awk '$1 == "byte" { n++; if ($4 > 1.10) above = 1 } END { exit !(n == 1 && !above) }' <<< "$out" ||
	die "reread's check costs more than its target of 1.10 over a bare read (touch byte), or was not measured"

# one_run NAME PC METRIC MAJOR ARGS...: run the workload once at page-cluster
# PC, print "TIME MAJOR"; fails loudly on a non-zero exit or missing metric.
one_run() {
	local name=$1 pc=$2 metric=$3 major=$4 out rc=0
	shift 4
	out=$("$VMR" test "$@" --set vm.page-cluster="$pc" --json 2>"build/bench/seeds-$name.err") || rc=$?
	[ "$rc" = 0 ] || die "$name at page-cluster $pc exited $rc: $(head -c 300 "build/bench/seeds-$name.err")"
	[ -n "$out" ] || die "$name at page-cluster $pc printed nothing"
	jq -er --arg t "$metric" --arg m "$major" '
		[(.metrics[] | select(.name == $t) | .value), (.metrics[] | select(.name == $m) | .value)]
		| if length == 2 then "\(.[0]) \(.[1])" else error("missing metric") end' <<< "$out" \
		|| die "$name at page-cluster $pc: no $metric or $major in its result"
}

if [ "$(id -u)" != 0 ]; then echo "== the seeds at vm.page-cluster 0 and 5: skipped (needs root)"; exit 0; fi
declare -A T M
cases=(reread mtest01 mmap001)
declare -A ARGS=(
	[reread]="reread --mem 128M --swap file:256M --sleep 0"
	[mtest01]="mtest01 --mem 64M --swap file:256M --write --check=no --bytes 160M"
	[mmap001]="mmap001 --mem 64M --swap file:256M --pages 40000 --verify=no"
)
declare -A METRIC=([reread]=reread-time [mtest01]=time [mmap001]=ltp-time)
declare -A MAJOR=([reread]=major-faults-reread [mtest01]=children-major-faults [mmap001]=major-faults)
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then order="5 0"; else order="0 5"; fi
	for c in "${cases[@]}"; do
		for pc in $order; do
			# shellcheck disable=SC2086
			res=$(one_run "$c" "$pc" "${METRIC[$c]}" "${MAJOR[$c]}" ${ARGS[$c]}) || exit 1
			read -r t m <<< "$res"
			[ -n "${m:-}" ] || die "$c at page-cluster $pc gave no numbers"
			T[$c.$pc]="${T[$c.$pc]:-} $t" M[$c.$pc]="${M[$c.$pc]:-} $m"
		done
	done
done
echo "== the seeds at vm.page-cluster 0 and 5, swap file, $ROUNDS rounds interleaved (medians)"
for c in "${cases[@]}"; do
	# shellcheck disable=SC2086
	t0=$(median ${T[$c.0]}) t5=$(median ${T[$c.5]}) m0=$(median ${M[$c.0]}) m5=$(median ${M[$c.5]})
	awk -v c="$c" -v w="${METRIC[$c]}" -v j="${MAJOR[$c]}" -v t0="$t0" -v t5="$t5" -v m0="$m0" -v m5="$m5" 'BEGIN {
		printf "%-8s %-14s pc0 %8.1f ms  pc5 %8.1f ms  effect pc0/pc5 %.2fx   %s pc0 %.0f  pc5 %.0f\n",
			c, w, t0 / 1e6, t5 / 1e6, (t5 > 0 ? t0 / t5 : 0), j, m0, m5 }'
done
