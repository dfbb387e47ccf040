# vmregress test mmap: the seed's four runs (anonymous/file x read/write over
# a smooth_sin trace) in a sandbox smaller than the region, so the replay
# swaps; fault counts against the kernel's; broken input refused.
. "$(dirname "$0")/lib.sh"
D=$T_TMP

"$VMR" refs generate --pages 20000 --references 80000 --pattern smooth_sin -o "$D/t" || not_ok "generate a trace"
run "$VMR" test mmap --refs "$D/cut" --no-sandbox
expect_rc "a missing trace is a usage error" 2
head -c 1000 "$D/t" > "$D/cut"
run "$VMR" test mmap --refs "$D/cut" --no-sandbox
expect_rc "a truncated trace is a usage error" 2
expect_err "a truncated trace is named" "$D/cut: truncated"
run "$VMR" test mmap --no-sandbox
expect_rc "no --refs is a usage error" 2
expect_err "--refs is required" "needs --refs"
run "$VMR" test mmap --refs "$D/t" --anon --file-backed --no-sandbox
expect_rc "two kinds of memory is a usage error" 2
run "$VMR" test mmap --refs "$D/t" --file "$D/cut" --no-sandbox
expect_rc "a user file too small is a usage error" 2
expect_err "a user file too small is refused" "not a regular file of at least"

# unsandboxed, resident: quick, and every read checked
run "$VMR" test mmap --refs "$D/t" --no-sandbox --passes 2 --json
expect_rc "a resident replay runs" 0
py_checks "" "$(cat <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x["value"] for x in d["metrics"]}
t = {x["name"]: x for x in d["tables"]}
assert d["outcome"] == "pass"
assert m["refs-per-sec"] > 0 and m["time"] > 0
assert len(t["passes"]["rows"]) == 2
assert [x for x in d["hists"] if x["name"] == "access-time"][0]["hist"]["count"] == 2 * 80000
# adaptive timing: batches of 32 growing to 1024, so between the two counts
i = d["info"]
assert i["timing_batch"] == 32 and i["timing_batch_max"] == 1024
assert 2 * 80000 // 1024 <= i["timing_batches"] < 2 * 80000 // 32
pages = t["pages"]
assert sum(r[1] for r in pages["rows"]) == 2 * 80000
print("ok - the result has passes, per-page references and metrics")
PY
)"

# the trace file and kernel tracing have their own info keys
run "$VMR" test mmap --refs "$D/t" --no-sandbox
expect_rc "a plain replay runs" 0
expect_no_out "no kernel-tracing section without --trace" "Inside the kernel"
run "$VMR" test mmap --refs "$D/t" --no-sandbox --trace reclaim --json
why=$([ "$RC" = 0 ] && jq -r '.info["trace_skipped"] // empty | tostring' <<< "$OUT" 2>/dev/null)
if [ "$RC" = 3 ]; then
	skip "mmap with --trace" "cannot trace here: ${ERR:0:160}"
elif [ -n "$why" ]; then
	skip "mmap with --trace" "tracing skipped: ${why:0:160}"
else
	expect_rc "mmap with --trace runs" 0
	expect_json "with --trace the result keeps the trace file and the tracing figures apart" \
		'.info.refs == $p and (.info.trace | type) == "object"' --arg p "$D/t"
fi
run "$VMR" test mmap --refs "$D/t" --no-sandbox --timing-batch 0
expect_rc "--timing-batch 0 is a usage error" 2
expect_err "--timing-batch 0 is named" "timing-batch"
run "$VMR" test mmap --refs "$D/t" --no-sandbox --timing-batch 4097
expect_rc "--timing-batch above 4096 is a usage error" 2
run "$VMR" test mmap --refs "$D/t" --no-sandbox --timing-batch-max 65537
expect_rc "--timing-batch-max above 65536 is a usage error" 2
expect_err "--timing-batch-max is named" "timing-batch-max"
run "$VMR" test mmap --refs "$D/t" --no-sandbox --timing-batch 64 --timing-batch-max 64
expect_rc "fixed batches of 64 run" 0
expect_out "fixed batches are reported as such" "1250 batches of 64 to 64 references \\(64\\.0 on average\\)"
# fresh anonymous memory written: every first touch faults, and with a 1ns
# threshold every access (batch) that faulted is slow, kept with its
# length and its faults.  One that did not fault may be timed at 0 ticks
# where the counter is coarser than a resident access (a TSC seen in 10 ns
# steps), so it may or may not be slow (tests/unit/test_refs_replay.c).
for batch in 1 32; do
	# slow batches set the next back to --timing-batch: never longer
	run "$VMR" test mmap --refs "$D/t" --no-sandbox --write --slow 1ns --max-slow 100000000 --timing-batch $batch --json
	expect_rc "a write replay timed in batches of $batch runs" 0
	py_checks "batch $batch: " "$(cat <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); b = int(sys.argv[2])
