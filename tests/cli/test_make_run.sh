# `make run`, the main job of the quick start: the quick suite with its
# one-screen summary.  Its output, progress and summary together, is at
# most 60 lines and ends with the totals line and where the run was stored.
# VMR_RUN_LINES lowers the limit (to see this check fail).
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export VMR_SUITE_DIR="$ROOT/suites"
limit=${VMR_RUN_LINES:-60}

recipe=$(make -C "$ROOT" -n --no-print-directory run 2>/dev/null | tail -n 1)
[ "$recipe" = "./vmregress run quick" ] && ok "make run runs the quick suite ($recipe)" \
	|| not_ok "make run runs the quick suite (its last command: ${recipe:-none})"
if ! is_root; then
	skip "the quick suite's output fits one screen" "needs root for the sandboxes"
	done_testing; exit 0
fi
# as make run does: the default store, here in a directory of its own
export XDG_DATA_HOME=$T_TMP/data
unset VMREGRESS_DB
run "$VMR" run quick
printf '%s\n%s\n' "$OUT" "$ERR" | sed '/^$/d' > "$T_TMP/all"
lines=$(grep -c '' "$T_TMP/all")
[ "$RC" = 0 ] && [ "$lines" -ge 10 ] && [ "$lines" -le "$limit" ] \
	&& ok "the quick suite's output fits one screen ($lines lines of at most $limit)" \
	|| not_ok "the quick suite's output fits one screen (exit $RC, $lines lines of at most $limit)"
last2=$(printf '%s\n' "$OUT" | tail -n 2)
grep -qE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped \(cases; [0-9]+ iterations\)$' <<< "$(head -n 1 <<< "$last2")" \
	&& grep -qE "^Stored as run [0-9]+ in .*/vmregress/results\.db$" <<< "$(tail -n 1 <<< "$last2")" \
	&& ok "it ends with the totals line and where it was stored" \
	|| not_ok "it ends with the totals line and where it was stored: $last2"
if grep -qE '[0-9]\.[0-9]+e[+-]?[0-9]+' <<< "$OUT"; then not_ok "no figure in e-notation"
else ok "no figure in e-notation"; fi
done_testing
