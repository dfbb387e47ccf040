# The results store on both back ends: the store test suite and the
# command-line checks run once against a SQLite file and once against a
# throwaway PostgreSQL server (tests/pg-setup); push and pull copy runs
# between them idempotently; 8 processes pushing 50 runs each into one
# server all land whole, once; a pushing client killed with -9 leaves the
# whole run or none; runs still being written are left for a later push,
# interrupted ones are copied, and copies that fell behind are brought up to
# date in place, once; two machines (host names set with VMREGRESS_HOST)
# share one database and compare; no password shows in messages or stored
# data.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/pg-setup"
case "$VMR" in *asan*) UNIT=$ROOT/build/unit-asan ;; *) UNIT=$ROOT/build/unit ;; esac
BG=()
trap 'for p in "${BG[@]}"; do kill -9 "$p" 2>/dev/null; done; pg_stop; rm -rf "$T_TMP"' EXIT

cat > "$T_TMP/tiny.ini" <<'EOF'
[global]
iterations = 2
no-sandbox = yes

[a]
workload = null
spin = 1ms
EOF
vrun() { # vrun DB NAME [HOST]: one tiny run
	VMREGRESS_HOST=${3:-} "$VMR" run "$T_TMP/tiny.ini" --db "$1" --name "$2" --quiet --no-monitor --no-probe
}

# --- the command-line store checks, against either back end --------------
cli_checks() { # cli_checks LABEL LOCATION
	local l=$1 db=$2
	run vrun "$db" "$l-one" alpha; expect_rc "$l: a run is stored" 0
	run vrun "$db" "$l-two" beta; expect_rc "$l: a second run is stored" 0
	run "$VMR" list --db "$db" --json; expect_rc "$l: list" 0
	[ "$(jq -r '[.[].name] | join(",")' <<< "$OUT")" = "$l-two,$l-one" ] && ok "$l: list is newest first" ||
		not_ok "$l: list: ${OUT:0:300}"
	[ "$(jq -r '[.[] | "\(.host):\(.cases):\(.iterations):\(.status)"] | join(",")' <<< "$OUT")" = \
		"beta:1:2:complete,alpha:1:2:complete" ] && ok "$l: hosts, counts and status listed" ||
		not_ok "$l: list fields: ${OUT:0:300}"
	run "$VMR" list --db "$db" --host alpha --json
	expect_json_is "$l: list --host" '[.[].name] | join(",")' "$l-one"
	run "$VMR" list --db "$db" --host 'b*' --kernel "$(uname -r)" --json
	[ "$(jq -r '[.[].name] | join(",")' <<< "$OUT")" = "$l-two" ] && ok "$l: list --host GLOB --kernel" ||
		not_ok "$l: list --host --kernel: ${OUT:0:200}"
	run "$VMR" list --db "$db" --kernel '0.0.*'
	[ "$(grep -c . <<< "$OUT")" = 1 ] && ok "$l: list --kernel of no run prints the header only" ||
		not_ok "$l: list --kernel: ${OUT:0:200}"
	run "$VMR" list --db "$db"
	grep -qE "^[0-9]+ +$l-one +[^ ]+ +alpha " <<< "$OUT" && ok "$l: list shows the host" || not_ok "$l: list text: ${OUT:0:300}"
	run "$VMR" show "$l-one" --db "$db" --json; expect_rc "$l: show" 0
	[ "$(jq -r '.env.hostname' <<< "$OUT")" = alpha ] && ok "$l: the environment names the host" ||
		not_ok "$l: env hostname: $(jq -c '.env.hostname' <<< "$OUT")"
	run "$VMR" export "$l-one" --db "$db" --format csv; expect_rc "$l: export" 0
	[ "$(grep -c "^$l-one,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,a," <<< "$OUT")" -ge 2 ] && ok "$l: export has both iterations" || not_ok "$l: export: ${OUT:0:300}"
	run env VMREGRESS_DB="$db" "$VMR" show last --json; expect_rc "$l: VMREGRESS_DB selects the store" 0
	[ "$(jq -r '.name // .info.name // .run.name' <<< "$OUT")" = "$l-two" ] && ok "$l: last is the newest run" ||
		not_ok "$l: show last: ${OUT:0:200}"
	run "$VMR" show nosuch --db "$db"; expect_rc "$l: an unknown run exits 2" 2
	one_line_err && expect_err "$l: an unknown run is named" "nosuch: no such run" || not_ok "$l: error is not one line: $ERR"
	run "$VMR" delete "$l-two" --db "$db"; expect_rc "$l: delete" 0
	run "$VMR" list --db "$db" --json
	expect_json_is "$l: the deleted run is gone" 'length' 1
}

