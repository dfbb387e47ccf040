#!/usr/bin/env bash
# The reasons of a trace or profile that could not run.  trace/ never
# prints (check-layers fails on a print planted in it); a case whose
# tracing fails still runs, its result stores the real cause, and stderr
# carries that cause once, in the same words.  The failures are real ones:
# in a private mount namespace a file of the case's tracing instance is a
# read-only bind mount, so the kernel refuses the write; perf is a stand-in
# bound over the real one, or /dev/null.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

# ---- no print in trace/ (nor probe/) ----
cp -al "$root/src" "$T_TMP/src" 2>/dev/null || { rm -rf "$T_TMP/src"; cp -r "$root/src" "$T_TMP/src"; }
plant() { # plant FILE LINE: FILE of the copy of src/ gets LINE at its end (a new file, not the tree's)
	{ cat "$T_TMP/src/$1"; echo "$2"; } > "$T_TMP/planted" && mv "$T_TMP/planted" "$T_TMP/src/$1"
}
plant trace/session.c 'static void planted(void) { vmr_warn("x"); }'
plant trace/perf.c 'static void planted(void) { fprintf(stderr, "x\n"); }'
plant probe/meminfo.c 'static void planted(void) { perror("x"); }'
plant trace/parse.c '/* vmr_err() and stderr in a comment, */ static const char *planted = "printf(stderr)";'
plant trace/parse.c $'/*\n * a block comment: vmr_warn("x") to stderr\n */'
run "$root/scripts/check-layers" "$T_TMP/src"
expect_rc "check-layers fails on a print planted in trace/ or probe/" 1
expect_out "vmr_warn in trace/ is named with its line" '^src/trace/session.c:[0-9]+: prints \(vmr_warn\): trace is quiet'
expect_out "fprintf(stderr in trace/ is named" '^src/trace/perf.c:[0-9]+: prints \(stderr\): trace is quiet'
expect_out "perror in probe/ is named" '^src/probe/meminfo.c:[0-9]+: prints \(perror\): probe is quiet'
expect_no_out "a comment or a string that names them is no print" '^src/trace/parse.c'
expect_out "and nothing else is reported" "; 3 violation\(s\)$"

if ! is_root; then skip "the reasons of a trace that could not start" "needs root"; done_testing; exit 0; fi
if ! grep -qw tracefs /proc/filesystems; then skip "the reasons of a trace that could not start" "no tracefs"; done_testing; exit 0; fi
if ! unshare -m --propagation private true 2>/dev/null; then
	skip "the reasons of a trace that could not start" "cannot make a private mount namespace (unshare -m)"; done_testing; exit 0
fi

# refusing FILE CMD...: run CMD (a vmregress command line) as `run` does,
# in a private mount namespace where tracefs is mounted at
# /sys/kernel/tracing alone, and where CMD's tracing instance (named after
# its PID and start time, made before it starts, while it waits stopped) has
# FILE bound read-only.  $T_TMP/left says whether the instance was left.
refusing() {
	local file=$1; shift
	run unshare -m --propagation private bash -c '
		file=$1 tmp=$2; shift 2
		t=/sys/kernel/tracing
		awk "\$0 ~ / - tracefs / { print \$5 }" /proc/self/mountinfo | sort -r |
			while read -r m; do umount -l "$m"; done
		mount -t tracefs nodev $t || exit 90
		bash -c "kill -STOP \$\$; exec \"\$0\" \"\$@\"" "$@" &
		pid=$!
		for _ in $(seq 200); do [ "$(cut -d" " -f3 /proc/$pid/stat)" = T ] && break; sleep 0.01; done
		name=vmregress-$pid-$(sed "s/.*) //" /proc/$pid/stat | cut -d" " -f20)-0
		: > "$tmp/ro"
		mkdir $t/instances/$name && mount --bind "$tmp/ro" $t/instances/$name/$file &&
			mount -o remount,bind,ro $t/instances/$name/$file || { kill -9 $pid; exit 91; }
		kill -CONT $pid
		wait $pid
		rc=$?
		umount $t/instances/$name/$file 2>/dev/null
		if rmdir $t/instances/$name 2>/dev/null; then echo left > "$tmp/left"; else echo removed > "$tmp/left"; fi
		umount $t
		exit $rc' _ "$file" "$T_TMP" "$@"
	[ "$RC" = 90 ] || [ "$RC" = 91 ] && echo "# the namespace could not be set up (exit $RC): $ERR"
}
# said_once TEXT: stderr holds "vmregress: TEXT" on exactly one line
said_once() { [ "$(grep -cxF "vmregress: $1" <<< "$ERR")" = 1 ]; }

# Tracing that could not start: set_event_pid refuses the pid filter.
cause="cannot set tracefs set_event_pid to '': Read-only file system"
refusing set_event_pid "$VMR" test null --trace reclaim --json
expect_rc "test: a case whose tracing could not start still runs" 0
expect_json_is "test: the stored reason is the kernel's refusal" '.info.trace_skipped.trace' "$cause"
expect_json "test: the stored reason points nowhere else" \
	'.info.trace_skipped.trace | test("see the error|above") | not'
