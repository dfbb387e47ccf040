# vmregress report and plot-map: a self-contained page whose every graph is
# a real SVG or a PNG that decodes (maps, plots of thousands of points),
# small even for per-page data, rendered by headless Chromium without
# console errors and with visible content; maps of a live process and of a
# stored case, with every cell in the picture.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F=$(cd "$HERE/../fixtures/runs" && pwd)
A=$F/pc3.json B=$F/pc0.json
R=$T_TMP/report

# svg_check FILE: every <svg>...</svg> in FILE is well-formed XML and draws
# something; prints the count.
svg_check() {
	python3 - "$1" <<'PY'
import re, sys, xml.dom.minidom
def wellformed(s):
    try:
        xml.dom.minidom.parseString(s)
        return True
    except Exception:
        return False
html = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
# the page's shared point shapes sit in an SVG of no size: not a graph
svgs = [s for s in svgs if not s.startswith('<svg width="0" height="0"')]
# the forest plot is the page's own drawing, not a graph (forest_check.py)
svgs = [s for s in svgs if not s.startswith('<svg class="forest"')]
bad = [i for i, s in enumerate(svgs) if len(s) < 500 or not re.search(r"<(path|image|polyline)\b", s) or not wellformed(s)]
print(len(svgs) if not bad else f"empty svg at {bad}")
PY
}
# png_imgs FILE: every <img> in FILE is an inline PNG (data: URI) whose
# chunks are whole, whose pixels inflate to what its header says, and whose
# size is the one the tag gives; prints the count, and the maps' count.
png_imgs() {
	python3 - "$1" <<'PY'
import base64, re, struct, sys, zlib
html = open(sys.argv[1], encoding="utf-8").read()
imgs = re.findall(r"<img\b[^>]*>", html)
maps = 0
for i, tag in enumerate(imgs):
    m = re.fullmatch(r'<img( class="map")? width="(\d+)" height="(\d+)" alt="[^"]+" src="data:image/png;base64,([A-Za-z0-9+/=]+)">', tag)
    if not m:
        sys.exit(f"img {i} is not an inline PNG with a size and a title: {tag[:120]}")
    data = base64.b64decode(m.group(4), validate=True)
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"img {i}: no PNG signature")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBB", data[pos + 8:pos + 18])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        if zlib.crc32(data[pos + 4:pos + 8 + n]) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            sys.exit(f"img {i}: chunk {kind} fails its CRC")
        pos += 12 + n
    w, h, depth, ctype = hdr
    if kind != b"IEND" or (w, h) != (int(m.group(2)), int(m.group(3))) or w < 100 or h < 100:
        sys.exit(f"img {i}: {w}x{h} in a tag of {m.group(2)}x{m.group(3)}, last chunk {kind}")
    chans = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    if len(zlib.decompress(idat)) != h * (1 + (w * chans * depth + 7) // 8):
        sys.exit(f"img {i}: pixel data is not {w}x{h}")
    maps += bool(m.group(1))
print(len(imgs), maps)
PY
}

run "$VMR" report "$A" "$B" -o "$R" --json --title "page-cluster 3 against 0"
expect_rc "report of two runs exits 0" 0
graphs=$(jq -r .graphs <<< "$OUT" 2>/dev/null)
[ -s "$R/index.html" ] && ok "index.html written" || not_ok "index.html written"
[ "$(jq -r .failed_graphs <<< "$OUT" 2>/dev/null)" = 0 ] && ok "every graph drawn" || not_ok "every graph drawn: $OUT"
n=$(svg_check "$R/index.html")
read -r pngs maps < <(png_imgs "$R/index.html")
[ "$((n + pngs))" = "$graphs" ] && [ "${graphs:-0}" -ge 20 ] \
	&& ok "every graph is a non-empty inline SVG or PNG ($n SVG, $pngs PNG)" \
	|| not_ok "every graph is a non-empty inline SVG or PNG (found $n SVG, $pngs PNG, report says $graphs)"
[ "$maps" = 6 ] && [ "$(jq -r .png_graphs <<< "$OUT")" = "$pngs" ] \
	&& ok "the six maps are PNG images that decode, and --json counts them" \
	|| not_ok "the six maps are PNG images that decode (found ${maps:-?}: $(png_imgs "$R/index.html" 2>&1 | tail -1))"
if [ ! -s "$R/index.html" ] || grep -qiE '<script|<link|<iframe|url\(|href="(https?:)?//' "$R/index.html" ||
   grep -oiE 'src=.{0,23}' "$R/index.html" | grep -qv 'src="data:image/png;base64,'
then not_ok "the page needs no network"; else ok "the page needs no network"; fi
grep -q 'sysctl.vm.page-cluster</td><td>3</td><td>0</td>' "$R/index.html" && ok "environment diff in the page" \
	|| not_ok "environment diff in the page"
grep -q 'class="num improved">1.013 s \*-17.57%\*' "$R/index.html" && ok "significant improvement marked" \
	|| not_ok "significant improvement marked"