cli_checks sqlite "$T_TMP/cli.db"
cli_checks sqlite-prefix "sqlite:$T_TMP/cli-prefix.db"
[ -f "$T_TMP/cli-prefix.db" ] && ok "sqlite:FILE names a file" || not_ok "sqlite:FILE did not create the file"

if ! pg_start; then
	skip "the PostgreSQL back end" "$PG_SKIP"
	done_testing; exit 0
fi
ok "a throwaway PostgreSQL server started"
newdb() { # newdb NAME: a fresh database for one group of checks; prints its URL
	pg_psql "CREATE DATABASE $1 OWNER fleet" >/dev/null && echo "postgresql://fleet:$PG_PASS@/$1?host=$PG_DIR"
}

# --- the store test suite against PostgreSQL ------------------------------
if url=$(newdb unitdb); then
	VMR_TEST_STORE=$url "$UNIT/test_store_backends" 2>"$T_TMP/unit.err" > "$T_TMP/unit.out"
	rc=$?
	# its checks count toward this file's plan; its own plan says it ran to its end
	sed -E '/^1\.\.[0-9]+$/d; s/^(not ok|ok) - /\1 - postgresql: /' "$T_TMP/unit.out"
	n=$(grep -cE '^(not )?ok - ' "$T_TMP/unit.out")
	T_CHECKS=$((T_CHECKS + n))
	[ "$(grep -E '^1\.\.[0-9]+$' "$T_TMP/unit.out" | tail -n 1)" = "1..$n" ] &&
		ok "the postgresql store suite ran to its plan ($n checks)" ||
		not_ok "the postgresql store suite stopped before its plan ($n checks)"
	grep -q '^# back end: postgresql' "$T_TMP/unit.out" && ok "the store suite ran against postgresql" ||
		not_ok "the store suite did not run against postgresql"
	[ "$rc" = 0 ] || grep -q '^not ok' "$T_TMP/unit.out" || not_ok "postgresql store suite exited $rc: $(tail -2 "$T_TMP/unit.err")"
	grep -q "$PG_PASS" "$T_TMP/unit.err" && not_ok "the password shows in the suite's messages" ||
		ok "no password in the suite's messages"
fi

# --- the command-line checks against PostgreSQL ---------------------------
PGCLI=$(newdb clidb) && cli_checks postgresql "$PGCLI"

# --- credentials ---------------------------------------------------------
BAD="postgresql://fleet:wrong-$PG_PASS@/clidb?host=$PG_DIR"
run "$VMR" list --db "$BAD"; expect_rc "a wrong password exits 2" 2
one_line_err && ok "a wrong password is a one-line error" || not_ok "wrong password: $ERR"
expect_err "the URL is shown with its password masked" "postgresql://fleet:\*\*\*@/clidb"
[ -n "$ERR" ] && ! grep -q "$PG_PASS" <<< "$ERR" && ok "the password is not in the error" || not_ok "the password shows in an error, or none: $ERR"
run "$VMR" show nosuch --db "$PGCLI"; expect_rc "an unknown run on the server exits 2" 2
[ -n "$ERR" ] && ! grep -q "$PG_PASS" <<< "$ERR" && ok "no password in a run error" || not_ok "the password shows in a run error, or none: $ERR"
run "$VMR" push "$T_TMP/nofile" --to "postgresql://fleet:$PG_PASS@/nodb?host=$PG_DIR" --db "$T_TMP/cli.db"
[ -n "$ERR" ] && [ "$RC" != 0 ] && ! grep -q "$PG_PASS" <<< "$ERR" && ok "no password in a push error" ||
	not_ok "the password shows in a push error, or none (exit $RC): $ERR"

# --- a damaged schema version ---------------------------------------------
# A negative version once indexed the migrations at -1.
if BADV=$(newdb badversion); then
	"$VMR" list --db "$BADV" >/dev/null 2>&1
	PG_DB=badversion pg_psql "UPDATE schema_version SET version = -1" >/dev/null
	run "$VMR" list --db "$BADV"; expect_rc "a negative schema version exits 2" 2
	one_line_err && expect_err "a negative schema version is refused" "not a vmregress results database" ||
		not_ok "negative schema version: $ERR"
