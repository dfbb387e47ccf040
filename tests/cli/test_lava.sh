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
iterations = 2
mem = 64M
swap = file:64M
timeout = 120s
[null]
workload = null
spin = 10ms
[fault-zero]
workload = fault
level = zero
passes = 1
[bad]
workload = null
fail = yes
INI

run "$VMR" lava testdef --suite quick --fleet postgresql://lab@db/vmr
expect_out "testdef writes a Lava-Test Test Definition 1.0" "^  format: Lava-Test Test Definition 1.0$"
expect_out "its run is named after LAVA's job" "vmregress run quick .*--name lava-\\\$\\{LAVA_JOB_ID:-local\\}-quick"
# LAVA_JOB_ID: lava_dispatcher/actions/deploy/overlay.py exports it; the
# device and its type come from the device dictionary's and the job's
# `environment`, which it exports too
expect_out "the run keeps the job id, device and device type LAVA's test shell has" \
	'--lava "job_id=\$\{LAVA_JOB_ID:-\}" --lava "device=\$\{VMREGRESS_LAVA_DEVICE:-\}" --lava "device_type=\$\{VMREGRESS_LAVA_DEVICE_TYPE:-\}"'
expect_out "its run steps report through LAVA's helpers" "lava cases last --db /tmp/vmregress-lava.db"
expect_out "and frame the run's JSON in the log" "^  - 'vmregress lava attach last --db /tmp/vmregress-lava.db'$"
expect_out "and push the run to the fleet store" "push last --db /tmp/vmregress-lava.db --to postgresql://lab@db/vmr"
cp "$T_TMP/out" "$T_TMP/testdef.yaml"
run "$VMR" lava job --kernel "$T_TMP/none" -o "$T_TMP/x.yaml"
expect_rc "a job for a kernel that is not there exits 2" 2
run "$VMR" lava frob
expect_rc "an unknown subcommand exits 2" 2

# a board's job: the URLs given, deployed by tftp, booted by the method's
# `ramdisk` commands of its device type
RD=https://lab.example/vmr
run "$VMR" lava job --device-type bcm2711-rpi-4-b --kernel-url $RD/Image -o "$T_TMP/x.yaml"
expect_rc "a board's job without a boot method or ramdisk exits 2" 2
expect_err "and says what it needs" "device type bcm2711-rpi-4-b needs --boot-method, --kernel-url, --ramdisk-url"
run "$VMR" lava job --device-type x86 --boot-method ipxe --kernel-url $RD/bzImage -o "$T_TMP/x.yaml"
expect_rc "nor without its ramdisk's URL" 2
expect_err "saying so" "device type x86 needs .*--ramdisk-url"
run "$VMR" lava job --device-type bcm2711-rpi-4-b --boot-method fastboot --kernel-url $RD/Image --ramdisk-url $RD/r.cpio.gz -o "$T_TMP/x.yaml"
expect_rc "a boot method vmregress does not write exits 2" 2
expect_err "naming the ones it does" "--boot-method fastboot: vmregress writes jobs for u-boot, ipxe"
run "$VMR" lava job --device-type bcm2711-rpi-4-b --boot-method u-boot --kernel-type bzimage --kernel-url $RD/Image --ramdisk-url $RD/r.cpio.gz -o "$T_TMP/x.yaml"
expect_rc "a kernel type LAVA does not know exits 2" 2
run "$VMR" lava job --kernel-url $RD/Image -o "$T_TMP/x.yaml" --kernel "$KPKG"
expect_rc "a qemu job with a board's URL exits 2" 2
check "and nothing is written" test ! -e "$T_TMP/x.yaml"
run "$VMR" lava job --device-type x86 --boot-method ipxe --kernel-url $RD/bzImage --ramdisk-url $RD/job.ramdisk.cpio.gz \
	--suite quick --append "zswap.enabled=0" -o "$T_TMP/x86.yaml"
expect_out "an x86 board's job, booted by iPXE" "x86.yaml: a LAVA job for device type x86, booted by ipxe"
check "deployed by tftp, the ramdisk gzipped, booted from the ramdisk" sh -c "grep -q '^    to: tftp\$' '$T_TMP/x86.yaml' &&
	grep -qx '      compression: gz' '$T_TMP/x86.yaml' && grep -qx '    method: ipxe' '$T_TMP/x86.yaml' &&
	grep -qx '    commands: ramdisk' '$T_TMP/x86.yaml' && grep -qx \"  extra_kernel_args: 'zswap.enabled=0'\" '$T_TMP/x86.yaml'"
