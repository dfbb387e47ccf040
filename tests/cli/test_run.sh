# vmregress run, list, show, export and delete against a real results file:
# what a run prints is what it stores, a run killed with -9 stays
# `incomplete` in a sound database, malformed suites are refused with
# FILE:LINE, and the monitor's pswpout matches /proc/vmstat's.
. "$(dirname "$0")/lib.sh"

DB=$T_TMP/results.db
export VMR_SUITE_DIR="$(cd "$(dirname "$0")/../.." && pwd)/suites"

# --- malformed suites: one line naming FILE:LINE, exit 2 ---------------
bad() { # bad NAME EXPECTED-REGEX SUITE-TEXT
	printf '%b' "$3" > "$T_TMP/bad.ini"
	run "$VMR" run "$T_TMP/bad.ini" --db "$DB" --quiet
	if [ "$RC" = 2 ] && one_line_err && grep -qE -- "$2" <<< "$ERR"; then ok "$1"; else not_ok "$1 (exit $RC: ${ERR:0:300})"; fi
}
bad "unknown workload names its line" "bad.ini:3: workload 'nosuch' is not in this build" '[a]\n; x\nworkload = nosuch\n'
bad "unknown option names its line" "bad.ini:2: unknown option 'bogus'" '[a]\nbogus = 1\nworkload = null\n'
bad "out-of-range option names its line" "bad.ini:3: spin: '5h' is out of range" '[a]\nworkload = null\nspin = 5h\n'
bad "duplicate section names its line" "bad.ini:3: duplicate section \\[a\\]" '[a]\nworkload = null\n[a]\n'
bad "bad size names its line" "bad.ini:2: mem: '64Q' is not a size" '[global]\nmem = 64Q\n[a]\nworkload = null\n'
run "$VMR" run no-such-suite --db "$DB"; expect_rc "unknown suite exits 2" 2; expect_err "unknown suite points at the list" "no such suite file, nor a built-in suite \(vmregress suites lists them\)"
[ ! -e "$DB" ] && ok "a refused suite writes no results file" || not_ok "a refused suite wrote $DB"

# --- a small run stores exactly what it printed --------------------------
cat > "$T_TMP/small.ini" <<'EOF'
[global]
iterations = 3
no-sandbox = yes
probe-period = 5ms
monitor-interval = 50ms

[spin]
workload = null
spin = 20ms

[quick]
workload = null
iterations = 2
EOF
run "$VMR" run "$T_TMP/small.ini" --db "$DB" --json --name small-one
expect_rc "small suite runs" 0
printf '%s\n' "$OUT" > "$T_TMP/run.json"
expect_json "run --json prints one JSON document" 'length == 1 and (.[0] | type) == "object"' --slurp
printed=$(jq -r '.cases[] as $c | $c.results | to_entries[] | .key as $i | .value.metrics[] | [$c.name, ($i + 1), .name, .unit, .value] | @tsv' "$T_TMP/run.json" | sort)
[ "$(jq '[.cases[].results | length] | add' "$T_TMP/run.json")" = 5 ] && ok "five iterations printed" || not_ok "iterations printed: $(jq '[.cases[].results | length]' "$T_TMP/run.json")"
grep -q "probe-late-p99" <<< "$printed" && ok "probe metrics printed" || not_ok "no probe metrics in the printed run"
run "$VMR" export small-one --db "$DB" --format json
expect_rc "export json" 0
stored=$(jq -r '.[] | [.case, .iteration, .metric, .unit, .value] | @tsv' <<< "$OUT" | sort)
[ -n "$stored" ] && [ "$stored" = "$printed" ] && ok "stored iterations and metrics equal the printed ones" \
	|| not_ok "stored differs from printed: $(diff <(echo "$printed") <(echo "$stored") | head -5)"
run "$VMR" export small-one --db "$DB" --format csv
expect_rc "export csv" 0
head -1 <<< "$OUT" | grep -qx 'run,uuid,group,variant,kernel,host,knobs,case,workload,iteration,outcome,metric,unit,value' && ok "csv has the tidy header" || not_ok "csv header: $(head -1 <<< "$OUT")"
# csv and json round-trip to the same rows (csv keeps 17 digits, json 10)
csv_rows=$(tail -n +2 <<< "$OUT" | awk -F, '{printf "%s\t%s\t%s\t%s\t%.9e\n", $8, $10, $12, $13, $14}' | sort)
json_rows=$(jq -r '.[] | [.case, .iteration, .metric, .unit, .value] | @tsv' <<< "$("$VMR" export small-one --db "$DB" --format json)" |
	awk -F'\t' '{printf "%s\t%s\t%s\t%s\t%.9e\n", $1, $2, $3, $4, $5}' | sort)
