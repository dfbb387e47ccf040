# Interleaved runs of variants: the order is exactly ABBA for two and three
# variants; a seeded random order is stored, reproducible and balanced; each
# variant's knobs are in force during its own iterations (read back from the
# sandbox echo stored with every iteration) and restored after; workload and
# sandbox options differ per variant; each variant is a run of its own in one
# group, which list shows and compare and report take whole; groups and the
# order survive push and pull to another SQLite store and to PostgreSQL; a
# bad variant is a one-line error naming it, exit 2, nothing stored; a run of
# one configuration stores as it did.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

if ! is_root; then
	skip "interleaved variants" "needs root (sandboxes and knobs)"
	done_testing; exit 0
fi

DB=$T_TMP/v.db
cat > "$T_TMP/v.ini" <<'EOF'
[global]
iterations = 2
mem = 32M
swap = file:64M
timeout = 60s
no-monitor = yes
no-probe = yes

[null]
workload = null
spin = 1ms

[fault]
workload = fault
size = 40M
passes = 1
EOF
# the same without the case that swaps, for runs of many iterations
sed '/^\[fault\]/,$d' "$T_TMP/v.ini" > "$T_TMP/n.ini"

# sql DB QUERY: one row a line, '|' between columns; fails on no output
sql() {
	local out
	out=$(sqlite3 "$1" "$2") || return 1
	[ -n "$out" ] || return 1
	printf '%s\n' "$out"
}
# order GROUP CASE: the variants of a case's iterations in the order they ran
order() {
	sql "$DB" "SELECT r.variant FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id
		   WHERE r.group_name = '$1' AND c.name = '$2' ORDER BY i.seq" | tr '\n' ' ' | sed 's/ $//'
}
# knobs GROUP CASE KNOB: variant:value:set of a knob per iteration, in order
knobs() {
	sql "$DB" "SELECT r.variant || ':' || json_extract(i.result, '$.info.sandbox.knobs.\"$3\".value') ||
		   ':' || json_extract(i.result, '$.info.sandbox.knobs.\"$3\".set')
		   FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id
		   WHERE r.group_name = '$1' AND c.name = '$2' ORDER BY i.seq" | tr '\n' ' ' | sed 's/ $//'
}

# --- bad input: one line naming it, exit 2, nothing stored ----------------
bad() { # bad NAME REGEX ARGS...
	local name=$1 re=$2
	shift 2
	run "$VMR" run "$T_TMP/v.ini" --db "$T_TMP/bad.db" --quiet "$@"
	if [ "$RC" = 2 ] && one_line_err && grep -qE -- "$re" <<< "$ERR"; then ok "$name"
	else not_ok "$name (exit $RC; stderr: ${ERR:0:300})"; fi
}
bad "a variant without a colon is refused, named" "^vmregress: --variant: 'pc0' is not NAME:SETTINGS" \
	--variant pc0 --variant b:
bad "a setting without = is refused, named" "^vmregress: --variant b: 'vm.page-cluster' is not KEY=VALUE" \
	--variant a: --variant b:vm.page-cluster
bad "an unknown setting is refused, named" "^vmregress: --variant b: frob: not a knob" \
	--variant a: --variant b:frob=1
bad "a bad knob value is refused, named" "^vmregress: --variant b: mem: '12Q' is not a size" \
	--variant a: --variant b:mem=12Q
bad "a workload option of no case is refused" "^vmregress: --variant b: mmap.pages: 'mmap' is neither a case" \
	--variant a: --variant b:mmap.pages=10
bad "one variant alone is refused" "one variant alone compares with nothing" --variant a:
bad "two variants of one name are refused" "variant name 'a' is given twice" --variant a: --variant a:mem=48M
bad "a bad order is refused" "^vmregress: --order: 'sideways'" --variant a: --variant b: --order sideways
bad "--seed without the random order is refused" "^vmregress: --seed: only the random order has a seed" \
	--variant a: --variant b: --seed 3
bad "--order without variants is refused" "^vmregress: --order: only a run of several variants" --order random
[ ! -e "$T_TMP/bad.db" ] || [ "$("$VMR" list --db "$T_TMP/bad.db" --json | jq length)" = 0 ] &&
	ok "bad variants store nothing" || not_ok "bad variants stored runs"