check "its device type in the job's environment, for the device's run" \
	grep -qx "  VMREGRESS_LAVA_DEVICE_TYPE: 'x86'" "$T_TMP/x86.yaml"
check "running the ramdisk's /vmregress" grep -q "'/vmregress run quick " "$T_TMP/x86.yaml"
run "$VMR" lava job --device-type bcm2711-rpi-4-b --boot-method u-boot --kernel-type uimage --kernel-url $RD/uImage \
	--ramdisk-url $RD/rd.cpio.xz --dtb-url $RD/bcm2711-rpi-4-b.dtb --modules-url $RD/modules.tar.xz \
	--vmregress /usr/bin/vmregress -o "$T_TMP/rpi.yaml"
expect_out "a Raspberry Pi 4's job, booted by u-boot" "rpi.yaml: a LAVA job for device type bcm2711-rpi-4-b, booted by u-boot"
check "with its dtb and modules, a uImage and a u-boot header on the ramdisk" sh -c "grep -qx '    dtb:' '$T_TMP/rpi.yaml' &&
	grep -qx '    modules:' '$T_TMP/rpi.yaml' && grep -qx '      type: uimage' '$T_TMP/rpi.yaml' &&
	grep -qx '      header: u-boot' '$T_TMP/rpi.yaml' && grep -c '^      compression: xz\$' '$T_TMP/rpi.yaml' | grep -qx 2"
for m in grub barebox depthcharge; do
	run "$VMR" lava job --device-type dt-$m --boot-method $m --kernel-url $RD/k --ramdisk-url $RD/r.cpio.gz -o "$T_TMP/$m.yaml"
	expect_out "a job booted by $m" "$m.yaml: a LAVA job for device type dt-$m, booted by $m"
done

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
expect_out "REST results import as one run" "run lava-4711 \(0b0c5a52-39a5-4b43-9b3e-1c0f3a4c9e11, 2 cases, 2 iterations\) stored"
expect_out "saying its iterations are LAVA's measurements" "from LAVA's measurements \(one iteration a case"
run "$VMR" show lava-4711 --db "$RDB" --json
expect_json_is "its cases and outcomes" '[.cases[] | "\(.name)=\(.outcomes | keys[0])"] | join(" ")' "fault-zero=pass mtest01=fail"
expect_json "the measurements are the fault workload's metrics, in its units" \
	'.cases[0].workload == "fault" and ([.cases[0].metrics[] | "\(.name):\(.unit)"] | sort) == ["refault-rate:pages/s", "time-passes:ns"]'
expect_json_is "the job and the device are in its environment" '"\(.env.lava.job_id) \(.env.lava.device) \(.run.host)"' "4711 qemu-03 qemu-03"
expect_json_is "and where its iterations came from" .env.lava.from measurements
run "$VMR" lava import "$T_TMP/rest.yaml" --db "$RDB" --device qemu-03
expect_out "imported again: recognised by its UUID" "already in the store"
echo 'just: [words' > "$T_TMP/bad.yaml"
run "$VMR" lava import "$T_TMP/bad.yaml" --db "$RDB"
expect_rc "a file that is not YAML exits 2" 2
expect_err "naming it" "lava import: .*bad.yaml: "

