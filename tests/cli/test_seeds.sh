# The seed programs as the originals ran them: sp_tester's sizing, reads
# of every byte and zero fill (reread), and the seeds suite's settings.
. "$(dirname "$0")/lib.sh"

json_ok() { # json_ok NAME FILTER: the last run printed JSON for which FILTER holds
	if [ -z "$OUT" ]; then not_ok "$1 (no output; exit $RC; stderr: ${ERR:0:200})"
	elif jq -e "$2" <<< "$OUT" >/dev/null 2>&1; then ok "$1"
	else not_ok "$1 (stdout: ${OUT:0:300}; stderr: ${ERR:0:200})"; fi
}
metric() { printf "(.metrics[] | select(.name == \"%s\") | .value)" "$1"; }

# The seeds suite runs LTP's mtest01 -w (no read-back) and mmap001's loop.
SUITE=$(dirname "$0")/../../suites/seeds.ini
mt=$(awk '/^\[mtest01/ { s = 1; next } /^\[/ { s = 0 } s && /^check *= *no/' "$SUITE" | wc -l)
[ "$mt" -ge 1 ] && ok "the seeds suite runs mtest01 as LTP's -w (check = no)" \
	|| not_ok "the seeds suite runs mtest01 as LTP's -w (check = no)"

# fault at level min fills the limit with swap cache; with the statistics
# 50ms old it was OOM-killed in about 1 run of 20, at 10ms never
# (docs/seeds.md): the suite measures it with the fresher statistics.
fm=$(awk '/^\[fault-min\]/ { s = 1; next } /^\[/ { s = 0 } s && /^stats-flush *= *10ms/' "$SUITE" | wc -l)
check "the seeds suite's fault-min reads the statistics every 10ms" [ "$fm" = 1 ]
if is_root; then
	awk '/^\[/ { s = ($0 == "[global]" || $0 == "[fault-min]") } s' "$SUITE" > "$T_TMP/fault-min.ini"
	run "$VMR" run "$T_TMP/fault-min.ini" --iterations 1 --db "$T_TMP/fm.db" --name fm --quiet
	expect_rc "the seeds suite's fault-min runs and passes" 0
	run "$VMR" show fm --db "$T_TMP/fm.db" --json
	expect_json "its statistics were read every 10ms" '.cases[0].options.sandbox["stats-flush"] == 10000000'
else
	skip "the seeds suite's fault-min runs and passes" "needs root"
fi

# sense pagemap (the seed's pagemap.o): soft-dirty is "-" and null where
# the kernel keeps no soft-dirty bits, a count where it does.
kconfig() { # the running kernel's config, or nothing
	if [ -r /proc/config.gz ]; then zcat /proc/config.gz
	elif [ -r "/boot/config-$(uname -r)" ]; then cat "/boot/config-$(uname -r)"; fi
}
sd=$(kconfig | grep -E '^(# )?CONFIG_MEM_SOFT_DIRTY[ =]')
sleep 30 & sleeper=$!
run "$VMR" sense pagemap $sleeper --json
expect_rc "sense pagemap --json runs" 0
case "$sd" in
"# CONFIG_MEM_SOFT_DIRTY is not set")
	json_ok "without CONFIG_MEM_SOFT_DIRTY soft_dirty is null, never 0" '[.vmas[].soft_dirty] | length > 0 and all(. == null)'
	run "$VMR" sense pagemap $sleeper
	expect_rc "sense pagemap runs" 0
	if [ -n "$OUT" ] && awk 'NR > 2 && $9 != "-" { bad = 1 } END { exit !(NR > 2 && !bad) }' <<< "$OUT"; then
		ok "and '-' in the text's softdirty column"
	else
		not_ok "and '-' in the text's softdirty column (stdout: ${OUT:0:300})"
	fi ;;
CONFIG_MEM_SOFT_DIRTY=y)
	json_ok "with CONFIG_MEM_SOFT_DIRTY soft_dirty is a count" '[.vmas[].soft_dirty] | length > 0 and all(type == "number")' ;;
*)
	skip "soft-dirty follows CONFIG_MEM_SOFT_DIRTY" "the kernel's config is not readable here" ;;
