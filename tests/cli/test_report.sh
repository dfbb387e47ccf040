# vmregress report and plot-map: a self-contained page whose every graph is
# a real SVG, rendered by headless Chromium without console errors and
# with visible content; maps of a live process and of a stored case.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F=$(cd "$HERE/../fixtures/runs" && pwd)
A=$F/pc3.json B=$F/pc0.json
R=$T_TMP/report

# svg_check FILE: every <svg>...</svg> in FILE draws something; prints the count.
svg_check() {
	python3 - "$1" <<'PY'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
bad = [i for i, s in enumerate(svgs) if len(s) < 500 or not re.search(r"<(path|image|polyline)\b", s)]
print(len(svgs) if not bad else f"empty svg at {bad}")
PY
}

run "$VMR" report "$A" "$B" -o "$R" --json --title "page-cluster 3 against 0"
expect_rc "report of two runs exits 0" 0
graphs=$(jq -r .graphs <<< "$OUT" 2>/dev/null)
[ -s "$R/index.html" ] && ok "index.html written" || not_ok "index.html written"
[ "$(jq -r .failed_graphs <<< "$OUT" 2>/dev/null)" = 0 ] && ok "every graph drawn" || not_ok "every graph drawn: $OUT"
n=$(svg_check "$R/index.html")
[ "$n" = "$graphs" ] && [ "${graphs:-0}" -ge 20 ] && ok "every graph is a non-empty inline SVG ($n)" \
	|| not_ok "every graph is a non-empty inline SVG (found $n, report says $graphs)"
if grep -qiE '<script|<link|<img|<iframe|src=|url\(|href="(https?:)?//' "$R/index.html"
then not_ok "the page needs no network"; else ok "the page needs no network"; fi
grep -q 'sysctl.vm.page-cluster</td><td>3</td><td>0</td>' "$R/index.html" && ok "environment diff in the page" \
	|| not_ok "environment diff in the page"
grep -q 'class="num improved">1013486469.20 \*+17.57%\*' "$R/index.html" && ok "significant improvement marked" \
	|| not_ok "significant improvement marked"
for want in 'Case fault-zero' 'fault-latency distribution (CDF)' 'fault-zero: swap in and out' 'fault-zero: memory pressure (PSI)' 'fault-zero: free memory' 'pc0 fault-zero: pass2' \
	    'access-time over the trace' 'faults_per_sec by tasks' 'linear ideal' '<title>page-cluster 3 against 0</title>'; do
	grep -qF "$want" "$R/index.html" && ok "page has '$want'" || not_ok "page has '$want'"
done

# A real small run: two runs of the null workload stored in a fresh results
# file, compared and reported straight from the store.
DB=$T_TMP/results.db
cat > "$T_TMP/tiny.ini" <<'INI'
[global]
iterations = 3
no-sandbox = yes
probe-period = 5ms
monitor-interval = 50ms

[spin]
workload = null
spin = 5ms
INI
run "$VMR" run "$T_TMP/tiny.ini" --db "$DB" --name spin5 --quiet
expect_rc "a tiny null run is stored" 0
sed -i 's/spin = 5ms/spin = 15ms/' "$T_TMP/tiny.ini"
run "$VMR" run "$T_TMP/tiny.ini" --db "$DB" --name spin15 --quiet
expect_rc "a second tiny run is stored" 0
run "$VMR" compare spin5 last --db "$DB"
expect_rc "compare of stored runs exits 0" 0
expect_out "a changed case option is a setting that differs" '^  case\.spin\..*spin +5000000 +15000000$'
expect_out "the workload's time is compared" '^Amean +spin +time +[0-9.]+ \( +0\.00%\)'
expect_out "counters that never moved are named, not shown" "metrics of case 'spin' are zero in every run"
R=$T_TMP/real
run "$VMR" report spin5 spin15 --db "$DB" -o "$R" --json
expect_rc "report of stored runs exits 0" 0
graphs=$(jq -r .graphs <<< "$OUT" 2>/dev/null)
n=$(svg_check "$R/index.html")
[ "$n" = "$graphs" ] && [ "${graphs:-0}" -ge 3 ] && ok "real run: every graph is a non-empty inline SVG ($n)" \
	|| not_ok "real run: every graph is a non-empty inline SVG (found $n, report says $graphs)"
grep -qF 'spin: time per iteration' "$R/index.html" && ok "real run: the workload's metric is drawn" \
	|| not_ok "real run: the workload's metric is drawn"

# In a browser: no console errors, every graph in the DOM, pixels on screen.
if ! command -v chromium >/dev/null; then
	skip "report renders in headless chromium" "chromium not installed (scripts/deps installs it)"
