# What this host cannot run, in guests of the kernel matrix: proactive
# reclaim through cgroup v2's memory.reclaim (swappiness= a skip before
# 6.7), MGLRU switched on and off with its knob, mthp with its per-size
# counters on 6.8+ (a skip naming the size before), and a case whose knob
# the guest's kernel lacks (zswap in Debian's cloud kernels) a skip while
# the others run; the senpai-like memory.high walk; and the two guests'
# runs compared.  Two guests, 25-50 s each under TCG; skipped in the ASan
# pass and with VMR_NO_GUEST=1 (as test_matrix.sh).
. "$(dirname "$0")/lib.sh"
K1=${VMR_TEST_KERNEL:-linux-image-6.1.0-57-cloud-amd64}
K2=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "modern cases in guests" "guests are off"; done_testing; exit 0; fi
if [ ! -x "$(dirname "$VMR")/vmregress-static" ] && [ ! -x "$(dirname "$VMR")/build/vmregress-static" ]; then
	skip "modern cases in guests" "no build/vmregress-static (make build/vmregress-static)"; done_testing; exit 0
fi
if ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "modern cases in guests" "needs jq and qemu-system-x86_64"; done_testing; exit 0
fi
cat > "$T_TMP/m.ini" <<'INI'
[global]
iterations = 1
mem = 64M
swap = file:128M
timeout = 300s
[reclaim]
workload = reclaim
[reclaim-swappiness0]
workload = reclaim
swappiness = 0
[mthp]
workload = mthp
sizes = 16K,64K
size = 8M
set = thp.16K.enabled=madvise
set = thp.64K.enabled=madvise
[zswap]
workload = zswap
mem = 32M
; a guest's boot is thrown away: what turning zswap on leaves does not last
force = yes
set = zswap.enabled=Y
[senpai]
workload = senpai
; coarser and shorter steps than the defaults: the walk is emulated
step = 0.1
interval = 250ms
[lru-gen-on]
workload = reclaim
set = lru_gen.enabled=0x0007
[lru-gen-off]
workload = reclaim
set = lru_gen.enabled=0x0000
INI
run "$VMR" matrix --kernel "$K1" --kernel "$K2" --suite "$T_TMP/m.ini" --timeout 600s --name mod \
	--db "$T_TMP/r.db" --log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && registry_unreachable "$K1" "$K2"; then
	skip "modern cases in guests" "Debian's package registry cannot be reached: ${ERR:0:200}"; done_testing; exit 0