printf '[variants]\na =\nb = vm.page-cluster=0,\n[x]\nworkload = null\n' > "$T_TMP/badv.ini"
run "$VMR" run "$T_TMP/badv.ini" --db "$T_TMP/bad.db" --quiet
WANT_RC=2; [ "$RC" = 2 ] && one_line_err && expect_err "a bad [variants] line is named by FILE:LINE" \
	"badv.ini:3: variant b: a setting is missing" || not_ok "bad [variants]: exit $RC: $ERR"

# --- two variants, ABBA: knobs in force per variant, restored after -------
# vm.vfs_cache_pressure: a knob other tests on this host are unlikely to be
# setting at the same time (the base variant does not lock the knobs)
KNOB=vm.vfs_cache_pressure KNOBF=/proc/sys/vm/vfs_cache_pressure
K_BEFORE=$(cat "$KNOBF")
K=$(( K_BEFORE == 137 ? 138 : 137 ))
run "$VMR" run "$T_TMP/v.ini" --db "$DB" --name g2 --variant a: --variant "pc:$KNOB=$K" -n 3
expect_rc "a run of two variants" 0
expect_out "it names the group and how to compare it" "^Compare them with: vmregress compare g2$"
if [ "$(cat "$KNOBF")" = "$K_BEFORE" ]; then
	ok "$KNOB is restored after the run"
elif "$VMR" sandbox status --json | jq -e --arg k "$KNOB" '[.journals[] | select(.owner_alive) | .changes[] |
		select(.what == "knob" and .path == $k)] | length > 0' >/dev/null; then
	skip "$KNOB is restored after the run" "another live sandbox sets it now"
else
	not_ok "$KNOB is $(cat "$KNOBF") after the run, was $K_BEFORE"
fi
got=$(order g2 null)
[ "$got" = "a pc pc a a pc" ] && ok "two variants run ABBA: a pc pc a a pc" || not_ok "two-variant order: '$got'"
got=$(order g2 fault)
[ "$got" = "a pc pc a a pc" ] && ok "every case runs ABBA" || not_ok "fault order: '$got'"
seqs=$(sql "$DB" "SELECT group_concat(seq, ' ') FROM (SELECT i.seq FROM iterations i JOIN cases c ON i.case_id = c.id
	JOIN runs r ON c.run_id = r.id WHERE r.group_name = 'g2' ORDER BY i.seq)")
[ "$seqs" = "0 1 2 3 4 5 6 7 8 9 10 11" ] && ok "every iteration has its place in one sequence over the group" ||
	not_ok "sequence numbers: '$seqs'"
got=$(knobs g2 fault "$KNOB")
want="a:$K_BEFORE:0 pc:$K:1 pc:$K:1 a:$K_BEFORE:0 a:$K_BEFORE:0 pc:$K:1"
[ "$got" = "$want" ] && ok "each variant's iterations ran with its own $KNOB" ||
	not_ok "knobs in force: '$got', want '$want'"
run "$VMR" show g2-pc --db "$DB" --json
[ "$RC" = 0 ] && [ "$(jq -c '[.run.group.name, .run.group.variant, .run.group.index, .cases[0].sequence]' <<< "$OUT")" = \
	'["g2","pc",1,[[1,1],[2,2],[3,5]]]' ] && ok "show --json names the group, the variant and when each iteration ran" ||
	not_ok "show --json: $(jq -c '[.run.group, .cases[0].sequence]' <<< "$OUT" 2>&1 | head -c 300)"
run "$VMR" list --db "$DB"
[ "$RC" = 0 ] && grep -qE "^[0-9]+ +g2-a .* g2:a\* +complete " <<< "$OUT" && grep -qE "^[0-9]+ +g2-pc .* g2:pc +complete " <<< "$OUT" &&
	ok "list shows each run's group and variant, the base starred" || not_ok "list: ${OUT:0:400}"

# --- compare and report take a group ---------------------------------------
for spec in g2 last-group; do
	run "$VMR" compare "$spec" --db "$DB" --format json
	[ "$RC" = 0 ] && [ -n "$OUT" ] && jq -e . <<< "$OUT" >/dev/null && grep -q '"g2-a"' <<< "$OUT" &&
		grep -q '"g2-pc"' <<< "$OUT" &&
		ok "compare $spec compares the group's runs" || not_ok "compare $spec: exit $RC: ${ERR:0:200} ${OUT:0:200}"