fi

# --- push and pull -------------------------------------------------------
LOCAL=$T_TMP/local.db
for n in p1 p2 p3; do vrun "$LOCAL" "$n" alpha >/dev/null 2>&1; done
PGPUSH=$(newdb pushdb)
run "$VMR" push --all --db "$LOCAL" --to "$PGPUSH"; expect_rc "push --all" 0
expect_out "push counts what it copied" "^3 copied, 0 updated, 0 already there, into postgresql://fleet:\*\*\*@/pushdb"
grep -q "$PG_PASS" <<< "$OUT$ERR" && not_ok "push printed the password" || ok "push prints no password"
run "$VMR" push --all --db "$LOCAL" --to "$PGPUSH" --json; expect_rc "push again" 0
[ "$(jq -r '[.[].result] | join(",")' <<< "$OUT")" = "present,present,present" ] && ok "pushing twice stores once" ||
	not_ok "second push: ${OUT:0:300}"
run "$VMR" push p2 --db "$LOCAL" --to "$PGPUSH"; expect_out "push of one run already there" "^present "
[ "$("$VMR" list --db "$PGPUSH" --json | jq length)" = 3 ] && ok "the server holds three runs" || not_ok "server runs after pushes"
same_export() { # same_export RUN DB_A DB_B: both stores export RUN, and alike
	local a b
	a=$("$VMR" export "$1" --db "$2" --format json) && [ -n "$a" ] &&
		b=$("$VMR" export "$1" --db "$3" --format json) && [ "$a" = "$b" ] &&
		a=$("$VMR" show "$1" --db "$2" --json | jq -S 'del(.id, .info.id, .run.id)') && [ -n "$a" ] &&
		b=$("$VMR" show "$1" --db "$3" --json | jq -S 'del(.id, .info.id, .run.id)') && [ "$a" = "$b" ]
}
same_export p2 "$LOCAL" "$PGPUSH" && ok "a pushed run equals the local one" || not_ok "pushed run differs"
run "$VMR" pull p1 p3 --from "$PGPUSH" --db "$T_TMP/pulled.db"; expect_rc "pull two runs" 0
expect_out "pull counts what it copied" "^2 copied, 0 updated, 0 already there"
same_export p3 "$LOCAL" "$T_TMP/pulled.db" && ok "a pulled run equals the original" || not_ok "pulled run differs"
run "$VMR" pull --all --from "$PGPUSH" --db "$T_TMP/pulled.db"; expect_out "pull --all copies only what is missing" "^1 copied, 0 updated, 2 already there"
run "$VMR" push --db "$LOCAL" --to "$PGPUSH"; expect_rc "push without runs exits 2" 2
run "$VMR" push p1 --db "$LOCAL"; expect_rc "push without --to exits 2" 2
run "$VMR" pull p1 --db "$LOCAL"; expect_rc "pull without --from exits 2" 2
run "$VMR" push nosuch --db "$LOCAL" --to "$PGPUSH"; expect_rc "push of an unknown run exits 2" 2
expect_err "push names the unknown run" "nosuch: no such run"

# --- copies that fell behind are brought up to date ------------------------
# As an earlier vmregress left them: a copy made while its run was still
# going (one iteration, incomplete, no end).
behind_pg() { # behind_pg DB RUN
	PG_DB=$1 pg_psql "DELETE FROM iterations WHERE iteration > 0 AND case_id IN (SELECT c.id FROM cases c JOIN runs r
	  ON c.run_id = r.id WHERE r.name = '$2'); UPDATE runs SET status = 'incomplete', ended = NULL WHERE name = '$2'" >/dev/null
}
behind_sqlite() { # behind_sqlite FILE RUN
	sqlite3 "$1" "PRAGMA foreign_keys = ON; DELETE FROM iterations WHERE iteration > 0 AND case_id IN (SELECT c.id FROM
	  cases c JOIN runs r ON c.run_id = r.id WHERE r.name = '$2'); UPDATE runs SET status = 'incomplete', ended = NULL
	  WHERE name = '$2'"
}
p1_id() { "$VMR" list --db "$PGPUSH" --json | jq -r '.[] | select(.name == "p1") | "\(.id):\(.iterations):\(.status)"'; }
before=$(p1_id)
behind_pg pushdb p1
[ "$(p1_id)" = "${before%%:*}:1:incomplete" ] && ok "the server's copy of p1 fell behind" || not_ok "p1 on the server: $(p1_id)"
run "$VMR" push --all --db "$LOCAL" --to "$PGPUSH"; expect_rc "push --all after a copy fell behind" 0
expect_out "push names the copy it brought up to date" "^updated +[0-9a-f-]{36} p1 as run ${before%%:*}$"
expect_out "push counts it" "^0 copied, 1 updated, 2 already there"
[ "$(p1_id)" = "$before" ] && ok "the copy is up to date under its id" || not_ok "p1 after update: $(p1_id), want $before"
same_export p1 "$LOCAL" "$PGPUSH" && ok "the updated copy equals the local run" || not_ok "updated copy differs"
[ "$(PG_DB=pushdb pg_psql "SELECT count(*) FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON
  c.run_id = r.id WHERE r.name = 'p1'")" = 2 ] && ok "no duplicate iteration rows" || not_ok "p1 iteration rows"
