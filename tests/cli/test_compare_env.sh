#!/usr/bin/env bash
# compare says first when the runs' hosts differed in a way that is no
# setting under test: here, another vmregress sandbox pressing on the host
# while one of the runs measured.
. "$(dirname "$0")/lib.sh"
if ! is_root; then skip "another sandbox is flagged" "needs root to build a sandbox"; done_testing; exit 0; fi
DB=$T_TMP/e.db
printf '[a]\nworkload = null\nspin = 1ms\nno-monitor = yes\nno-probe = yes\n' > "$T_TMP/s.ini"
run "$VMR" run "$T_TMP/s.ini" --db "$DB" --quiet --name alone -n 3
expect_rc "a run with no other sandbox" 0
"$VMR" sandbox exec --mem 32M --swap none -- sleep 30 > /dev/null 2>&1 &
other=$!
for _ in $(seq 100); do
	"$VMR" sandbox status --json 2>/dev/null | jq -e --argjson p "$other" '.journals[] | select(.owner_pid == $p)' >/dev/null && break
	sleep 0.1
done
run "$VMR" run "$T_TMP/s.ini" --db "$DB" --quiet --name beside -n 3
expect_rc "a run beside another sandbox" 0
kill "$other" 2>/dev/null; wait "$other" 2>/dev/null
run "$VMR" show beside --db "$DB" --json
expect_json "the run records the other sandbox" '.env.other_sandboxes >= 1'
run "$VMR" show alone --db "$DB" --json
alone=$(jq -r '.env.other_sandboxes' <<< "$OUT")
run "$VMR" compare alone beside --db "$DB"
expect_rc "compare exits 0" 0
if [ "$alone" = 0 ]; then
	expect_out "the verdict's first lines say another sandbox was active" '^  other_sandboxes: 0 \| [1-9]'
	# the verdict, the environment's header, then its flags (others may
	# differ too on a busy machine: anonymous THP, the load)
	h=$(grep -n '^Environment differs' <<< "$OUT" | head -1 | cut -d: -f1)
	block=$(awk -v h="${h:-0}" 'NR > h && h > 0 { if (!/^  /) exit; print }' <<< "$OUT")
	c=$(grep -c '^Caution: ' <<< "$OUT")
	[ "${h:-9}" -le $((2 + c)) ] && grep -q '^  other_sandboxes:' <<< "$block" \
		&& ok "among the environment's flags right after the verdict (header at line $h)" \
		|| not_ok "among the environment's flags right after the verdict (header at line ${h:-none}): $(head -6 <<< "$OUT")"
else
	skip "the verdict's first lines say another sandbox was active" "another vmregress had a sandbox during the first run too"
fi
run "$VMR" compare alone beside --db "$DB" --json
if [ "$alone" = 0 ]; then
	expect_json "and JSON carries the flag" '[.verdict.env_flags[] | select(test("other_sandboxes"))] | length == 1'
else
	skip "and JSON carries the flag" "another vmregress had a sandbox during the first run too"
fi
done_testing
