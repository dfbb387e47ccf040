# compare and report on runs with many cases: what the statistics cost next
# to formatting, and what gnuplot's graphs cost next to the tables alone;
# then the report's size and time before and after maps and dense plots
# became PNG, side by side, on three inputs: the fixtures made into 40
# cases, per-page data (a value per page for 20000 pages, maps of 65536
# pages) and, as root, two runs of the quick suite on this machine.
# "Before" is built from git: BASE_REV (default the commit before PNG
# graphs), or give a binary as VMR_BASE.
cd "$(dirname "$0")/.."
. bench/lib.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Two runs of 40 cases each, made from the test fixtures, and two of one
# case of per-page data.
python3 - "$tmp" <<'PY'
import json, sys
for name in ("pc3", "pc0"):
    r = json.load(open(f"tests/fixtures/runs/{name}.json"))
    base = [c for c in r["cases"] if c["name"] in ("fault-zero", "reread")]
    json.dump(dict(r, cases=[dict(c, name=f'{c["name"]}-{i}') for i in range(20) for c in base]),
              open(f"{sys.argv[1]}/{name}.json", "w"))
PY
python3 tests/fixtures/runs/make-per-page.py tests/fixtures/runs "$tmp"
ms() { # ms CMD...: wall milliseconds of the fastest of 3 runs
	local best=0 t0 t1 d
	for _ in 1 2 3; do
		t0=$(date +%s%N); bench_run "$@"; t1=$(date +%s%N)
		d=$(( (t1 - t0) / 1000000 ))
		if [ "$best" = 0 ] || [ "$d" -lt "$best" ]; then best=$d; fi
	done
	echo "$best"
}
A=$tmp/pc3.json B=$tmp/pc0.json
load=$(ms "$VMR" compare "$A" "$B" --cases none)
text=$(ms "$VMR" compare "$A" "$B")
json=$(ms "$VMR" compare "$A" "$B" --json)
tables=$(ms "$VMR" report "$A" "$B" -o "$tmp/r1" --no-graphs)
graphs=$(ms "$VMR" report "$A" "$B" -o "$tmp/r2" --json)
ngraphs=$(bench_out "$VMR" report "$A" "$B" -o "$tmp/r2" --json | jq .graphs)
bench_nums "report's graph count" "$ngraphs"
echo "40 cases x 2 runs: load only ${load} ms, compare text ${text} ms, json ${json} ms"
echo "report: tables only ${tables} ms, with ${ngraphs} graphs ${graphs} ms"
awk -v l="$load" -v t="$text" -v j="$json" -v a="$tables" -v g="$graphs" -v n="$ngraphs" 'BEGIN {
	if (l < 1) l = 1; if (a < 1) a = 1
	printf "ratio compare text / load only: %.2f\n", t / l
	printf "ratio compare json / text: %.2f\n", j / (t < 1 ? 1 : t)
	printf "ratio report with graphs / tables only: %.1f (%.1f ms per graph)\n", g / a, (g - a) / (n ? n : 1)
}'

# The binary from before PNG graphs.
base=${VMR_BASE:-}
if [ -z "$base" ] && git rev-parse --git-dir > /dev/null 2>&1; then
	rev=${BASE_REV:-$(git log -1 --format=%H --grep='^report: draw maps and dense plots as inline PNG')}
	[ -n "${BASE_REV:-}" ] || rev=${rev:+$rev^}
	if [ -n "$rev" ]; then
		# found but not built is a failure, never a quiet "after only"
		mkdir "$tmp/base"
		git archive "$rev" | tar -x -C "$tmp/base"
		make -C "$tmp/base" -j2 vmregress > "$tmp/base.log" 2>&1 ||
			bench_fail "the build from before PNG graphs ($(git rev-parse --short "$rev")) failed: $(tail -3 "$tmp/base.log")"
		base=$tmp/base/vmregress
		echo "before: $(git rev-parse --short "$rev"), every graph SVG"
	fi
fi
[ -n "$base" ] || echo "no commit from before PNG graphs in this tree (set VMR_BASE or BASE_REV): after only"

# Two runs of the quick suite, when root can run them.
quick=
if [ "$(id -u)" = 0 ] && [ -z "${VMR_BENCH_NO_QUICK:-}" ]; then
	bench_run "$VMR" run quick --db "$tmp/q.db" --name qa --quiet
	bench_run "$VMR" run quick --db "$tmp/q.db" --name qb --quiet
	quick=1
fi

# size BIN ARGS...: the bytes of the report BIN writes
size() {
	local bin=$1; shift
	rm -rf "$tmp/out"
	bench_run "$bin" report "$@" -o "$tmp/out"
	stat -c %s "$tmp/out/index.html"
}
# side LABEL ARGS...: one line of sizes and times, before and after; the
# "before" column is left out, saying why, where the older binary cannot
# read the input at all (a store of a later schema): that is no measurement
# of either side, while any other failure of it stops the benchmark.
side() {
	local label=$1; shift
	local as at bs=- bt=- n use_base=$base
	as=$(size "$VMR" "$@")
	at=$(ms "$VMR" report "$@" -o "$tmp/out")
	n=$(bench_out "$VMR" report "$@" -o "$tmp/out" --json | jq -r '"\(.graphs) (\(.png_graphs) PNG)"')
	if [ -n "$use_base" ] && [ "${1:-}" = qa ] && ! "$use_base" list --db "$tmp/q.db" > /dev/null 2> "$tmp/base.err"; then
		echo "$label: before left out: the older binary cannot read this store ($(tail -1 "$tmp/base.err"))"
		use_base=
	fi
	if [ -n "$use_base" ]; then
		bs=$(size "$use_base" "$@")
		bt=$(ms "$use_base" report "$@" -o "$tmp/out")
	fi
	awk -v l="$label" -v n="$n" -v bs="$bs" -v bt="$bt" -v as="$as" -v at="$at" 'BEGIN {
		b = bs == "-" ? "-" : sprintf("%8.2f MB %6d ms", bs / 1e6, bt)
		r = bs == "-" ? "" : sprintf("%7.1fx smaller", bs / as)
		printf "%-34s %-14s %20s %8.2f MB %6d ms %s\n", l, n, b, as / 1e6, at, r
	}'
}
printf "%-34s %-14s %20s %20s\n" "report of" "graphs" "before" "after"
side "fixtures, 40 cases x 2 runs" "$A" "$B"
side "per-page data, 2 runs" "$tmp/pc3-pages.json" "$tmp/pc0-pages.json"
if [ -n "$quick" ]; then
	side "quick suite x 2 runs (this host)" qa qb --db "$tmp/q.db"
else
	echo "quick suite x 2 runs: not run (needs root; VMR_BENCH_NO_QUICK unset)"
fi