ok = lambda c, what: print(("ok - " if c else "not ok - ") + what)
t = [x for x in d["tables"] if x["name"] == "slow-accesses"][0]
m = {x["name"]: x["value"] for x in d["metrics"]}
ok(d["outcome"] == "pass" and d["info"]["timing_batch"] == b, "the replay passes in batches of %d" % b)
rows = [dict(zip(t["cols"], r)) for r in t["rows"]]
ok(0 < len(rows) <= (80000 + b - 1) // b and len(rows) == m["slow-accesses"],
   "every slow batch is kept (%d), no more than there are batches" % len(rows))
ok(all(r["ref"] % b == 0 and r["refs"] == min(b, 80000 - r["ref"]) for r in rows) and
   all(x["ref"] < y["ref"] for x, y in zip(rows, rows[1:])), "each is kept with its first reference and length")
faults = sum(r["minflt"] for r in rows)
ok(faults > 0 and faults + d["info"]["faults_unattributed"]["minor"] == m["replay-minor-faults"],
   "the replay's faults (%d) are the slow batches' (%d) and the unattributed" % (m["replay-minor-faults"], faults))
ok(rows[0]["ref"] == 0 and rows[0]["minflt"] >= 1, "the first batch, which faulted, is slow with its fault")
ok([x for x in d["hists"] if x["name"] == "access-time"][0]["hist"]["count"] == 80000, "every reference is timed")
PY
)" "$batch"
done

if ! is_root; then
	skip "the seed's four runs" "needs root for a sandbox"
	done_testing; exit 0
fi
case "$(basename "$VMR")" in
*asan*)	# the sanitizer's own allocator and shadow do not fit a 64M sandbox;
	# the plain binary runs these, the sanitized one the paths above
	skip "the seed's four runs" "the sanitized binary's own memory does not fit the sandbox"
	done_testing; exit 0 ;;
esac
# a 20000-page region (78M) in a 64M sandbox: it must swap
for mem in anon file-backed; do
	for mode in read write; do
		flags="--$mem"; [ $mode = write ] && flags="$flags --write"
		run "$VMR" test mmap --refs "$D/t" $flags --mem 64M --swap file:192M --json
		name="$mem $mode"
		if [ "$RC" = 3 ]; then skip "$name" "cannot build a sandbox here: ${ERR:0:200}"; continue; fi
		expect_rc "$name runs in a sandbox smaller than its region" 0
		py_checks "$mode " "$(cat <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); mem = sys.argv[2]; mode = sys.argv[3]
m = {x["name"]: x["value"] for x in d["metrics"]}
ok = lambda c, what: print(("ok - " if c else "not ok - ") + what)
ok(d["outcome"] == "pass", mem + ": data verified")
if mode == "read":
    ok(m["replay-major-faults"] > 0, mem + ": the replay took major faults (%d)" % m["replay-major-faults"])
else:
    ok(m["replay-minor-faults"] > 0, mem + ": the replay took faults (%d)" % m["replay-minor-faults"])
if mem == "anon":
    ok(m.get("vmstat-pswpout", 0) > 0, mem + ": pages were swapped out (%d)" % m.get("vmstat-pswpout", 0))
# the replay's faults are part of the child's (rusage from wait4), which are
# part of the host's (/proc/vmstat); the slow accesses hold those attributed
for kind in ("major", "minor"):
    a, b = m["replay-%s-faults" % kind], m["%s-faults" % kind]
    ok(a <= b and (kind == "major" or b > 0), mem + ": %s faults of the replay within the process's (%d <= %d)" % (kind, a, b))
# A swap-in counts both the task's major fault and PGMAJFAULT; a file fault
# that waits on a page under I/O is a major fault for the task without
# PGMAJFAULT, so the host bound holds for anonymous memory only.
if mem == "anon":
    ok(m["major-faults"] <= m.get("vmstat-pgmajfault", 0), mem + ": major faults within /proc/vmstat's (%d <= %d)" % (m["major-faults"], m.get("vmstat-pgmajfault", 0)))
ok(m["minor-faults"] + m["major-faults"] <= m.get("vmstat-pgfault", 0), mem + ": faults within /proc/vmstat's pgfault")
slow = [t for t in d["tables"] if t["name"] == "slow-accesses"][0]
ok(len(slow["rows"]) > 0, mem + ": slow accesses are kept by reference")
PY
)" "$mem" "$mode"
	done
done
done_testing
