# The kernel's own mm selftests, built from Debian's linux-source-6.12 and
# run by the kselftest workload in the sandbox: one stored case per KTAP
# result (pass, fail, skip with its reason, xfail, its time), a failed
# test's output kept, a timeout and a crash as failures, tests that change
# the whole machine skipped on the host, and the THP knobs the tests change
# put back, also after kill -9 and `vmregress cleanup`.
. "$(dirname "$0")/sandbox-lib.bash"
if ! command -v jq >/dev/null; then skip "kselftest" "jq is not installed"; done_testing; exit 0; fi
T=/sys/kernel/mm/transparent_hugepage
case_status() { # case_status TEST CASE-NAME-REGEX: the statuses of the matching cases
	jq -r --arg t "$1" --arg c "$2" '.info.kselftest.tests[] | select(.test == $t) | .cases[] |
		select(.name | test($c)) | .status' <<< "$OUT" | sort -u | tr '\n' ' '
}

# A selftest directory of our own, for what the real tests do not do on
# demand: fail, hang, crash, change a THP knob and sleep.
FAKE=$T_TMP/fake
mkdir -p "$FAKE/mm"
cat > "$FAKE/mm/fails" <<'SH'
#!/bin/sh
echo "TAP version 13"; echo "1..3"
echo "# [RUN] first"; echo "ok 1 first passes"
echo "# the detail of what went wrong"; echo "not ok 2 second breaks"
echo "ok 3 # SKIP no such feature"
exit 1
SH
printf '#!/bin/sh\necho "1..2"; echo "ok 1 one"; sleep 60\n' > "$FAKE/mm/hangs"
printf '#!/bin/sh\necho "1..2"; echo "ok 1 one"; kill -SEGV $$\n' > "$FAKE/mm/crashes"
printf '#!/bin/sh\necho "1..0 # SKIP needs a feature"; exit 4\n' > "$FAKE/mm/skips"
printf '#!/bin/sh\necho never > %s/enabled; echo "ok 1 set"; sleep 60\n' "$T" > "$FAKE/mm/sets-thp"
chmod +x "$FAKE"/mm/*

run "$VMR" test kselftest --source "$FAKE" --tests fails,skips --mem 64M --json
expect_rc "a failing selftest fails the test (exit 1)" 1
expect_json_is "... its failed case stored as fail" '[.info.kselftest.tests[0].cases[] | .status] | join(",")' "pass,fail,skip"
expect_json_is "... the nameless skip named by its text, with its reason" \
	'.info.kselftest.tests[0].cases[2] | "\(.name)|\(.reason)"' "no such feature|no such feature"
expect_json "... its output kept for the failure" '.info.kselftest.tests[0].output | test("the detail of what went wrong")'
expect_json "... a test that skipped itself (1..0 # SKIP, exit 4) is one skip with its reason" \
	'.info.kselftest.tests[1].cases == [{"name": "skips", "status": "skip", "reason": "needs a feature", "time_ns": .info.kselftest.tests[1].cases[0].time_ns}]'
expect_json "... the counts as metrics" '[.metrics[] | select(.name | startswith("cases-")) | .value] == [1, 1, 2, 0]'
expect_json "... the outcome's reason names the case" '.reason | test("fails: second breaks")'
run "$VMR" test kselftest --source "$FAKE" --tests hangs --timeout 1s --mem 64M --json
expect_rc "a test that outlives --timeout fails" 1
expect_json "... as a 'timeout' case after its passed one" '[.info.kselftest.tests[0].cases[] | .status] == ["pass", "fail"] and (.info.kselftest.tests[0].cases[1].name == "timeout")'
run "$VMR" test kselftest --source "$FAKE" --tests crashes --mem 64M --json
expect_rc "a test that crashes fails" 1
expect_json "... as a 'crashed' case naming the signal" '.info.kselftest.tests[0].cases[1] | .name == "crashed" and (.reason | test("Segmentation"))'
run "$VMR" test kselftest --source "$FAKE" --tests "" --mem 64M
expect_rc "--tests naming nothing: exit 2" 2
run "$VMR" test kselftest --source "$T_TMP/nowhere" --mem 64M
expect_rc "selftests that are not built: exit 3" 3
expect_err "... saying how to build them" 'kselftest build --source'

# The THP knobs a selftest changes are put back: after it ends, and after
# vmregress is killed with it running (then by cleanup).  Only the THP
# knobs are compared: those are what these runs change, and another live
# vmregress (not a test holding the knob lock) may set others meanwhile.
THP_KNOBS='/sys/kernel/mm/transparent_hugepage/*'
knobs_change
before=$(knobs_snap "$THP_KNOBS")
run "$VMR" test kselftest --source "$FAKE" --tests "sets-thp" --timeout 2s --mem 64M
check "a selftest's change of thp.enabled is undone when it ends" knobs_same "$before" "$THP_KNOBS"
"$VMR" test kselftest --source "$FAKE" --tests "sets-thp" --mem 64M >/dev/null 2>&1 &
pid=$!
SB_PIDS+=("$pid")
# (it may wait for another run's knobs first)
for i in $(seq 1200); do grep -q '\[never\]' $T/enabled && break; sleep 0.05; done
kill -9 "$pid"; wait "$pid" 2>/dev/null
check "... (killed with -9 while the test has thp.enabled at never)" grep -q '\[never\]' $T/enabled
run "$VMR" cleanup
check "... and cleanup puts it back" knobs_same "$before" "$THP_KNOBS"
knobs_release

# The real selftests, from Debian's linux-source-6.12.
if ! apt-cache show --no-all-versions linux-source-6.12 >/dev/null 2>&1; then
	skip "real selftests" "Debian's registry lists no linux-source-6.12 here (apt-get update?)"
	done_testing; exit 0
fi
run "$VMR" kselftest build --source 6.12 --json
if [ "$RC" != 0 ] && grep -qE "Could not resolve|Failed to fetch|Temporary failure|Unable to connect" <<< "$ERR$(cat ~/.cache/vmregress/selftests/6.12/.work-*/fetch.log 2>/dev/null)"; then
	skip "real selftests" "Debian's registry cannot be reached: ${ERR:0:200}"
	done_testing; exit 0
