# A case whose --set names a knob this kernel lacks (MGLRU, an mTHP size,
# zswap) is a skip with the reason, and the suite's other cases still run:
# one suite serves kernels with and without the feature (the matrix).
. "$(dirname "$0")/sandbox-lib.bash"
if ! command -v jq >/dev/null; then skip "missing knobs in a run" "jq is not installed"; done_testing; exit 0; fi
missing=
for k in lru_gen.enabled=0x0007:/sys/kernel/mm/lru_gen/enabled thp.8K.enabled=always:/sys/kernel/mm/transparent_hugepage/hugepages-8kB/enabled \
	zswap.shrinker_enabled=Y:/sys/module/zswap/parameters/shrinker_enabled; do
	[ -e "${k#*:}" ] || { missing=${k%%:*}; break; }
done
if [ -z "$missing" ]; then skip "missing knobs in a run" "this kernel has every knob tried"; done_testing; exit 0; fi
knobs_watch  # a snapshot of the knobs, compared at the end
before=$(knobs_snap)
cat > "$T_TMP/s.ini" <<INI
[global]
iterations = 2
mem = 32M
swap = none
[lacking]
workload = null
set = $missing
[plain]
workload = null
INI
run "$VMR" run "$T_TMP/s.ini" --db "$T_TMP/r.db" --json
expect_rc "a run with a case lacking its knob exits 0" 0
expect_json "that case is a skip, each iteration, naming the knob (${missing%%=*})" \
	'[.cases[] | select(.name == "lacking") | .results[] | select(.outcome == "skip" and
	(.reason | startswith("--set " + $k + ": this kernel has no ")))] | length == 2' --arg k "${missing%%=*}"
expect_json "the other case ran" '[.cases[] | select(.name == "plain") | .results[] | select(.outcome == "pass")] | length == 2'
expect_err "the skip is said on standard error" "lacking iteration 1: skip: --set ${missing%%=*}"
run "$VMR" test null --set "$missing"
expect_rc "vmregress test with that knob still refuses: exit 3" 3
check "every knob is as it was" knobs_same "$before"
done_testing