done
run "$VMR" compare g2 --db "$DB" --format json
first=$(jq -r '[.runs[] | .name // .label] | join(",")' <<< "$OUT" 2>/dev/null)
[ "$RC" = 0 ] && [ "$first" = g2-a,g2-pc ] && ok "the first variant is the base" || not_ok "compare g2: runs are '$first'"
run "$VMR" report g2 --db "$DB" -o "$T_TMP/rep" --no-graphs
[ "$RC" = 0 ] && [ -s "$T_TMP/rep/index.html" ] && grep -q g2-pc "$T_TMP/rep/index.html" &&
	ok "report GROUP -o DIR reports the group" || not_ok "report g2: exit $RC: $ERR"
run "$VMR" compare nosuch --db "$DB"
WANT_RC=2; [ "$RC" = 2 ] && one_line_err && expect_err "compare of an unknown name says so" "nosuch: no such run" ||
	not_ok "compare nosuch: exit $RC: $ERR"
run "$VMR" compare last-group --db "$T_TMP/nogroups.db"
[ "$RC" = 2 ] && one_line_err && ok "compare last-group without a store is one error" || not_ok "no store: $RC $ERR"

# --- three variants: ABBA, workload and sandbox options per variant --------
run "$VMR" run "$T_TMP/v.ini" --db "$DB" --name g3 --quiet -n 2 --variant a: --variant b:fault.passes=2 \
	--variant c:mem=48M
expect_rc "a run of three variants" 0
got=$(order g3 fault)
[ "$got" = "a b c c b a" ] && ok "three variants run ABBA: a b c c b a" || not_ok "three-variant order: '$got'"
got=$(sql "$DB" "SELECT group_concat(v, ' ') FROM (SELECT r.variant || ':' || json_extract(c.options, '$.options.passes') ||
	':' || json_extract(c.options, '$.sandbox.mem') AS v FROM cases c JOIN runs r ON c.run_id = r.id
	WHERE r.group_name = 'g3' AND c.name = 'fault' ORDER BY r.variant_index)")
[ "$got" = "a:1:33554432 b:2:33554432 c:1:50331648" ] && ok "workload and sandbox options are each variant's own" ||
	not_ok "options per variant: '$got'"
got=$(sql "$DB" "SELECT group_concat(v, ' ') FROM (SELECT DISTINCT r.variant || ':' ||
	json_extract(i.result, '$.info.sandbox.limit_bytes') AS v FROM iterations i JOIN cases c ON i.case_id = c.id
	JOIN runs r ON c.run_id = r.id WHERE r.group_name = 'g3' ORDER BY r.variant_index)")
[ "$got" = "a:33554432 b:33554432 c:50331648" ] && ok "each variant's iterations ran in its own sandbox's limit" ||
	not_ok "limits in force: '$got'"

# --- a seeded random order: stored, reproducible, balanced ----------------
for g in r1 r2; do
	"$VMR" run "$T_TMP/n.ini" --db "$DB" --name "$g" --quiet -n 6 --order random --seed 7 --variant a: \
		--variant b:spin=2ms --variant c: >/dev/null 2>"$T_TMP/err.$g" || not_ok "random run $g: $(cat "$T_TMP/err.$g")"
done
o1=$(order r1 null) o2=$(order r2 null)
[ -n "$o1" ] && [ "$o1" = "$o2" ] && ok "the same seed gives the same order ($o1)" || not_ok "seeded orders: '$o1' / '$o2'"
[ "$o1" != "a b c c b a a b c c b a a b c c b a" ] && ok "a random order is not ABBA" || not_ok "random order is ABBA"
bal=yes
read -ra w <<< "$o1"
for ((b = 0; b < 6; b++)); do
	[ "$(printf '%s\n' "${w[@]:$((b * 3)):3}" | sort | tr '\n' ' ')" = "a b c " ] || bal=no
