#!/usr/bin/env bash
# The monitor's overhead: CPU time of its thread against elapsed time at the
# default 1 s interval (the goal: under 1%) and at the 50 ms minimum, with
# the process's CPU with and without a monitor side by side.
# Usage: bench/monitor.sh [SECONDS]   (default 10)
set -eu
cd "$(dirname "$0")/.."
make -s --no-print-directory vmregress
objs=$(ls build/obj/*/*.o | grep -v '/cmd/')
mkdir -p build/bench
cc -O2 -std=gnu11 -D_GNU_SOURCE -Isrc $(pkg-config --cflags jansson) -o build/bench/monitor_overhead \
	bench/monitor_overhead.c $objs $(pkg-config --libs jansson gsl inih libbpf sqlite3) -lpthread -lm
echo "== monitor overhead"
build/bench/monitor_overhead "${1:-10}"
