#!/usr/bin/env bash
# Speed of the pagemap probe: in-process (pagemap_scan against one pread per
# page, side by side) and the whole `vmregress sense pagemap` command on a
# process holding 1 GiB of touched memory.
cd "$(dirname "$0")/.."
. bench/lib.bash
MIB=${VMR_BENCH_PAGEMAP_MIB:-1024}
make -s build/bench/pagemap_speed build/helpers/touch_pages vmregress
echo "== pagemap probe"
bench_out build/bench/pagemap_speed "$MIB"

echo "== vmregress sense pagemap (whole command: exec, maps, pagemap, JSON)"
tmp=$(mktemp -d)
hpid=
trap 'exec 9>&-; [ -z "$hpid" ] || kill "$hpid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo"
pages=$((MIB * 1024 * 1024 / $(getconf PAGESIZE)))
build/helpers/touch_pages "$pages" 1 < "$tmp/fifo" > "$tmp/addr" &
hpid=$!
exec 9> "$tmp/fifo"
while [ ! -s "$tmp/addr" ]; do
	kill -0 "$hpid" 2> /dev/null || bench_fail "touch_pages $pages 1 exited before giving its address"
	sleep 0.1
done
addr=$(cat "$tmp/addr")
best=
for _ in 1 2 3; do
	t0=$(date +%s%N)
	present=$(bench_out "$VMR" sense pagemap "$hpid" --vma "$addr" --json | jq '.vmas[0].present')
	t=$(( $(date +%s%N) - t0 ))
	[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
done
[ "$present" = "$pages" ] || { echo "sense pagemap counted $present present, want $pages" >&2; exit 1; }
echo "  sense pagemap --vma (best of 3) $(( pages * 1000000000 / best )) pages/s  $(( best / 1000000 )) ms"
