# compare's verdict as bars: after the text, a bar a headline metric and
# run against the base (the change, its 95% interval, the noise floor, on
# a log scale), the change coloured by the verdict; shown when standard
# output is a terminal (a pty from script(1)), never in a pipe or a file
# unless --bars always, so piped text stays as it was.  Each mark is
# checked against compare's JSON.
. "$(dirname "$0")/lib.sh"

if ! command -v script >/dev/null; then
	skip "compare's bars on a terminal" "no script(1) to give it one"
	done_testing; exit 0
fi
DB=$T_TMP/b.db
printf '[global]\nno-monitor = yes\nno-probe = yes\n[a]\nworkload = null\nspin = 2ms\n[b]\nworkload = null\nspin = 4ms\n' \
	> "$T_TMP/s.ini"
run "$VMR" run "$T_TMP/s.ini" --db "$DB" --name g --quiet -n 4 --no-sandbox --variant x: --variant y:null.spin=3ms \
	--variant z:null.spin=1ms
if [ "$RC" != 0 ]; then
	not_ok "a group of null for compare (exit $RC: ${ERR:0:300})"
	done_testing; exit 0
fi
run "$VMR" compare g --db "$DB" --format json
expect_rc "compare --format json" 0
printf '%s\n' "$OUT" > "$T_TMP/g.json"

run "$VMR" compare g --db "$DB"
expect_rc "compare into a pipe exits 0" 0
piped=$OUT
expect_no_out "a pipe gets no bars" '^The headline changes'
run "$VMR" compare g --db "$DB" --bars never
[ "$OUT" = "$piped" ] && ok "and its text is --bars never's" || not_ok "piped text differs from --bars never's"

# on a terminal: the text, then the bars
run script -qec "$VMR compare g --db $DB" /dev/null
expect_rc "compare on a terminal exits 0" 0
tty=$(tr -d '\r' <<< "$OUT")
[ "${tty:0:${#piped}}" = "$piped" ] && ok "on a terminal the text comes first, as in a pipe" ||
	not_ok "on a terminal the text differs: ${tty:0:300}"
bars=${tty:${#piped}}
grep -q '^The headline changes against g-x, log scale from ' <<< "$bars" && ok "then the bars, under their heading" ||
	not_ok "no bars on a terminal: ${bars:0:300}"
run script -qec "$VMR compare g --db $DB --bars never" /dev/null
[ "$(tr -d '\r' <<< "$OUT")" = "$piped" ] && ok "--bars never: none on a terminal" || not_ok "--bars never on a terminal"
run "$VMR" compare g --db "$DB" --bars always
[ "$OUT" = "$piped$bars" ] && ok "--bars always: the same bars into a pipe" || not_ok "--bars always: ${OUT: -300}"

# every mark where compare's figures put it, in the verdict's colour
printf '%s' "$bars" > "$T_TMP/bars.txt"
run python3 - "$T_TMP/g.json" "$T_TMP/bars.txt" <<'PY'
import json, math, re, sys
cmp = json.load(open(sys.argv[1]))
lines = [l for l in open(sys.argv[2]).read().split("\n") if l.startswith("  ")]
W = 41
colours = {"improved": "\033[32m", "regressed": "\033[31m", "changed": "\033[33m", "unstable": "\033[35m"}
cells = []
for row in cmp["rows"]:
    if not row.get("headline") or not row["runs"][0].get("present"):
        continue
    for c in row["runs"][1:]:
        if c.get("present") and c.get("ratio") is not None and c["ratio"] > 0:
            cells.append((row, c))
half = math.log(1.02)
for row, c in cells:
    for v in (c["ratio"], c.get("ci_low"), c.get("ci_high"), 1 + c["noise_floor"], 1 - c["noise_floor"]):
        if v is not None and v > 0:
            half = max(half, abs(math.log(v)))
col = lambda r: round((max(-half, min(half, math.log(r))) + half) / (2 * half) * (W - 1))
errs = []
if len(lines) != len(cells):
    errs.append(f"{len(lines)} bars, compare has {len(cells)} headline cells")
for (row, c), line in zip(cells, lines):
    name = f"{row['case']} {row['metric']} ({c['run']})"
    if not line[2:].startswith(name):
        errs.append(f"bar of {name}: {line!r}")
        continue
    m = re.match(r"  .*?  (.*)  (\S+) (\S+)$", line)
    want = colours.get(c["verdict"], "")
    plain = m.group(1).replace(want + "o" + ("\033[0m" if want else ""), "o") if m else ""
    if not m or len(plain) != W or m.group(3) != c["verdict"] or (want and want + "o" not in m.group(1)):
        errs.append(f"bar of {name}: {line!r} (want {len(plain)} == {W} columns, {c['verdict']}, colour {want!r})")
        continue
    if plain.index("o") != col(c["ratio"]):
        errs.append(f"bar of {name}: o at {plain.index('o')}, the scale puts {c['ratio']} at {col(c['ratio'])}")
    if c.get("ci_low") is not None and (plain.find("[") != col(c["ci_low"]) and col(c["ci_low"]) != col(c["ratio"])
                                        or plain.rfind("]") != col(c["ci_high"]) and col(c["ci_high"]) != col(c["ratio"])):
        errs.append(f"bar of {name}: interval {plain.find('[')}..{plain.rfind(']')}, want "
                    f"{col(c['ci_low'])}..{col(c['ci_high'])}")
print("\n".join(errs) if errs else f"ok {len(lines)}")
PY
expect_out "each bar's change, interval and colour are compare's" '^ok 4$'
done_testing
