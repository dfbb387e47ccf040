#!/usr/bin/env bash
# --trace and --profile on `vmregress test`, against the real kernel: a
# fault case at level zero in a 32M sandbox reclaims; the traced reclaim is
# checked against /proc/vmstat, and every tracing setting of the host is
# compared before and after the case, and after kill -9 and cleanup.
. "$(dirname "$0")/lib.sh"

run "$VMR" test fault --trace bogus
expect_rc "an unknown --trace value is a usage error" 2
expect_err "the error names --trace and the choices" "--trace.*bogus.*none\\|reclaim"
if one_line_err; then ok "the error is one line"; else not_ok "the error is one line ($ERR)"; fi

run "$VMR" test fault --help
expect_out "help lists --trace and --profile" "--trace none\|reclaim.*--profile|--profile"

if ! is_root || [ ! -w /sys/fs/cgroup/memory/cgroup.procs ] && [ ! -w /sys/fs/cgroup/cgroup.procs ]; then
	skip "traced cases" "needs root and a memory cgroup"
	done_testing; exit 0
fi
if ! grep -qw tracefs /proc/filesystems; then
	run "$VMR" test fault --level zero --mem 32M --passes 1 --trace reclaim --json
	expect_rc "without tracefs the case still runs" 0
	expect_json "without tracefs tracing is skipped with a reason" '.info["trace_skipped"].trace | type == "string"'
	skip "traced cases" "no tracefs in /proc/filesystems"
	done_testing; exit 0
fi

# The host's tracing settings, read in a private mount namespace so that
# looking does not mount anything on the host.
snapshot() {
	unshare -m --propagation private sh -c '
		d=$(mktemp -d) && mount -t tracefs nodev "$d" && cd "$d" || exit 1
		for f in tracing_on buffer_size_kb current_tracer trace_clock trace_options set_event \
			 set_event_pid options/event-fork events/vmscan/*/enable events/vmscan/*/filter \
			 events/compaction/*/enable events/filemap/*/enable; do
			printf "%s: %s\n" "$f" "$(tr "\n" " " < "$f")"
		done
		ls instances | sed "s/^/instance: /"
		cd / && umount "$d" && rmdir "$d"'
}
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
before=$(snapshot)
[ -n "$before" ] && ok "snapshot of the host's tracing settings" || not_ok "snapshot of the host's tracing settings"

steal0=$(( $(vmstat pgsteal_anon) + $(vmstat pgsteal_file) ))
scan0=$(( $(vmstat pgscan_anon) + $(vmstat pgscan_file) ))
run "$VMR" test fault --level zero --mem 32M --passes 1 --trace reclaim --json
steal=$(( $(vmstat pgsteal_anon) + $(vmstat pgsteal_file) - steal0 ))
scan=$(( $(vmstat pgscan_anon) + $(vmstat pgscan_file) - scan0 ))
expect_rc "fault --level zero --trace reclaim runs" 0
m() { jq -r --arg n "$1" '.metrics[] | select(.name == $n) | .value' <<< "$OUT"; }
stalls=$(m memcg-reclaim-stalls) reclaimed=$(m reclaim-reclaimed-pages) scanned=$(m reclaim-scanned-pages)
echo "# memcg stalls $stalls, traced reclaimed $reclaimed scanned $scanned; host pgsteal $steal pgscan $scan"
check "the result has the traced metrics" test -n "$stalls" -a -n "$reclaimed" -a -n "$scanned"
check "1.25x the limit stalls in memcg reclaim" awk -v s="$stalls" 'BEGIN { exit !(s > 0) }'
# The workload's reclaim is part of everything the host reclaimed in the
# same time (kswapd and other cgroups can only add to the host's count).
check "traced reclaimed pages <= host pgsteal delta" awk -v t="$reclaimed" -v h="$steal" 'BEGIN { exit !(t > 0 && t <= h) }'
check "traced scanned pages <= host pgscan delta" awk -v t="$scanned" -v h="$scan" 'BEGIN { exit !(t >= 0 && t <= h) }'
expect_json "stall histogram and timeline stored" \
	'(.hists | map(select(.name == "memcg-reclaim-stall")) | length == 1) and
	 (.series | map(select(.name == "memcg-reclaim-stalls")) | .[0].t | length > 0)'
expect_json "metrics carry units and a better direction" \
	'[.metrics[] | select(.name == "memcg-reclaim-stall-time") | .unit == "ns" and .better == "lower"] == [true]'