for want in 'Case fault-zero' 'fault-latency distribution (CDF)' 'fault-zero: swap in and out' 'fault-zero: memory pressure (PSI)' 'pc0 fault-zero: pass2' \
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
run "$VMR" compare spin5 last --db "$DB" --all
expect_rc "compare of stored runs exits 0" 0
expect_out "a changed case option is a setting that differs" '^  case\.spin\..*spin +5000000 +15000000$'
expect_out "the workload's time is compared" '^Amean +spin +time +[0-9.]+ [a-z]+ \( +0\.00%\)'
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

# A stored run is read without its detail, each case's loaded for its
# graphs: its tables are drawn from the store as from a whole run.
cat > "$T_TMP/fz.ini" <<'INI'
[global]
iterations = 2
no-sandbox = yes

[fz]
workload = fault
size = 1M
passes = 2
INI
run "$VMR" run "$T_TMP/fz.ini" --db "$DB" --name fz --quiet
expect_rc "a tiny fault run is stored" 0
run "$VMR" report fz --db "$DB" -o "$T_TMP/fz"
expect_rc "report of the stored fault run" 0
grep -qF "<text>fz: time_ns by pass</text>" "$T_TMP/fz/index.html" &&
	grep -qF "table 'passes', mean of the passing iterations per row" "$T_TMP/fz/index.html" &&
	ok "a stored run's table is drawn" || not_ok "a stored run's table is drawn"

# The verdict as a picture: a group of three variants, its report opening
# with the forest plot, every row where compare's figures put it
# (forest_check.py), and drawn there by a browser.
run "$VMR" run "$T_TMP/tiny.ini" --db "$DB" --name fp -n 3 --quiet --variant a: --variant b:spin=25ms \
	--variant c:spin=10ms
expect_rc "a group of three variants is stored" 0
run "$VMR" compare fp --db "$DB" --format json
expect_rc "compare --format json of the group" 0
printf '%s\n' "$OUT" > "$T_TMP/fp.json"
run "$VMR" report fp --db "$DB" -o "$T_TMP/fp"
expect_rc "report of the group exits 0" 0
run python3 "$HERE/forest_check.py" "$T_TMP/fp/index.html" "$T_TMP/fp.json"
expect_out "the page opens with a forest plot, a row per headline metric and variant, each mark in place" '^ok 2$'
run "$VMR" report spin5 --db "$DB" -o "$T_TMP/fp1" --no-graphs
expect_rc "report of one run" 0
grep -q 'class="forest"' "$T_TMP/fp1/index.html" && not_ok "one run has no forest plot" || ok "one run has no forest plot"

# Per-page data: a value per page for 20000 pages (as the mmap workload's
# "pages" table) and maps of 65536 pages, in two runs of two iterations.
# Drawn as SVG paths and cells this was a 14 MB page; as PNG it is small.
python3 "$F/make-per-page.py" "$F" "$T_TMP"
P=$T_TMP/pages
run "$VMR" report "$T_TMP/pc3-pages.json" "$T_TMP/pc0-pages.json" -o "$P" --json
expect_rc "report of per-page data exits 0" 0
bytes=$(stat -c %s "$P/index.html" 2>/dev/null)
[ "${bytes:-999999999}" -lt 400000 ] && [ "$(jq -r .bytes <<< "$OUT")" = "$bytes" ] \
	&& ok "a page of per-page data stays small ($bytes bytes, under 400 KB)" \
	|| not_ok "a page of per-page data stays small (${bytes:-?} bytes, --json says $(jq -r .bytes <<< "$OUT"))"
read -r pngs maps < <(png_imgs "$P/index.html")
[ "$pngs" = 7 ] && [ "$maps" = 4 ] && [ "$(jq -r .png_graphs <<< "$OUT")" = 7 ] \
	&& ok "plots of 20000 points and 65536-page maps are PNGs that decode" \
	|| not_ok "plots of 20000 points and 65536-page maps are PNGs that decode (${pngs:-?} ${maps:-?}: $OUT)"
for want in 'alt="per-page: refs by page"' 'alt="pc0 per-page: pass1"' 'width="360" height="366"'; do
	grep -qF "$want" "$P/index.html" && ok "page has '$want'" || not_ok "page has '$want'"
