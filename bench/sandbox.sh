#!/usr/bin/env bash
# The sandbox's costs, measured side by side in one run:
#  - building and removing a sandbox (swap none, a swap file, zram) around
#    /bin/true, against running /bin/true under 'sandbox exec --no-sandbox';
#  - a program touching 1.5x the limit with a swap file against zram;
#  - what 'sandbox exec --no-sandbox' adds to a program that does not swap,
#    against the same program run bare (target: within 5%).
# Each figure is the best of ROUNDS (the least disturbed by other work); a
# round whose command fails stops the benchmark, naming the command.
cd "$(dirname "$0")/.."
. bench/lib.bash
if [ "$(id -u)" != 0 ]; then echo "sandbox bench: skipped (needs root)"; exit 0; fi
rounds=${ROUNDS:-5}
state=$(mktemp -d); chmod 700 "$state"
trap 'VMREGRESS_STATE_DIR=$state "$VMR" cleanup >/dev/null 2>&1; rm -rf "$state"' EXIT
export VMREGRESS_STATE_DIR=$state
mkdir -p build/bench
cc -O2 -o build/bench/memfill tests/helpers/memfill.c
now() { date +%s.%N; }
best_of() { # best_of CMD...: fastest wall time in seconds
	local b="" t0 t1
	for ((i = 0; i < rounds; i++)); do
		t0=$(now); bench_run "$@"; t1=$(now)
		b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}
# A sandbox is built and described before anything is timed (a command
# that printed nothing or no sandbox is not a sandbox exec).
desc=$(bench_out "$VMR" sandbox exec --json --mem 64M --swap none -- true)
jq -e '.sandbox.limit_bytes == 67108864' <<< "$desc" > /dev/null ||
	bench_fail "'$VMR sandbox exec --json --mem 64M --swap none -- true' did not describe its 64M sandbox"
bare_true=$(best_of "$VMR" sandbox exec --no-sandbox -- true)
none=$(best_of "$VMR" sandbox exec --mem 64M --swap none -- true)
file=$(best_of "$VMR" sandbox exec --mem 64M --swap file -- true)
zram=$(best_of "$VMR" sandbox exec --mem 64M --swap zram -- true)
awk -v b="$bare_true" -v n="$none" -v f="$file" -v z="$zram" 'BEGIN {
	printf "sandbox set-up and tear-down around /bin/true: unsandboxed %.1f ms; cgroup only %.1f ms (%.1fx); + 128M swap file %.1f ms (%.1fx); + 128M zram %.1f ms (%.1fx)\n",
		b * 1000, n * 1000, n / b, f * 1000, f / b, z * 1000, z / b
}'
swf=$(best_of "$VMR" sandbox exec --mem 64M --swap file -- build/bench/memfill 96)
swz=$(best_of "$VMR" sandbox exec --mem 64M --swap zram -- build/bench/memfill 96)
awk -v f="$swf" -v z="$swz" 'BEGIN {
	printf "96M touched and checked under a 64M limit: swap file %.0f ms, zram %.0f ms, zram/file ratio %.2f\n",
		f * 1000, z * 1000, z / f
}'
raw=$(best_of build/bench/memfill 64 4)
wrapped=$(best_of "$VMR" sandbox exec --no-sandbox -- build/bench/memfill 64 4)
awk -v r="$raw" -v w="$wrapped" 'BEGIN {
	x = w / r
	printf "exec measurement overhead on a 64M non-swapping program: bare %.0f ms, sandbox exec --no-sandbox %.0f ms, ratio %.3f (target <= 1.05) %s\n",
		r * 1000, w * 1000, x, (x <= 1.05 ? "ok" : "ABOVE TARGET")
}'
awk -v r="$raw" -v w="$wrapped" 'BEGIN { exit !(r > 0 && w / r <= 1.05) }' ||
	bench_fail "sandbox exec's measurement overhead is above its target of 1.05"
