#!/usr/bin/env bash
# vmregress lava: a test definition and a job that pass LAVA's own schema
# (lava_common, from Debian's lava-common unpacked into the cache), and a
# short suite run by LAVA's own dispatcher, lava-run, on a Debian cloud
# kernel in QEMU (lava run-local): every case arrives in the store, and in
# LAVA's results as a test case, each headline metric with its measurement.
# A guest test (tests/run-all's GUEST_TESTS): minutes under TCG.
. "$(dirname "$0")/lib.sh"
KPKG=${VMR_TEST_KERNEL:-linux-image-6.1.0-57-cloud-amd64}
DB=$T_TMP/l.db
CHECK=$(dirname "$0")/lava_check.py
cat > "$T_TMP/short.ini" <<'INI'
[global]
iterations = 1
mem = 64M
swap = file:64M
timeout = 120s
[null]
workload = null
spin = 10ms
[fault-zero]
workload = fault
level = zero
passes = 3
[bad]
workload = null
fail = yes
INI

run "$VMR" lava testdef --suite quick --fleet postgresql://lab@db/vmr
expect_out "testdef writes a Lava-Test Test Definition 1.0" "^  format: Lava-Test Test Definition 1.0$"
expect_out "its run is named after LAVA's job" "vmregress run quick .*--name lava-\\\$\\{LAVA_JOB_ID:-local\\}-quick"
expect_out "its run steps report through LAVA's helpers" "lava cases last --db /tmp/vmregress-lava.db"
expect_out "and push the run to the fleet store" "push last --db /tmp/vmregress-lava.db --to postgresql://lab@db/vmr"
cp "$T_TMP/out" "$T_TMP/testdef.yaml"
run "$VMR" lava job --kernel "$T_TMP/none" -o "$T_TMP/x.yaml"
expect_rc "a job for a kernel that is not there exits 2" 2
run "$VMR" lava job --kernel "$KPKG" --device-type beaglebone-black -o "$T_TMP/x.yaml"
expect_rc "a job for a device type vmregress does not write exits 2" 2
expect_err "and says where to look" "device type beaglebone-black: .*docs/lab.md"
run "$VMR" lava frob
expect_rc "an unknown subcommand exits 2" 2

# LAVA's REST results (the test-case fields: suite, name, result,
# measurement, unit, metadata), as a lab's server returns them for a job
cat > "$T_TMP/rest.yaml" <<'YAML'
- {job: '4711', suite: 0_vmregress-quick, name: fault-zero, result: pass, measurement: null, unit: '', metadata: {set: fault-zero}}
- {job: '4711', suite: 0_vmregress-quick, name: fault-zero.time-passes, result: pass, measurement: '1520000000.0000000000', unit: ns, metadata: {set: fault-zero}}
- {job: '4711', suite: 0_vmregress-quick, name: fault-zero.refault-rate, result: pass, measurement: '81234.5000000000', unit: pages_s, metadata: {set: fault-zero}}
- {job: '4711', suite: 0_vmregress-quick, name: mtest01, result: fail, measurement: null, unit: '', metadata: {set: mtest01}}
- {job: '4711', suite: 0_vmregress-quick, name: vmregress-run, result: pass, metadata: {reference: 'urn:uuid:0b0c5a52-39a5-4b43-9b3e-1c0f3a4c9e11'}}
- {job: '4711', suite: lava, name: job, result: pass, metadata: {}}
YAML
RDB=$T_TMP/rest.db
run "$VMR" lava import "$T_TMP/rest.yaml" --db "$RDB" --device qemu-03 --device-type qemu
expect_out "REST results import as one run" "run lava-4711 \(0b0c5a52-39a5-4b43-9b3e-1c0f3a4c9e11, 2 cases\) stored"
run "$VMR" show lava-4711 --db "$RDB" --json
expect_json_is "its cases and outcomes" '[.cases[] | "\(.name)=\(.outcomes | keys[0])"] | join(" ")' "fault-zero=pass mtest01=fail"
expect_json "the measurements are the fault workload's metrics, in its units" \
	'.cases[0].workload == "fault" and ([.cases[0].metrics[] | "\(.name):\(.unit)"] | sort) == ["refault-rate:pages/s", "time-passes:ns"]'
expect_json_is "the job and the device are in its environment" '"\(.env.lava.job_id) \(.env.lava.device) \(.run.host)"' "4711 qemu-03 qemu-03"
run "$VMR" lava import "$T_TMP/rest.yaml" --db "$RDB" --device qemu-03
expect_out "imported again: recognised by its UUID" "already in the store"
echo 'just: [words' > "$T_TMP/bad.yaml"
run "$VMR" lava import "$T_TMP/bad.yaml" --db "$RDB"
expect_rc "a file that is not YAML exits 2" 2
expect_err "naming it" "lava import: .*bad.yaml: "
echo '- {suite: lava, name: job, result: fail}' > "$T_TMP/none.yaml"
run "$VMR" lava import "$T_TMP/none.yaml" --db "$RDB"
expect_rc "results without a vmregress case exit 2" 2
expect_err "and say LAVA's verdict" "holds no vmregress test case \(LAVA's verdict on the job: fail\)"

if [ -n "${ASAN_OPTIONS:-}" ] || [ -n "${VMR_NO_GUEST:-}" ]; then
	skip "the job under lava-run" "ASan pass or VMR_NO_GUEST set (the guest runs the plain static binary)"
	done_testing
	exit
fi

if [ ! -x /usr/bin/python3 ] || ! command -v qemu-system-x86_64 > /dev/null; then
	skip "the job under lava-run" "needs /usr/bin/python3 and qemu-system-x86_64"
	done_testing
	exit
