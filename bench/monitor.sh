#!/usr/bin/env bash
# The monitor's overhead: CPU time of its thread against elapsed time at the
# default 1 s interval (the goal: under 1%) and at the 50 ms minimum, with
# the process's CPU with and without a monitor side by side.
# Usage: bench/monitor.sh [SECONDS]   (default 10)
cd "$(dirname "$0")/.."
. bench/lib.bash
# built by the Makefile's build/bench/% rule: the library and every library it needs
make -s --no-print-directory build/bench/monitor_overhead
echo "== monitor overhead"
bench_out build/bench/monitor_overhead "${1:-10}"
