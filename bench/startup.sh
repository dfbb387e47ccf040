#!/usr/bin/env bash
# Fixed costs, whole commands against their references, in one run:
#  - `test null --no-sandbox` against a bare fork, exec and wait of
#    /bin/true (bench/forkexec.c); target: within 2x;
#  - `sandbox exec` around /bin/true with a cgroup alone, with a swap file
#    and with zram, against `sandbox exec --no-sandbox` around it: the
#    difference is the sandbox's set-up and tear-down (targets: <= 40 ms
#    with a swap file, <= 60 ms with zram).  Root only.
# bench/phases.py splits one such command's time into its phases (dynamic
# loading, fsync, swapon/swapoff, zram, cgroup) from an strace.
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
ROUNDS=${ROUNDS:-11}
make -s vmregress
mkdir -p build/bench
cc -O2 -o build/bench/forkexec bench/forkexec.c
bench_pair "test null --no-sandbox vs fork/exec/wait of true, ms" "$ROUNDS" 1000000 \
	"$VMR" test null --no-sandbox :: build/bench/forkexec
if [ "$(id -u)" != 0 ]; then
	echo "sandbox set-up: skipped (needs root)"
	exit 0
fi
state=$(mktemp -d)
chmod 700 "$state"
trap 'VMREGRESS_STATE_DIR=$state "$VMR" cleanup >/dev/null 2>&1; rm -rf "$state"' EXIT
export VMREGRESS_STATE_DIR=$state
for swap in none file zram; do
	bench_pair "sandbox exec --swap $swap -- true vs --no-sandbox, ms" "$ROUNDS" 1000000 \
		"$VMR" sandbox exec --mem 64M --swap "$swap" -- true :: "$VMR" sandbox exec --no-sandbox -- true
done
