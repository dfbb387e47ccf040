# Reading at fleet size: compare, report, show, export, plan, plot-map,
# push and lava cases of one interleaved group of about 5,000 iterations, this build
# against an older one, side by side in interleaved rounds (old new, then
# new old), with the wall time, the CPU time and the peak RSS of each, and
# their ratios (new over old: under 1 is better).  Every output must be
# byte for byte the old one's (the report's page, plot-map's SVG, and what
# push stored: each iteration's result text, in order): a command that
# fails or an output that differs stops the benchmark.  push copies the
# whole group into a fresh SQLite file, and into a fresh PostgreSQL
# database when tests/pg-setup can start a server here (else that row is
# left out).  FLEET_CMDS (a list of the names below) measures some alone.
#
# The group: a small real one (the quick suite, two variants, 3 iterations
# each; FLEET_SEED=FILE.db uses one made before) grown by bench/fleet.py to
# FLEET_ITERATIONS (300) iterations a case and variant, each a copy of a
# real iteration with seeded noise on its metrics.  The older build is
# VMR_BASE, else build/vmregress-base, else BASE_REV (default: main) built
# from git.  ROUNDS (3) rounds.
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rounds=${ROUNDS:-3}
[ -x "$VMR" ] || bench_fail "$VMR: not built (make vmregress)"

base=${VMR_BASE:-}
if [ -z "$base" ] && [ -x build/vmregress-base ]; then
	base=build/vmregress-base
elif [ -z "$base" ]; then
	rev=${BASE_REV:-main}
	mkdir "$tmp/base"
	git archive "$rev" | tar -x -C "$tmp/base"
	make -C "$tmp/base" -j2 vmregress > "$tmp/base.log" 2>&1 ||
		bench_fail "the build of $rev failed: $(tail -3 "$tmp/base.log")"
	base=$tmp/base/vmregress
fi
echo "old: $base; new: $VMR"

seed=${FLEET_SEED:-}
if [ -z "$seed" ]; then
	[ "$(id -u)" = 0 ] || { echo "fleet: skipped: the seed group is a real run (root), or give FLEET_SEED"; exit 0; }
	seed=$tmp/seed.db
	# A run another vmregress keeps waiting on the host's knobs may end
	# failed part of the way; what it stored is a real group all the same,
	# and bench/fleet.py refuses one without two runs.
	"$VMR" run quick --variant base: --variant big:swap=file:160M -n 3 --db "$seed" --name fleet --quiet ||
		echo "fleet: the seed run ended with exit $?: its stored iterations are used"
fi
bench_out python3 bench/fleet.py "$seed" "$tmp/g.db" "${FLEET_ITERATIONS:-300}"
db=$tmp/g.db
sql() { bench_out python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$db" "$1"; }
group=$(sql "SELECT group_name FROM runs WHERE group_name IS NOT NULL LIMIT 1")
run=$(sql "SELECT name FROM runs ORDER BY id LIMIT 1")

# measure TAG OUT CMD...: one run of CMD, its stdout into OUT; appends
# "elapsed cpu maxrss_kb" to $tmp/TAG.
measure() {
	local tag=$1 out=$2 rc=0; shift 2
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" > "$out" 2> "$tmp/err" || rc=$?
	[ "$rc" = 0 ] || bench_fail "'$*' exited $rc: $(tail -1 "$tmp/err")"
	[ -s "$out" ] || bench_fail "'$*' printed nothing"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >> "$tmp/$tag"
}
# same A B: the outputs must not differ
same() {
	cmp -s "$1" "$2" || bench_fail "outputs differ: $(diff "$1" "$2" | head -5)"
}
# row NAME: rows of time, CPU and RSS from $tmp/NAME.new and .old
row() {
	local name=$1 col what div unit
	for col in 1 2 3; do
		case $col in 1) what="wall s" div=1 ;; 2) what="cpu s" div=1 ;; 3) what="max RSS MB" div=1024 ;; esac
		paste -d' ' "$tmp/$name.new" "$tmp/$name.old" | awk -v c="$col" -v d="$div" -v m="$name, $what" '
			{ n[NR] = $c / d; o[NR] = $(c + 3) / d; r[NR] = o[NR] > 0 ? n[NR] / o[NR] : 0 }
			function med(a, k,   i, j, t, b) { for (i = 1; i <= k; i++) b[i] = a[i]
				for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
				return b[int((k + 1) / 2)] }
			END { lo = r[1]; hi = r[1]; for (i = 2; i <= NR; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
				printf "row\t%s\t%.2f\t%.2f\t%.3f\t%.3f-%.3f\t%d\n", m, med(n, NR), med(o, NR), med(r, NR), lo, hi, NR }'
	done
}

