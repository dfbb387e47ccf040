# usemem (vm-scalability) and the vm-scalability suite: every kind of
# memory and access runs and reads back what it wrote, a damaged page is a
# FAIL naming it in every mode, bad combinations are one-line usage errors,
# and the effects LKP's cases exist to show are there on the real kernel:
# THP always against never on anon-w-seq, activations from
# lru-file-readtwice and none from readonce.  compare --style lkp reads a
# stored group as LKP would.
. "$(dirname "$0")/lib.sh"

json_ok() { # json_ok NAME FILTER: the last run printed JSON for which FILTER holds
	if [ -z "$OUT" ]; then not_ok "$1 (no output; exit $RC; stderr: ${ERR:0:200})"
	elif jq -e "$2" <<< "$OUT" >/dev/null 2>&1; then ok "$1"
	else not_ok "$1 (stdout: ${OUT:0:300}; stderr: ${ERR:0:200})"; fi
}
metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

run "$VMR" test usemem --file x --shm
expect_rc "--file with --shm is a usage error" 2
check "and one line" one_line_err
run "$VMR" test usemem --cow --threads
expect_rc "--cow with --threads is a usage error" 2
expect_err "it says copy-on-write is of processes" 'copy-on-write'
run "$VMR" test usemem --io read
expect_rc "--io read without a file is a usage error" 2
run "$VMR" suites
expect_out "vm-scalability is a built-in suite" '^vm-scalability +LKP'

if ! is_root; then
	skip "usemem runs" "needs root"
	done_testing
	exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "usemem runs" "no memory cgroup controller"
	done_testing
	exit 0
fi
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"
# (a long timeout: another vmregress may hold the host-wide knobs a while)
SB=(--mem 64M --swap file:64M --timeout 5m)
MODES=("" "--threads --tasks 2" "--random" "--readonly" "--readonly --random" "--shm" "--cow --tasks 2"
	"--cow --random --tasks 2" "--file-backed" "--file-backed --readonly" "--file-backed --msync --prefault"
	"--file-backed --io read" "--file-backed --io read --shared-file --tasks 2" "--file-backed --io truncate"
	"--readonly --unit 40K" "--repeat 3")
for mode in "${MODES[@]}"; do
	name="usemem ${mode:-(anonymous, write, sequential)}"
	run "$VMR" test usemem "${SB[@]}" --size 8M $mode --json
	expect_rc "$name runs" 0
	json_ok "$name reports throughput and its check" "$(metric throughput) > 0 and $(metric check-time) >= 0"
	run "$VMR" test usemem "${SB[@]}" --size 8M $mode --corrupt-page 42
	expect_rc "$name catches a damaged page (exit 1)" 1
	expect_err "$name names page 42" 'fail: page 42 of task 0 read back wrong data'
done
run "$VMR" test usemem "${SB[@]}" --size 8M --tasks 3 --json
json_ok "usemem counts as usemem does: every word 8 bytes, plus size/8 per mapping" \
	"$(metric bytes) == 3 * (8388608 + 1048576)"
json_ok "a row per task" '.tables[] | select(.name == "tasks") | .rows | length == 3'
# --tasks cpus: one task per CPU vmregress may run on (its affinity), as
# LKP's nr_task; --split shares SIZE among them.  The vm-scalability suite
# uses both, so a case's memory is the same on any CPU count.
ncpu=$(nproc)
run "$VMR" test usemem --tasks 0
expect_rc "--tasks 0 is a usage error" 2
expect_err "it says what --tasks takes" "a count from 1 to 256, or cpus"
run "$VMR" test usemem "${SB[@]}" --size 8M --tasks cpus --json
json_ok "--tasks cpus runs a task per CPU it may run on ($ncpu)" \
	".info.tasks == $ncpu and ([.tables[] | select(.name == \"tasks\") | .rows[]] | length) == $ncpu"
run taskset -c 0 "$VMR" test usemem "${SB[@]}" --size 8M --tasks cpus --split --json
json_ok "pinned to one CPU it is one task, which --split gives all of SIZE" \
	'.info.tasks == 1 and .info.size_per_task == "8M"'
per=$((8388608 / ncpu / 4096 * 4096))
run "$VMR" test usemem "${SB[@]}" --size 8M --tasks cpus --split --json
json_ok "--split maps SIZE / tasks per task ($ncpu tasks)" \
	".info.tasks == $ncpu and $(metric bytes) == $ncpu * ($per + $per / 8)"
vms=$(jq -r '.[] | select(.name == "vm-scalability") | .path' <<< "$("$VMR" suites --json)")
awk '/^\[/ { keep = ($0 == "[global]" || $0 == "[anon-w-seq]") } keep' "$vms" > "$T_TMP/anon-w-seq.ini"
run taskset -c 0 "$VMR" run "$T_TMP/anon-w-seq.ini" --iterations 1 --db "$T_TMP/vms.db" --json
expect_rc "vm-scalability's anon-w-seq runs pinned to one CPU" 0
json_ok "its task count follows the CPUs (1), its size the limit (0.5x of 128M)" \
	'.cases[0].results[0].info | .tasks == 1 and .tasks_asked == "cpus" and .size_per_task == "64M"'
