# The report leads with its conclusion: the verdict, then the headline
# metrics as small multiples (one small plot per case and headline metric,
# the runs side by side), then the tables with the counters folded away,
# then per case the detail graphs.  Axes are in human units, plots that
# carry nothing are not drawn, and a two-run quick report stays under 1 MB
# with the forest plot and the verdict on the first screen in Chromium.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
F=$(cd "$HERE/../fixtures/runs" && pwd)
export VMR_SUITE_DIR="$(cd "$HERE/../.." && pwd)/suites"

# order FILE ID...: the ids appear in FILE in this order
order() {
	local file=$1 last=-1 at; shift
	for id in "$@"; do
		at=$(grep -bo "id=\"$id\"" "$file" | head -n 1 | cut -d: -f1)
		[ -n "$at" ] && [ "$at" -gt "$last" ] || return 1
		last=$at
	done
}
# svg_axis_text FILE: the text of every SVG's tick labels and axis labels
svg_axis_text() {
	python3 - "$1" <<'PY'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
for svg in re.findall(r"<svg\b.*?</svg>", html, re.S):
    for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S):
        print(re.sub(r"<[^>]+>", "", t).strip())
PY
}

# --- the fixtures: two runs of 3 and 5 iterations -------------------------
R=$T_TMP/fix
run "$VMR" report "$F/pc3.json" "$F/pc0.json" -o "$R" --json
expect_rc "report of the fixture runs" 0
H=$R/index.html
order "$H" verdict headline compare case-0 && ok "verdict, headline metrics, comparison, then the cases" \
	|| not_ok "verdict, headline metrics, comparison, then the cases"
heads=$("$VMR" compare "$F/pc3.json" "$F/pc0.json" --format json | jq '[.rows[] | select(.headline)] | length')
figs=$(sed -n '/<section id="headline">/,/<\/section>/p' "$H" | grep -o '<figure>' | wc -l)
[ -n "$heads" ] && [ "$heads" -ge 1 ] && [ "$figs" = "$heads" ] \
	&& ok "one small plot per headline metric ($figs)" || not_ok "one small plot per headline metric ($figs of ${heads:-?})"
grep -q '<details><summary>The other metrics and counters' "$H" && ok "the other metrics and counters are folded" \
	|| not_ok "the other metrics and counters are folded"
svg_axis_text "$H" > "$T_TMP/axes"
[ -s "$T_TMP/axes" ] || not_ok "the graphs have axis text"
if grep -qE '^-?[0-9.]+e[+-]?[0-9]+$' "$T_TMP/axes"; then
	not_ok "no axis in e-notation: $(grep -E '^-?[0-9.]+e[+-]?[0-9]+$' "$T_TMP/axes" | head -3 | tr '\n' ' ')"
else
	ok "no axis in e-notation"
fi
grep -qx 'time-pass1 (s)' "$T_TMP/axes" && ok "a time axis says its unit (time-pass1 (s))" \
	|| not_ok "a time axis says its unit: $(grep time-pass1 "$T_TMP/axes" | head -3 | tr '\n' ' ')"
grep -q 'class="num improved">1.013 s ' "$H" && ok "the tables are in human units" || not_ok "the tables are in human units"

# --- series over time: drawn when they show something ---------------------
# three made-up series in every iteration of the fixture's first case: one
# that moves, one flat at zero, one of two samples
python3 - "$F/pc3.json" "$T_TMP/series.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for it in d["cases"][0]["iterations"]:
    r = it.get("result", it)
    t = [0.0, 0.5, 1.0, 1.5, 2.0]
    r["series"] += [{"name": "thp.64kB.anon_fault_alloc", "unit": "", "t": t, "v": [0, 5, 9, 12, 20]},
                    {"name": "thp.64kB.swpout", "unit": "", "t": t, "v": [0, 0, 0, 0, 0]},
                    {"name": "thp.64kB.swpin", "unit": "", "t": [0.0, 1.0], "v": [3, 7]}]
json.dump(d, open(sys.argv[2], "w"))
PY
run "$VMR" report "$T_TMP/series.json" -o "$T_TMP/series"
drawn=$(grep -o ': thp\.64kB\.[a-z_]* over time' "$T_TMP/series/index.html" 2>/dev/null | sort -u | tr '\n' ' ')
[ "$drawn" = ": thp.64kB.anon_fault_alloc over time " ] \
	&& ok "a series over time is drawn when it moves, not when flat at zero or of two samples" \
	|| not_ok "a series over time is drawn when it moves, not when flat at zero or of two samples (drawn: ${drawn:-none})"

