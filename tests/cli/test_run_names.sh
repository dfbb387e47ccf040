# Default run names carry the second and the process (SUITE-YYYYmmdd-
# HHMMSS-PID): two runs started in the same second by two processes get
# different names, and `show NAME` finds each.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/r.db
printf '[global]\nswap = none\nmem = 32M\n[null]\nworkload = null\nspin = 1ms\n' > "$T_TMP/twin.ini"
same=
for try in 1 2 3 4 5; do
	rm -f "$DB"
	"$VMR" run "$T_TMP/twin.ini" --db "$DB" -n 1 --quiet > "$T_TMP/o1" 2> "$T_TMP/e1" & p1=$!
	"$VMR" run "$T_TMP/twin.ini" --db "$DB" -n 1 --quiet > "$T_TMP/o2" 2> "$T_TMP/e2" & p2=$!
	rc1=0 rc2=0
	wait $p1 || rc1=$?
	wait $p2 || rc2=$?
	if [ "$rc1" != 0 ] || [ "$rc2" != 0 ]; then
		not_ok "two concurrent runs (exit $rc1 and $rc2: $(head -c 300 "$T_TMP/e1" "$T_TMP/e2"))"
		done_testing; exit 0
	fi
	run "$VMR" list --db "$DB"
	names=$(awk 'NR > 1 { print $2 }' <<< "$OUT" | sort -u)
	stamps=$(sed -E 's/-[0-9]+$//' <<< "$names" | sort -u | grep -c '')
	if [ "$(grep -c '' <<< "$names")" = 2 ] && [ "$stamps" = 1 ]; then same=1; break; fi
done
n=$(grep -c 'twin-' <<< "$names")
[ "$n" = 2 ] && ok "two runs, two names: $(tr '\n' ' ' <<< "$names")" || not_ok "two runs, two names (got: $names)"
grep -qE '^twin-[0-9]{8}-[0-9]{6}-[0-9]+$' <<< "$(head -n 1 <<< "$names")" && ok "SUITE-YYYYmmdd-HHMMSS-PID" \
	|| not_ok "SUITE-YYYYmmdd-HHMMSS-PID (got: $names)"
if [ -n "$same" ]; then ok "started in the same second"; else skip "started in the same second" "not in 5 tries on this machine"; fi
for name in $names; do
	run "$VMR" show "$name" --db "$DB"
	expect_rc "show $name finds it" 0
done
done_testing