check "test: stderr says the cause once, in the same words" said_once "$cause"
check "test: and what could not be put back, as one warning" \
	said_once "warning: cannot restore tracefs set_event_pid to '': Read-only file system"
check "test: nothing else is said" test "$(grep -vc 'waiting for another vmregress' <<< "$ERR")" = 2
check "test: the instance is removed all the same" grep -qx removed "$T_TMP/left"

# Tracing that could not be set up: buffer_size_kb refuses.
cause="cannot set tracefs buffer_size_kb to '4096': Read-only file system"
refusing buffer_size_kb "$VMR" test null --trace all
expect_rc "test: a case whose tracing could not be set up still runs" 0
expect_out "test: the text report shows the cause" "^  trace +skipped: $cause$"
check "test: stderr says it once" said_once "$cause"

# The same under run: the stored result has the cause.
printf '[traced]\nworkload = null\ntrace = reclaim\n' > "$T_TMP/traced.ini"
cause="cannot set tracefs set_event_pid to '': Read-only file system"
refusing set_event_pid "$VMR" run "$T_TMP/traced.ini" --db "$T_TMP/r.db" -n 1 -q --json
expect_rc "run: a case whose tracing could not start still runs" 0
expect_json_is "run: the stored result's reason is the cause" '.cases[0].results[0].info.trace_skipped.trace' "$cause"
check "run: stderr says it once" said_once "$cause"

# Tracing that cannot run here is only stored: no tracefs mounted, and none
# can be mounted (private mounts go under /tmp, read-only here).
run env -u TMPDIR unshare -m --propagation private bash -c '
	awk "\$0 ~ / - tracefs / { print \$5 }" /proc/self/mountinfo | sort -r | while read -r m; do umount -l "$m"; done
	mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp || exit 90
	exec "$@"' _ "$VMR" test null --trace reclaim --json
expect_rc "test: without a usable tracefs the case runs" 0
expect_json_is "test: the stored reason says why" '.info.trace_skipped.trace' \
	"cannot find or mount tracefs: Read-only file system"
check "test: and nothing is said" test -z "$(grep -v 'waiting for another vmregress' <<< "$ERR")"

# ---- --profile ----
# with_perf WHAT CMD...: run CMD with /usr/bin/perf replaced by WHAT in a
# private mount namespace
with_perf() {
	local what=$1; shift
	run unshare -m --propagation private bash -c 'mount --bind "$1" /usr/bin/perf || exit 90; shift; exec "$@"' \
		_ "$what" "$@"
}
if [ ! -x /usr/bin/perf ]; then
	skip "--profile: the reasons when perf fails" "no /usr/bin/perf to stand in for (Debian package linux-perf)"
	done_testing; exit 0
fi
# A perf that answers the control fifo's "enable" and then records nothing,
# or (norecord) exits at once; its report always fails.
cat > "$T_TMP/perf" <<'EOF'
#!/bin/bash
case $1 in
record)
	while [ $# -gt 0 ]; do [ "$1" = --control ] && ctl=${2#fifo:}; [ "$1" = -o ] && out=$2; shift; done
	[ -n "${STANDIN_NORECORD:-}" ] && exit 1
	exec 3< "${ctl%,*}" 4> "${ctl#*,}"
	read -r _ <&3 && echo ack >&4
	: > "$out"
	trap 'exit 0' INT
	while :; do sleep 0.05; done ;;
*) exit 1 ;;
esac
EOF
chmod +x "$T_TMP/perf"

STANDIN_NORECORD=1 with_perf "$T_TMP/perf" "$VMR" test null --profile --json
expect_rc "--profile: a case whose perf record did not start still runs" 0
cause=$(jq -r '.info.profile_skipped.profile' <<< "$OUT" 2>/dev/null)
expect_json "--profile: the stored reason is what failed" \
	'.info.profile_skipped.profile | test("^perf record did not start on pid [0-9]+$")'
check "--profile: stderr says it once" said_once "profile: $cause"

with_perf "$T_TMP/perf" "$VMR" test null --spin 100ms --profile --json
expect_rc "--profile: a case whose perf report found nothing runs" 0
expect_json_is "--profile: the stored reason says perf report found no samples" \
	'.info.profile_skipped.profile' "perf report found no samples"
check "--profile: which is only stored, not said" test -z "$(grep -v 'waiting for another vmregress' <<< "$ERR")"

with_perf /dev/null "$VMR" test null --profile --json
expect_rc "--profile: without perf the case runs" 0
expect_json_is "--profile: the stored reason says perf is not installed" \
	'.info.profile_skipped.profile' "perf is not installed (Debian package linux-perf)"
check "--profile: which is only stored, not said" test -z "$(grep -v 'waiting for another vmregress' <<< "$ERR")"
done_testing
