# The kernel selftests' cases in every format that carries tests: compare's
# JUnit (one <testcase> per case and run, a failure or a skip with its
# reason, checked with xmllint or python3's xml) and TAP (a line each),
# KCIDB (a test per case, with ids that stay the same when the run is
# written again) and the HTML report's table of cases by run (regressions
# first, counts in every cell, the reason of a skip on hovering). Two runs
# of a selftest of our own that breaks one case in the second and flips
# another from iteration to iteration (flaky); in the sandbox, a few seconds.
. "$(dirname "$0")/lib.sh"
if ! command -v jq >/dev/null; then skip "kselftest formats" "jq is not installed"; done_testing; exit 0; fi
if [ "$(id -u)" != 0 ]; then skip "kselftest formats" "the sandbox needs root"; done_testing; exit 0; fi
FAKE=$T_TMP/fake
mkdir -p "$FAKE/mm"
cat > "$FAKE/mm/feat" <<SH
#!/bin/sh
n=\$(cat "$T_TMP/count" 2>/dev/null || echo 0); echo \$((n + 1)) > "$T_TMP/count"
echo "TAP version 13"; echo "1..5"
echo "ok 1 steady"
if [ -e "$T_TMP/broken" ]; then echo "not ok 2 breaks"; else echo "ok 2 breaks"; fi
echo "not ok 3 stillbad"
echo 'ok 4 # SKIP needs <huge> & "pages"'
if [ \$((n % 2)) = 0 ]; then echo "ok 5 flips"; else echo "not ok 5 flips"; fi
SH
chmod +x "$FAKE/mm/feat"
cat > "$T_TMP/s.ini" <<INI
[global]
workload = kselftest
iterations = 2
mem = 64M
source = $FAKE
[mm]
tests = feat
INI
DB=$T_TMP/r.db
run "$VMR" run "$T_TMP/s.ini" --db "$DB" --name before
expect_rc "the first run stores (exit 1: its selftest fails a case)" 1
touch "$T_TMP/broken"
run "$VMR" run "$T_TMP/s.ini" --db "$DB" --name after
expect_rc "the second run stores" 1

# JUnit: one <testcase> per case of the compared run, in a suite of its own
run "$VMR" compare before after --db "$DB" --format junit
expect_rc "compare --format junit" 0
printf '%s\n' "$OUT" > "$T_TMP/j.xml"
if command -v xmllint >/dev/null; then
	check "... is well-formed XML (xmllint)" xmllint --noout "$T_TMP/j.xml"
fi
py_checks "junit: " '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
def ok(c, name): print(("ok - " if c else "not ok - ") + name)
suites = {s.get("name"): s for s in root.iter("testsuite")}
ks = suites.get("vmregress compare: kernel selftests")
ok(ks is not None, "a testsuite of the kernel selftests")
cases = {c.get("name"): c for c in ks.iter("testcase")} if ks is not None else {}
SKIP = "needs <huge> & \"pages\""
ok(sorted(cases) == sorted(n + " (after)" for n in ["steady", "breaks", "stillbad", "flips", SKIP]),
   "one testcase per selftest case of the compared run: %s" % sorted(cases))
ok(all(c.get("classname") == "kselftest.mm.feat" for c in cases.values()), "each named by suite case and test")
f = cases.get("breaks (after)")
ok(f is not None and f.find("failure") is not None and f.find("failure").get("message").startswith("regression: failed 2 of 2"),
   "a regression is a failure saying so")
f = cases.get("flips (after)")
ok(f is not None and f.find("failure") is not None and f.find("failure").get("message").startswith("flaky: failed 1 of 2"),
   "a flaky case is a failure called flaky")
s = cases.get(SKIP + " (after)")
ok(s is not None and s.find("skipped") is not None and s.find("skipped").get("message").endswith(": " + SKIP),
   "a skip carries its reason, escaped and read back whole")
p = cases.get("steady (after)")
ok(p is not None and p.find("failure") is None and p.find("skipped") is None, "a pass is neither")
ok(ks is not None and (ks.get("tests"), ks.get("failures"), ks.get("skipped")) == ("5", "3", "1"),
   "the suite counts them: %s" % (ks.attrib if ks is not None else None))
' "$T_TMP/j.xml"