# svg_page FILE: prints "SVGS CLASSES-USED CLASSES-MISSING DEFS USES", or
# what is wrong.
svg_page() {
	python3 - "$1" <<'PY'
import re, sys, xml.dom.minidom
html = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
for i, s in enumerate(svgs):
    try:
        xml.dom.minidom.parseString(s)
    except Exception as e:
        sys.exit(f"svg {i} is not well-formed: {e}")
style = "".join(re.findall(r"<style>(.*?)</style>", html, re.S))
used = set(re.findall(r'<g\b[^>]*\bclass="(g\d+)"', html))
missing = sorted(c for c in used if not re.search(r"\." + c + r"\{[^}]+\}", style))
defs = len(re.findall(r"id='gpDot'", html))
uses = len(re.findall(r"xlink:href='#gpPt", html))
print(len(svgs), len(used), len(missing), defs, uses)
PY
}
# --- two real quick runs: small, no plot that says nothing ----------------
if ! is_root; then
	skip "a two-run quick report" "needs root for the sandboxes"
else
	DB=$T_TMP/results.db
	# 3 iterations a case, so that every per-iteration plot is drawn
	run "$VMR" run quick -n 3 --db "$DB" --name q1 -q
	rc1=$RC
	run "$VMR" run quick -n 3 --db "$DB" --name q2 -q
	[ "$rc1" = 0 ] && [ "$RC" = 0 ] && ok "two quick runs of 3 iterations" \
		|| not_ok "two quick runs of 3 iterations (exit $rc1, $RC: ${ERR:0:300})"
	Q=$T_TMP/quick
	run "$VMR" report q1 q2 --db "$DB" -o "$Q" --json
	bytes=$(jq -r .bytes <<< "$OUT" 2>/dev/null)
	graphs=$(jq -r .graphs <<< "$OUT" 2>/dev/null)
	[ "$RC" = 0 ] && [ -n "$bytes" ] && [ "$bytes" -lt 1000000 ] && [ "$bytes" = "$(stat -c %s "$Q/index.html")" ] \
		&& ok "a two-run quick report is under 1 MB ($bytes bytes, $graphs graphs)" \
		|| not_ok "a two-run quick report is under 1 MB (exit $RC, ${bytes:-?} bytes)"
	# A plot that carries nothing is left out, so the count follows what the
	# runs did (54 to 61 seen, the fewer under ASan's slower runs).
	[ "${graphs:-0}" -ge 45 ] && ok "with its graphs ($graphs)" || not_ok "with its graphs (${graphs:-?})"
	# the graphs made small for it still draw
	read -r nsvg nused nmissing ndefs nuses < <(svg_page "$Q/index.html")
	[ "${nsvg:-0}" -ge 40 ] && ok "every SVG is well-formed ($nsvg)" || not_ok "every SVG is well-formed (${nsvg:-none})"
	[ "${nused:-0}" -ge 3 ] && [ "${nmissing:-1}" = 0 ] && ok "every class a group names has its rule ($nused classes)" \
		|| not_ok "every class a group names has its rule (${nused:-?} used, ${nmissing:-?} without a rule)"
	[ "${ndefs:-0}" -ge 1 ] && [ "${ndefs:-9}" -le 2 ] && [ "${nuses:-0}" -ge 1 ] \
		&& ok "the point shapes are in the page once for $nuses uses" \
		|| not_ok "the point shapes are in the page once (${ndefs:-?} copies, ${nuses:-?} uses)"
	# the monitor's graphs need 3 samples: a case sampled every 100ms
	printf '[global]\niterations = 1\nmem = 64M\nswap = file:128M\nmonitor-interval = 100ms\n\n[swapping]\nworkload = fault\nlevel = zero\npasses = 2\n' \
		> "$T_TMP/mon.ini"
	run "$VMR" run "$T_TMP/mon.ini" --db "$DB" --name mon -q
	rc1=$RC
	run "$VMR" report mon --db "$DB" -o "$T_TMP/mon"
	[ "$rc1" = 0 ] && [ "$RC" = 0 ] && grep -q 'swapping: sandbox memory' "$T_TMP/mon/index.html" \
		&& ok "the sandbox's memory is drawn" || not_ok "the sandbox's memory is drawn (exit $rc1, $RC)"
	if grep -qE 'free memory|MemFree' "$Q/index.html" "$T_TMP/mon/index.html"; then
		not_ok "the host's free memory is not drawn"
	else ok "the host's free memory is not drawn"; fi
	# three iterations per run: per-iteration plots; the monitored run's one
	# iteration: none; mmap-anon-read replays its trace once: no plot by pass
	svg_axis_text "$Q/index.html" > "$T_TMP/qaxes"
	svg_axis_text "$T_TMP/mon/index.html" > "$T_TMP/maxes"
	[ -s "$T_TMP/qaxes" ] || not_ok "the quick report's graphs have axis text"
	grep -qE 'per iteration$' "$T_TMP/qaxes" && ok "per-iteration plots of three iterations" \
		|| not_ok "per-iteration plots of three iterations"
	if [ ! -s "$T_TMP/maxes" ] || grep -qE 'per iteration$' "$T_TMP/maxes"; then
		not_ok "no per-iteration plot of one iteration"
	else ok "no per-iteration plot of one iteration"; fi
	if grep -qE '^mmap-anon-read: .* by pass$' "$T_TMP/qaxes"; then not_ok "no plot by pass of one pass"
	else ok "no plot by pass of one pass"; fi
	grep -qx 'fault-zero: time-passes' "$T_TMP/qaxes" && ok "the headline plots are drawn" \
		|| not_ok "the headline plots are drawn"
	H=$Q/index.html