graphs=
command -v gnuplot > /dev/null || { graphs=--no-graphs; echo "no gnuplot: the report without graphs"; }
# the case whose maps plot-map draws: the first that has any
mapcase=$(sql "SELECT c.name FROM iterations i JOIN cases c ON c.id = i.case_id JOIN runs r ON r.id = c.run_id
	WHERE r.name = '$run' AND i.result LIKE '%\"maps\":[{%' ORDER BY c.seq LIMIT 1" || true)
cmds=(compare compare-json compare-csv report show export-json export-csv plan push lava-cases)
[ -n "$mapcase" ] && command -v gnuplot > /dev/null && cmds+=(plot-map plot-map-last)
pg=
if [ -z "${FLEET_NO_PG:-}" ] && . tests/pg-setup && pg_start; then
	trap 'pg_stop; rm -rf "$tmp"' EXIT
	pg=1
	cmds+=(push-pg)
else
	echo "push-pg: skipped: ${PG_SKIP:-FLEET_NO_PG}"
fi
[ -n "${FLEET_CMDS:-}" ] && read -r -a cmds <<< "$FLEET_CMDS"
nlast=$(sql "SELECT COUNT(*) FROM iterations i JOIN cases c ON c.id = i.case_id JOIN runs r ON r.id = c.run_id
	WHERE r.name = '$run' AND c.name = '$mapcase'")
pgdb() { # the URL of database push, made afresh
	pg_psql "DROP DATABASE IF EXISTS push" > /dev/null && pg_psql "CREATE DATABASE push" > /dev/null ||
		bench_fail "cannot make a fresh database"
	echo "postgresql://postgres@/push?host=$PG_DIR"
}
# stored OUT: append to OUT what push stored in $tmp/push.db (or the
# database push): every iteration's result text, in order
stored() {
	local q="SELECT r.uuid || ' ' || c.name || ' ' || i.iteration || ' ' || COALESCE(i.seq, -1) || ' ' ||
		i.outcome || ' ' || i.result FROM iterations i JOIN cases c ON c.id = i.case_id
		JOIN runs r ON r.id = c.run_id ORDER BY r.uuid, c.seq, i.iteration"
	if [ "$1" = pg ]; then
		PG_DB=push pg_psql "$q" | md5sum >> "$2"
	else
		bench_out python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(row[0])' "$tmp/push.db" "$q" | md5sum >> "$2"
	fi
}
args() { # args NAME OUTDIR: the command line of one measured command
	case $1 in
	plan) echo "plan suites/quick.ini --from $group --db $db" ;;
	plot-map) echo "plot-map $run:$mapcase --db $db --format svg -o -" ;;
	plot-map-last) echo "plot-map $run:$mapcase --iteration $nlast --db $db --format svg -o -" ;;
	push) echo "push --all --db $db --to $tmp/push.db" ;;
	push-pg) echo "push --all --db $db --to $(pgdb)" ;;
	compare) echo "compare $group --db $db" ;;
	compare-json) echo "compare $group --db $db --json" ;;
	compare-csv) echo "compare $group --db $db --format csv" ;;
	report) echo "report $group --db $db -o $2 --json $graphs" ;;
	show) echo "show $run --db $db" ;;
	lava-cases) echo "lava cases $run --db $db" ;;
	export-json) echo "export $group --db $db --format json" ;;
	export-csv) echo "export $group --db $db --format csv" ;;
	esac
}
one() { # one NAME SIDE BIN
	local out=$tmp/$1.$2.out dir=$tmp/$1.$2.dir
	rm -rf "$dir" "$tmp/push.db" "$tmp/push.db-wal" "$tmp/push.db-shm"
	# shellcheck disable=SC2046
	measure "$1.$2" "$out" "$3" $(args "$1" "$dir")
	case $1 in
	report) cp "$dir/index.html" "$out" ;;  # the page is the output; its path is the only difference in the JSON
	push) stored sqlite "$out" ;;
	push-pg) stored pg "$out" ;;
	esac
}
for ((i = 0; i < rounds; i++)); do
	for c in "${cmds[@]}"; do
		if ((i % 2)); then one "$c" new "$VMR"; one "$c" old "$base"; else one "$c" old "$base"; one "$c" new "$VMR"; fi
		same "$tmp/$c.old.out" "$tmp/$c.new.out"
	done
done
echo "$(sql "SELECT COUNT(*) FROM iterations") iterations; every output the same in both builds"
for c in "${cmds[@]}"; do row "$c"; done
