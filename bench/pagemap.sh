#!/usr/bin/env bash
# Speed of the pagemap probe against its limit, a bare loop that preads
# the same range 512 entries at a time, in the same run:
#  - in-process (bench/pagemap_speed.c), CPU time per page at 4 or 5 sizes
#    of touched 4K pages (16M to 1G, and 8G when memory allows) and of THPs,
#    with THP counts when run as root;
#  - the whole `vmregress sense pagemap` command on another process holding
#    1 GiB against the bare loop as a program, and both on 16 pages: the
#    start-up cost (exec, maps, JSON) named apart from the per-page cost.
# Rows as bench/lib.sh says; ratio: vmregress / bare (target <= 1.11, that
# is at least 0.9x the bare loop's speed).
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=${VMR:-./vmregress}
ROUNDS=${ROUNDS:-11}
make -s build/bench/pagemap_speed build/helpers/touch_pages vmregress
avail_mib=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
sizes="16 64 256 1024"
[ "$avail_mib" -gt 12288 ] && sizes="$sizes 8192"
[ "$(id -u)" = 0 ] || echo "not root: no THP counts (the rows say so)"
VMR_BENCH_ROUNDS=$ROUNDS bench_out build/bench/pagemap_speed $sizes
VMR_BENCH_ROUNDS=$ROUNDS bench_out build/bench/pagemap_speed thp 256 1024

tmp=$(mktemp -d)
hpid= spid=
trap 'exec 9>&-; kill $hpid $spid 2>/dev/null; rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo"
pages=$((1024 * 1024 * 1024 / $(getconf PAGESIZE)))
build/helpers/touch_pages "$pages" 1 < "$tmp/fifo" > "$tmp/addr" &
hpid=$!
build/helpers/touch_pages 16 1 < "$tmp/fifo" > "$tmp/saddr" &
spid=$!
exec 9> "$tmp/fifo"
while [ ! -s "$tmp/addr" ] || [ ! -s "$tmp/saddr" ]; do sleep 0.1; done
addr=$(cat "$tmp/addr") saddr=$(cat "$tmp/saddr")
present=$(bench_out "$VMR" sense pagemap "$hpid" --vma "$addr" --json | jq -e '.vmas[0].present')
[ "$present" = "$pages" ] || bench_fail "sense pagemap counted $present present, want $pages"
bare=$(bench_out build/bench/pagemap_speed read "$hpid" "$addr" "$pages")
[ "$bare" = "$pages" ] || bench_fail "the bare loop counted $bare present, want $pages"
bench_pair "sense pagemap --vma, 1G touched (whole command), ms" "$ROUNDS" 1000000 \
	"$VMR" sense pagemap "$hpid" --vma "$addr" --json :: build/bench/pagemap_speed read "$hpid" "$addr" "$pages"
bench_pair "sense pagemap --vma, 16 pages (start-up), ms" "$ROUNDS" 1000000 \
	"$VMR" sense pagemap "$spid" --vma "$saddr" --json :: build/bench/pagemap_speed read "$spid" "$saddr" 16