fi
expect_rc "the guests run the modern cases (exit 0)" 0
echo "$OUT" > "$T_TMP/matrix.json"
expect_json "both guests came back" '[.guests[] | select(.version)] | length == 2'
# knob CASE NAME: the value knob NAME had in the sandbox of CASE's
# iteration, as stored with it, in the guest's run
knob() {
	sqlite3 "$T_TMP/r.db" "SELECT json_extract(i.result, '\$.info.sandbox.knobs.\"$2\".value') FROM iterations i
		JOIN cases c ON i.case_id = c.id JOIN runs r ON c.run_id = r.id WHERE r.name = 'mod-$label' AND c.name = '$1'"
}
envq() { jq -e "$1" "$T_TMP/run.json" >/dev/null; }
case_is() { jq -e --arg c "$1" "[.cases[] | select(.name == \$c) | $2] | length == 1" "$T_TMP/run.json" >/dev/null; }
m() { jq -r --arg c "$1" --arg n "$2" '.cases[] | select(.name == $c) | .metrics[] | select(.name == $n) | .mean' "$T_TMP/run.json"; }
before() { [ "$(printf '%s\n' "$1" "$v" | sort -V | head -1)" != "$1" ]; }  # the guest's kernel is older than $1
for label in $(jq -r '.guests[].version' "$T_TMP/matrix.json"); do
	v=${label%%-*}; v=${v%%+*}
	run "$VMR" show "mod-$label" --db "$T_TMP/r.db" --json
	expect_rc "$v: the guest's run is stored" 0
	echo "$OUT" > "$T_TMP/run.json"
	if envq '.env.cgroup.memory_controller == "v2"'; then
		check "$v: reclaim passes under cgroup v2" case_is reclaim '.outcomes.pass == 1'
		check "$v: and took memory from the sandbox ($(m reclaim reclaimed-bytes) bytes)" case_is reclaim \
			'.metrics[] | select(.name == "reclaimed-bytes") | select(.mean > 0)'
		ws=$((64 * 1024 * 1024 / 2))
		echo "# $v: senpai: memory-needed $(m senpai memory-needed) for a working set of $ws;" \
			"stall $(m senpai stall-at-target) at memory.high $(m senpai high-at-target), $(m senpai steps) steps"
		check "$v: senpai passes under cgroup v2" case_is senpai '.outcomes.pass == 1'
		check "$v: its stall passed the target" [ "$(m senpai target-reached)" = 1 ]
		check "$v: at a memory.high below what it needed" \
			awk -v a="$(m senpai high-at-target)" -v b="$(m senpai memory-needed)" 'BEGIN { exit !(a > 0 && a < b) }'
		# how far below the working set the stall stays under the target
		# depends on how fast the emulated guest runs its reads (0.73-1.0
		# seen): a slower guest refaults less per interval
		check "$v: which is about the working set, read over and over ($(m senpai memory-needed-ratio)x)" \
			awk -v r="$(m senpai memory-needed-ratio)" 'BEGIN { exit !(r > 0.5 && r < 1.5) }'
	else
		skip "$v: reclaim" "the guest's memory controller is not v2"
		skip "$v: senpai" "the guest's memory controller is not v2"
	fi
	if before 6.7; then
		check "$v: swappiness= is a skip that says so" case_is reclaim-swappiness0 \
			'select(.outcomes.skip == 1) | .reasons[] | select(.reason | test("takes no swappiness"))'
	else
		check "$v: swappiness=0 passes" case_is reclaim-swappiness0 '.outcomes.pass == 1'
	fi
	if envq '.env.lru_gen.available'; then
		check "$v: reclaim with MGLRU on and off both pass" case_is lru-gen-on '.outcomes.pass == 1'
		check "$v: (off)" case_is lru-gen-off '.outcomes.pass == 1'
		# (the kernel keeps of the mask only the features it has)
		on=$(knob lru-gen-on lru_gen.enabled) off=$(knob lru-gen-off lru_gen.enabled)
		check "$v: MGLRU was on while lru-gen-on ran (mask $on)" \
			bash -c '[[ $1 =~ ^0x[0-9a-f]+$ ]] && (( $1 & 1 ))' _ "$on"
		check "$v: and off while lru-gen-off ran (mask $off)" [ "$off" = 0x0000 ]
	fi
	if envq '.env.zswap.available | not'; then
		check "$v: no zswap: its case is a skip naming the knob" case_is zswap \
			'select(.outcomes.skip == 1) | .reasons[] | select(.reason | test("--set zswap.enabled: this kernel has no"))'
	fi
	if envq '.env.thp.sizes["64K"]'; then
		fa=$(m mthp fault-alloc-64K); so=$(m mthp swpout-64K); sf=$(m mthp swpout-fallback-64K)
		echo "# $v: mthp 64K fault-alloc $fa swpout $so swpout-fallback $sf"
		check "$v: mthp passes" case_is mthp '.outcomes.pass == 1'
		check "$v: 8M is 128 folios of 64K" [ "$fa" = 128 ]
		check "$v: each went out whole or split ($so + $sf)" [ "$(awk -v a="$so" -v b="$sf" 'BEGIN { print a + b }')" = 128 ]
	else
		check "$v: no mTHP: mthp is a skip" case_is mthp '.outcomes.skip == 1'
	fi
done
# the guests' runs are ordinary runs: compare one kernel's with the other's
labels=($(jq -r '.guests[].version' "$T_TMP/matrix.json"))
if [ "${#labels[@]}" = 2 ]; then
	run "$VMR" compare "mod-${labels[0]}" "mod-${labels[1]}" --db "$T_TMP/r.db" --json
	expect_rc "compare takes the two guests' runs" 0
	expect_json "and compares senpai's memory-needed between the kernels" \
		'[.. | objects | select(.metric? == "memory-needed" or .name? == "memory-needed")] | length > 0'
fi
done_testing