fi
expect_json "kselftest build: cow, madv_populate and mremap_test built" '[.built[]] | contains(["cow", "madv_populate", "mremap_test"])'
expect_json "... statically linked, from a versioned package" '.static and (.version | length > 0) and .package == "linux-source-6.12"'
stamp=$(stat -c %Y ~/.cache/vmregress/selftests/6.12/build.json 2>/dev/null)
run "$VMR" kselftest build --source 6.12
expect_out "a second build of the same version does nothing: the build is reused" 'selftests built in'
check "... build.json untouched" [ "$stamp" = "$(stat -c %Y ~/.cache/vmregress/selftests/6.12/build.json 2>/dev/null)" ]
run "$VMR" kselftest build --source 9.99
expect_rc "a version Debian does not package: exit 2" 2
check "... and no cache directory is left for it" [ ! -e ~/.cache/vmregress/selftests/9.99 ]
run "$VMR" kselftest list --source 6.12 --json
expect_json "kselftest list shows the build" '.source == "6.12"'

knobs_change
before=$(knobs_snap "$THP_KNOBS")
run "$VMR" test kselftest --tests "madv_populate,mremap_test,cow,hugepage-mmap,nosuch" --mem 1G --swap file:256M --json
expect_rc "madv_populate, mremap_test and cow pass in the sandbox" 0
check "... and the host's THP knobs are as they were (cow changes them)" knobs_same "$before" "$THP_KNOBS"
knobs_release
expect_json "madv_populate: 16 cases, all passed" '[.info.kselftest.tests[] | select(.test == "madv_populate") | .cases[].status] | length == 16 and all(. == "pass")'
check "mremap_test: its expected failures stored as xfail" [ "$(case_status mremap_test 'Overlapping')" = "xfail " ]
expect_json "mremap_test ran with the address space's randomisation off, saying why" \
	'.info.kselftest.tests[] | select(.test == "mremap_test") | .fixed_layout | test("preamble")'
expect_json "... madv_populate with it on" '.info.kselftest.tests[] | select(.test == "madv_populate") | has("fixed_layout") | not'
expect_json "every case has a time" '[.info.kselftest.tests[].cases[]] | all(.time_ns | type == "number")'
expect_json "cow: hundreds of cases" '[.info.kselftest.tests[] | select(.test == "cow") | .cases[]] | length > 100'
expect_json "hugepage-mmap: skipped on the host, saying it runs in a guest" '.info.kselftest.tests[] | select(.test == "hugepage-mmap") | .cases[0].reason | test("--guest")'
expect_json "an unknown test: a skip, not built" '.info.kselftest.tests[] | select(.test == "nosuch") | .cases[0] | .status == "skip" and (.reason | test("not built"))'
expect_json "the version that ran is stored" '.info.kselftest.version | test("^6\\.12")'
done_testing