[ "$(PG_DB=pushdb pg_psql "SELECT count(*) FROM runs")" = 3 ] && ok "no duplicate run rows" || not_ok "run rows"
run "$VMR" push --all --db "$LOCAL" --to "$PGPUSH"; expect_out "pushing again changes nothing" "^0 copied, 0 updated, 3 already there"
if command -v sqlite3 >/dev/null; then
	behind_sqlite "$T_TMP/pulled.db" p3
	run "$VMR" pull --all --from "$PGPUSH" --db "$T_TMP/pulled.db" --json; expect_rc "pull after a local copy fell behind" 0
	[ "$(jq -r '[.[] | "\(.name):\(.result)"] | join(",")' <<< "$OUT")" = "p1:present,p2:present,p3:updated" ] &&
		ok "pull brings the local copy up to date" || not_ok "pull update: ${OUT:0:300}"
	same_export p3 "$LOCAL" "$T_TMP/pulled.db" && ok "the pulled copy equals the original" || not_ok "pulled update differs"
	# An older copy never replaces a newer one.
	cp "$LOCAL" "$T_TMP/old.db"
	behind_sqlite "$T_TMP/old.db" p2
	run "$VMR" push p2 --db "$T_TMP/old.db" --to "$PGPUSH"; expect_out "an older copy is not pushed over a newer" "^present "
	same_export p2 "$LOCAL" "$PGPUSH" && ok "the server keeps the newer copy" || not_ok "the server's p2 changed"
	run "$VMR" pull p2 --from "$PGPUSH" --db "$T_TMP/old.db"; expect_out "pulling brings the older copy up to date" "^updated "
	same_export p2 "$LOCAL" "$T_TMP/old.db" && ok "and it equals the original" || not_ok "old.db p2 differs"
else
	skip "copies brought up to date in a file" "no sqlite3 command (Debian: sqlite3)"
fi

# --- runs still being written, and interrupted runs ------------------------
cat > "$T_TMP/long.ini" <<'EOF'
[global]
iterations = 400
no-sandbox = yes