else
	prof=$(mktemp -d)
	timeout 30 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 --window-size=1200,2000 \
		--screenshot="$T_TMP/shot.png" --dump-dom "file://$R/index.html" > "$T_TMP/dom.html" 2> "$T_TMP/chromium.log"
	crc=$?
	rm -rf "$prof"
	[ "$crc" = 0 ] && ok "chromium renders the page" || not_ok "chromium renders the page (exit $crc)"
	if grep -E ':CONSOLE|Uncaught' "$T_TMP/chromium.log" > "$T_TMP/console"; then
		not_ok "no console errors: $(head -c 300 "$T_TMP/console")"
	else
		ok "no console errors"
	fi
	n=$(svg_check "$T_TMP/dom.html")
	[ "$n" = "$graphs" ] && ok "every graph is in the rendered DOM ($n)" || not_ok "every graph is in the rendered DOM ($n)"
	if [ -s "$T_TMP/shot.png" ] && read -r colours ink < <(python3 "$HERE/png_check.py" "$T_TMP/shot.png") &&
	   [ "$colours" -ge 32 ] && [ "$ink" -ge 20 ]; then
		ok "screenshot is not blank (${colours} colours, ${ink}/1000 inked)"
	else
		not_ok "screenshot is not blank (${colours:-?} colours, ${ink:-?}/1000 inked)"
	fi
fi

run env VMR_GNUPLOT=/nonexistent/gnuplot "$VMR" report "$A" -o "$T_TMP/r2"
expect_rc "report without gnuplot cannot run" 3
expect_err "and says what is missing" "gnuplot not found"
check "missing gnuplot error is one line" one_line_err
run env VMR_GNUPLOT=/nonexistent/gnuplot "$VMR" report "$A" -o "$T_TMP/r3" --no-graphs
expect_rc "--no-graphs needs no gnuplot" 0
[ "$(svg_check "$T_TMP/r3/index.html")" = 0 ] && grep -q 'Summary' "$T_TMP/r3/index.html" \
	&& ok "--no-graphs writes the tables alone" || not_ok "--no-graphs writes the tables alone"
run "$VMR" report "$A"
expect_rc "report without -o is a usage error" 2
run "$VMR" report -o "$T_TMP/r4"
expect_rc "report without runs is a usage error" 2
: > "$T_TMP/file"
run "$VMR" report "$A" -o "$T_TMP/file/sub"
expect_rc "unwritable output directory exits 3" 3
expect_err "and names it" "cannot create report directory .*file/sub"
run "$VMR" report "$A" "$T_TMP/nonexistent.json" -o "$T_TMP/r5" --db "$T_TMP/none.db"
expect_rc "a missing run exits 2" 2
[ ! -e "$T_TMP/r5/index.html" ] && ok "nothing written after an error" || not_ok "nothing written after an error"

# plot-map of a live process: this test's own sleeping child.
sleep 30 & pid=$!
run "$VMR" plot-map "$pid" -o "$T_TMP/proc.svg" --json
expect_rc "plot-map PID exits 0" 0
[ "$(jq -r '.present > 0 and .pages >= .present' <<< "$OUT" 2>/dev/null)" = true ] && ok "plot-map counts present pages" \
	|| not_ok "plot-map counts present pages: $OUT"
grep -q 'data:image/png;base64,' "$T_TMP/proc.svg" && ok "plot-map PID draws an image" || not_ok "plot-map PID draws an image"
addr=$(awk '/\[stack\]/ { split($1, a, "-"); print a[1] }' "/proc/$pid/maps")
run "$VMR" plot-map "$pid" --vma "$addr" -o "$T_TMP/stack.svg" --json
expect_rc "plot-map --vma draws one VMA" 0
expect_out "one VMA is fewer pages" '"pages": [0-9]+'
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
run "$VMR" plot-map "$pid" -o "$T_TMP/gone.svg"
expect_rc "plot-map of a gone process exits 2" 2
expect_err "and names it" "no process $pid"
run "$VMR" plot-map "$B:fault-zero" --map pass1 -o "$T_TMP/case.svg" --json
expect_rc "plot-map RUN:CASE exits 0" 0
[ "$(jq -r '"\(.pages) \(.present) \(.swapped)"' <<< "$OUT" 2>/dev/null)" = "512 450 16" ] \
	&& ok "plot-map RUN:CASE draws the named map" || not_ok "plot-map RUN:CASE draws the named map: $OUT"
run "$VMR" plot-map "$B:fault-zero" --map nosuch -o "$T_TMP/x.svg"
expect_rc "unknown map exits 2" 2
expect_err "and names it" "no map 'nosuch'"
run "$VMR" plot-map "$B:nosuch" -o "$T_TMP/x.svg"
expect_rc "unknown case exits 2" 2
run "$VMR" plot-map "$B:fault-zero"
expect_rc "plot-map without -o exits 2" 2
[ ! -e "$T_TMP/x.svg" ] && ok "nothing written after plot-map errors" || not_ok "nothing written after plot-map errors"
run "$VMR" report "$A" "$B" -o "$T_TMP/r6" --cases 'reread*' --no-graphs
expect_rc "report --cases exits 0" 0
grep -q 'Case reread' "$T_TMP/r6/index.html" && ! grep -q 'Case fault-zero' "$T_TMP/r6/index.html" \
	&& ok "report --cases shows only matching cases" || not_ok "report --cases shows only matching cases"
