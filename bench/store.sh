# The two store back ends side by side: pushing runs into a SQLite file and
# into a PostgreSQL server on a local socket (a throwaway one from
# tests/pg-setup), one writer and eight at once, and reading them back.
# Prints times and ratios measured in one run.
cd "$(dirname "$0")/.."
. bench/lib.bash
command -v sqlite3 >/dev/null || { echo "store: skipped: no sqlite3 command"; exit 0; }
. tests/pg-setup
tmp=$(mktemp -d)
trap 'pg_stop; rm -rf "$tmp"' EXIT
if ! pg_start; then
	echo "store: skipped: $PG_SKIP"
	exit 0
fi
printf '[global]\niterations = 5\nno-sandbox = yes\n[a]\nworkload = null\n[b]\nworkload = null\n' > "$tmp/s.ini"
bench_run "$VMR" run "$tmp/s.ini" --db "$tmp/seed.db" --name seed --quiet --no-monitor --no-probe
# Eight sources of 40 runs each, cloned from the one real run.
clone() { # clone DB N: DB's run becomes N runs with fresh UUIDs
	sqlite3 "$1" <<EOF
UPDATE runs SET uuid = lower(hex(randomblob(16)));
WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $2 - 1)
INSERT INTO runs (uuid, name, suite, suite_text, status, kernel, host, started, ended, tag, env)
  SELECT lower(hex(randomblob(16))), name || '-' || k, suite, suite_text, status, kernel, host, started + k,
  ended + k, tag, env FROM runs, n WHERE runs.name = 'seed';
INSERT INTO cases (run_id, seq, name, workload, options) SELECT r.id, c.seq, c.name, c.workload, c.options
  FROM runs r, cases c, runs o WHERE o.name = 'seed' AND c.run_id = o.id AND r.id <> o.id;
INSERT INTO iterations (case_id, iteration, outcome, reason, result)
  SELECT nc.id, i.iteration, i.outcome, i.reason, i.result FROM runs o JOIN cases oc ON oc.run_id = o.id
  JOIN iterations i ON i.case_id = oc.id JOIN cases nc ON nc.seq = oc.seq AND nc.run_id <> o.id WHERE o.name = 'seed';
INSERT INTO metrics (iteration_id, name, unit, better, combine, value)
  SELECT ni.id, m.name, m.unit, m.better, m.combine, m.value FROM runs o JOIN cases oc ON oc.run_id = o.id
  JOIN iterations oi ON oi.case_id = oc.id JOIN metrics m ON m.iteration_id = oi.id
  JOIN cases nc ON nc.seq = oc.seq AND nc.run_id <> o.id
  JOIN iterations ni ON ni.case_id = nc.id AND ni.iteration = oi.iteration WHERE o.name = 'seed';
EOF
}
for w in 1 2 3 4 5 6 7 8; do cp "$tmp/seed.db" "$tmp/m$w.db"; clone "$tmp/m$w.db" 40; done
now() { date +%s%N; }
one() { # one DEST: ms to push one source of 40 runs
	local t0; t0=$(now); bench_run "$VMR" push --all --db "$tmp/m1.db" --to "$1"; echo $(( ($(now) - t0) / 1000000 ))
}
eight() { # eight DEST: ms for eight sources pushed at once
	local t0 w pids=(); t0=$(now)
	for w in 1 2 3 4 5 6 7 8; do bench_run "$VMR" push --all --db "$tmp/m$w.db" --to "$1" & pids+=($!); done
	for w in "${pids[@]}"; do wait "$w" || bench_fail "one of eight pushes at once to ${1%%\?*} failed"; done
	echo $(( ($(now) - t0) / 1000000 ))
}
readall() { # readall DB: ms to show every run
	local t0 r uuids; t0=$(now)
	uuids=$(bench_out "$VMR" list --db "$1" --json | jq -r '.[:40][].uuid')
	for r in $uuids; do bench_run "$VMR" show "$r" --db "$1" --json; done
	echo $(( ($(now) - t0) / 1000000 ))
}
pg_psql "CREATE DATABASE one OWNER fleet" > /dev/null
pg_psql "CREATE DATABASE eight OWNER fleet" > /dev/null
url() { echo "postgresql://fleet:$PG_PASS@/$1?host=$PG_DIR"; }
s1=$(one "$tmp/one.db"); p1=$(one "$(url one)")
s8=$(eight "$tmp/eight.db"); p8=$(eight "$(url eight)")
sr=$(readall "$tmp/one.db"); pr=$(readall "$(url one)")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
echo "store: runs of 2 cases x 5 iterations (null workload), SQLite file vs PostgreSQL on a Unix socket"
printf '  %-36s %8s %8s %8s\n' "" sqlite pg "pg/sqlite"
printf '  %-36s %6sms %6sms %8s\n' "push 40 runs, one writer" "$s1" "$p1" "$(ratio "$p1" "$s1")"
printf '  %-36s %6sms %6sms %8s\n' "push 8 x 40 runs, eight writers" "$s8" "$p8" "$(ratio "$p8" "$s8")"
printf '  %-36s %6sms %6sms %8s\n' "show 40 runs, one process each" "$sr" "$pr" "$(ratio "$pr" "$sr")"
