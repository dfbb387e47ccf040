#!/usr/bin/env bash
# The smallest change each quick-suite headline metric can show on this
# machine, before and after the variance reductions: the minimal detectable
# effect (80% power, compare's alpha over the suite's headline tests;
# docs/statistics.md) of A/A runs (two identical variants, their iterations
# interleaved), median over rounds.
#   before: the old defaults, -n 6 per variant and no warm-up (not even
#           mmap001's), made and compared by $VMR_BENCH_MDE_BEFORE_VMR
#           (default $VMR: give it an older build to measure that one);
#   after:  --iterations auto --precision P with a budget of
#           $VMR_BENCH_MDE_CASE_BUDGET (default 2m) per variant and case, so
#           --budget is that times 2 variants times the suite's cases, a
#           case's unused share passing to those after it; with
#           $VMR_BENCH_MDE_AFTER (default --warmup 1; not --cpu, which halves
#           pft's two-task throughput, nor --reset-between, which raises
#           alloc-low's and mtest01's variance: docs/variance.md).
# Rounds alternate which comes first, so the machine's drift falls on both.
# Each round takes about as long as its budget (32 minutes with the
# defaults) and a minute for the before run.
# Prints a Markdown table (MDE and CV before and after, iterations per
# variant, whether the target is met: 2% for pft and fault, 5% for the rest),
# how many headline tests the A/A runs called (none should be), and one row
# per metric (vmregress: MDE after, reference: MDE before).
# Needs root.  VMR_BENCH_MDE_ROUNDS (default 3), VMR_BENCH_MDE_N (6),
# VMR_BENCH_MDE_PRECISION (0.75%: about a 2% MDE, so a case that reaches it
# gives its time to the others), VMR_BENCH_MDE_DB (keep the runs in this
# store; default a temporary one), VMR_BENCH_MDE_REUSE=1 (run nothing: compare
# the runs a kept store holds again, e.g. with a newer build).
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
[ "$(id -u)" = 0 ] || { echo "$BENCH: skipped: needs root (sandboxes)"; exit 0; }
ROUNDS=${VMR_BENCH_MDE_ROUNDS:-3}
N=${VMR_BENCH_MDE_N:-6}
CASE_BUDGET=${VMR_BENCH_MDE_CASE_BUDGET:-2m}
PRECISION=${VMR_BENCH_MDE_PRECISION:-0.75%}
BEFORE_VMR=${VMR_BENCH_MDE_BEFORE_VMR:-$VMR}
REUSE=${VMR_BENCH_MDE_REUSE:-}
read -r -a AFTER <<< "${VMR_BENCH_MDE_AFTER:---warmup 1}"
make -s vmregress
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=${VMR_BENCH_MDE_DB:-$tmp/m.db}
[ -z "$REUSE" ] || [ -s "$db" ] || bench_fail "VMR_BENCH_MDE_REUSE needs the kept store VMR_BENCH_MDE_DB ('$db' is empty)"
ncases=$(grep -c '^\[' suites/quick.ini)
ncases=$((ncases - 1))   # less [global]
[ "$ncases" -gt 0 ] || bench_fail "suites/quick.ini has no case"
case_s=$(awk -v t="$CASE_BUDGET" 'BEGIN {
	n = t + 0; u = substr(t, length(n "") + 1); f = u == "m" ? 60 : u == "h" ? 3600 : 1; print int(n * f) }')
[ "$case_s" -gt 0 ] || bench_fail "VMR_BENCH_MDE_CASE_BUDGET '$CASE_BUDGET' is not a time (90s, 2m)"
BUDGET=$((case_s * 2 * ncases))s

# aa KIND ROUND: one A/A run, then per headline metric a line
#   KIND <TAB> CASE METRIC <TAB> MDE <TAB> mean CV <TAB> iterations per variant
aa() {
	local name=$1$2 args=()
	local vmr=$VMR
	if [ "$1" = before ]; then args=(-n "$N" --warmup 0) vmr=$BEFORE_VMR
	else args=(--iterations auto --precision "$PRECISION" --budget "$BUDGET" "${AFTER[@]}"); fi
	[ -n "$REUSE" ] ||
		bench_run "$vmr" run quick --db "$db" --quiet --name "$name" --variant a: --variant b: "${args[@]}"
	local json
	json=$(bench_out "$vmr" compare "$name" --db "$db" --json)
	jq -r --arg k "$1" '.verdict | [$k, .regressions + .improvements + .changed, (.headline | length)] | @tsv' \
		<<< "$json" >> "$tmp/flags.tsv"
	jq -r --arg k "$1" '.rows[] | select(.headline) |
		[$k, "\(.case) \(.metric)", (.runs[1].mde // "nan"), ((.runs[0].cv_pct + .runs[1].cv_pct) / 200),
		 ([.runs[0].n, .runs[1].n] | min)] | @tsv' <<< "$json" > "$tmp/$name.tsv"
	[ -s "$tmp/$name.tsv" ] || bench_fail "$name: compare found no headline metric"
	cat "$tmp/$name.tsv" >> "$tmp/all.tsv"
	sed 's/^/  /' "$tmp/$name.tsv"  # the figures in the log too, should a later round fail
}

: > "$tmp/all.tsv"
: > "$tmp/flags.tsv"
echo "MDE before/after: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$ROUNDS rounds; before -n $N by $BEFORE_VMR, after auto $PRECISION within $BUDGET" \
	"($CASE_BUDGET per variant and case) with ${AFTER[*]}"
for r in $(seq 1 "$ROUNDS"); do
	if ((r % 2)); then aa before "$r"; aa after "$r"; else aa after "$r"; aa before "$r"; fi
	echo "round $r done, load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "ended $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$tmp/all.tsv" > "$tmp/table" <<'PY'
import math, statistics, sys
v = {}
for line in open(sys.argv[1]):
    kind, metric, mde, cv, n = line.rstrip("\n").split("\t")
    v.setdefault(metric, {}).setdefault(kind, []).append((float(mde), float(cv), int(n)))
def med(xs):
    xs = [x for x in xs if not math.isnan(x)]
    return statistics.median(xs) if xs else float("nan")
def pct(x):
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"
rows = []
print("| case metric | MDE before | MDE after | CV before | CV after | iterations after | target | met |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for metric, k in v.items():
    b, a = k.get("before", []), k.get("after", [])
    mb, ma = med([x[0] for x in b]), med([x[0] for x in a])
    target = 0.02 if metric.split()[0] in ("pft", "fault-zero") else 0.05
    met = "-" if math.isnan(ma) else ("yes" if ma <= target else "no")
    print(f"| {metric} | {pct(mb)} | {pct(ma)} | {pct(med([x[1] for x in b]))} | {pct(med([x[1] for x in a]))} "
          f"| {int(med([x[2] for x in a])) if a else '-'} | {pct(target)} | {met} |")
    rows.append(f"row\tMDE {metric}\t{pct(ma)}\t{pct(mb)}\t"
          f"{'-' if math.isnan(ma) or math.isnan(mb) or not mb else f'{ma / mb:.2f}'}\t-\t{len(a)}")
print("\n".join(rows))
PY
cat "$tmp/table"
awk -F'\t' '{ f[$1] += $2; t[$1] += $3 } END { for (k in f) printf "A/A %s: %d of %d headline tests called (want 0)\n", k, f[k], t[k] }' \
	"$tmp/flags.tsv" | sort