fi

# --- in a browser: the verdict, as the forest plot and in words, on the first screen --
# The page opens with the forest plot (the verdict as a picture), then the
# verdict's lines; the headline plots follow within the second screen.
if ! command -v chromium >/dev/null; then
	skip "the headline section on the first screen" "chromium not installed (scripts/deps installs it)"
else
	{ sed 's|</body></html>||' "$H"
	  echo '<script>onload=()=>{let r=id=>{let b=document.getElementById(id).getBoundingClientRect();return Math.round(b.top)+" "+Math.round(b.height)+" "+Math.round(b.width)};document.body.insertAdjacentHTML("beforeend","<pre id=layout>"+r("verdict")+" "+r("headline")+" "+document.querySelectorAll("#headline svg, #headline img").length+" "+(b=>Math.round(b.top)+" "+Math.round(b.height))(document.querySelector("svg.forest").getBoundingClientRect())+"</pre>")}</script></body></html>'
	} > "$T_TMP/layout.html"
	prof=$(mktemp -d)
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$prof" --window-size=1280,900 --virtual-time-budget=5000 \
		--dump-dom "file://$T_TMP/layout.html" > "$T_TMP/layout-dom.html" 2> /dev/null
	crc=$?
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$prof" --window-size=1280,900 --screenshot="$T_TMP/top.png" "file://$H" \
		> /dev/null 2>&1
	rm -rf "$prof"
	read -r vtop vh vw htop hh hw hplots ftop fh < <(grep -o '<pre id="layout">[^<]*' "$T_TMP/layout-dom.html" | sed 's/.*>//')
	[ "$crc" = 0 ] && [ -n "${hplots:-}" ] && ok "chromium lays the page out (verdict at ${vtop}px, headline at ${htop}px)" \
		|| not_ok "chromium lays the page out (exit $crc)"
	[ "${ftop:-9999}" -lt 200 ] && [ "$((ftop + fh))" -le 900 ] \
		&& ok "the forest plot opens the first screen (${ftop}px to $((ftop + fh))px of 900)" \
		|| not_ok "the forest plot opens the first screen (${ftop:-?}px, ${fh:-?}px high)"
	[ "${vtop:-9999}" -lt 900 ] && [ "${vtop:-0}" -ge "$((ftop + fh))" ] \
		&& ok "the verdict's lines follow it on the first screen (at ${vtop}px)" \
		|| not_ok "the verdict's lines follow it on the first screen (at ${vtop:-?}px)"
	[ "${htop:-9999}" -lt 1800 ] && [ "${hh:-0}" -ge 150 ] && [ "${hh:-0}" -le 2500 ] && [ "${hw:-0}" -ge 600 ] \
		&& [ "${hplots:-0}" -ge 1 ] \
		&& ok "the headline section starts by the second screen with a sane size (at ${htop}px, ${hw}x${hh}px, $hplots plots)" \
		|| not_ok "the headline section starts by the second screen with a sane size (at ${htop:-?}px, ${hw:-?}x${hh:-?}px, ${hplots:-?} plots)"
	if [ -s "$T_TMP/top.png" ] && read -r colours ink < <(python3 "$HERE/png_check.py" "$T_TMP/top.png") &&
	   [ "$colours" -ge 32 ] && [ "$ink" -ge 20 ]; then
		ok "the first screen is not blank (${colours} colours, ${ink}/1000 inked)"
	else
		not_ok "the first screen is not blank (${colours:-?} colours, ${ink:-?}/1000 inked)"
	fi
fi
done_testing
