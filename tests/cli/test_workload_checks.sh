# Every workload checks what it reads back: a page damaged behind its back
# (the hidden --corrupt-page) is a FAIL naming the page, in every mode; and
# where the seed's original reads nothing back, the check is a phase of its
# own that leaves the original's numbers alone.
. "$(dirname "$0")/lib.sh"

json_ok() { # json_ok NAME FILTER: the last run printed JSON for which FILTER holds
	if [ -z "$OUT" ]; then not_ok "$1 (no output; exit $RC; stderr: ${ERR:0:200})"
	elif jq -e "$2" <<< "$OUT" >/dev/null 2>&1; then ok "$1"
	else not_ok "$1 (stdout: ${OUT:0:300}; stderr: ${ERR:0:200})"; fi
}
metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

if ! is_root; then
	skip "workload data checks" "needs root"
	done_testing; exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "workload data checks" "no memory cgroup controller"
	done_testing; exit 0
fi
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"
SB=(--mem 64M --timeout 60s)

# mmap: every kind of memory, read and write replays.
"$VMR" refs generate --pages 500 --references 2000 --pattern linear -o "$T_TMP/t.refs" >/dev/null 2>&1 \
	|| not_ok "generate a trace"
head -c $((500 * 4096)) /dev/urandom > "$T_TMP/user-file"
for kind in --anon --file-backed "--file $T_TMP/user-file"; do
	for mode in "" --write; do
		name="mmap ${kind%% *} ${mode:-read}"
		run "$VMR" test mmap "${SB[@]}" --refs "$T_TMP/t.refs" $kind $mode --json
		expect_rc "$name runs" 0
		json_ok "$name has a verify phase of its own" "$(metric verify-time) > 0"
		run "$VMR" test mmap "${SB[@]}" --refs "$T_TMP/t.refs" $kind $mode --corrupt-page 42
		expect_rc "$name catches a damaged page (exit 1)" 1
		expect_err "$name names page 42" 'fail: page 42 '
		check "$name failure is one line" one_line_err
	done
done
run "$VMR" test mmap "${SB[@]}" --refs "$T_TMP/t.refs" --corrupt-page 600
expect_rc "mmap --corrupt-page of a page the trace never references is bad input" 2

# mtest01: unwritten pages must read zero, written ones their pattern.
for mode in "" --write; do
	run "$VMR" test mtest01 "${SB[@]}" $mode --bytes 16M --corrupt-page 77
	expect_rc "mtest01 ${mode:-allocate-only} catches a damaged page" 1
	expect_err "mtest01 ${mode:-allocate-only} names the page" 'page 77 of a child read back wrong data'
done
# LTP's -w: allocate and write 2.5x the limit, never read back.  Writing
# fresh pages swaps others out but never in: the children take no major
# faults.  The check phase, on by default, reads the swapped pages back.
run "$VMR" test mtest01 --mem 64M --swap file:256M --timeout 60s --write --bytes 160M --check=no --json
expect_rc "mtest01 --write --check=no (LTP's -w) runs" 0
json_ok "LTP's -w: no check phase" "[.metrics[] | select(.name == \"check-time\")] | length == 0"
# (Per-process and per-cgroup counters: /proc/vmstat's pswpin is the
# host's, and other work on the machine moves it.)
json_ok "LTP's -w: all 160M written in a 64M sandbox, so 96M went to swap" \
	"$(metric bytes-allocated) == 167772160 and .info.sandbox_after.peak_bytes == .info.sandbox_after.limit_bytes"
json_ok "LTP's -w: the children take (almost) no major faults" "$(metric children-major-faults) < 100"
json_ok "LTP's -w: nor does anything else in the sandbox (memcg pgmajfault)" \
	'.info.sandbox_after["stat.pgmajfault"] // .info.sandbox_after["stat.total_pgmajfault"] | . != null and . < 100'
json_ok "LTP's -w: one child, by LTP's rule" "$(metric children) == 1"
run "$VMR" test mtest01 --mem 64M --swap file:256M --timeout 60s --write --bytes 160M --json
expect_rc "mtest01 --write with its check runs" 0
json_ok "the check phase reads swapped pages back (major faults)" "$(metric check-major-faults) > 1000"
json_ok "and the allocation phase still takes none" "$(metric alloc-major-faults) < 100"
json_ok "the check is timed apart" "$(metric check-time) > 0 and $(metric time) > 0"

# mmap001: LTP's loop writes every byte of the file (this process sends
# the whole file to storage), the verify phase, timed apart, checks every
# byte; --verify=no is LTP alone.
run "$VMR" test mmap001 "${SB[@]}" --pages 3000 --json
expect_rc "mmap001 runs" 0
json_ok "mmap001's LTP loop sends the whole file to storage (/proc/self/io)" "$(metric ltp-write-bytes) >= 3000 * 4096"
json_ok "mmap001's verify phase is timed apart" "$(metric check-time) > 0 and $(metric ltp-time) > 0 and $(metric time) >= $(metric ltp-time) + $(metric check-time)"
json_ok "mmap001 says what it verified" '.info.verify == "every byte, from the disk"'
run "$VMR" test mmap001 "${SB[@]}" --pages 3000 --verify=no --json
expect_rc "mmap001 --verify=no (LTP alone) runs" 0
json_ok "LTP alone: no verify phase" '[.metrics[] | select(.name == "check-time" or .name == "major-faults-check")] | length == 0'
json_ok "LTP alone: the whole file still goes to storage" "$(metric ltp-write-bytes) >= 3000 * 4096"
run "$VMR" test mmap001 "${SB[@]}" --pages 300 --corrupt-page 42
expect_rc "mmap001 catches a damaged page" 1
expect_err "mmap001 names the page" 'page 42 of 300 read back wrong data'

left=$(ls -A "$TMPDIR")
[ -z "$left" ] && ok "no work directories or files are left behind" \
	|| not_ok "no work directories or files are left behind ($left)"
done_testing
