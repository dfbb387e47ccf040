#!/usr/bin/env bash
# Tracing's and profiling's cost: the same reclaiming fault case without
# them, with --trace reclaim, --trace all and --profile, interleaved round
# by round so that drift on the host hits every mode alike.  Reports the
# median and the minimum of the workload's own time for its passes
# (time-passes) per mode, each with its ratio to the untraced case (the
# minimum is the least disturbed by a busy host), and the events read and
# dropped.  A run that ends in an OOM or a failed check (exit 1) is left
# out; any other failure, or a mode without a passing run, fails the
# benchmark.
# Usage: bench/trace.sh [ROUNDS]   (default 5; needs root and a memory cgroup)
cd "$(dirname "$0")/.."
. bench/lib.bash
make -s --no-print-directory vmregress
rounds=${1:-5}
if [ "$(id -u)" != 0 ]; then
	echo "== trace overhead: skipped (needs root)"
	exit 0
fi
modes=("none" "--trace reclaim" "--trace all" "--profile")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$rounds"); do
	for i in "${!modes[@]}"; do
		m=${modes[$i]}
		[ "$m" = none ] && m=
		rc=0
		# shellcheck disable=SC2086
		"$VMR" test fault --size 1.1x --mem 32M --passes 3 $m --json > "$out/$i.$r.json" 2> "$out/err" || rc=$?
		# only passing runs count: an OOM or a failed check says nothing
		# about tracing's cost; a usage error, "cannot run here" or a
		# crash means the benchmark measures nothing
		[ "$rc" = 0 ] || { [ "$rc" = 1 ] && [ -s "$out/$i.$r.json" ] && jq -e '.outcome | strings' "$out/$i.$r.json" > /dev/null 2>&1; } ||
			bench_fail "'$VMR test fault ... ${m:-(untraced)}' failed (exit $rc): $(tail -1 "$out/err")"
		[ "$(jq -r .outcome "$out/$i.$r.json" 2> /dev/null)" = pass ] || rm -f "$out/$i.$r.json"
	done
done
median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
metric() { jq -r --arg n "$1" '.metrics[] | select(.name == $n) | .value' "$2"; }
echo "== trace overhead: fault --size 1.1x --mem 32M --passes 3, median of the passing runs of $rounds rounds"
printf '%-18s %5s %12s %7s %12s %7s %13s %8s %8s\n' mode runs median ratio min ratio memcg-stalls events dropped
base='' missing=''
for i in "${!modes[@]}"; do
	n=$(find "$out" -name "$i.*.json" | wc -l)
	if [ "$n" = 0 ]; then printf '%-18s %5s (no passing run)\n' "${modes[$i]}" 0; missing+=" '${modes[$i]}'"; continue; fi
	t=$(for f in "$out/$i".*.json; do metric time-passes "$f"; done | median)
	lo=$(for f in "$out/$i".*.json; do metric time-passes "$f"; done | sort -g | head -1)
	s=$(for f in "$out/$i".*.json; do metric memcg-reclaim-stalls "$f"; done | median)
	ev=$(for f in "$out/$i".*.json; do jq -r '.info.trace.events // empty' "$f"; done | median)
	dr=$(for f in "$out/$i".*.json; do jq -r '.info.trace.dropped // empty' "$f"; done | median)
	[ -z "$base" ] && base=$t && base_lo=$lo
	awk -v m="${modes[$i]}" -v n="$n" -v t="$t" -v b="$base" -v lo="$lo" -v blo="$base_lo" -v s="$s" \
		-v ev="$ev" -v dr="$dr" 'BEGIN { printf "%-18s %5s %10.1fms %7.3f %10.1fms %7.3f %13s %8s %8s\n",
			m, n, t / 1e6, t / b, lo / 1e6, lo / blo, s, ev, dr }'
done
[ -z "$missing" ] || bench_fail "no passing run for$missing: no figure for it"