[slow]
workload = null
spin = 50ms
EOF
long_run() { # long_run DB NAME &: a run that goes on for 20 s unless killed
	exec "$VMR" run "$T_TMP/long.ini" --db "$1" --name "$2" --quiet --no-monitor --no-probe >/dev/null 2>&1
}
wait_iters() { # wait_iters DB NAME N: until run NAME holds N iterations (10 s at most)
	local n
	for _ in $(seq 100); do
		n=$("$VMR" list --db "$1" --json 2>/dev/null | jq --arg n "$2" '[.[] | select(.name == $n) | .iterations] | add // 0')
		[ "${n:-0}" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
field() { # field DB NAME KEY: a field of run NAME in list --json
	"$VMR" list --db "$1" --json | jq -r --arg n "$2" --arg k "$3" '.[] | select(.name == $n) | .[$k]'
}
wait_stopped() { # wait_stopped DB NAME: until run NAME is no longer running (5 s at most)
	for _ in $(seq 50); do [ "$(field "$1" "$2" running)" = false ] && return 0; sleep 0.1; done
	return 1
}
RUNS=$T_TMP/runs.db
PGRUNS=$(newdb runsdb)
vrun "$RUNS" done-run alpha >/dev/null 2>&1
long_run "$RUNS" live & BG+=($!)
if wait_iters "$RUNS" live 2; then
	[ "$(field "$RUNS" live running):$(field "$RUNS" live status)" = true:incomplete ] &&
		ok "sqlite: a run being written is listed as running" || not_ok "live: $(field "$RUNS" live running)"
	run "$VMR" list --db "$RUNS"; expect_out "sqlite: list shows it running" "^[0-9]+ +live .* running +[0-9T:-]+Z$"
	run "$VMR" show live --db "$RUNS"; expect_out "sqlite: show says it is running" "^Run [0-9]+: live \(running\)"
	run "$VMR" push --all --db "$RUNS" --to "$PGRUNS"; expect_rc "push --all while a run is being written" 0
	expect_out "push leaves the running run with a note" "^running +[0-9a-f-]{36} live: still being written, not copied"
	expect_out "push counts it apart" "^1 copied, 0 updated, 0 already there, 1 still being written \(not copied\), into"
	run "$VMR" push live --db "$RUNS" --to "$PGRUNS" --json; expect_rc "push of the running run by name" 0
	[ "$(jq -r '.[0] | "\(.result):\(.id)"' <<< "$OUT")" = running:null ] && ok "its JSON says running, no id" ||
		not_ok "push live --json: ${OUT:0:200}"
	[ "$("$VMR" list --db "$PGRUNS" --json | jq -r '[.[].name] | join(",")')" = done-run ] &&
		ok "the server holds only the finished run" || not_ok "server runs: $("$VMR" list --db "$PGRUNS" --json | jq -c '[.[].name]')"
	run "$VMR" delete live --db "$RUNS"; expect_rc "sqlite: a running run is not deleted" 2
	one_line_err && expect_err "sqlite: delete says why" "^vmregress: live: still being written" || not_ok "delete error: $ERR"
	kill -9 "${BG[-1]}"; wait "${BG[-1]}" 2>/dev/null
	wait_stopped "$RUNS" live && ok "sqlite: after kill -9 the run is not running" || not_ok "sqlite: still running after kill -9"
	[ "$(field "$RUNS" live status)" = incomplete ] && ok "sqlite: the killed run is stored incomplete" || not_ok "killed status"
	run "$VMR" list --db "$RUNS"; expect_out "sqlite: list shows it interrupted" "^[0-9]+ +live .* interrupted +[0-9T:-]+Z$"
	n=$(field "$RUNS" live iterations)
	run "$VMR" push --all --db "$RUNS" --to "$PGRUNS"; expect_rc "push --all after the run was killed" 0
	expect_out "the interrupted run is copied, marked so" "^copied +[0-9a-f-]{36} live as run [0-9]+ \(interrupted: incomplete\)$"
	expect_out "push counts it" "^1 copied, 0 updated, 1 already there, into"
	[ "$(field "$PGRUNS" live status):$(field "$PGRUNS" live running):$(field "$PGRUNS" live iterations)" = "incomplete:false:$n" ] &&
		ok "the server holds the interrupted run whole ($n iterations)" || not_ok "server live: $(field "$PGRUNS" live iterations) of $n"
	same_export live "$RUNS" "$PGRUNS" && ok "the interrupted run's copy equals it" || not_ok "interrupted copy differs"
	run "$VMR" push --all --db "$RUNS" --to "$PGRUNS"; expect_out "pushing again changes nothing" "^0 copied, 0 updated, 2 already there, into"
	[ ! -e "$RUNS-lock" ] && ok "sqlite: no lock file is left beside the results file" || not_ok "$RUNS-lock is left"
else
	not_ok "the long run did not store two iterations"
fi

# The same with the run straight in the database: pull leaves it until it stops.
long_run "$PGRUNS" live-pg & BG+=($!)
if wait_iters "$PGRUNS" live-pg 2; then
	[ "$(field "$PGRUNS" live-pg running)" = true ] && ok "postgresql: a run being written is listed as running" ||
		not_ok "live-pg: $(field "$PGRUNS" live-pg running)"
	run "$VMR" pull --all --from "$PGRUNS" --db "$T_TMP/runs-copy.db" --json; expect_rc "pull --all while a run is being written" 0
	[ "$(jq -r '[.[] | "\(.name):\(.result)"] | join(",")' <<< "$OUT")" = "done-run:copied,live:copied,live-pg:running" ] &&
		ok "pull leaves the running run" || not_ok "pull while running: ${OUT:0:300}"
	run "$VMR" delete live-pg --db "$PGRUNS"; expect_rc "postgresql: a running run is not deleted" 2
	kill -9 "${BG[-1]}"; wait "${BG[-1]}" 2>/dev/null
	wait_stopped "$PGRUNS" live-pg && ok "postgresql: after kill -9 the run is not running" ||
		not_ok "postgresql: still running after kill -9"
	run "$VMR" pull --all --from "$PGRUNS" --db "$T_TMP/runs-copy.db"; expect_out "pull copies the interrupted run" "^1 copied, 0 updated, 2 already there"
	same_export live-pg "$PGRUNS" "$T_TMP/runs-copy.db" && ok "the pulled interrupted run equals it" || not_ok "pulled live-pg differs"
	run "$VMR" delete live-pg --db "$PGRUNS"; expect_rc "postgresql: an interrupted run is deleted" 0
else
	not_ok "the long run into the database did not store two iterations"
fi

# --- many machines pushing at once ----------------------------------------
# Sources of 50 runs each: one real run cloned with SQL under fresh UUIDs.
clone_runs() { # clone_runs DB N PREFIX: DB's only run becomes N runs named PREFIX-K
	sqlite3 "$1" <<EOF
PRAGMA foreign_keys = ON;
UPDATE runs SET uuid = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
  substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
  lower(hex(randomblob(6))), name = '$3-0';
WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $2 - 1)
INSERT INTO runs (uuid, name, suite, suite_text, status, kernel, host, started, ended, tag, env)
  SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
  substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
  lower(hex(randomblob(6))),
  '$3-' || k, suite, suite_text, status, kernel, host, started + k, ended + k, tag, env
  FROM runs, n WHERE runs.name = '$3-0';
INSERT INTO cases (run_id, seq, name, workload, options)
  SELECT r.id, c.seq, c.name, c.workload, c.options FROM runs r, cases c, runs o
  WHERE o.name = '$3-0' AND c.run_id = o.id AND r.id <> o.id;
INSERT INTO iterations (case_id, iteration, outcome, reason, result)
  SELECT nc.id, i.iteration, i.outcome, i.reason, i.result FROM runs o JOIN cases oc ON oc.run_id = o.id
  JOIN iterations i ON i.case_id = oc.id JOIN cases nc ON nc.seq = oc.seq AND nc.run_id <> o.id
  WHERE o.name = '$3-0';
INSERT INTO metrics (iteration_id, name, unit, better, combine, value)
  SELECT ni.id, m.name, m.unit, m.better, m.combine, m.value FROM runs o JOIN cases oc ON oc.run_id = o.id
  JOIN iterations oi ON oi.case_id = oc.id JOIN metrics m ON m.iteration_id = oi.id
  JOIN cases nc ON nc.seq = oc.seq AND nc.run_id <> o.id
  JOIN iterations ni ON ni.case_id = nc.id AND ni.iteration = oi.iteration
  WHERE o.name = '$3-0';
EOF
}
if ! command -v sqlite3 >/dev/null; then
	skip "8 processes pushing 50 runs each" "no sqlite3 command (Debian: sqlite3) to build the sources"
else
	vrun "$T_TMP/seed.db" seed >/dev/null 2>&1
	for w in 1 2 3 4 5 6 7 8; do
		cp "$T_TMP/seed.db" "$T_TMP/m$w.db" && clone_runs "$T_TMP/m$w.db" 50 "m$w"
	done
	n=$("$VMR" list --db "$T_TMP/m8.db" --json | jq '[.[] | select(.iterations == 2)] | length')
	[ "$n" = 50 ] && ok "each source holds 50 whole runs" || not_ok "a source holds $n whole runs"
	PGMANY=$(newdb manydb)
	t0=$(date +%s%N)
	pids=()
	for w in 1 2 3 4 5 6 7 8; do
		"$VMR" push --all --db "$T_TMP/m$w.db" --to "$PGMANY" --json > "$T_TMP/push$w.json" 2>"$T_TMP/push$w.err" &
		pids+=($!)
	done
	bad=0
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	ms=$((($(date +%s%N) - t0) / 1000000))
	secs=$((ms / 1000)).$(printf '%03d' $((ms % 1000)))
	echo "# 8 processes x 50 runs pushed in ${secs}s" >&2
	[ "$bad" = 0 ] && ok "8 processes pushing 50 runs each all succeed (${secs}s)" ||
		not_ok "$bad pushing processes failed: $(cat "$T_TMP"/push*.err | head -3)"
	run "$VMR" list --db "$PGMANY" --json
	expect_json_is "all 400 runs arrived" 'length' 400
	[ "$(jq '[.[] | select(.cases == 1 and .iterations == 2 and .status == "complete")] | length' <<< "$OUT")" = 400 ] &&
		ok "every run arrived whole" || not_ok "some runs are not whole"
	expect_json_is "every run arrived once" '[.[].uuid] | unique | length' 400
	[ "$(PG_DB=manydb pg_psql "SELECT count(*) FROM iterations")" = 800 ] &&
		ok "800 iterations, no strays" || not_ok "iteration rows: $(PG_DB=manydb pg_psql "SELECT count(*) FROM iterations")"
	# The same runs pushed from four places at once still land once.
	pids=()
	for w in 1 2 3 4; do "$VMR" push --all --db "$T_TMP/m1.db" --to "$PGMANY" >/dev/null 2>&1 & pids+=($!); done
	bad=0
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	[ "$bad" = 0 ] && [ "$("$VMR" list --db "$PGMANY" --json | jq length)" = 400 ] &&
		ok "the same runs pushed from four processes at once land once" || not_ok "concurrent re-push: $bad failed"
	# Copies of 50 runs fallen behind, brought up to date from four processes at once.
	PG_DB=manydb pg_psql "DELETE FROM iterations WHERE iteration > 0 AND case_id IN (SELECT c.id FROM cases c JOIN runs r
	  ON c.run_id = r.id WHERE r.name LIKE 'm1-%'); UPDATE runs SET status = 'incomplete', ended = NULL WHERE name LIKE 'm1-%'" >/dev/null
	pids=()
	for w in 1 2 3 4; do "$VMR" push --all --db "$T_TMP/m1.db" --to "$PGMANY" --json > "$T_TMP/up$w.json" 2>&1 & pids+=($!); done
	bad=0
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	updated=$(cat "$T_TMP"/up[1-4].json | jq -s '[.[][] | select(.result == "updated")] | length')
	run "$VMR" list --db "$PGMANY" --json
	[ "$bad" = 0 ] && [ "$updated" = 50 ] && ok "four processes at once brought 50 copies up to date, each once" ||
		not_ok "concurrent update: $bad failed, $updated updates"
	[ "$(jq '[.[] | select(.cases == 1 and .iterations == 2 and .status == "complete")] | length' <<< "$OUT")" = 400 ] &&
		[ "$(PG_DB=manydb pg_psql "SELECT count(*) FROM iterations")" = 800 ] &&
		[ "$(PG_DB=manydb pg_psql "SELECT count(*) FROM runs")" = 400 ] &&
		ok "all 400 runs whole after the updates, no strays" || not_ok "after concurrent updates"

	# --- kill -9 in the middle of a push --------------------------------------
	# One run of 800 iterations, so a push takes long enough to kill.
	cp "$T_TMP/seed.db" "$T_TMP/big.db"
	sqlite3 "$T_TMP/big.db" <<'EOF'