fi
run "$VMR" lava job --kernel "$KPKG" --suite "$T_TMP/short.ini" --mem 512M -o "$T_TMP/job.yaml"
if [ "$RC" != 0 ] && grep -q "apt-get" <<< "$ERR"; then
	skip "the job under lava-run" "the kernel package cannot be fetched here: ${ERR:0:200}"
	done_testing
	exit
fi
expect_out "job writes the job, its ramdisk and its disk" "job.yaml: a LAVA job for .* with .*job.ramdisk.cpio.gz and .*job.disk.img.gz"

check "the ramdisk is a gzipped newc cpio with vmregress and the suite" \
	sh -c "zcat '$T_TMP/job.ramdisk.cpio.gz' | cpio -t 2>/dev/null | grep -qx vmregress && zcat '$T_TMP/job.ramdisk.cpio.gz' | cpio -t 2>/dev/null | grep -qx suite.ini"

test -d /var/lib/lava && had_lava_dir=1 || had_lava_dir=0
start=$(date +%s)
run "$VMR" lava run-local "$T_TMP/job.yaml" --db "$DB" --keep --name lava-short
took=$(( $(date +%s) - start ))
LOG=$(sed -n 's/.*its log: \(.*\))$/\1/p' <<< "$ERR")
if [ "$RC" = 3 ] && grep -qE "lava: (lava-run needs|apt-get download|cannot run)" <<< "$ERR"; then
	skip "the job under lava-run" "$ERR"
	done_testing
	exit
fi
expect_rc "run-local runs the job under lava-run and imports it (${took}s)" 0
expect_err "lava-run itself ran it, to the end" "lava-run exited 0 after"
expect_out "the run is stored" "run lava-short \([0-9a-f-]{36}, 3 cases\) stored"
SITE=${XDG_CACHE_HOME:-$HOME/.cache}/vmregress/lava/root/usr/lib/python3/dist-packages
for f in testdef job; do
	out=$(/usr/bin/python3 "$CHECK" "$SITE" "$f" "$T_TMP/$f.yaml" 2>&1)
	if grep -q '^ok - ' <<< "$out" && ! grep -q '^not ok' <<< "$out"; then ok "the $f passes LAVA's own schema"
	else not_ok "the $f passes LAVA's own schema ($(tr '\n' ' ' <<< "$out" | cut -c1-300))"; fi
done

# LAVA's side: the test cases in lava-run's log
if [ -n "$LOG" ] && [ -s "$LOG" ]; then
	/usr/bin/python3 "$CHECK" "$SITE" results "$LOG" > "$T_TMP/cases.jsonl"
	lava_case() { jq -r "select(.definition == \"0_vmregress\" and .case == \"$1\") | $2" "$T_TMP/cases.jsonl"; }
	for c in null fault-zero; do
		[ "$(lava_case "$c" .result)" = pass ] && ok "LAVA has case $c, passed" || not_ok "LAVA has case $c, passed"
	done
	[ "$(lava_case bad .result)" = fail ] && ok "LAVA has the failed case as failed" || not_ok "LAVA has case bad, failed"
	v=$(lava_case null.time .measurement)
	[ -n "$v" ] && [ "$(lava_case null.time .units)" = ns ] && ok "LAVA has null's time as a measurement ($v ns)" \
		|| not_ok "LAVA has null's time as a measurement"
	[ -n "$(lava_case fault-zero.time-passes .measurement)" ] && ok "LAVA has fault-zero's time-passes measured" \
		|| not_ok "LAVA has fault-zero's time-passes measured"
	[ "$(lava_case null .set)" = null ] && ok "each case is a test set" || not_ok "each case is a test set"
	[ "$(jq -r 'select(.definition == "lava" and .case == "job") | .result' "$T_TMP/cases.jsonl")" = pass ] \
		&& ok "LAVA's verdict on the job is pass" || not_ok "LAVA's verdict on the job"
	grep -qE -- "--name lava-[0-9]+-short" "$LOG" && ok "on the device, the run was named after LAVA's job id" \
		|| not_ok "on the device, the run was named after LAVA's job id"
	cp "$LOG" "$T_TMP/lava-run.log"
	rm -rf "$(dirname "$LOG")"
else
	not_ok "lava-run's log is kept with --keep (stderr: ${ERR:0:300})"
fi

# vmregress's side: the store
run "$VMR" show lava-short --db "$DB" --json
expect_json_is "the stored run has every case" '[.cases[].name] | join(" ")' "null fault-zero bad"
expect_json_is "with the outcomes LAVA reported" '[.cases[] | .outcomes | keys[0]] | join(" ")' "pass pass fail"
expect_json "and the measurements as metrics of the case's workload" \
	'(.cases[] | select(.name == "fault-zero") | .workload == "fault" and ([.metrics[].name] | index("time-passes")))'
expect_json "tagged with the job, the device, the device type and the kernel" \
	'.run.tag == "lava" and .env.lava.device_type == "qemu" and .env.lava.device == "run-local" and (.env.lava.job_id | length > 0) and (.run.kernel | test("cloud-amd64"))'
uuid=$(jq -r .run.uuid <<< "$OUT")
run "$VMR" lava import "$T_TMP/lava-run.log" --db "$DB" --name lava-short
expect_out "imported again, it is recognised by its UUID" "run lava-short \($uuid, 3 cases\) already in the store"
run "$VMR" list --db "$DB" --json
expect_json_is "and stored once" 'length' 1
if [ "$had_lava_dir" = 0 ]; then
	check "lava-run left nothing in /var/lib/lava" test ! -e /var/lib/lava
fi
check "nor a work directory" sh -c "! ls -d ${TMPDIR:-/tmp}/vmregress-lava.* 2>/dev/null | grep -q ."
done_testing
