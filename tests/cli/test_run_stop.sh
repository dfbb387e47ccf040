# A run stopped by SIGINT (Ctrl-C) or SIGTERM says, in two lines on
# stderr, what it stored (the run or group, the iterations each kept, as
# interrupted) and the exact `vmregress compare` command, which runs.
. "$(dirname "$0")/lib.sh"
if ! is_root; then
	skip "a stopped run says what it stored" "needs root for the sandboxes"
	done_testing; exit 0
fi
DB=$T_TMP/stop.db
printf '[global]\nswap = none\nmem = 32M\n[null]\nworkload = null\nspin = 150ms\n' > "$T_TMP/slow.ini"
run "$VMR" run "$T_TMP/slow.ini" --db "$DB" --name earlier -n 3 --quiet
expect_rc "an earlier run of the suite" 0

# stop SIG WANT_ITER ARGS...: start a run, send SIG once its progress shows
# iteration WANT_ITER begun (so some are stored), and wait for it.
stop() {
	local sig=$1 want=$2; shift 2
	"$VMR" run "$T_TMP/slow.ini" --db "$DB" "$@" > "$T_TMP/out" 2> "$T_TMP/err" & local pid=$!
	for _ in $(seq 600); do
		grep -q "iteration $want/" "$T_TMP/err" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -"$sig" "$pid"
	RC=0
	wait "$pid" || RC=$?
	ERR=$(cat "$T_TMP/err")
}

stop INT 3 -n 40
[ "$RC" = 130 ] && ok "SIGINT: it dies of the signal (exit 130)" || not_ok "SIGINT: it dies of the signal (exit $RC)"
line1=$(grep '^vmregress: stopped:' <<< "$ERR")
line2=$(grep '^vmregress: compare it' <<< "$ERR")
re='^vmregress: stopped: run (slow-[0-9]{8}-[0-9]{6}-[0-9]+) is stored as interrupted, with ([0-9]+) iterations? kept$'
if [[ $line1 =~ $re ]]; then
	ok "it says which run it stored and the iterations kept"
	name=${BASH_REMATCH[1]} kept=${BASH_REMATCH[2]}
else not_ok "it says which run it stored and the iterations kept (stderr: $(tail -n 3 <<< "$ERR"))"; name= kept=; fi
[ "$(grep -c '^vmregress: \(stopped\|compare\)' <<< "$ERR")" = 2 ] && ok "in two lines" || not_ok "in two lines: $ERR"
run "$VMR" show "$name" --db "$DB" --json
n=$(jq '[.cases[].iterations | length] | add' <<< "$OUT" 2>/dev/null)
[ -n "$kept" ] && [ "$n" = "$kept" ] && [ "$kept" -ge 2 ] && ok "as many as the store holds ($kept)" \
	|| not_ok "as many as the store holds (said ${kept:-?}, store ${n:-?})"
run "$VMR" list --db "$DB"
grep -qE "^[0-9]+ +$name .* interrupted " <<< "$OUT" && ok "the store calls it interrupted" \
	|| not_ok "the store calls it interrupted (${OUT:0:300})"
want="vmregress: compare it with the suite's last run: vmregress compare earlier $name --db $DB"
[ "$line2" = "$want" ] && ok "the compare command, with the suite's last run as base" \
	|| not_ok "the compare command (got '$line2', want '$want')"
cmd=${line2#*: vmregress compare }
run bash -c "\"\$0\" compare $cmd" "$VMR"
expect_rc "which runs" 0
expect_out "and warns that the run did not complete" "^Caution: $name did not complete"

stop TERM 4 --variant a: --variant b: -n 40
[ "$RC" = 143 ] && ok "SIGTERM on a group: it dies of the signal (exit 143)" || not_ok "SIGTERM: exit $RC"
re='^vmregress: stopped: the runs of group (slow-[0-9]{8}-[0-9]{6}-[0-9]+) are stored as interrupted, [^ ]+-a with ([0-9]+) iterations? kept, [^ ]+-b with ([0-9]+) iterations? kept$'
if [[ $(grep '^vmregress: stopped:' <<< "$ERR") =~ $re ]]; then
	ok "it names the group and each variant's iterations"
	group=${BASH_REMATCH[1]}
else not_ok "it names the group and each variant's iterations (stderr: $(tail -n 3 <<< "$ERR"))"; group=; fi
line2=$(grep '^vmregress: compare them' <<< "$ERR")
[ "$line2" = "vmregress: compare them: vmregress compare $group --db $DB" ] && ok "and compares the group" \
	|| not_ok "and compares the group (got '$line2')"
run "$VMR" compare "$group" --db "$DB"
expect_rc "which runs" 0

run "$VMR" run "$T_TMP/slow.ini" --db "$DB" -n 1 --quiet
if [ "$RC" = 0 ] && ! grep -q 'stopped' <<< "$ERR"; then ok "a run that ends by itself says nothing of it"
else not_ok "a run that ends by itself says nothing of it (exit $RC: $ERR)"; fi
done_testing