UPDATE runs SET name = 'big';
WITH RECURSIVE n(k) AS (SELECT 2 UNION ALL SELECT k + 1 FROM n WHERE k < 799)
INSERT INTO iterations (case_id, iteration, outcome, reason, result)
  SELECT case_id, k, outcome, reason, result FROM iterations, n WHERE iteration = 0;
INSERT INTO metrics (iteration_id, name, unit, better, combine, value)
  SELECT i.id, m.name, m.unit, m.better, m.combine, m.value FROM iterations i, iterations o
  JOIN metrics m ON m.iteration_id = o.id WHERE o.iteration = 0 AND i.iteration > 1;
EOF
	uuid=$("$VMR" list --db "$T_TMP/big.db" --json | jq -r '.[0].uuid')
	PGKILL=$(newdb killdb)
	inrun() { PG_DB=killdb pg_psql "SELECT count(*) FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.uuid = '$uuid'"; }
	killed_mid=0
	for attempt in 1 2 3; do
		"$VMR" push big --db "$T_TMP/big.db" --to "$PGKILL" >/dev/null 2>&1 &
		pid=$!
		for _ in $(seq 200); do
			[ "$(PG_DB=killdb pg_psql "SELECT count(*) FROM pg_stat_activity WHERE usename = 'fleet' AND xact_start IS NOT NULL")" -gt 0 ] && break
			sleep 0.01
		done
		sleep 0.$((attempt * 2))
		kill -9 "$pid" 2>/dev/null && killed_mid=$((killed_mid + 1))
		wait "$pid" 2>/dev/null
		n=$(inrun)
		[ "$n" = 0 ] || [ "$n" = 800 ] && ok "killed push $attempt: the server holds the whole run or none ($n of 800)" ||
			not_ok "killed push $attempt: the server holds $n of 800 iterations"
		[ "$n" = 800 ] && break
	done
	[ "$killed_mid" -gt 0 ] && ok "a push was killed mid-run" || not_ok "no push was still running to kill"
	run "$VMR" push big --db "$T_TMP/big.db" --to "$PGKILL"; expect_rc "the push is retried" 0
	[ "$(inrun)" = 800 ] && [ "$("$VMR" list --db "$PGKILL" --json | jq length)" = 1 ] &&
		ok "after a killed push, pushing again stores the whole run once" || not_ok "after retry: $(inrun) iterations"
