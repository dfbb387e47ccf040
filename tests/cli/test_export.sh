#!/usr/bin/env bash
# vmregress export of several runs and of a group: one tidy row per value,
# with the run's identity, kernel, variant, knobs and outcome; the CSV loads
# in pandas as it is.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/e.db
cat > "$T_TMP/e.ini" <<'INI'
[global]
no-monitor = yes
no-probe = yes
no-sandbox = yes
[spin]
workload = null
spin = 2ms
[again]
workload = null
spin = 1ms
INI
run "$VMR" run "$T_TMP/e.ini" --db "$DB" --quiet --name g -n 2 --variant a: --variant b:spin=20ms
expect_rc "a group of two variants runs" 0
run "$VMR" run "$T_TMP/e.ini" --db "$DB" --quiet --name solo
expect_rc "a single run runs" 0

run "$VMR" export g solo --db "$DB"
expect_rc "export of a group and a run exits 0" 0
expect_out "the header names every column" '^run,uuid,group,variant,kernel,host,knobs,case,workload,iteration,outcome,metric,unit,value$'
printf '%s\n' "$OUT" > "$T_TMP/e.csv"
run "$VMR" export g solo --db "$DB" --format json
expect_rc "export --format json exits 0" 0
expect_json "json rows carry the same keys" \
	'length > 0 and (.[0] | keys_unsorted) == ["run","uuid","group","variant","kernel","host","knobs","case","workload","iteration","outcome","metric","unit","value"]'
printf '%s\n' "$OUT" > "$T_TMP/e.json"

# The counts pandas must see: every stored metric of every iteration.
want=$(for r in g-a g-b solo; do "$VMR" show "$r" --db "$DB" --json; done |
	jq -s '[.[] | .cases[] | .metrics[] | .n] | add')
case $want in ''|*[!0-9]*) not_ok "show counts the stored metrics (got '$want')"; want=0 ;; *) ok "show counts $want stored metrics" ;; esac
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	run /usr/bin/python3 - "$T_TMP/e.csv" "$T_TMP/e.json" "$want" <<'PY'
import sys, json
import pandas as pd
csv, js, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = pd.read_csv(csv, keep_default_na=False)
print("rows", len(d) == want)
print("runs", sorted(d["run"].unique()) == ["g-a", "g-b", "solo"])
print("variants", sorted(d["variant"].unique()) == ["", "a", "b"])
print("group", sorted(d[d.run != "solo"]["group"].unique()) == ["g"])
print("kernel", (d["kernel"] != "").all())
print("outcome", set(d["outcome"]) == {"pass"})
print("one row per value", not d.duplicated(["uuid", "case", "iteration", "metric"]).any())
spin = d[(d.metric == "time") & (d.case == "spin")].groupby("variant")["value"].min()
print("variant b spun longer", spin["b"] > spin["a"])
j = pd.DataFrame(json.load(open(js)))
print("json matches csv", len(j) == len(d) and list(j.columns) == list(d.columns))
PY
	expect_rc "pandas reads the export" 0
	for k in rows runs variants group kernel outcome "one row per value" "variant b spun longer" "json matches csv"; do
		if grep -qx "$k True" <<< "$OUT"; then ok "pandas: $k"; else not_ok "pandas: $k (${OUT:0:300}; want $want rows)"; fi
	done
else
	skip "pandas reads the export" "Debian's python3-pandas is not installed"
fi

run "$VMR" export --db "$DB"
expect_rc "export of nothing exits 2" 2
expect_err "and asks which run" "export: which run\?"
run "$VMR" export nosuch --db "$DB"
expect_rc "export of an unknown run exits 2" 2
# Runs are written one at a time as they are read, but every one is checked
# first: bad input after a good run still writes nothing.
printf '{"bad":\n' > "$T_TMP/bad.json"
for fmt in csv json; do
	run "$VMR" export solo "$T_TMP/bad.json" --db "$DB" --format $fmt
	expect_rc "$fmt: a run file that is no JSON, after a good run: exit 2" 2
	check "... and nothing written" [ -z "$OUT" ]
	expect_err "... naming the file" 'bad\.json'
	run "$VMR" export solo nosuch --db "$DB" --format $fmt
	expect_rc "$fmt: an unknown run after a good one: exit 2" 2
	check "... and nothing written" [ -z "$OUT" ]
done
done_testing