[ -n "$csv_rows" ] && [ "$csv_rows" = "$json_rows" ] && ok "csv and json exports round-trip to the same rows" || not_ok "csv and json differ: $(diff <(echo "$csv_rows") <(echo "$json_rows") | head -4)"
run "$VMR" export small-one --db "$DB" --format xml; expect_rc "export --format xml is refused" 2

run "$VMR" list --db "$DB" --json
expect_rc "list --json" 0
expect_json_is "list shows the run complete" '.[0].name + " " + .[0].status' "small-one complete"
id=$(jq -r '.[0].id' <<< "$OUT")
run "$VMR" show "$id" --db "$DB" --json; expect_rc "show by id" 0
expect_json_is "show summarises three iterations of spin" '.cases[0].metrics[] | select(.name == "time") | .n' 3
expect_json "show has the environment fingerprint" '.env.kernel.release | type == "string" and length > 0'
run "$VMR" show last --db "$DB" --all; expect_rc "show last --all" 0; expect_out "show --all prints mean and stddev" "mean +stddev"
run "$VMR" run "$T_TMP/small.ini" --db "$DB" --name small-one --quiet
expect_rc "a used run name is refused" 2
run "$VMR" show small-two --db "$DB"; expect_rc "show of an unknown run exits 2" 2; expect_err "unknown run is named" "small-two: no such run"

# --- the default results file -------------------------------------------
XDG_DATA_HOME=$T_TMP/xdg "$VMR" run "$T_TMP/small.ini" --quiet --iterations 1 >/dev/null 2>&1
[ -f "$T_TMP/xdg/vmregress/results.db" ] && ok "default file is \$XDG_DATA_HOME/vmregress/results.db" || not_ok "no results.db under XDG_DATA_HOME"
mkdir -p "$T_TMP/home"
HOME=$T_TMP/home XDG_DATA_HOME= "$VMR" run "$T_TMP/small.ini" --quiet --iterations 1 >/dev/null 2>&1
[ -f "$T_TMP/home/.local/share/vmregress/results.db" ] && ok "else ~/.local/share/vmregress/results.db" || not_ok "no results.db under HOME"
run env HOME="$T_TMP/home" XDG_DATA_HOME= "$VMR" list --json
expect_json_is "list reads the default file" 'length' 1

# --- two runs writing one file at the same time --------------------------
"$VMR" run "$T_TMP/small.ini" --db "$DB" --name together-a --quiet >/dev/null 2>"$T_TMP/a.err" & pa=$!
"$VMR" run "$T_TMP/small.ini" --db "$DB" --name together-b --quiet >/dev/null 2>"$T_TMP/b.err" & pb=$!
wait "$pa"; ra=$?; wait "$pb"; rb=$?
[ "$ra" = 0 ] && [ "$rb" = 0 ] && ok "two runs can write one results file at once" || not_ok "concurrent runs exited $ra and $rb: $(cat "$T_TMP/a.err" "$T_TMP/b.err" | head -3)"
n=$("$VMR" list --db "$DB" --json | jq '[.[] | select(.name | startswith("together-")) | select(.status == "complete") | .iterations] | add')
[ "$n" = 10 ] && ok "both concurrent runs stored every iteration" || not_ok "concurrent runs stored $n iterations, want 10"

# --- kill -9 in the middle ---------------------------------------------
cat > "$T_TMP/long.ini" <<'EOF'
[global]
no-sandbox = yes
iterations = 40
[slow]
workload = null
spin = 100ms
EOF
"$VMR" run "$T_TMP/long.ini" --db "$DB" --name killed --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do
	n=$(sqlite3 "$DB" "SELECT COUNT(*) FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.name = 'killed'" 2>/dev/null)
	[ "${n:-0}" -ge 3 ] && break
	sleep 0.1