fi

# --- two machines, one database -------------------------------------------
PGFLEET=$(newdb fleetdb)
vrun "$T_TMP/alpha.db" on-alpha alpha >/dev/null 2>&1
vrun "$T_TMP/beta.db" on-beta beta >/dev/null 2>&1
# Machine beta is other hardware: its fingerprint names another CPU and more memory.
command -v sqlite3 >/dev/null && sqlite3 "$T_TMP/beta.db" \
	"UPDATE runs SET env = json_set(env, '\$.cpu.model', 'Simulated CPU 9000', '\$.mem_total_bytes', 1099511627776)"
run "$VMR" push on-alpha --db "$T_TMP/alpha.db" --to "$PGFLEET"; expect_rc "machine alpha pushes" 0
run env VMREGRESS_HOST=beta "$VMR" push --all --db "$T_TMP/beta.db" --to "$PGFLEET"; expect_rc "machine beta pushes" 0
run vrun "$PGFLEET" direct-gamma gamma; expect_rc "machine gamma runs straight into the database" 0
run "$VMR" list --db "$PGFLEET" --json
[ "$(jq -r '[.[].host] | sort | join(",")' <<< "$OUT")" = "alpha,beta,gamma" ] && ok "the database holds runs of three hosts" ||
	not_ok "hosts: ${OUT:0:300}"