# The device's own run: `run --lava` keeps the job in its environment;
# `lava attach` frames its JSON in the log, and import takes every
# iteration from there
cat > "$T_TMP/tiny.ini" <<'INI'
[global]
iterations = 2
mem = 64M
timeout = 60s
[null]
workload = null
spin = 5ms
[bad]
workload = null
fail = yes
INI
DDB=$T_TMP/device.db
run "$VMR" run "$T_TMP/tiny.ini" --quiet --db "$DDB" --name lava-4712-tiny --lava job_id=4712 --lava device=qemu-07 --lava device_type=
expect_rc "the device's run ran (its bad case failed)" 1
run "$VMR" show lava-4712-tiny --db "$DDB" --json
expect_json_is "run --lava keeps the job id and device in the run's environment" .env.lava '{"device":"qemu-07","job_id":"4712"}' -c
duuid=$(jq -r .run.uuid <<< "$OUT")
run "$VMR" run "$T_TMP/tiny.ini" --quiet --db "$DDB" --lava job=1
expect_rc "a --lava key it does not know exits 2" 2
expect_err "naming the keys" "--lava job=1: not KEY=VALUE with KEY job_id, device or device_type"
run "$VMR" lava attach lava-4712-tiny --db "$DDB"
expect_out "attach frames the run's JSON, gzipped, for the log" "^VMR-BEGIN 1 run-json-gz 0 [0-9]+ [0-9a-f]{8}$"
# as lava-run logs the device's output: a `target` entry a line (and the
# test cases LAVA recorded from the helpers)
{
	echo '- {"dt": "2026-12-01T10:00:00.000000", "lvl": "target", "msg": "Linux version 6.1.0-57-cloud-amd64 (debian)"}'
	echo '- {"dt": "2026-12-01T10:00:01.000000", "lvl": "results", "msg": {"definition": "0_vmregress", "case": "null", "result": "pass", "set": "null"}}'
	echo '- {"dt": "2026-12-01T10:00:01.000000", "lvl": "results", "msg": {"definition": "0_vmregress", "case": "bad", "result": "fail", "set": "bad"}}'
	echo "- {\"dt\": \"2026-12-01T10:00:01.000000\", \"lvl\": \"results\", \"msg\": {\"definition\": \"0_vmregress\", \"case\": \"vmregress-run\", \"result\": \"pass\", \"reference\": \"urn:uuid:$duuid\"}}"
	sed 's/.*/- {"dt": "2026-12-01T10:00:02.000000", "lvl": "target", "msg": "&"}/' "$T_TMP/out"
	echo '- {"dt": "2026-12-01T10:00:03.000000", "lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "pass"}}'
} > "$T_TMP/device.log"
ADB=$T_TMP/attached.db
run "$VMR" lava import "$T_TMP/device.log" --db "$ADB" --device qemu-99 --device-type qemu
expect_out "import takes the run from its JSON in the log, every iteration" \
	"run lava-4712 \($duuid, 2 cases, 4 iterations\) stored, from the run's JSON in the log"
run "$VMR" show lava-4712 --db "$ADB" --json
expect_json_is "each case with its two iterations" '[.cases[] | "\(.name):\(.iterations)"]' '["null:2","bad:2"]' -c
expect_json_is "the device's job id and device stand, the import adds the type and LAVA's verdict" \
	'.env.lava | [.job_id, .device, .device_type, .job_result, .from]' '["4712","qemu-07","qemu","pass","run-json"]' -c
run "$VMR" lava import "$T_TMP/device.log" --db "$DDB"
expect_out "in the device's own store, import recognises its run by UUID" "run lava-4712 \($duuid, .*\) already in the store"
awk '/VMR-D/ && !cut { cut = 1; next } { print }' "$T_TMP/device.log" > "$T_TMP/cut.log"
run "$VMR" lava import "$T_TMP/cut.log" --db "$T_TMP/cut.db"
expect_err "a broken frame is said" "lava import: .*cut.log: the run's JSON in the log is broken: .*reading LAVA's measurements instead"
expect_out "and LAVA's measurements stand in" "run lava-job \($duuid, 2 cases, 2 iterations\) stored, from LAVA's measurements"
echo '- {suite: lava, name: job, result: fail}' > "$T_TMP/none.yaml"
run "$VMR" lava import "$T_TMP/none.yaml" --db "$RDB"
expect_rc "results without a vmregress case exit 2" 2
expect_err "and say LAVA's verdict" "holds no vmregress test case \(LAVA's verdict on the job: fail\)"