done
[ "${#w[@]}" = 18 ] && [ "$bal" = yes ] && ok "every block of three holds each variant once" || not_ok "unbalanced: '$o1'"
plan=$(sql "$DB" "SELECT DISTINCT group_plan FROM runs WHERE group_name = 'r1'")
[ "$(jq -c '[.order, .seed, [.variants[].name], .variants[1].settings]' <<< "$plan")" = '["random",7,["a","b","c"],"spin=2ms"]' ] &&
	ok "the order, its seed and the variants are stored with the group" || not_ok "plan: $plan"
run "$VMR" run "$T_TMP/n.ini" --db "$DB" --name r3 --quiet -n 1 --order random --variant a: --variant b:
seed=$(sql "$DB" "SELECT DISTINCT json_extract(group_plan, '$.seed') FROM runs WHERE group_name = 'r3'")
[ "$RC" = 0 ] && [[ "$seed" =~ ^[0-9]+$ ]] && ok "a seed not given is drawn and stored ($seed)" || not_ok "drawn seed: '$seed'"

# --- variants from the suite file ------------------------------------------
{ cat "$T_TMP/v.ini"; printf '\n[variants]\nbase =\nfew = fault.passes=2\n'; } > "$T_TMP/vf.ini"
run "$VMR" run "$T_TMP/vf.ini" --db "$DB" --name f1 --quiet -n 1
got=$(order f1 fault)
[ "$RC" = 0 ] && [ "$got" = "base few" ] && ok "a suite's [variants] run interleaved" || not_ok "[variants]: exit $RC, '$got': $ERR"
run "$VMR" run "$T_TMP/vf.ini" --db "$DB" --name f2 --quiet -n 1 --variant x: --variant y:
got=$(order f2 null)
[ "$RC" = 0 ] && [ "$got" = "x y" ] && ok "--variant replaces the suite's [variants]" || not_ok "override: '$got'"
run "$VMR" run "$T_TMP/vf.ini" --db "$DB" --name f1 --quiet -n 1
WANT_RC=2; [ "$RC" = 2 ] && one_line_err && expect_err "a group name in use is refused" "f1: a group with this name is stored" ||
	not_ok "reused group name: exit $RC: $ERR"

# two groups named by default within one second get names of their own
printf '[global]\nno-sandbox = yes\nno-monitor = yes\nno-probe = yes\n[a]\nworkload = null\n' > "$T_TMP/bare.ini"
for i in 1 2 3; do
	"$VMR" run "$T_TMP/bare.ini" --db "$T_TMP/dflt.db" --quiet -n 1 --variant a: --variant b: 2>>"$T_TMP/dflt.err" ||
		not_ok "default-named group $i: $(cat "$T_TMP/dflt.err")"
done
got=$(sql "$T_TMP/dflt.db" "SELECT COUNT(DISTINCT group_name) || ':' || COUNT(DISTINCT group_uuid) || ':' || COUNT(*) FROM runs")
[ "$got" = "3:3:6" ] && ok "groups named by default never share a name" || not_ok "default group names: '$got'"
newest=$(sql "$T_TMP/dflt.db" "SELECT group_name FROM runs ORDER BY id DESC LIMIT 1")
run "$VMR" compare last-group --db "$T_TMP/dflt.db" --format json
[ "$RC" = 0 ] && grep -q "\"$newest-a\"" <<< "$OUT" && ok "last-group is the newest group" || not_ok "last-group: $RC $ERR"

# two machines' groups of one name, met in one store, are told apart by UUID
for m in m1 m2; do
	"$VMR" run "$T_TMP/bare.ini" --db "$T_TMP/$m.db" --name dup --quiet -n 1 --variant a: --variant b: 2>/dev/null &&
		"$VMR" push --all --db "$T_TMP/$m.db" --to "$T_TMP/fleet.db" >/dev/null || not_ok "group dup from $m"
done
run "$VMR" compare dup --db "$T_TMP/fleet.db"
WANT_RC=2; [ "$RC" = 2 ] && one_line_err && expect_err "a group name two groups have is refused" \
	"dup: more than one group has this name \(use its UUID" || not_ok "ambiguous group: exit $RC: $ERR"
