# --reset-between: before every iteration the sandbox's memory is reclaimed
# (v1 memory.force_empty, v2 memory.reclaim) and its own swap turned off
# and on.  Each iteration's result says what was done; the swap is on again
# for the workload (fault-zero's later passes swap in); the option is stored
# with the case and shown by compare's environment diff; as a variant only
# that variant's iterations are reset; on the host it does nothing.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "--reset-between" "needs root (a sandbox of its own)"
	done_testing; exit 0
fi
DB=$T_TMP/r.db
cat > "$T_TMP/r.ini" <<'EOF2'
[global]
mem = 32M
swap = file:64M
no-monitor = yes
no-probe = yes

[fz]
; more pages than the limit: later passes bring pages back from swap
workload = fault
level = zero
passes = 2
EOF2

sql() {
	local out
	out=$(sqlite3 "$1" "$2") || return 1
	[ -n "$out" ] || return 1
	printf '%s\n' "$out"
}
# of_run RUN JSONPATH: that value of every iteration of run RUN, one a line
of_run() { sql "$DB" "SELECT IFNULL(json_extract(i.result, '\$.$2'), 'null') FROM iterations i JOIN cases c ON
		       i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.name = '$1' ORDER BY i.iteration"; }

run "$VMR" run "$T_TMP/r.ini" --db "$DB" --name reset -q -n 3 --reset-between
expect_rc "--reset-between -n 3: runs" 0
run of_run reset info.reset_between.done
check "every iteration was reset, memory and swap (${OUT//$'\n'/; })" test "$OUT" = "memory emptied, swap off and on
memory emptied, swap off and on
memory emptied, swap off and on"
run of_run reset info.sandbox_before.usage_bytes
check "each iteration started with little charged, under 1 MiB (${OUT//$'\n'/ })" \
	awk '{ if ($1 + 0 > 1048576 || $1 == "null") bad = 1 } END { exit bad || NR != 3 }' <<< "$OUT"
run of_run reset outcome
check "every iteration passed" test "$OUT" = "pass
pass
pass"
run sql "$DB" "SELECT json_extract(m.value, '\$.value') FROM iterations i JOIN cases c ON i.case_id = c.id
	       JOIN runs r ON c.run_id = r.id, json_each(i.result, '\$.metrics') m WHERE r.name = 'reset' AND
	       json_extract(m.value, '\$.name') = 'major-faults-passes' ORDER BY i.iteration"
check "and the workload swapped in after every reset (${OUT//$'\n'/ })" \
	awk '{ if (!($1 + 0 > 0)) bad = 1 } END { exit bad || NR != 3 }' <<< "$OUT"

# the sandbox's own swap is on again for the workload: watched in /proc/swaps
# (the workload may swap to other cgroups' devices too, so its swap-ins say
# nothing); null spins 1 s three times, reset before each, the last third
# of the samples is the last iteration
printf '[global]\nmem = 32M\nswap = file:64M\n[n]\nworkload = null\nspin = 1s\n' > "$T_TMP/spin.ini"
"$VMR" run "$T_TMP/spin.ini" --db "$DB" --name watched -q -n 3 --reset-between &
pid=$!
seen=""
while kill -0 "$pid" 2>/dev/null; do
	if grep -q "/vmregress-$pid-[0-9]*-[0-9]*\.swap " /proc/swaps; then seen+=1; else seen+=0; fi
	sleep 0.1
done
wait "$pid"
check "the watched run passed" test $? = 0
tail=${seen:$((${#seen} * 2 / 3))}
check "the sandbox's swap is on in the last iteration, after resets (${tail:-no samples})" \
	grep -q 1 <<< "$tail"

run "$VMR" run "$T_TMP/r.ini" --db "$DB" --name plain -q -n 2
expect_rc "without the option: runs" 0
run of_run plain info.reset_between
check "without the option nothing is reset" test "$OUT" = "null
null"
run "$VMR" compare --db "$DB" plain reset --all
expect_out "compare's environment diff shows --reset-between" "case\.fz\.reset-between +- +true"

# as a variant: only its iterations are reset, though they share the sandbox
run "$VMR" run "$T_TMP/r.ini" --db "$DB" --name v -q -n 2 --variant a: --variant b:reset-between=yes
expect_rc "reset-between as a variant: runs" 0
run of_run v-a info.reset_between
check "the base variant is not reset" test "$OUT" = "null
null"
run of_run v-b info.reset_between.done
check "the reset variant is, every iteration" test "$OUT" = "memory emptied, swap off and on
memory emptied, swap off and on"

# a suite file may set it per case; on the host there is nothing to reset
printf '[global]\nno-sandbox = yes\n[n]\nworkload = null\nreset-between = yes\n' > "$T_TMP/host.ini"
run "$VMR" run "$T_TMP/host.ini" --db "$DB" --name host -q
expect_rc "reset-between = yes on the host: runs" 0
run of_run host info.reset_between.done
check "on the host it does nothing, and says so" test "$OUT" = "nothing: not sandboxed"
printf '[global]\nno-sandbox = yes\n[n]\nworkload = null\nreset-between = often\n' > "$T_TMP/bad.ini"
run "$VMR" run "$T_TMP/bad.ini" --db "$DB"
expect_rc "reset-between = often: refused" 2
expect_err "reset-between = often: names the line" "bad.ini:5: reset-between"
done_testing
