#!/usr/bin/env bash
# Reference traces: generation speed and the replay harness's overhead over
# a bare loop (bench/refs_bench.c), built against the library objects.
cd "$(dirname "$0")/.."
. bench/lib.bash
make -s vmregress
mkdir -p build/bench
# an archive, so that only the objects the benchmark needs are linked
rm -f build/bench/libvmr.a
ar rcs build/bench/libvmr.a $(find build/obj -name '*.o' ! -path 'build/obj/cmd/*' ! -name main.o)
cc -O2 -g -std=gnu11 -D_GNU_SOURCE -ffp-contract=off -Isrc $(pkg-config --cflags jansson) \
	-o build/bench/refs_bench bench/refs_bench.c build/bench/libvmr.a $(pkg-config --libs jansson zlib) -lm -lpthread
echo "== reference traces"
# on one CPU where taskset can pin it; a failure of the benchmark itself is not retried
if command -v taskset > /dev/null && taskset -c "${VMR_BENCH_CPU:-0}" true 2> /dev/null; then
	bench_out taskset -c "${VMR_BENCH_CPU:-0}" build/bench/refs_bench "$@"
else
	bench_out build/bench/refs_bench "$@"
fi