uuid=$(sql "$T_TMP/m2.db" "SELECT DISTINCT group_uuid FROM runs")
run "$VMR" compare "$uuid" --db "$T_TMP/fleet.db" --format json
[ "$RC" = 0 ] && [ "$(grep -c '"dup-[ab]"' <<< "$OUT")" -ge 2 ] && ok "a group's UUID names it" || not_ok "by UUID: $RC $ERR"

# without root: a variant that needs a sandbox is refused, not run without
# its settings; one of workload options runs
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$VMR"; then
	mkdir -p "$T_TMP/nobody" && chown 65534 "$T_TMP/nobody" && chmod 755 "$T_TMP"
	printf '[a]\nworkload = null\n' > "$T_TMP/nobody/n.ini"
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T_TMP/nobody" "$VMR" "$@"; }
	run nobody run "$T_TMP/nobody/n.ini" --db "$T_TMP/nobody/r.db" --quiet --no-sandbox --variant a: \
		--variant b:vm.swappiness=10
	WANT_RC=3; [ "$RC" = 3 ] && one_line_err && expect_err "without root a variant with a knob is refused" \
		"^vmregress: --variant b: a: --set: needs root" || not_ok "nobody knob: $RC $ERR"
	run nobody run "$T_TMP/nobody/n.ini" --db "$T_TMP/nobody/r.db" --quiet --no-sandbox --variant a: --variant b:spin=1ms
	expect_rc "without root, with --no-sandbox, variants of workload options run" 0
	# One rule (sandbox_plan) for a setting given as a variant's and as the
	# case's own in the suite file: the same exit either way, with and
	# without --no-sandbox.
	for pair in "vm.swappiness=10|set|3|3" "mem=64M|mem|3|0" "timeout=5s|timeout|3|0" "swap=none|swap|3|0"; do
		IFS='|' read -r vset key want want_host <<< "$pair"
		printf '[a]\nworkload = null\n%s = %s\n' "$key" "${vset#"$key="}" > "$T_TMP/nobody/s.ini"
		[ "$key" = set ] && printf '[a]\nworkload = null\nset = %s\n' "$vset" > "$T_TMP/nobody/s.ini"
		for host in "" --no-sandbox; do
			want_rc=$want; [ -n "$host" ] && want_rc=$want_host
			run nobody run "$T_TMP/nobody/s.ini" --db "$T_TMP/nobody/r.db" --quiet -n 1 $host
			rc_file=$RC
			run nobody run "$T_TMP/nobody/n.ini" --db "$T_TMP/nobody/r.db" --quiet -n 1 $host --variant "a:$vset" \
				--variant b:
			[ "$RC" = "$rc_file" ] && [ "$RC" = "$want_rc" ] &&
				ok "without root${host:+ $host}: variant a:$vset and the suite's $key both exit $want_rc" ||
				not_ok "without root${host:+ $host}: variant a:$vset exits $RC, the suite's $key $rc_file (want $want_rc): $ERR"
		done
	done
else
	skip "variants without root" "cannot run as nobody here"
fi

# --- a run of one configuration is as it was ------------------------------
run "$VMR" run "$T_TMP/v.ini" --db "$DB" --name single --json -n 1
[ "$RC" = 0 ] && [ "$(jq -c '[has("run"), has("cases"), (.run | has("group")), (.cases | length)]' <<< "$OUT")" = \
	'[true,true,false,2]' ] && ok "run --json of one configuration has its old shape, no group" || not_ok "single --json: ${OUT:0:200}"