# LAVA's own schema (lava_common, unpacked into the cache by run-local):
# the board jobs above, and the qemu job and definition when written
SITE=${XDG_CACHE_HOME:-$HOME/.cache}/vmregress/lava/root/usr/lib/python3/dist-packages
schema_checked=
schema_checks() {
	local f out
	schema_checked=1
	for f in "$@"; do
		[ -e "$T_TMP/$f.yaml" ] || continue
		out=$(/usr/bin/python3 "$CHECK" "$SITE" "$([ "$f" = testdef ] && echo testdef || echo job)" "$T_TMP/$f.yaml" 2>&1)
		if grep -q '^ok - ' <<< "$out" && ! grep -q '^not ok' <<< "$out"; then ok "$f.yaml passes LAVA's own schema"
		else not_ok "$f.yaml passes LAVA's own schema ($(tr '\n' ' ' <<< "$out" | cut -c1-300))"; fi
	done
}
BOARDS="testdef x86 rpi grub barebox depthcharge"
[ -d "$SITE/lava_common" ] && schema_checks $BOARDS

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
mkdir -p "$T_TMP/work"  # its own TMPDIR: another run-local's work directory is not this one's
TMPDIR="$T_TMP/work" run "$VMR" lava run-local "$T_TMP/job.yaml" --db "$DB" --keep --name lava-short
took=$(( $(date +%s) - start ))
LOG=$(sed -n 's/.*its log: \(.*\))$/\1/p' <<< "$ERR")
if [ "$RC" = 3 ] && grep -qE "lava: (lava-run needs|apt-get download|cannot run)" <<< "$ERR"; then
	skip "the job under lava-run" "$ERR"
	done_testing
	exit
fi
expect_rc "run-local runs the job under lava-run and imports it (${took}s)" 0
expect_err "lava-run itself ran it, to the end" "lava-run exited 0 after"
expect_out "the run is stored, every iteration from its JSON in the log" \
	"run lava-short \([0-9a-f-]{36}, 3 cases, 6 iterations\) stored, from the run's JSON in the log"
if [ -n "$schema_checked" ]; then schema_checks job; else schema_checks $BOARDS job; fi

# LAVA's side: the test cases in lava-run's log
if [ -n "$LOG" ] && [ -s "$LOG" ]; then
	# the id LAVA exported to the test shell, as its overlay logged it
	JOB_ID=$(grep -m1 -oE "LAVA_JOB_ID=[0-9]+" "$LOG" | cut -d= -f2)
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
	# the device's run, read from the log apart from vmregress's import
	/usr/bin/python3 "$CHECK" "$SITE" attached "$LOG" > "$T_TMP/attached.json" 2> "$T_TMP/attached.err"
	dev_lava=$(jq -c '.env.lava | [.job_id, .device, .device_type]' "$T_TMP/attached.json" 2>&1)
	[ "$dev_lava" = "[\"${JOB_ID:-?}\",\"run-local\",\"qemu\"]" ] \
		&& ok "the device's run recorded LAVA's job id, its device and type ($dev_lava)" \
		|| not_ok "the device's run recorded LAVA's job id, device and type (got ${dev_lava:0:200}, want job ${JOB_ID:-?}; $(head -c 200 "$T_TMP/attached.err"))"
	[ "$(jq -c '[.cases[] | .iterations | length]' "$T_TMP/attached.json" 2>&1)" = "[2,2,2]" ] \
		&& ok "its JSON in the log holds every iteration" || not_ok "its JSON in the log holds every iteration"
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
expect_json_is "every case with both its iterations" '[.cases[] | .iterations] | join(" ")' "2 2 2"
expect_json "tagged with the job, the device, the device type and the kernel" \
	'.run.tag == "lava" and .env.lava.device_type == "qemu" and .env.lava.device == "run-local" and (.env.lava.job_id | length > 0) and (.run.kernel | test("cloud-amd64"))'
expect_json_is "the stored environment has LAVA's job id and the device, as the device recorded them" \
	'.env.lava | "\(.job_id) \(.device) \(.from)"' "${JOB_ID:-?} run-local run-json"
expect_json "and that it ran emulated (TCG), as a matrix guest's run says, so compare treats both alike" \
	'.env.lava.accel == "tcg" and .env.lava.emulated == true'
uuid=$(jq -r .run.uuid <<< "$OUT")
run "$VMR" lava import "$T_TMP/lava-run.log" --db "$DB" --name lava-short
expect_out "imported again, it is recognised by its UUID" "run lava-short \($uuid, 3 cases, 6 iterations\) already in the store"
run "$VMR" list --db "$DB" --json
expect_json_is "and stored once" 'length' 1
if [ "$had_lava_dir" = 0 ]; then
	check "lava-run left nothing in /var/lib/lava" test ! -e /var/lib/lava
fi
check "nor a work directory" sh -c "! ls -d '$T_TMP/work'/vmregress-lava.* 2>/dev/null | grep -q ."
done_testing