expect_json "no events dropped" '.info.trace.dropped == 0'
after=$(snapshot)
if [ "$before" = "$after" ]; then ok "tracing settings as before after the case"; else
	not_ok "tracing settings as before after the case"; diff <(echo "$before") <(echo "$after") | sed 's/^/# /'; fi

run "$VMR" test fault --level zero --mem 32M --passes 1 --trace reclaim
expect_rc "the traced text report exits 0" 0
expect_out "the text report shows the stalls" "memcg-reclaim-stalls +[1-9]"
expect_out "and their latency percentiles" "memcg-reclaim-stall +p50"

run "$VMR" test fault --level fast --mem 32M --passes 1 --profile --json
expect_rc "--profile runs" 0
expect_json "perf counts page faults on the child" \
	'[.metrics[] | select(.name == "perf-page-faults") | .value > 0] == [true]'
expect_json_or_skip "perf counts dTLB read misses" '[.metrics[].name] | index("perf-dtlb-read-misses") != null' \
	'.info["perf_unsupported"]["perf-dtlb-read-misses"]'
expect_json_or_skip "profile: top kernel symbols" '.info["profile_top_kernel_symbols"] | length > 0' \
	'.info["profile_skipped"].profile'
run "$VMR" test fault --level fast --mem 32M --passes 1 --json
expect_rc "without --profile the case runs" 0
expect_json "without --profile no perf counter is read" '[.metrics[].name | select(startswith("perf-"))] == []'
expect_json "without --profile nothing is profiled" '.info | has("profile_top_kernel_symbols") | not'

# start_traced KINDS: a long traced fault case in the background ($victim);
# seen=1 once its tracefs instance exists (within 10 s)
start_traced() {
	"$VMR" test fault --level zero --mem 32M --passes 1000 --trace "$1" > /dev/null 2>&1 &
	victim=$!
	seen=
	for _ in $(seq 100); do
		if snapshot | grep -q "^instance: vmregress-$victim-"; then seen=1; break; fi
		sleep 0.1
	done
}

# SIGTERM in the middle of a traced case: the instance goes with the process.
start_traced reclaim
{ kill -TERM "$victim"; wait "$victim"; } 2> /dev/null
[ -n "$seen" ] && ok "SIGTERM: the case was tracing" || not_ok "SIGTERM: the case was tracing"
after=$(snapshot)
if [ "$before" = "$after" ]; then ok "SIGTERM: tracing settings as before, without cleanup"; else
	not_ok "SIGTERM: tracing settings as before, without cleanup"; diff <(echo "$before") <(echo "$after") | sed 's/^/# /'; fi

# kill -9 in the middle of a traced case leaves an instance; cleanup removes
# it (and the sandbox) and the host's tracing is as before.
start_traced all
{ kill -9 "$victim"; wait "$victim"; } 2> /dev/null
[ -n "$seen" ] && ok "a traced case has its own instance" || not_ok "a traced case has its own instance"
run "$VMR" cleanup
expect_rc "cleanup after kill -9" 0
expect_out "cleanup removed the tracing instance" "removed tracing instance instances/vmregress-$victim-"
after=$(snapshot)
if [ "$before" = "$after" ]; then ok "tracing settings as before after kill -9 and cleanup"; else
	not_ok "tracing settings as before after kill -9 and cleanup"; diff <(echo "$before") <(echo "$after") | sed 's/^/# /'; fi

# Suite files take trace = and profile =; vmregress run stores what was traced.
cat > "$T_TMP/traced.ini" <<'INI'
[global]
mem = 32M
swap = file:64M
[fault-zero]
workload = fault
level = zero
passes = 1
trace = reclaim
INI
run "$VMR" run "$T_TMP/traced.ini" --db "$T_TMP/r.db" --json -q
expect_rc "run: a suite with trace = reclaim" 0
expect_json "run: the case's options echo trace = reclaim" '.cases[0].options.trace.trace == "reclaim"'
expect_json "run: the stored result has the stall metrics" \
	'.cases[0].results[0].metrics | map(select(.name == "memcg-reclaim-stalls" and .value > 0)) | length == 1'
printf '[c]\nworkload = null\ntrace = sometimes\n' > "$T_TMP/bad.ini"
run "$VMR" run "$T_TMP/bad.ini" --db "$T_TMP/r.db"
expect_rc "run: a bad trace = in a suite is a usage error" 2
expect_err "run: the error names the file and line" "bad.ini:3: trace"
done_testing
