# Iterations chosen by precision and the variance options: --iterations auto
# stops on precision for a low-variance workload and on the budget for one
# that never converges, with the stop reason and the precision reached
# stored in the run (show prints them); with variants every variant runs as
# many iterations (whole blocks); warm-up iterations are stored as skipped
# and not counted; --cpu pins the workload; each option is stored with the
# run and shown by compare's environment diff; bad input is one line, exit 2.
. "$(dirname "$0")/lib.sh"

DB=$T_TMP/p.db
cat > "$T_TMP/spin.ini" <<'EOF2'
[global]
no-sandbox = yes
no-monitor = yes

[spin]
workload = null
spin = 20ms
EOF2
# a spin of 2-42 ms, uniform: a CV near 50%, never within 1% in seconds
sed 's/^spin = 20ms/spin = 2ms\njitter = 40ms/' "$T_TMP/spin.ini" > "$T_TMP/noisy.ini"
# iterations = auto in the suite file itself
sed 's/^no-sandbox = yes/no-sandbox = yes\niterations = auto\nprecision = 10%\nbudget = 60s/' "$T_TMP/spin.ini" \
	> "$T_TMP/auto.ini"

sql() {
	local out
	out=$(sqlite3 "$1" "$2") || return 1
	[ -n "$out" ] || return 1
	printf '%s\n' "$out"
}
# env RUN PATH: a value of the stored environment of run RUN (a name)
env_of() { sql "$DB" "SELECT json_extract(env, '\$.$2') FROM runs WHERE name = '$1'"; }
counted() { sql "$DB" "SELECT COUNT(*) FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON
		       c.run_id = r.id WHERE r.name = '$1' AND i.outcome = '${2:-pass}'"; }

# --- bad input -------------------------------------------------------------
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --iterations auto --precision 2
expect_rc "--precision 2: refused (200%?)" 2
expect_err "--precision 2: says how to write it" "^vmregress: precision 2: not a fraction of the mean \(2% or 0.02\)$"
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --precision 2%
expect_rc "--precision without --iterations auto: refused" 2
expect_err "--precision without auto: says to add it" "add --iterations auto"
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --cpu 4096
expect_rc "--cpu of a CPU not here: refused" 2
expect_err "--cpu 4096: names the CPU list" "^vmregress: cpu 4096: "
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --cpu 0-x
expect_rc "--cpu 0-x: refused" 2
printf '[global]\nno-sandbox = yes\n[spin]\nworkload = null\niterations = auto\n' > "$T_TMP/bad.ini"
run "$VMR" run "$T_TMP/bad.ini" --db "$DB"
expect_rc "iterations = auto in a case: refused" 2
expect_err "iterations = auto in a case: the whole run's" "whole run's"
# (a store that was never made holds nothing; one that was must be read)
if [ -e "$DB" ]; then
	run sqlite3 "$DB" "SELECT COUNT(*) FROM runs"
	expect_out "bad input stored no run" '^0$'
else
	ok "bad input stored nothing: no store was made"
fi

# --- stops on precision ------------------------------------------------------
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name prec -q --iterations auto --precision 10% --budget 60s
expect_rc "auto on null --spin: runs" 0
stop=$(env_of prec 'iterations_auto.spin')
check "auto on null --spin: stopped on precision ($stop)" grep -qE '^precision after [0-9]+ iterations$' <<< "$stop"
reached=$(env_of prec 'iterations_auto_reached."spin.time"')
check "the precision reached is stored, within 10% ($reached)" \
	awk -v p="$reached" 'BEGIN { exit !(p ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ && p + 0 <= 0.10) }'
n=$(counted prec)
check "at least 3 iterations ($n), as many as the reason says" grep -q "after $n iterations" <<< "$stop"
run "$VMR" show prec --db "$DB" --all
expect_out "show prints why it stopped" "iterations_auto\.spin +precision after $n iterations"
expect_out "show prints the precision reached" "iterations_auto_reached\.spin\.time +[0-9.e-]+$"
expect_out "... and the precision asked for as written, not JSON's round trip" "^  iterations_auto\.precision +0\.1$"

# --- stops on the effect (--effect): as `vmregress plan` counts -------------
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --iterations auto --effect 10% --precision 5%
expect_rc "--effect and --precision: refused" 2
expect_err "... two rules, one line" "^vmregress: --precision and --effect: two rules for when to stop; give one$"
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --iterations auto --effect 10
expect_rc "--effect 10: refused" 2
expect_err "--effect 10: says how to write it" "^vmregress: effect 10: not a fraction of the mean \(5% or 0.05\)$"
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --effect 10%
expect_rc "--effect without --iterations auto: refused" 2
# a steady spin: blocks of two alike variants show a 10% change at once
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name eff -q --variant a: --variant b: --iterations auto --effect 10% \
	--budget 60s
expect_rc "auto --effect on two variants of a steady spin: runs" 0
stop=$(env_of eff-b 'iterations_auto.spin')
check "... stopped on the effect ($stop)" grep -qE '^effect after [0-9]+ iterations$' <<< "$stop"
check "... which is stored" [ "$(env_of eff-b 'iterations_auto.effect')" = 0.1 ]
# a spin of 2-42 ms: a 10% change needs hundreds of blocks, the budget ends it
run "$VMR" run "$T_TMP/noisy.ini" --db "$DB" --name effnoisy -q --variant a: --variant b: --iterations auto \
	--effect 10% --budget 3s
expect_rc "auto --effect on a noisy spin: runs" 0
stop=$(env_of effnoisy-b 'iterations_auto.spin')
check "... stopped by the budget, not the effect ($stop)" grep -qE '^budget after [0-9]+ iterations$' <<< "$stop"

# --- stops on the budget -----------------------------------------------------
t0=$(date +%s)
run "$VMR" run "$T_TMP/noisy.ini" --db "$DB" --name budget -q --iterations auto --precision 1% --budget 3s
t1=$(date +%s)
expect_rc "auto on a noisy null: runs" 0
stop=$(env_of budget 'iterations_auto.spin')
check "a noisy null stops on the budget ($stop)" grep -qE '^budget after [0-9]+ iterations$' <<< "$stop"
check "within about its budget (3s; took $((t1 - t0))s)" test $((t1 - t0)) -le 12
reached=$(env_of budget 'iterations_auto_reached."spin.time"')
check "and the precision reached is above 1% ($reached)" awk -v p="$reached" 'BEGIN { exit !(p + 0 > 0.01) }'
# the budget never cuts below the minimum: iterations of 0.4-1.4 s, a 1 s budget
sed 's/^spin = 20ms/spin = 400ms\njitter = 1s/' "$T_TMP/spin.ini" > "$T_TMP/slow.ini"
run "$VMR" run "$T_TMP/slow.ini" --db "$DB" --name min -q --iterations auto --precision 1% --budget 1s
check "the minimum of 3 iterations runs whatever the budget ($(counted min))" \
	test "$(env_of min 'iterations_auto.spin')" = "budget after 3 iterations" -a "$(counted min)" = 3

# what a case does not need of its share goes to the cases after it: a
# quiet spin that is soon within 10%, then one of 20-220 ms that is not
# within 4 s.  An even split of the 4 s gives the second at most 2 s, so
# the run ends within about 2 s of the first case's time; with the
# rollover the second runs until one more block would pass what the
# first left, so the run takes nearly the 4 s.  Wall time, not the
# iterations' own: a slow build (ASan) spends much of it starting them.
{ cat "$T_TMP/spin.ini"; printf '\n[noisy]\nworkload = null\nspin = 20ms\njitter = 200ms\n'; } > "$T_TMP/two.ini"
t0=$(date +%s%N)
run "$VMR" run "$T_TMP/two.ini" --db "$DB" --name roll -q --iterations auto --precision 10% --budget 4s
t1=$(date +%s%N)
expect_rc "auto over a quiet and a noisy case: runs" 0
quiet=$(env_of roll 'iterations_auto.spin') noisy=$(env_of roll 'iterations_auto.noisy')
wall=$(( (t1 - t0) / 1000000 ))
check "the noisy case had the quiet one's unused share (the run took $wall ms of 4 s; quiet: $quiet; noisy: $noisy)" \
	test "$wall" -ge 3000 -a -n "$noisy"

# --- in a suite file -----------------------------------------------------------
run "$VMR" run "$T_TMP/auto.ini" --db "$DB" --name file -q
expect_rc "iterations = auto in [global]: runs" 0
check "a suite file's auto stops on its precision" grep -qE '^precision after' <<< "$(env_of file 'iterations_auto.spin')"
check "a suite file's precision is stored" test "$(env_of file 'iterations_auto.precision')" = 0.1

# --- with variants: whole blocks ----------------------------------------------
run "$VMR" run "$T_TMP/noisy.ini" --db "$DB" --name grp -q --iterations auto --precision 1% --budget 3s \
	--variant a: --variant b:spin=3ms
expect_rc "auto with variants: runs" 0
na=$(counted grp-a) nb=$(counted grp-b)
check "every variant ran as many iterations ($na, $nb)" test -n "$na" -a "$na" = "$nb" -a "${na:-0}" -ge 3
check "each variant's run has its reason" grep -q "after $na iterations" <<< "$(env_of grp-b 'iterations_auto.spin')"

# --- warm-up ---------------------------------------------------------------------
run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name warm -q -n 3 --warmup 2 --no-probe
expect_rc "--warmup 2 -n 3: runs" 0
check "3 iterations counted" test "$(counted warm)" = 3
check "2 warm-up iterations stored as skipped" test "$(counted warm skip)" = 2
run sql "$DB" "SELECT i.iteration || ':' || i.reason FROM iterations i JOIN cases c ON i.case_id = c.id
	       JOIN runs r ON c.run_id = r.id WHERE r.name = 'warm' AND i.outcome = 'skip' ORDER BY i.iteration"
check "the warm-ups are the first two, saying so" test "$OUT" = "0:warm-up iteration, not counted
1:warm-up iteration, not counted"
run "$VMR" compare --db "$DB" warm warm --json
expect_json_is "compare counts only the counted iterations" \
	'[.rows[] | select(.metric == "time") | .runs[0].n][0]' 3

# --- --cpu ---------------------------------------------------------------------------
ncpu=$(nproc)
if [ "$ncpu" -lt 2 ]; then
	skip "--cpu pins the workload" "one CPU here"
else
	run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name pinned -q -n 2 --cpu 0
	expect_rc "--cpu 0: runs" 0
	run sql "$DB" "SELECT DISTINCT json_extract(i.result, '\$.info.cpus') FROM iterations i JOIN cases c ON
		       i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.name = 'pinned'"
	check "--cpu 0: the workload could run on 1 CPU (${OUT:-none})" test "${OUT:-}" = 1
	run "$VMR" run "$T_TMP/spin.ini" --db "$DB" --name free -q -n 2
	run sql "$DB" "SELECT DISTINCT json_extract(i.result, '\$.info.cpus') FROM iterations i JOIN cases c ON
		       i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.name = 'free'"
	check "without --cpu: on all $ncpu (${OUT:-none})" test "${OUT:-}" = "$ncpu"
	# the environment diff shows each option
	run "$VMR" compare --db "$DB" free pinned --all
	expect_out "compare's environment diff shows --cpu" "case\.spin\.cpu +- +0"
	run "$VMR" compare --db "$DB" free warm --all
	expect_out "compare's environment diff shows --warmup" "case\.spin\.warmup +- +2"
	run "$VMR" compare --db "$DB" free prec --all
	expect_out "compare's environment diff shows the precision rule" "iterations_auto\.precision +- +0\.1"
fi
done_testing