run "$VMR" compare on-alpha on-beta --db "$PGFLEET" --all; expect_rc "compare across hosts" 0
expect_out "the environment diff shows the host names" "alpha +beta"
expect_out "the host difference is marked as hardware" "hostname \(hardware\) +alpha +beta"
if command -v sqlite3 >/dev/null; then
	expect_out "a CPU difference is marked as hardware" "cpu.model \(hardware\) .* Simulated CPU 9000"
	expect_out "a memory difference is marked as hardware" "mem_total_bytes \(hardware\) .* 1099511627776"
fi
run "$VMR" compare on-alpha on-beta direct-gamma --db "$PGFLEET" --json; expect_rc "compare --json across three hosts" 0
[ "$(jq -r '.env_diff[] | select(.key == "hostname") | .values | join(",")' <<< "$OUT")" = "alpha,beta,gamma" ] &&
	ok "the JSON environment diff has each host" || not_ok "env_diff: $(jq -c '.env_diff' <<< "$OUT" | head -c 300)"
[ "$(jq -r '.env_diff[] | select(.key == "hostname") | .hardware' <<< "$OUT")" = true ] &&
	ok "the JSON environment diff marks the host as hardware" || not_ok "env_diff hardware: $(jq -c '.env_diff' <<< "$OUT" | head -c 300)"

# --- nothing stored holds a password --------------------------------------
for d in clidb pushdb fleetdb; do
	if "$PG_BINDIR/pg_dump" -h "$PG_DIR" -U postgres -d "$d" > "$T_TMP/$d.sql" 2>/dev/null; then
		grep -q "$PG_PASS" "$T_TMP/$d.sql" && not_ok "database $d stores the password" || ok "database $d stores no password"
	else
		not_ok "pg_dump of $d failed"
	fi
done
done_testing
