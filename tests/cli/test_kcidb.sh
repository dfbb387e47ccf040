#!/usr/bin/env bash
# vmregress export --format kcidb and compare --format kcidb: KCIDB I/O v5.3
# documents that pass KCIDB's schema (tests/fixtures/kcidb), for a real run
# with a passing, a failed, an erring and a skipped case, for a group, and
# for a comparison with a regression (an issue and an incident) and one
# with an improvement (none); ids stay the same from one export to the next.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/k.db
SCHEMA=$(dirname "$0")/../fixtures/kcidb/io-v5.3.schema.json
cat > "$T_TMP/k.ini" <<'INI'
[global]
no-monitor = yes
no-probe = yes
no-sandbox = yes
[spin.fast]
workload = null
spin = 2ms
warmup = 1
[bad]
workload = null
fail = yes
[err]
workload = null
error = yes
[tier]
workload = tiering
INI
cat > "$T_TMP/g.ini" <<'INI'
[global]
no-monitor = yes
no-probe = yes
no-sandbox = yes
[spin]
workload = null
spin = 2ms
INI
run "$VMR" run "$T_TMP/k.ini" --db "$DB" --quiet --name solo
expect_rc "a run with failing and skipped cases runs (and exits 1)" 1
run "$VMR" run "$T_TMP/g.ini" --db "$DB" --quiet --name g -n 5 --variant a: --variant b:spin=100ms
expect_rc "a group of two variants runs" 0

# schema_ok NAME: the last run's document passes KCIDB v5.3's schema
schema_ok() {
	if ! ran_as_expected out; then not_ok "$1 ($WHY)"; return; fi
	local got
	got=$(/usr/bin/python3 "$(dirname "$0")/kcidb_check.py" "$SCHEMA" "$T_TMP/out" 2>&1)
	if grep -q '^ok - ' <<< "$got"; then ok "$1"; else not_ok "$1 ($(tr '\n' ' ' <<< "$got" | cut -c1-400))"; fi
}
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	schema_ok() { skip "$1" "Debian's python3-jsonschema is not installed"; }
fi

uuid=$("$VMR" show solo --db "$DB" --json | jq -r .run.uuid)
run "$VMR" export solo --db "$DB" --format kcidb
expect_rc "export --format kcidb exits 0" 0
schema_ok "a run's document passes KCIDB v5.3's schema"
cp "$T_TMP/out" "$T_TMP/first.json"
expect_json_is "version 5.3" '"\(.version.major).\(.version.minor)"' 5.3
expect_json_is "one checkout, its id origin:UUID" '[.checkouts[].id] | join(" ")' "vmregress:$uuid"
expect_json_is "the build links it, with the architecture" \
	'.builds[0] | "\(.checkout_id) \(.architecture)"' "vmregress:$uuid $(uname -m)"
expect_json_is "the checkout names the kernel" '.checkouts[0].misc.kernel_release' "$(uname -r)"
expect_json_is "one test per case, by path" \
	'[.tests[] | select(.number == null) | .path] | join(" ")' "vmregress.k.spin_fast vmregress.k.bad vmregress.k.err vmregress.k.tier"
expect_json_is "a passing case (warm-up skipped) is PASS" '.tests[] | select(.path == "vmregress.k.spin_fast") | .status' PASS
expect_json_is "a failed case is FAIL with its reason" \
	'.tests[] | select(.path == "vmregress.k.bad") | "\(.status) \(.misc.reason)"' "FAIL asked to fail"
expect_json_is "an erring case is ERROR with its reason" \
	'.tests[] | select(.path == "vmregress.k.err") | "\(.status) \(.misc.reason)"' "ERROR asked to fail set-up"
expect_json "a skipped case is SKIP with its reason" \
	'.tests[] | select(.path == "vmregress.k.tier") | .status == "SKIP" and (.misc.reason | length > 0)'
expect_json "the headline metric is a DONE test, in seconds with a metric prefix" \
	'[.tests[] | select(.path == "vmregress.k.spin_fast.time")] | length == 1 and (.[0] |
	 .status == "DONE" and .number.unit == "s" and .number.prefix == "metric" and
	 .number.value > 0.0015 and .number.value < 1 and .id == "vmregress:'"$uuid"':spin.fast:time")'
expect_json "only headline metrics are tests" '[.tests[] | select(.number)] | length == 1'
expect_json "no property is null" '[.. | select(. == null)] | length == 0'
run "$VMR" export solo --db "$DB" --format kcidb
if cmp -s "$T_TMP/out" "$T_TMP/first.json"; then ok "a second export is the same document (same ids: KCIDB updates)"
else not_ok "a second export differs"; fi

run "$VMR" export solo --db "$DB" --format kcidb --origin my_lab --tree mainline \
	--git-url https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git \
	--commit 0123456789abcdef0123456789abcdef01234567 --branch master
schema_ok "with the source given, the document passes the schema"
expect_json "every id and origin is the one given" \
	'[.checkouts[], .builds[], .tests[]] | all(.origin == "my_lab" and (.id | startswith("my_lab:")))'
expect_json_is "the checkout carries tree, repository, commit and branch" \
	'.checkouts[0] | "\(.tree_name) \(.git_commit_hash) \(.git_repository_branch) \(.git_repository_url | test("^https://"))"' \
	"mainline 0123456789abcdef0123456789abcdef01234567 master true"

run "$VMR" export g --db "$DB" --format kcidb
schema_ok "a group's document passes the schema"
expect_json_is "a group: a checkout and a build per variant" '"\(.checkouts | length) \(.builds | length)"' "2 2"
expect_json_is "each variant's tests say which it is" '[.tests[].environment.misc.variant] | unique | join(" ")' "a b"

run "$VMR" compare g --db "$DB" --format kcidb --unstable 100
expect_rc "compare --format kcidb exits 0" 0
schema_ok "a comparison with a regression passes the schema"
buuid=$("$VMR" show g-b --db "$DB" --json | jq -r .run.uuid)
expect_json_is "one issue, on the code" '[.issues[] | "\(.culprit.code) \(.version)"] | join(" ")' "true 1"
expect_json "its comment gives the change and the q-value" '.issues[0].comment | test("time of spin regressed [0-9.]+%.*q = ")'
expect_json_is "one incident, linking the issue to the regressed test" \
	'[.incidents[] | "\(.test_id) \(.build_id) \(.present)"] | join(" ")' "vmregress:$buuid:spin:time vmregress:$buuid true"
expect_json "the incident names the issue" '.incidents[0].issue_id == .issues[0].id'
run "$VMR" compare g-b g-a --db "$DB" --format kcidb --unstable 100
schema_ok "a comparison with an improvement passes the schema"
expect_json_is "an improvement adds no issue and no incident" '"\(.issues | length) \(.incidents | length)"' "0 0"

run "$VMR" export solo --db "$DB" --format kcidb --origin My-Lab
expect_rc "an origin KCIDB refuses exits 2" 2
expect_err "and says what an origin may hold" "export: --origin must be .*\[a-z0-9_\]"
check "in one line" one_line_err
run "$VMR" compare g --db "$DB" --format kcidb --commit abc
expect_rc "a short commit hash exits 2" 2
expect_err "and says it must be whole" "compare: --commit must be a full commit hash"
run "$VMR" export solo --db "$DB" --format kcidb --git-url /srv/linux
expect_rc "a repository that is no URL exits 2" 2
done_testing