run "$VMR" test usemem "${SB[@]}" --size 32M --repeat 1000 --runtime 50ms --json
expect_rc "usemem --runtime stops mid-pass and still checks what it wrote" 0
json_ok "and stopped early" "$(metric time) < 5e9"

# THP: anon-w-seq's 2 x 16M under always takes a fault per huge page where
# never takes one per page (the tasks' own fault counts), and the kernel
# counts huge pages allocated at fault (thp_fault_alloc, host-wide).  The
# sandbox sets the knob for the run and puts it back (its own tests hold
# it to that; another sandbox may set it meanwhile, so not checked here).
THP=/sys/kernel/mm/transparent_hugepage/enabled
if [ ! -w $THP ]; then
	skip "THP always against never" "no $THP"
else
	run "$VMR" test usemem "${SB[@]}" --tasks 2 --size 0.25x --set thp.enabled=always --json
	expect_rc "anon-w-seq under THP always runs" 0
	json_ok "and ran under always" '.info.sandbox.knobs["thp.enabled"] | .value == "always" and .set'
	always_faults=$(jq "$(metric minor-faults)" <<< "$OUT")
	always_thp=$(jq "$(metric vmstat-thp_fault_alloc)" <<< "$OUT")
	run "$VMR" test usemem "${SB[@]}" --tasks 2 --size 0.25x --set thp.enabled=never --json
	expect_rc "anon-w-seq under THP never runs" 0
	never_faults=$(jq "$(metric minor-faults)" <<< "$OUT")
	never_thp=$(jq "$(metric vmstat-thp_fault_alloc)" <<< "$OUT")
	check "always: huge pages allocated at fault ($always_thp against $never_thp under never)" \
		test "${always_thp:-0}" -ge 8 -a "${always_thp:-0}" -gt "${never_thp:-0}"
	check "never: a fault per page, many times always's ($never_faults against $always_faults)" \
		test "${never_faults:-0}" -ge 8192 -a "${never_faults:-0}" -gt $((4 * ${always_faults:-999999}))
fi

# lru-file-readtwice against readonce: two readers of one file activate
# every page the second one finds in the cache (pgactivate); one reader of
# a file larger than the limit activates none.  Here the shared file fits
# in the limit, so that the second reader finds every page however far
# behind the first it runs on a busy machine.  /proc/vmstat is the host's,
# so the margin is wide.
SBF=(--mem 64M --swap file:64M --timeout 5m --tasks 2 --file-backed --io read)
run "$VMR" test usemem "${SBF[@]}" --size 0.75x --json
expect_rc "lru-file-readonce runs" 0
once=$(jq "$(metric vmstat-pgactivate)" <<< "$OUT")
run "$VMR" test usemem "${SBF[@]}" --size 0.5x --shared-file --json
expect_rc "lru-file-readtwice runs" 0
twice=$(jq "$(metric vmstat-pgactivate)" <<< "$OUT")
check "readtwice activates at least half the file's pages ($twice)" test "${twice:-0}" -ge 4096
check "readonce activates few ($once against $twice)" test "${once:-999999}" -lt $((${twice:-0} / 4))

# compare --style lkp on a stored group: THP always against never,
# interleaved, 3 iterations each.
cat > "$T_TMP/thp.ini" <<'EOF'
[global]
iterations = 3
mem = 64M
swap = file:64M
timeout = 5m

[anon-w-seq]
workload = usemem
tasks = 2
size = 0.25x
EOF
run "$VMR" run "$T_TMP/thp.ini" --db "$T_TMP/c.db" -q --name thp \
	--variant always:thp.enabled=always --variant never:thp.enabled=never
expect_rc "a group of THP always and never runs" 0
run "$VMR" compare thp --db "$T_TMP/c.db" --style lkp
expect_rc "compare --style lkp reads the group" 0
expect_out "vmregress's verdict comes first" '^[0-9]+ regressions?, '
expect_out "then LKP's header" '%stddev +%change +%stddev'
expect_out "the headline row as LKP prints it, with both readings" \
	'[0-9] (±[ 0-9]+%)? +[-+][0-9.]+% +[0-9.e+]+ .*anon-w-seq\.throughput +lkp: [a-z ]+, vmregress: '
expect_out "the fault counts as LKP marks them: far apart, changed" \
	'anon-w-seq\.minor-faults +lkp: changed'
expect_out "and a count of where the two disagree" '^LKP marks [0-9]+ changes?, vmregress calls [0-9]+; they disagree on [0-9]+\.$'
run "$VMR" compare thp --db "$T_TMP/c.db" --style nope
expect_rc "an unknown style is a usage error" 2

left=$(ls -A "$TMPDIR")
[ -z "$left" ] && ok "no work directories or files are left behind" \
	|| not_ok "no work directories or files are left behind ($left)"
done_testing
