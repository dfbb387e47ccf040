# One spelling for one thing: the JSON keys vmregress writes are snake_case,
# a metric name has one unit, and a run stored under the old spellings
# (kebab-case info and environment keys, mtest01's "alloc-rate" in
# bytes/s, the unit "ratio") still shows, compares and exports, under the
# new names (src/core/spelling.h).
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "a run stored under the old spellings reads" "needs root for the sandbox"
	done_testing; exit 0
fi
DB=$T_TMP/results.db
printf '[global]\niterations = 2\nmem = 64M\n\n[spin]\nworkload = null\nspin = 1ms\n' > "$T_TMP/spin.ini"
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name new -q
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name old -q
[ "$RC" = 0 ] && ok "two runs" || not_ok "two runs (exit $RC: ${ERR:0:300})"

# --- what is written: snake_case keys --------------------------------------
# kebab KEYS: the keys vmregress chose that hold a '-' (the names inside
# options, metrics, knobs and the kernel's files are data, not its keys)
kebab() {
	python3 -c '
import json, sys
bad = set()
data_maps = {"options", "knobs", "sysctl", "stat", "trace_skipped", "perf_unsupported", "profile_skipped", "iterations_auto", "iterations_auto_reached"}
def walk(o, parent):
    if isinstance(o, dict):
        for k, v in o.items():
            if "-" in k and parent not in data_maps:
                bad.add(k)
            walk(v, parent if parent in data_maps else k)
    elif isinstance(o, list):
        for v in o:
            walk(v, parent)
text = sys.stdin.read()
try:
    docs = [json.loads(text)]
except ValueError:
    docs = [json.loads(line) for line in text.splitlines() if line.strip()]
for d in docs:
    walk(d, "")
print(" ".join(sorted(bad)) or "none")'
}
got=$(sqlite3 "$DB" "SELECT result FROM iterations" | kebab)
[ "$got" = none ] && ok "stored results have no kebab-case key of vmregress's own" \
	|| not_ok "stored results have no kebab-case key of vmregress's own: $got"
run "$VMR" compare old new --db "$DB" --json
got=$(kebab <<< "$OUT")
[ "$RC" = 0 ] && [ -n "$OUT" ] && [ "$got" = none ] && ok "compare's JSON has no kebab-case key" \
	|| not_ok "compare's JSON has no kebab-case key (exit $RC): $got"

# --- a run stored under the old spellings -----------------------------------
python3 - "$DB" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
old = {"sandbox_before": "sandbox-before", "sandbox_after": "sandbox-after"}
rows = db.execute("SELECT i.id, i.result FROM iterations i JOIN cases c ON i.case_id = c.id "
                  "JOIN runs r ON c.run_id = r.id WHERE r.name = 'old'").fetchall()
for id, text in rows:
    r = json.loads(text)
    r["info"] = {old.get(k, k): v for k, v in r["info"].items()}
    r["metrics"].append({"name": "alloc-rate", "unit": "bytes/s", "better": "higher", "combine": "hmean", "value": 4e9})
    r["metrics"].append({"name": "scaling", "unit": "ratio", "better": "higher", "combine": "amean", "value": 0.9})
    db.execute("UPDATE iterations SET result = ? WHERE id = ?", (json.dumps(r), id))
env = json.loads(db.execute("SELECT env FROM runs WHERE name = 'old'").fetchone()[0])
env["iterations-auto"] = {"precision": 0.05, "spin": "precision after 2 iterations"}
db.execute("UPDATE runs SET env = ? WHERE name = 'old'", (json.dumps(env),))
db.commit()
PY
check "the old spellings are in the store" test "$(sqlite3 "$DB" "SELECT COUNT(*) FROM iterations WHERE result LIKE '%sandbox-after%alloc-rate%'")" = 2

run "$VMR" show old --db "$DB" --all
expect_out "show: mtest01's byte rate under its new name" '^ +alloc-byte-rate +'
expect_no_out "show: not under the old one" 'alloc-rate'
expect_out "show: the environment's key in snake_case" '^  iterations_auto\.spin +precision after 2 iterations'
run "$VMR" show old --db "$DB" --json
expect_json "show --json: the metric in bytes/s, the ratio in x" \
	'[.cases[0].metrics[] | select(.name == "alloc-byte-rate" or .name == "scaling") | .unit] == ["bytes/s", "x"]'
run "$VMR" compare old old --db "$DB" --json
expect_json "compare reads the old run under the new names" \
	'[.rows[].metric] | (index("alloc-byte-rate") != null) and (index("alloc-rate") == null)'
run "$VMR" export old --db "$DB" --format json
expect_json "export: the new name and its unit, the old name gone" \
	'([.[] | select(.metric == "alloc-byte-rate") | .unit] | unique) == ["bytes/s"] and ([.[] | select(.metric == "alloc-rate")] | length) == 0'
run "$VMR" report old new --db "$DB" -o "$T_TMP/r" --no-graphs
[ "$RC" = 0 ] && grep -q 'alloc-byte-rate' "$T_TMP/r/index.html" && ok "report reads the old run" \
	|| not_ok "report reads the old run (exit $RC: ${ERR:0:200})"

# --- one word for the count of a case's iterations ---------------------------
run "$VMR" show new --db "$DB"
expect_out "show's summary counts iterations under that word" '^  case +iterations +outcome '
expect_out "with the count under it" '^  spin +2 +pass '
expect_no_out "and no column 'n'" '^  case +n +outcome'
run "$VMR" list --db "$DB" --json
expect_json "list --json says iterations" '[.[] | .iterations] == [2, 2]'
run "$VMR" show new --db "$DB" --json
expect_json "show --json says iterations" '.cases[0].iterations == 2 and (.cases[0] | has("n") | not)'
done_testing