got=$(sql "$DB" "SELECT COUNT(*) || ':' || COUNT(i.seq) || ':' || COUNT(r.group_uuid) FROM iterations i
	JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.name = 'single'")
[ "$got" = "2:0:0" ] && ok "it stores no group and no sequence" || not_ok "single run stored: '$got'"
run "$VMR" show single --db "$DB" --json
[ "$RC" = 0 ] && [ "$(jq -c '[(.run | has("group")), (.cases[0] | has("sequence"))]' <<< "$OUT")" = '[false,false]' ] &&
	ok "show --json of it has no group keys" || not_ok "show single: ${OUT:0:200}"

# --- a results file of schema 1 takes groups after its migration --------
# made from a copy of one holding the single run, cut back to schema 1
cp "$DB" "$T_TMP/v1.db"
sqlite3 "$T_TMP/v1.db" "DELETE FROM runs WHERE group_uuid IS NOT NULL; DROP INDEX runs_group_uuid;
	DROP INDEX runs_group_name; ALTER TABLE runs DROP COLUMN group_uuid; ALTER TABLE runs DROP COLUMN group_name;
	ALTER TABLE runs DROP COLUMN variant; ALTER TABLE runs DROP COLUMN variant_index;
	ALTER TABLE runs DROP COLUMN group_plan; ALTER TABLE iterations DROP COLUMN seq;
	PRAGMA user_version = 1; UPDATE schema_version SET version = 1" || not_ok "cannot make a schema 1 file"
run "$VMR" run "$T_TMP/n.ini" --db "$T_TMP/v1.db" --name m --quiet -n 1 --variant a: --variant b:
got=$(sql "$T_TMP/v1.db" "SELECT (SELECT version FROM schema_version) || ':' || group_concat(name, ',') FROM
	(SELECT name FROM runs ORDER BY id)")
[ "$RC" = 0 ] && [ "$got" = "2:single,m-a,m-b" ] && "$VMR" compare m --db "$T_TMP/v1.db" >/dev/null &&
	ok "a schema 1 file is migrated, keeps its runs and takes a group" || not_ok "migration: exit $RC, '$got': $ERR"

# --- groups survive push and pull ---------------------------------------
# same_group GROUP DB_A DB_B: the same runs, variants, plan and order
group_rows() {
	sqlite3 "$1" "SELECT r.uuid, r.group_uuid, r.group_name, r.variant, r.variant_index, r.group_plan, c.name,
		i.iteration, i.seq FROM iterations i JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id
		WHERE r.group_name = '$2' ORDER BY i.seq"
}
OTHER=$T_TMP/other.db
run "$VMR" push --all --db "$DB" --to "sqlite:$OTHER"
expect_rc "push --all to another SQLite store" 0
a=$(group_rows "$DB" g2) b=$(group_rows "$OTHER" g2)
[ -n "$a" ] && [ "$a" = "$b" ] && ok "a pushed group keeps its runs, variants, plan and order" || not_ok "pushed group differs"
run "$VMR" compare g2 --db "$OTHER" --format json
[ "$RC" = 0 ] && grep -q '"g2-pc"' <<< "$OUT" && ok "compare GROUP works in the other store" || not_ok "compare there: $ERR"
run "$VMR" pull --all --from "$OTHER" --db "$T_TMP/back.db"
a=$(group_rows "$DB" r1) b=$(group_rows "$T_TMP/back.db" r1)
[ "$RC" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] && ok "a pulled group is the same" || not_ok "pulled group differs (exit $RC)"

. "$ROOT/tests/pg-setup"
trap 'pg_stop; rm -rf "$T_TMP"' EXIT
if ! pg_start; then
	skip "groups in PostgreSQL" "$PG_SKIP"
	done_testing; exit 0
fi
pg_psql "CREATE DATABASE vgroups OWNER fleet" >/dev/null
PGURL="postgresql://fleet:$PG_PASS@/vgroups?host=$PG_DIR"
run "$VMR" push g2-a g2-pc r1-a r1-b r1-c --db "$DB" --to "$PGURL"
expect_rc "push a group's runs to PostgreSQL" 0
run "$VMR" list --db "$PGURL" --json
[ "$RC" = 0 ] && [ "$(jq -c '[.[] | select(.group.name == "g2") | [.group.variant, .group.index]] | sort' <<< "$OUT")" = \
	'[["a",0],["pc",1]]' ] && ok "PostgreSQL lists the group" || not_ok "pg list: ${OUT:0:300}"
run "$VMR" compare g2 --db "$PGURL" --format json
[ "$RC" = 0 ] && grep -q '"g2-pc"' <<< "$OUT" && ok "compare GROUP works in PostgreSQL" || not_ok "pg compare: $ERR"
run "$VMR" pull --all --from "$PGURL" --db "$T_TMP/frompg.db"
a=$(group_rows "$DB" r1) b=$(group_rows "$T_TMP/frompg.db" r1)
[ "$RC" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] && ok "a group through PostgreSQL and back keeps its plan and order" ||
	not_ok "group through PostgreSQL differs (exit $RC: $ERR)"
done_testing
