# A two-run report of the quick suite with several iterations per case
# (every per-iteration plot drawn) stays under 1 MB, and the graphs made
# small for it still draw: every SVG is well-formed, every class a group
# names has its rule in the page's style, and the point shapes the SVGs
# use are in the page once.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
export VMR_SUITE_DIR="$(cd "$HERE/../.." && pwd)/suites"

if ! is_root; then
	skip "a two-run quick report of 3 iterations is under 1 MB" "needs root for the sandboxes"
	exit 0
fi
DB=$T_TMP/results.db
run "$VMR" run quick -n 3 --db "$DB" --name s1 -q
rc1=$RC
run "$VMR" run quick -n 3 --db "$DB" --name s2 -q
[ "$rc1" = 0 ] && [ "$RC" = 0 ] && ok "two quick runs of 3 iterations" \
	|| not_ok "two quick runs of 3 iterations (exit $rc1, $RC: ${ERR:0:300})"
run "$VMR" report s1 s2 --db "$DB" -o "$T_TMP/r" --json
bytes=$(jq -r .bytes <<< "$OUT" 2>/dev/null)
graphs=$(jq -r .graphs <<< "$OUT" 2>/dev/null)
[ "$RC" = 0 ] && [ -n "$bytes" ] && [ "$bytes" -lt 1000000 ] && [ "$bytes" = "$(stat -c %s "$T_TMP/r/index.html")" ] \
	&& ok "a two-run quick report of 3 iterations is under 1 MB ($bytes bytes, $graphs graphs)" \
	|| not_ok "a two-run quick report of 3 iterations is under 1 MB (exit $RC, ${bytes:-?} bytes)"
[ "${graphs:-0}" -ge 60 ] && ok "with its graphs ($graphs)" || not_ok "with its graphs (${graphs:-?})"

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
read -r nsvg nused nmissing ndefs nuses < <(svg_page "$T_TMP/r/index.html")
[ "${nsvg:-0}" -ge 40 ] && ok "every SVG is well-formed ($nsvg)" || not_ok "every SVG is well-formed (${nsvg:-none})"
[ "${nused:-0}" -ge 3 ] && [ "${nmissing:-1}" = 0 ] && ok "every class a group names has its rule ($nused classes)" \
	|| not_ok "every class a group names has its rule (${nused:-?} used, ${nmissing:-?} without a rule)"
[ "${ndefs:-0}" -ge 1 ] && [ "${ndefs:-9}" -le 2 ] && [ "${nuses:-0}" -ge 1 ] \
	&& ok "the point shapes are in the page once for $nuses uses" \
	|| not_ok "the point shapes are in the page once (${ndefs:-?} copies, ${nuses:-?} uses)"
