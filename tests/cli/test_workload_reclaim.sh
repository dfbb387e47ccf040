# The reclaim workload: proactive reclaim through cgroup v2's
# memory.reclaim where the sandbox is a v2 cgroup; on a host whose memory
# controller is v1 a skip that says why.
. "$(dirname "$0")/sandbox-lib.bash"
if ! command -v jq >/dev/null; then skip "reclaim" "jq is not installed"; done_testing; exit 0; fi
metric() { jq -r --arg n "$1" '.metrics[] | select(.name == $n) | .value' <<< "$OUT"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 > b + 0) }'; }

run "$VMR" test reclaim --mem 64M --requests 0
expect_rc "--requests 0: exit 2" 2
run "$VMR" test reclaim --mem 64M --swappiness 201
expect_rc "--swappiness 201: exit 2" 2

mc=$("$VMR" sense system --json | jq -r '.cgroup.memory_controller // empty')
[ -n "$mc" ] && ok "the memory controller is $mc" || not_ok "sense system names the memory controller"
run "$VMR" test reclaim --mem 64M --json
if [ "$mc" = v1 ]; then
	expect_rc "a v1 memory cgroup: a skip (exit 3)" 3
	expect_json "... that says why" '.outcome == "skip" and (.reason | test("needs cgroup v2.s memory.reclaim"))'
	skip "proactive reclaim figures" "no cgroup v2 memory.reclaim here (the matrix runs it in guests)"
	done_testing; exit 0
fi
expect_rc "v2: reclaim passes with every page checked" 0
asked=$(metric asked-bytes); got=$(metric reclaimed-bytes)
echo "# asked $asked reclaimed $got latency $(metric reclaim-latency-mean)ns refaults $(metric refaults)"
check "v2: something was reclaimed ($got of $asked)" gt "$got" 0
expect_json "v2: each request is timed" '.hists[]? | select(.name == "reclaim-latency") | .hist.count == 8'
run "$VMR" test reclaim --mem 64M --swappiness 0 --json
if [ "$(printf '%s\n' 6.7 "$(uname -r)" | sort -V | head -1)" = 6.7 ]; then
	expect_rc "v2: swappiness=0 is passed on (6.7 on)" 0
else
	expect_rc "v2: before 6.7 swappiness=0 is a skip (exit 3)" 3
	expect_err "... saying so" "memory.reclaim takes no swappiness= \(6.7 on\)"
fi
run "$VMR" test reclaim --mem 64M --corrupt-page 100
expect_rc "v2: a page damaged while away fails (exit 1)" 1
done_testing