done

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
	# The browser decodes every inline PNG at the size its tag gives: a
	# copy of the per-page page with a script that reports what loaded.
	{ sed 's|</body></html>||' "$P/index.html"
	  echo '<script>onload=()=>{let i=[...document.images],g=i.filter(m=>m.complete&&m.naturalWidth==m.width&&m.naturalHeight==m.height&&m.naturalWidth>0);document.body.insertAdjacentHTML("beforeend","<pre id=imgcheck>"+g.length+" of "+i.length+"</pre>")}</script></body></html>'
	} > "$T_TMP/imgs.html"
	prof=$(mktemp -d)
	timeout 30 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$prof" --virtual-time-budget=5000 --dump-dom "file://$T_TMP/imgs.html" \
		> "$T_TMP/imgs-dom.html" 2> /dev/null
	rm -rf "$prof"
	# The forest plot as the browser lays it out: each point's centre,
	# from the svg's left edge, where the scale puts it.
	{ sed 's|</body></html>||' "$T_TMP/fp/index.html"
	  echo '<script>onload=()=>{let s=document.querySelector("svg.forest"),b=s.getBoundingClientRect();let p=[...s.querySelectorAll("circle.change")].map(c=>{let r=c.getBoundingClientRect();return r.left+r.width/2-b.left});document.body.insertAdjacentHTML("beforeend","<pre id=forestcheck>"+JSON.stringify(p)+"</pre>")}</script></body></html>'
	} > "$T_TMP/forest.html"
	prof=$(mktemp -d)
	timeout 30 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$prof" --virtual-time-budget=5000 --window-size=1200,2000 \
		--dump-dom "file://$T_TMP/forest.html" > "$T_TMP/forest-dom.html" 2> /dev/null
	rm -rf "$prof"
	grep -o '<pre id="forestcheck">[^<]*' "$T_TMP/forest-dom.html" | sed 's/.*>//' > "$T_TMP/forest-drawn.json"
	run python3 "$HERE/forest_check.py" "$T_TMP/fp/index.html" "$T_TMP/fp.json" "$T_TMP/forest-drawn.json"
	expect_out "chromium draws every point of the forest plot where the scale puts it" '^ok 2$'
	got=$(grep -o '<pre id="imgcheck">[^<]*' "$T_TMP/imgs-dom.html" | sed 's/.*>//')
	[ "$got" = "7 of 7" ] && ok "chromium decodes every inline PNG at its size ($got)" \
		|| not_ok "chromium decodes every inline PNG at its size (${got:-no answer})"
fi

run env VMR_GNUPLOT=/nonexistent/gnuplot "$VMR" report "$A" -o "$T_TMP/r2"
expect_rc "report without gnuplot cannot run" 3
expect_err "and says what is missing" "gnuplot not found"
check "missing gnuplot error is one line" one_line_err
run env VMR_GNUPLOT=/nonexistent/gnuplot "$VMR" report "$A" -o "$T_TMP/r3" --no-graphs
expect_rc "--no-graphs needs no gnuplot" 0
[ "$(svg_check "$T_TMP/r3/index.html")" = 0 ] && grep -q 'Summary' "$T_TMP/r3/index.html" \
	&& ok "--no-graphs writes the tables alone" || not_ok "--no-graphs writes the tables alone"
run "$VMR" report "$A" -o "$T_TMP/r3/" --no-graphs
expect_out "a trailing slash on -o gives a clean path" "^$T_TMP/r3/index.html \\("
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
[ "$(jq -r '"\(.pages) \(.present) \(.swapped) \(.format)"' <<< "$OUT" 2>/dev/null)" = "512 450 16 svg" ] \
	&& ok "plot-map RUN:CASE draws the named map, as SVG for FILE.svg" \
	|| not_ok "plot-map RUN:CASE draws the named map, as SVG for FILE.svg: $OUT"
# As PNG, every cell is in the picture: within the plot area (at 64,30 in
# the figure, 640x450 for 720x560) the green and red pixels stand as the
# map's 450 present and 16 swapped of its 512 pages.
run "$VMR" plot-map "$B:fault-zero" --map pass1 -o "$T_TMP/case.png" --json
expect_rc "plot-map -o FILE.png exits 0" 0
[ "$(jq -r '"\(.format) \(.width)x\(.height)"' <<< "$OUT")" = "png 720x560" ] \
	&& [ "$(head -c 8 "$T_TMP/case.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
	&& ok "plot-map -o FILE.png writes a PNG" || not_ok "plot-map -o FILE.png writes a PNG: $OUT"
if read -r green red grey < <(python3 "$HERE/png_check.py" "$T_TMP/case.png" --count 64,30,704,480 2ca02c d62728 e6e6e6) &&
   python3 -c "import sys; g, r, e = map(int, sys.argv[1:]); a = 640 * 450 / 512
sys.exit(not (abs(g - 450 * a) < 0.02 * 450 * a and abs(r - 16 * a) < 0.1 * 16 * a and abs(e - 46 * a) < 0.1 * 46 * a))" \
	"$green" "$red" "$grey"; then
	ok "the PNG map shows every page ($green green, $red red, $grey grey pixels)"
else
	not_ok "the PNG map shows every page (${green:-?} green, ${red:-?} red, ${grey:-?} grey pixels)"
fi
"$VMR" plot-map "$B:fault-zero" --map pass1 -o - --format png > "$T_TMP/stdout.png"
cmp -s "$T_TMP/stdout.png" "$T_TMP/case.png" && ok "plot-map -o - --format png writes the same PNG" \
	|| not_ok "plot-map -o - --format png writes the same PNG"
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
done_testing