# TAP: a line each, the plan counting them
run "$VMR" compare before after --db "$DB" --format tap
expect_rc "compare --format tap" 0
plan=$(sed -n 's/^1\.\.//p' <<< "$OUT")
lines=$(grep -cE '^(not )?ok [0-9]+ - ' <<< "$OUT")
check "... the plan counts every line ($plan, $lines)" [ "$plan" = "$lines" ]
expect_out "... a regressed case is not ok" '^not ok [0-9]+ - kselftest mm/feat: breaks \(after\): regression: failed 2 of 2'
expect_out "... a skip is a TAP skip with its reason ('#' not in the description)" \
	'^ok [0-9]+ - kselftest mm/feat: needs <huge> & "pages" \(after\) # SKIP skipped in 2 of 2 iterations: needs <huge> & "pages"$'
expect_out "... a pass is ok" '^ok [0-9]+ - kselftest mm/feat: steady \(after\): passed 2 of 2 iterations$'

# KCIDB: a test per selftest case, ids the same when written again
run "$VMR" export after --db "$DB" --format kcidb
expect_rc "export --format kcidb" 0
echo "$OUT" > "$T_TMP/k1.json"
expect_json_is "... a test per selftest case, with its status" \
	'[.tests[] | select(.misc.kselftest == "feat") | "\(.misc.case)=\(.status)"] | join(",")' \
	"steady=PASS,breaks=FAIL,stillbad=FAIL,needs <huge> & \"pages\"=SKIP,flips=FAIL"
expect_json_is "... the skip's reason its comment" '.tests[] | select(.misc.result == "skip") | .comment' \
	'needs <huge> & "pages"'
expect_json "... each under the suite case's path, ids unique" \
	'([.tests[] | select(.misc.kselftest) | .path | startswith("vmregress.s.mm.feat.")] | all) and
	 ([.tests[].id] | length == (unique | length))'
run "$VMR" export after --db "$DB" --format kcidb
expect_rc "export --format kcidb again" 0
check "... the same ids every time" [ "$(jq -c '[.tests[].id]' <<< "$OUT")" = "$(jq -c '[.tests[].id]' "$T_TMP/k1.json")" ]

# The report: a table of cases by run, regressions first
run "$VMR" report before after --db "$DB" --no-graphs -o "$T_TMP/rep"
expect_rc "report of the two runs" 0
py_checks "report: " '
import sys, html.parser
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.t = None; s.rows = []; s.cell = None; s.depth = 0
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "table" and a.get("class") == "functional": s.t = True
        elif s.t and tag == "tr": s.rows.append([])
        elif s.t and tag in ("td", "th"): s.cell = [a.get("class"), a.get("title"), ""]
    def handle_endtag(s, tag):
        if tag == "table": s.t = None
        elif s.t and tag in ("td", "th") and s.cell: s.rows[-1].append(s.cell); s.cell = None
    def handle_data(s, d):
        if s.cell: s.cell[2] += d
p = P(); p.feed(open(sys.argv[2] + "/index.html").read())
def ok(c, name): print(("ok - " if c else "not ok - ") + name)
rows = p.rows
ok(len(rows) == 6, "a header and a row per case (%d rows)" % len(rows))
head = [c[2] for c in rows[0]] if rows else []
ok(len(head) == 6 and head[4].startswith("before") and head[5].startswith("after"), "a column per run: %s" % head)
body = {r[2][2]: r for r in rows[1:]}
ok(rows[1][2][2] == "breaks" and rows[1][3][2] == "regression", "the regression first: %s" % [c[2] for c in rows[1]])
ok(rows[2][2][2] == "flips" and rows[2][3][2] == "flaky", "then the flaky case")
b = body.get("breaks")
ok(b and b[4][0] == "fn-pass" and b[4][2] == "pass 2/2" and b[5][0] == "fn-fail" and b[5][2] == "fail 2/2",
   "its cells: pass 2/2 then fail 2/2: %s" % (b and [c[2] for c in b]))
f = body.get("flips")
ok(f and f[5][0] == "fn-flaky" and f[5][2] == "flaky 1/2", "a flaky cell counts its failures")
s = body.get("needs <huge> & \"pages\"")
ok(s and s[5][0] == "fn-skip" and s[5][1] == "needs <huge> & \"pages\"", "a skip has its reason as its title: %s" % (s and s[5]))
' "$T_TMP/rep"
done_testing
