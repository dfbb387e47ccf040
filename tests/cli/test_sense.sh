# vmregress sense against the real kernel: pagemap of a process with a known
# layout, zones against /proc/zoneinfo, BTF sizes, the fingerprint, vmstat,
# errors, and what an unprivileged user sees.
. "$(dirname "$0")/lib.sh"

HELPER=build/helpers/touch_pages
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
pids=()
cleanup() {
	exec 6>&- 7>&- 8>&- 2>/dev/null
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# start_helper FD PAGES STRIDE MODE [prefix...]: sets HPID and HADDR; the
# helper lives until file descriptor FD closes.
start_helper() {
	local fd=$1 pages=$2 stride=$3 mode=$4; shift 4
	local fifo=$T_TMP/fifo$fd out=$T_TMP/helper$fd
	mkfifo "$fifo"
	"$@" "$HELPER" "$pages" "$stride" $mode < "$fifo" > "$out" &
	HPID=$!
	pids+=("$HPID")
	eval "exec $fd>\"$fifo\""
	for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.05; done
	HADDR=$(cat "$out")
}


if [ ! -x "$HELPER" ]; then not_ok "helper $HELPER is built (make $HELPER)"; exit 1; fi
if ! command -v jq >/dev/null; then skip "sense JSON checks" "jq is not installed"; done_testing; exit 0; fi

# --- pagemap: 4096 pages, every other one touched -> exactly 2048 present
start_helper 7 4096 2 nothp
run "$VMR" sense pagemap "$HPID" --json --vma "$HADDR"
expect_rc "pagemap --json --vma exits 0" 0
expect_json "pagemap --json is one JSON document" 'length == 1 and (.[0] | type) == "object"' --slurp
vma=$(jq -c '.vmas[0]' <<< "$OUT")
[ "$(jq .pages <<< "$vma")" = 4096 ] && ok "the helper's VMA has 4096 pages" || not_ok "4096 pages (got $vma)"
[ "$(jq .present <<< "$vma")" = 2048 ] && ok "exactly 2048 pages present" || not_ok "2048 present (got $vma)"
[ "$(jq .swapped <<< "$vma")" = 0 ] && ok "none swapped" || not_ok "none swapped (got $vma)"
[ "$(jq .exclusive <<< "$vma")" = 2048 ] && ok "the 2048 anon pages are exclusive" || not_ok "2048 exclusive (got $vma)"
[ "$(jq -r .start <<< "$vma")" = "$HADDR" ] && ok "the VMA starts at the helper's address" || not_ok "start (got $vma, want $HADDR)"
expect_json_is "pid is reported" '.pid' "$HPID"
if is_root; then
	[ "$(jq .thp <<< "$vma")" = 0 ] && ok "as root THP is known (0 with MADV_NOHUGEPAGE)" || not_ok "thp (got $vma)"
else
	skip "as root THP is known" "not root"
fi

run "$VMR" sense pagemap "$HPID" --json
expect_rc "pagemap of every VMA exits 0" 0
expect_json_is "the stack is listed" '[.vmas[] | select(.path == "[stack]")] | length' 1
[ "$(jq "[.vmas[] | select(.start == \"$HADDR\")][0].present" <<< "$OUT")" = 2048 ] && ok "2048 present in the full listing" || not_ok "full listing"

# --map: every other page present -> bits 0 and 2 of each group: 0x60|5 = 'e'
run "$VMR" sense pagemap "$HPID" --json --map --vma "$HADDR"
expect_rc "pagemap --json --map exits 0" 0
expect_json_is "encoded map is 1024 x 'e'" '.vmas[0].map' "$(printf 'e%.0s' $(seq 1024))"
expect_json_is "plain map alternates '#' and '.'" '.vmas[0].page_map' "$(printf '#.%.0s' $(seq 2048))"
run "$VMR" sense pagemap "$HPID" --map --vma "$HADDR"
expect_rc "pagemap --map text exits 0" 0
expect_out "text map shows the encoded line" "^    ${HADDR#0x} e{64}$|^    0*${HADDR#0x} e{64}$"
expect_out "text map shows the plain line" "^    0*${HADDR#0x} (#\.){32}$"
expect_out "text table lists the VMA with 2048 present" "^0*${HADDR#0x} +[0-9a-f]+ rw-p +4096 +2048 +0 "

run "$VMR" sense pagemap "$HPID" --vma 0x10
expect_rc "--vma outside every VMA exits 2" 2
expect_err "--vma error names the address" "--vma 0x10: no VMA"
run "$VMR" sense pagemap "$HPID" --vma zz
expect_rc "--vma that is not hex exits 2" 2

# THP: the count from /proc/kpageflags must equal smaps' AnonHugePages
thp_enabled=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
if is_root && [ -r /proc/kpageflags ] && [[ "$thp_enabled" =~ \[(always|madvise)\] ]]; then
	start_helper 6 2048 1 thp
	run "$VMR" sense pagemap "$HPID" --json --vma "$HADDR"
	vstart=$(jq -r '.vmas[0].start' <<< "$OUT")
	kb=$(awk -v a="${vstart#0x}" '$1 ~ "^0*"a"-" {f=1; next} f && /^AnonHugePages:/ {print $2; exit}' /proc/$HPID/smaps)
	thp=$(jq '.vmas[0].thp' <<< "$OUT")
	[ -n "$kb" ] && [ "$thp" = $((kb * 1024 / $(getconf PAGESIZE))) ] && ok "THP pages equal smaps AnonHugePages ($thp)" ||
		not_ok "THP pages ($thp) equal smaps AnonHugePages (${kb:-?} kB)"
	exec 6>&-
else
	skip "THP count" "needs root, /proc/kpageflags and THP enabled"
fi

# --- missing and bad process ids
nopid=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
run "$VMR" sense pagemap "$nopid"
expect_rc "a missing pid exits 2" 2
expect_err "a missing pid is named" "no process $nopid\$"
check "the missing-pid error is one line" one_line_err
kthread=$(awk '$1 == "Name:" && $2 == "kthreadd" {print 2}' /proc/2/status 2>/dev/null)
if [ -n "$kthread" ]; then
	run "$VMR" sense pagemap 2 --json
	expect_rc "a kernel thread's pagemap exits 0" 0
	expect_json_is "a kernel thread has no VMAs" '.vmas' '[]' -c
else
	skip "a kernel thread's pagemap" "pid 2 is not kthreadd here"
fi
run "$VMR" sense pagemap 12abc
expect_rc "a pid that is not a number exits 2" 2
expect_err "the bad pid is named" "'12abc' is not a process id"
run "$VMR" sense pagemap
expect_rc "pagemap without a pid exits 2" 2

# --- zones: watermarks equal /proc/zoneinfo's
run "$VMR" sense zones --json
expect_rc "zones --json exits 0" 0
expect_json "zones --json is one JSON document" 'length == 1 and (.[0] | type) == "object"' --slurp
want=$(awk '/^Node/ {sub(",", "", $2); n = $2; z = $4} $1 == "min" || $1 == "low" || $1 == "high" {printf "%s %s %s %s\n", n, z, $1, $2}' /proc/zoneinfo)
got=$(jq -r '.nodes[] | .node as $n | .zones[] | "\($n) \(.name) min \(.min)\n\($n) \(.name) low \(.low)\n\($n) \(.name) high \(.high)"' <<< "$OUT")
[ "$want" = "$got" ] && ok "zone watermarks equal /proc/zoneinfo" || not_ok "zone watermarks (want: $(head -3 <<< "$want"|tr '\n' ' '), got: $(head -3 <<< "$got"|tr '\n' ' '))"
want=$(awk '$1 == "spanned" {print $2}' /proc/zoneinfo | tr '\n' ' ')
got=$(jq -r '[.nodes[].zones[].spanned] | map(tostring) | join(" ")' <<< "$OUT")
[ "$want" = "$got " ] && ok "spanned equals /proc/zoneinfo" || not_ok "spanned ($want / $got)"
expect_json_is "page_size at the top" '.page_size' "$(getconf PAGESIZE)"
run "$VMR" sense zones
expect_out "zones text has the seed's node heading" "^Node 0$"
expect_out "zones text lays zones side by side" "^ZONE_[A-Z0-9]+ +ZONE_"
expect_out "zones text has watermark rows" "^zone->pages_min += [0-9]+ +zone->pages_min"

# --- structsizes
if [ -r /sys/kernel/btf/vmlinux ]; then
	run "$VMR" sense structsizes --json
	expect_rc "structsizes --json exits 0" 0
	for s in page folio vm_area_struct mm_struct zone pglist_data address_space anon_vma lruvec mem_cgroup swap_info_struct vm_fault task_struct; do
		v=$(jq ".structs.\"$s\"" <<< "$OUT")
		[[ "$v" =~ ^[0-9]+$ && "$v" -gt 0 ]] && ok "structsizes has $s" || not_ok "structsizes has $s (got $v)"
	done
	if [ "$(uname -m)" = x86_64 ]; then
		expect_json_is "struct page is 64 bytes on x86_64" '.structs.page' 64
	else
		skip "struct page is 64 bytes on x86_64" "this is $(uname -m)"
	fi
	run "$VMR" sense structsizes --struct kmem_cache --struct list_head --json
	expect_rc "structsizes --struct exits 0" 0
	expect_json_is "--struct lists only what was asked" '.structs | keys | length' 2
	expect_json_is "list_head is 16 bytes" '.structs.list_head' 16
	run "$VMR" sense structsizes --struct no_such_thing
	expect_rc "an unknown struct exits 2" 2
	expect_err "an unknown struct is named" "no struct no_such_thing in BTF"
else
	skip "structsizes" "no /sys/kernel/btf/vmlinux"
	run "$VMR" sense structsizes
	expect_rc "structsizes without BTF exits 3" 3
fi

# --- system
run "$VMR" sense system --json
expect_rc "system --json exits 0" 0
expect_json "system --json is one JSON document" 'length == 1 and (.[0] | type) == "object"' --slurp
for k in kernel hostname page_size mem_total_bytes swap_total_bytes swaps sysctl thp zswap ksm cgroup psi cpu numa; do
	expect_json "system has $k" 'has($k)' --arg k "$k"
done
expect_json_is "kernel release is uname -r" '.kernel.release' "$(uname -r)"
expect_json_is "vm.swappiness matches" '.sysctl["vm.swappiness"]' "$(cat /proc/sys/vm/swappiness)"
expect_json_is "cpu count is nproc" '.cpu.count' "$(nproc)"
mt=$(( $(awk '/^MemTotal:/ {print $2}' /proc/meminfo) * 1024 ))
expect_json_is "MemTotal in bytes" '.mem_total_bytes' "$mt"
run "$VMR" sense system
expect_out "system text shows the release" "^kernel.release +$(uname -r)"

# --- vmstat
run "$VMR" sense vmstat --interval 50ms --count 3 --fields pgfault,nr_free_pages --json
expect_rc "vmstat --json exits 0" 0
expect_json_is "vmstat --count 3 gives 3 samples" 'length' 3
expect_json_is "--fields picks the counters" '.[0].values | keys | join(",")' nr_free_pages,pgfault
expect_json "sample times increase" '.[2].t_s > .[0].t_s'
run "$VMR" sense vmstat --interval 50ms --count 2
expect_rc "vmstat text exits 0" 0
expect_out "vmstat text has a header" "^ +time_s +nr_free_pages +pswpin"
[ "$(wc -l <<< "$OUT")" = 3 ] && ok "vmstat text: a header and 2 rows" || not_ok "vmstat rows"
# SIGINT once the handler is in place (SigCgt has bit 1), not at a fixed
# time that a slow start on a busy machine could beat
"$VMR" sense vmstat --interval 100ms --fields pgfault --json > "$T_TMP/vmstat.out" 2> "$T_TMP/vmstat.err" &
pid=$!
for _ in $(seq 100); do
	cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	[ -n "$cgt" ] && (( (0x$cgt >> 1) & 1 )) && break
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
wait "$pid"; RC=$?
OUT=$(cat "$T_TMP/vmstat.out"); ERR=$(cat "$T_TMP/vmstat.err")
expect_rc "vmstat ended by SIGINT exits 0" 0
expect_json "vmstat ended by SIGINT still prints its samples" 'type == "array" and length >= 1'
run "$VMR" sense vmstat --fields pgfault,bogus --count 1
expect_rc "an unknown counter exits 2" 2
expect_err "an unknown counter is named" "no counter 'bogus'"
run "$VMR" sense vmstat --interval -1s
expect_rc "a negative interval exits 2" 2

# --- kvirtual
run "$VMR" sense kvirtual --json --top 3
expect_rc "kvirtual --json exits 0" 0
expect_json "kvirtual total" '.total_bytes > 0'
if is_root && [ -r /proc/vmallocinfo ]; then
	expect_json "as root kvirtual counts areas and lists top callers" \
		'.vmallocinfo.areas > 0 and (.vmallocinfo.top_callers | length) <= 3'
else
	skip "as root kvirtual counts areas and lists top callers" "not root, or no /proc/vmallocinfo"
fi

# --- usage
run "$VMR" sense
expect_rc "sense without a view exits 2" 2
run "$VMR" sense frobs
expect_rc "an unknown view exits 2" 2
expect_err "an unknown view is named" "unknown view 'frobs'"
run "$VMR" sense zones extra
expect_rc "extra words exit 2" 2
run "$VMR" sense --help
expect_rc "sense --help exits 0" 0
expect_out "help documents the encoded map" "0x60"

# --- other kernels' files, seen through a private mount namespace (the
# bind mounts vanish with it; the host's /proc and /sys are not touched)
if is_root && unshare -m true 2>/dev/null; then
	fx=tests/fixtures/zoneinfo
	run unshare -m sh -c "mount --bind $fx/linux-2.6.24-two-nodes.txt /proc/zoneinfo && exec \"\$0\" sense zones --json" "$VMR"
	expect_rc "zones of a 2.6.24 kernel exit 0" 0
	[ "$(jq -c '[.nodes[] | {node, n: (.zones | length)}]' <<< "$OUT")" = '[{"node":0,"n":3},{"node":1,"n":1}]' ] &&
		ok "2.6.24: two nodes, 3 + 1 zones" || not_ok "2.6.24 nodes ($OUT)"
	[ "$(jq -c '.nodes[1].zones[0] | [.managed, .high_boost, .high]' <<< "$OUT")" = '[null,null,3783]' ] &&
		ok "2.6.24: no managed or high_boost (null), high read" || not_ok "2.6.24 fields"
	run unshare -m sh -c "mount --bind $fx/linux-2.6.24-two-nodes.txt /proc/zoneinfo && exec \"\$0\" sense zones" "$VMR"
	expect_out "2.6.24 text shows node 1" "^Node 1$"
	expect_out "2.6.24 text marks managed as not reported" "^zone->managed += - "
	run unshare -m sh -c "mount --bind $fx/bad-number.txt /proc/zoneinfo && exec \"\$0\" sense zones" "$VMR"
	expect_rc "a broken zoneinfo exits 3" 3
	expect_err "a broken zoneinfo names file, line and field" "^vmregress: /proc/zoneinfo: line 56: zone DMA: 'min'"
	check "the broken zoneinfo error is one line" one_line_err
	[ -z "$OUT" ] && ok "a broken zoneinfo prints nothing on stdout" || not_ok "stdout empty on error"
	if [ -e /sys/kernel/btf/vmlinux ]; then
		run unshare -m sh -c "mount --bind /dev/null /sys/kernel/btf/vmlinux && exec \"\$0\" sense structsizes" "$VMR"
		expect_rc "structsizes without usable BTF exits 3" 3
		expect_err "and says why" "no BTF: /sys/kernel/btf/vmlinux: not readable as BTF"
	fi
else
	skip "other kernels' files" "needs root and unshare -m"
fi

# --- without root
if is_root && "${NOBODY[@]}" true 2>/dev/null; then
	run "${NOBODY[@]}" "$VMR" sense pagemap 1
	expect_rc "unprivileged pagemap of pid 1 exits 3" 3
	expect_err "unprivileged pagemap says why" "needs root"
	check "the unprivileged error is one line" one_line_err
	for v in zones system structsizes; do
		run "${NOBODY[@]}" "$VMR" sense "$v" --json
		expect_rc "unprivileged sense $v works" 0
	done
	run "${NOBODY[@]}" "$VMR" sense vmstat --count 1 --interval 10ms --json
	expect_rc "unprivileged sense vmstat works" 0
	run "${NOBODY[@]}" "$VMR" sense kvirtual --json
	expect_rc "unprivileged kvirtual shows the totals" 0
	expect_err "unprivileged kvirtual says vmallocinfo needs root" "vmallocinfo: .*needs root"
	start_helper 8 64 1 nothp "${NOBODY[@]}"
	run "${NOBODY[@]}" "$VMR" sense pagemap "$HPID" --json --vma "$HADDR"
	expect_rc "unprivileged pagemap of one's own process works" 0
	expect_json_is "unprivileged: 64 present" '.vmas[0].present' 64
	expect_json_is "unprivileged: THP unknown, not 0" '.vmas[0].thp' null
else
	skip "unprivileged checks" "not root or no setpriv"
fi
done_testing