done
kill -9 "$pid"; wait "$pid" 2>/dev/null
[ "${n:-0}" -ge 3 ] && ok "the run stored iterations before kill -9 ($n)" || not_ok "the run stored no 3 iterations before kill -9 (${n:-none})"
[ "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok ] && ok "integrity_check is ok after kill -9" || not_ok "integrity_check after kill -9"
run "$VMR" list --db "$DB" --json
expect_json_is "a killed run is incomplete" '.[] | select(.name == "killed") | .status' incomplete
run "$VMR" export killed --db "$DB" --format json
n=$(jq '[.[].iteration] | unique | length' <<< "$OUT")
[ "$n" -ge 3 ] && [ "$n" -lt 40 ] && ok "finished iterations of the killed run are kept ($n of 40)" || not_ok "killed run iterations: $n"

# --- refs-generate: a trace made for the run ------------------------------
cat > "$T_TMP/trace.ini" <<'EOF'
[global]
no-sandbox = yes
no-probe = yes
refs-generate = --pages 500 --references 2000 --pattern smooth_sin --seed 7
[replay]
workload = mmap
anon = yes
[replay-again]
workload = mmap
anon = yes
write = yes
[null]
workload = null
EOF
mkdir -p "$T_TMP/tmpdir"
run env TMPDIR="$T_TMP/tmpdir" "$VMR" run "$T_TMP/trace.ini" --db "$DB" --name traced --json --quiet
expect_rc "a suite with refs-generate runs" 0
[ "$(jq -r '(.cases[0].results[0].options.refs | type) == "string" and
	.cases[0].results[0].options.refs == .cases[1].results[0].options.refs' <<< "$OUT")" = true ] \
	&& ok "one trace for one argument string" || not_ok "cases got different traces"
[ "$(jq -r '.cases[0].options["refs-generate"]' <<< "$OUT")" = "--pages 500 --references 2000 --pattern smooth_sin --seed 7" ] \
	&& ok "the generate arguments are stored with the case" || not_ok "refs-generate not in the case options"
[ -z "$(ls -A "$T_TMP/tmpdir" | grep traces)" ] && ok "the trace directory is removed after the run" || not_ok "left: $(ls "$T_TMP/tmpdir")"
sed -i 's/--pattern smooth_sin/--pattern nosuch/' "$T_TMP/trace.ini"
run "$VMR" run "$T_TMP/trace.ini" --db "$DB" --name traced-bad --quiet
expect_rc "a bad refs-generate is refused" 2
run "$VMR" show traced-bad --db "$DB"; expect_rc "and nothing is stored" 2

# --- a file that is not a results file ----------------------------------
echo "not a database at all, just some text that is long enough" > "$T_TMP/junk.db"
run "$VMR" list --db "$T_TMP/junk.db"; expect_rc "a file that is not a results file is refused" 2
check "and says so in one line" one_line_err; expect_err "naming the file" "junk.db: not a vmregress results file"

# --- delete ---------------------------------------------------------------
run "$VMR" delete killed --db "$DB"; expect_rc "delete by name" 0
run "$VMR" show killed --db "$DB"; expect_rc "a deleted run is gone" 2
[ "$(sqlite3 "$DB" "SELECT COUNT(*) FROM metrics m LEFT JOIN iterations i ON m.iteration_id = i.id WHERE i.id IS NULL")" = 0 ] \
	&& ok "delete leaves no orphaned metric rows" || not_ok "orphaned metric rows after delete"

# --- the monitor's pswpout against /proc/vmstat's ------------------------
if ! is_root; then
	skip "monitor series of a swapping case" "needs root for a sandbox"
else
	cat > "$T_TMP/swap.ini" <<'EOF'
[global]
mem = 32M
swap = file:96M
monitor-interval = 50ms
no-probe = yes
[fault-zero]
workload = fault
level = zero
passes = 2
EOF
	run "$VMR" run "$T_TMP/swap.ini" --db "$DB" --json --quiet
	if [ "$RC" = 3 ]; then
		skip "monitor series of a swapping case" "cannot build a sandbox here: $(tail -1 <<< "$ERR" | cut -c1-160)"
	else
		expect_rc "swapping case runs" 0
		res=$(jq '.cases[0].results[0]' <<< "$OUT")
		series=$(jq '[.series[] | select(.name == "vmstat.pswpout") | .v[]] | add // 0' <<< "$res")
		delta=$(jq '[.metrics[] | select(.name == "vmstat-pswpout") | .value][0] // 0' <<< "$res")
		if awk -v s="$series" -v d="$delta" 'BEGIN { exit !(s > 0 && s <= d && s >= 0.9 * d) }'; then
			ok "monitor pswpout series sums to /proc/vmstat's pswpout ($series of $delta)"
		else
			not_ok "monitor pswpout $series vs /proc/vmstat $delta"
		fi
	fi
fi
done_testing
