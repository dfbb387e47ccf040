# vmregress test: the command, the runner and option validation, with the
# null workload (no root needed: the non-root checks run as nobody).
. "$(dirname "$0")/lib.sh"

as_nobody() { # run a command as an unprivileged user when we are root
	if is_root && command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

run "$VMR" test --list; expect_rc "test --list exits 0" 0
for w in null fault alloc reread mmap001 mtest01 pft; do
	expect_out "test --list names $w" "^  $w "
done
run "$VMR" test --list --json; expect_rc "test --list --json exits 0" 0
expect_json "test --list --json is JSON" 'length > 0'
run "$VMR" test null --help; expect_rc "test null --help exits 0" 0
expect_out "help shows the workload's options" '--spin TIME'
expect_out "help shows the sandbox options" '--mem SIZE'
expect_out "help shows the output options" '--json'
expect_no_out "hidden options stay out of help" '--fail'

# Bad input: one line on stderr, exit 2.
run "$VMR" test nope;                 expect_rc "unknown workload exits 2" 2
expect_err "unknown workload is named" "unknown workload 'nope'"; check "unknown workload error is one line" one_line_err
run "$VMR" test;                      expect_rc "no workload exits 2" 2; check "no workload error is one line" one_line_err
run "$VMR" test null --spin 5x;       expect_rc "bad time exits 2" 2; expect_err "bad time is named" "^vmregress: --spin: '5x'"
check "bad time error is one line" one_line_err
run "$VMR" test null --frob;          expect_rc "unknown option exits 2" 2; check "unknown option error is one line" one_line_err
run "$VMR" test null --spin;          expect_rc "missing value exits 2" 2; check "missing value error is one line" one_line_err
run "$VMR" test null extra;           expect_rc "extra argument exits 2" 2; check "extra argument error is one line" one_line_err
run "$VMR" test null --spin 2m;       expect_rc "out-of-range value exits 2" 2; expect_err "range is explained" "out of range"

# Workload options are validated before anything runs, so without root too.
for args in "fault --passes 0" "fault --level huge" "fault --size 1.5y" "fault --pages -3" \
	"fault --file x --shmem" "alloc --level 5" "reread --sleep forever" "mmap001 --pages 0" \
	"mtest01 --chunk 1" "pft --tasks 3-1" "pft --tasks 1,x" "pft --tasks 0" "pft --tasks 1-5000" \
	"pft --kind stack" "pft --duration 0"; do
	run as_nobody "$VMR" test $args
	expect_rc "test $args exits 2" 2
	check "test $args gives a one-line error" one_line_err
done
run as_nobody "$VMR" test fault --level huge; expect_rc "a bad level exits 2" 2; expect_err "level choices are listed" 'fast\|low\|min\|zero'
run as_nobody "$VMR" test pft --tasks 3-1; expect_rc "a bad task list exits 2" 2; expect_err "a bad task list is named" "^vmregress: --tasks: '3-1'"
run as_nobody "$VMR" test fault --file x --shmem; expect_rc "conflicting kinds exit 2" 2; expect_err "conflicting kinds are named" 'choose one'
run as_nobody "$VMR" test fault --help; expect_rc "test fault --help exits 0" 0
OUT=$(tr -s ' \n' '  ' <<< "$OUT")  # help is wrapped: read it as one line
expect_out "fault help documents the level rule" 'fast 0\.8L, low 0\.95L, min 1\.0L, zero 1\.25L'
expect_out "fault help documents the watermark rule" 'zero \(size\+free\)/2'
expect_no_out "--corrupt-page stays out of help" '--corrupt-page'

# The runner, as an unprivileged user: --no-sandbox, the harness alone.
run as_nobody "$VMR" test null --no-sandbox --spin 20ms --json; expect_rc "null runs without root" 0
expect_json "null result is JSON with outcome pass" '.outcome == "pass"'
expect_json "null records its own time" '.metrics[] | select(.name == "time") | .value >= 20000000'
expect_json "runner adds rusage: user-time" '.metrics[] | select(.name == "user-time") | .value > 0'
for m in sys-time elapsed cpu-percent major-faults minor-faults voluntary-switches involuntary-switches max-rss vmstat-pgfault vmstat-pswpin; do
	expect_json "runner adds $m" "[.metrics[] | select(.name == \"$m\")] | length == 1"
done
expect_json "runner adds the host's CPU steal, a share in percent" \
	'[.metrics[] | select(.name == "host-steal" and .unit == "%" and .value >= 0 and .value <= 100)] | length == 1'
expect_json "options are echoed" '.options.spin == 20000000'
run as_nobody "$VMR" test null --no-sandbox;             expect_rc "null text report exits 0" 0; expect_out "text report names the outcome" '^null: pass'
run as_nobody "$VMR" test null --no-sandbox --fail;      expect_rc "a failed check exits 1" 1; expect_err "the failure is explained" 'test null: fail: asked to fail'
check "failure message is one line" one_line_err
run as_nobody "$VMR" test null --no-sandbox --error;     expect_rc "a set-up error exits 1" 1; expect_err "the set-up error is explained" 'error: asked to fail set-up'
run as_nobody "$VMR" test null --no-sandbox --crash --json; expect_rc "a crash exits 1" 1
expect_err "a crash names the signal" 'killed by signal SIGABRT'
run as_nobody "$VMR" test null --no-sandbox --spin 30s --timeout 300ms --json; expect_rc "the watchdog stops a hung workload" 1
expect_err "a timeout is explained" 'timed out after 300ms'
expect_json "a timeout is an error outcome" '.outcome == "error"'
done_testing