esac
kill $sleeper 2>/dev/null; wait $sleeper 2>/dev/null

if ! is_root; then
	skip "seed workloads in a sandbox" "needs root"
	done_testing; exit 0
fi
if [ ! -d /sys/fs/cgroup/memory ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	skip "seed workloads in a sandbox" "no memory cgroup controller"
	done_testing; exit 0
fi
export TMPDIR=$T_TMP/work
mkdir -p "$TMPDIR"

# sp_tester's formula: min(256M + 128M/2, 1.5 x 256M) = 320M, 160M each;
# 0.75x each (384M) did not fit in 256M + 128M and was OOM-killed.
run "$VMR" test reread --mem 256M --swap file:128M --timeout 120s --sleep 0 --json
expect_rc "reread --mem 256M --swap file:128M passes" 0
json_ok "its buffers are 160M each, by sp_tester's formula" '.info.first_bytes == 167772160 and .info.second_bytes == 167772160'
json_ok "it reads every byte by default, and says so" '.info.touch == "byte" and .info.fill == "pattern"'
# (whether they come back with I/O or from the swap cache is the kernel's
# choice: pages in swap when the re-read begins is what sp_tester is for)
json_ok "the first buffer was pushed out to swap" "$(metric swapped-before-reread) > 1000"

SB=(--mem 64M --timeout 60s)
for touch in line page; do
	run "$VMR" test reread "${SB[@]}" --sleep 0 --touch $touch --json
	expect_rc "reread --touch $touch runs" 0
	json_ok "reread --touch $touch is stored" ".info.touch == \"$touch\" and .options.touch == \"$touch\""
done
if grep -q '^swpout_zero ' /proc/vmstat; then
	run "$VMR" test reread "${SB[@]}" --sleep 0 --fill zero --json
	expect_rc "reread --fill zero (sp_tester's memset) runs" 0
	json_ok "zero-filled pages go to swap as swpout_zero" "$(metric swpout-zero) > 1000"
	json_ok "and come back as swpin_zero" "$(metric swpin-zero) > 1000"
	run "$VMR" test reread "${SB[@]}" --sleep 0 --json
	json_ok "a patterned buffer goes to swap too" "$(metric swapped-before-reread) > 1000 and $(metric pswpout-before-reread) >= 0"
else
	skip "reread --fill zero shows swpout_zero" "this kernel has no swpout_zero counter (before Linux 6.12)"
fi
for fill in pattern zero; do
	run "$VMR" test reread "${SB[@]}" --sleep 0 --fill $fill --corrupt-page 100
	expect_rc "reread --fill $fill catches a damaged page" 1
	expect_err "reread --fill $fill names the page" 'page 100 of [0-9]+ read back wrong data on the re-read'
done

# The fault test's signature output: the map at the bottom of every
# report, and the level said in the sandbox's terms.
run "$VMR" test fault "${SB[@]}" --level low --passes 1
expect_rc "fault --level low runs" 0
expect_out "fault prints the seed's map by default" "^Map pass1 in the seed's encoding"
expect_out "and the map's lines" '^       0 [o`]'
expect_out "the report names what level low stands for" "^ o level low: between 80% and 95% of the limit, the sandbox's stand-in for pages_min\.\.pages_low$"
run "$VMR" test fault "${SB[@]}" --pages 500 --passes 1 --no-map
expect_rc "fault --no-map runs" 0
if grep -q '^Map ' <<< "$OUT"; then not_ok "--no-map leaves the map out"; else ok "--no-map leaves the map out"; fi
expect_out "with --pages the report says the level does not apply" '^ o --pages or --size set the pages, not the level$'
run "$VMR" test fault --help
OUT=$(tr -s ' \n' '  ' <<< "$OUT")  # help is wrapped: read it as one line
expect_out "fault --help names the stand-ins" 'low: between 80% and 95% of the limit, pages_min\.\.pages_low'

left=$(ls -A "$TMPDIR")
[ -z "$left" ] && ok "no work directories or files are left behind" \
	|| not_ok "no work directories or files are left behind ($left)"
done_testing
