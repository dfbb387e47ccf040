# compare and report on runs with many cases: what the statistics cost next
# to formatting, and what gnuplot's graphs cost next to the tables alone.
# Prints times and ratios measured side by side in one run.
set -eu
VMR=${VMR:-./vmregress}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Two runs of 40 cases each, made from the test fixtures.
python3 - "$tmp" <<'PY'
import json, sys
for name in ("pc3", "pc0"):
    r = json.load(open(f"tests/fixtures/runs/{name}.json"))
    base = [c for c in r["cases"] if c["name"] in ("fault-zero", "reread")]
    r["cases"] = [dict(c, name=f'{c["name"]}-{i}') for i in range(20) for c in base]
    json.dump(r, open(f"{sys.argv[1]}/{name}.json", "w"))
PY
ms() { # ms CMD...: wall milliseconds of the fastest of 3 runs
	local best=0 t0 t1 d
	for _ in 1 2 3; do
		t0=$(date +%s%N); "$@" > /dev/null; t1=$(date +%s%N)
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
ngraphs=$(grep -o '<svg' "$tmp/r2/index.html" | wc -l)
echo "40 cases x 2 runs: load only ${load} ms, compare text ${text} ms, json ${json} ms"
echo "report: tables only ${tables} ms, with ${ngraphs} graphs ${graphs} ms"
awk -v l="$load" -v t="$text" -v j="$json" -v a="$tables" -v g="$graphs" -v n="$ngraphs" 'BEGIN {
	if (l < 1) l = 1; if (a < 1) a = 1
	printf "ratio compare text / load only: %.2f\n", t / l
	printf "ratio compare json / text: %.2f\n", j / (t < 1 ? 1 : t)
	printf "ratio report with graphs / tables only: %.1f (%.1f ms per graph)\n", g / a, (g - a) / (n ? n : 1)
}'
