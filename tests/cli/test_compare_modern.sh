# compare tells apart two runs whose mTHP state differed: the knob in force
# in each case's sandbox and the fingerprint's per-size settings are both
# compared key by key.
. "$(dirname "$0")/sandbox-lib.bash"
T=/sys/kernel/mm/transparent_hugepage
if ! command -v jq >/dev/null; then skip "compare mTHP" "jq is not installed"; done_testing; exit 0; fi
if [ ! -w $T/hugepages-64kB/enabled ]; then skip "compare mTHP" "no multi-size THP here"; done_testing; exit 0; fi
knobs_change
old=$(sed 's/.*\[\(.*\)\].*/\1/' $T/hugepages-64kB/enabled)
new=$([ "$old" = madvise ] && echo always || echo madvise)
cat > "$T_TMP/n.ini" <<'INI'
[global]
iterations = 1
mem = 32M
swap = none
[n]
workload = null
INI
DB=$T_TMP/r.db
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name a --quiet
expect_rc "run a exits 0" 0
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name b --quiet --set thp.64K.enabled=$new
expect_rc "run b with thp.64K.enabled=$new exits 0" 0
run "$VMR" compare a b --db "$DB" --json
expect_rc "compare a b exits 0" 0
expect_json "compare lists the 64K policy in force ($old, $new)" \
	'[.env_diff[] | select(.key | endswith("knobs.thp.64K.enabled.value")) | select(.values == [$o, $n])] | length == 1' \
	--arg o "$old" --arg n "$new"
run "$VMR" compare a a --db "$DB" --json
expect_rc "compare a a exits 0" 0
expect_json "a run against itself shows no mTHP difference" '[.env_diff[]? | select(.key | test("thp"))] | length == 0'
run "$VMR" show a --db "$DB" --json
expect_rc "show a exits 0" 0
expect_json "the stored fingerprint has the 64K policy ($old)" \
	'[.. | objects | select(has("sizes")) | .sizes["64K"].enabled] | index($o) != null' --arg o "$old"
done_testing
