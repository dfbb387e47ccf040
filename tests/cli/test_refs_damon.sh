# refs record --method damon: a process that writes a known hot region
# between two cold ones (tests/helpers/touch_region) is recorded through
# DAMON's sysfs interface, the trace's most referenced pages are the hot
# region's, and `test mmap --refs` replays it; DAMON is put back as it was
# after a normal exit, SIGINT, and kill -9 + cleanup, a blank kdamond is
# filled and emptied again, and DAMON in use (a kdamond on, or configured
# and off) is refused without a change.
#
# On a host whose DAMON cannot be used (this one: no virtual-address
# operations, and a kdamond the platform keeps on), the refusal is checked
# here, with DAMON's files the same after it, and the recording runs in a
# Debian 6.12 guest (TCG, about a minute; skipped under ASan and with
# VMR_NO_GUEST=1, as the other guest tests).
. "$(dirname "$0")/lib.sh"
A=/sys/kernel/mm/damon/admin
HELPER=build/helpers/touch_region
K=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
HOT=512 COLD=4096

run "$VMR" refs record --method damon -o "$T_TMP/t"
expect_rc "no --pid exits 2" 2
expect_err "and says so" "needs --pid PID"
run "$VMR" refs record --method damon --pid 4194000 -o "$T_TMP/t"
expect_rc "a missing process exits 2" 2
expect_err "and is named" "4194000: no such process"

# Every DAMON file but the counters the running kdamond keeps moving.
damon_files() {
	find "$A" -type f ! -path '*/stats/*' ! -path '*/tried_regions/*' ! -name effective_bytes | sort |
		while read -r f; do printf '%s=%s\n' "$f" "$(cat "$f" 2>&1)"; done
}

# The recording itself, as a script for busybox sh: on this host when its
# DAMON is free, else in the guest.  It prints NAME=VALUE facts and the
# trace's `refs show --json` between "== show" and "== end".
cat > "$T_TMP/damon.sh" <<'SH'
V=${1:-/vmregress} T=${2:-/touch_region} HOT=${3:-512} COLD=${4:-4096} W=${5:-/tmp}
D=/sys/kernel/mm/damon/admin/kdamonds
fact() { echo "$1=$2"; }
nr() { cat $D/nr_kdamonds; }
st() { # DAMON answers EBUSY while a command runs
	for i in 1 2 3 4 5 6 7 8 9 10; do s=$(cat $D/$1/state 2>/dev/null) && [ -n "$s" ] && break; sleep 0.1; done
	echo "$s"
}
on_soon() { # until kdamond $1 is on, up to 20 s
	i=0; while [ "$(cat $D/$1/state 2>/dev/null)" != on ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
}
fact nr_before "$(nr)"
$T $HOT $COLD > $W/addr & H=$!
sleep 1
fact addr "$(cat $W/addr)"
$V refs record --method damon --pid $H --interval 100ms --duration 4s -o $W/rec.trace 2> $W/rec.err
fact record_rc $?
fact record_err "$(head -c 300 $W/rec.err | tr '\n' ' ')"
fact nr_after "$(nr)"
echo "== show"; $V refs show $W/rec.trace --json --top $HOT; echo "== end"
$V test mmap --refs $W/rec.trace --mem 64M --swap none > $W/mmap.out 2>&1
fact replay_rc $?
fact replay "$(grep -c 'Test completed successfully' $W/mmap.out)"

$V refs record --method damon --pid $H --duration 60s -o $W/int.trace 2> $W/int.err & R=$!
on_soon 0
fact int_during "$(nr) $(st 0)"
kill -INT $R; wait $R
fact int_rc $?
fact int_after "$(nr)"

$V refs record --method damon --pid $H --duration 60s -o $W/kill.trace 2> $W/kill.err & R=$!
on_soon 0
kill -KILL $R; wait $R
fact kill_rc $?
fact kill_after "$(nr) $(st 0)"
$V cleanup > $W/cleanup.out 2>&1
fact cleanup_rc $?
fact cleanup_after "$(nr)"

echo 1 > $D/nr_kdamonds
$V refs record --method damon --pid $H --duration 2s -o $W/blank.trace 2> $W/blank.err
fact blank_rc $?
fact blank_err "$(head -c 300 $W/blank.err | tr '\n' ' ')"
fact blank_after "$(nr) $(st 0) $(cat $D/0/contexts/nr_contexts)"

echo 1 > $D/0/contexts/nr_contexts
$V refs record --method damon --pid $H --duration 1s -o $W/conf.trace 2> $W/conf.err
fact conf_rc $?
fact conf_err "$(head -c 300 $W/conf.err | tr '\n' ' ')"
fact conf_after "$(nr) $(cat $D/0/contexts/nr_contexts)"

echo vaddr > $D/0/contexts/0/operations; echo 1 > $D/0/contexts/0/targets/nr_targets
echo $H > $D/0/contexts/0/targets/0/pid_target; echo on > $D/0/state
$V refs record --method damon --pid $H --duration 1s -o $W/on.trace 2> $W/on.err
fact on_rc $?
fact on_err "$(head -c 300 $W/on.err | tr '\n' ' ')"
fact on_after "$(nr) $(st 0)"
echo off > $D/0/state; echo 0 > $D/0/contexts/nr_contexts; echo 0 > $D/nr_kdamonds
kill $H
SH

fact() { sed -n "s/^$1=//p" "$T_TMP/facts" | head -1; }

# Judge what the script printed (in $T_TMP/facts); $1 names where it ran.
judge() {
	local at=$1
	grep -E '^[a-z_]+=' "$T_TMP/facts" | grep -v '^addr=' | sed "s/^/# $at: /"
	awk '/^== show$/ { s = 1; next } /^== end$/ { s = 0 } s' "$T_TMP/facts" > "$T_TMP/show.json"
	check "$at: DAMON had no kdamond before" [ "$(fact nr_before)" = 0 ]
	check "$at: the recording exits 0 ($(fact record_err))" [ "$(fact record_rc)" = 0 ]
	check "$at: and leaves no kdamond behind" [ "$(fact nr_after)" = 0 ]
	if jq -e '.pages > 0' "$T_TMP/show.json" >/dev/null 2>&1; then
		local pages refs share span
		pages=$(jq '.pages' "$T_TMP/show.json"); refs=$(jq '.references' "$T_TMP/show.json")
		share=$(jq '[.hottest[].share] | add' "$T_TMP/show.json")
		# the most of the hottest pages within one window of HOT * 5/4 pages
		span=$(jq --argjson w $((HOT + HOT / 4)) '[.hottest[].page] | sort as $p |
			[range(0; $p | length) as $i | [$p[] | select(. >= $p[$i] and . < $p[$i] + $w)] | length] | max' \
			"$T_TMP/show.json")
		echo "# $at: $(jq -r .description "$T_TMP/show.json"): $pages pages, $refs references, the $HOT hottest" \
			"take $share of them, $span of them within $((HOT + HOT / 4)) pages"
		check "$at: the trace names the method" grep -q "method=damon" <<< "$(jq -r .description "$T_TMP/show.json")"
		check "$at: it holds at least the hot region ($pages >= $HOT pages)" [ "$pages" -ge "$HOT" ]
		check "$at: the $HOT hottest pages take over 0.3 of the references (a uniform trace: $HOT / pages) ($share)" \
			awk -v s="$share" 'BEGIN { exit !(s >= 0.3) }'
		check "$at: and three in four lie together, as the hot region does ($span)" [ "$span" -ge $((HOT * 3 / 4)) ]
	else
		not_ok "$at: the trace can be shown"
	fi
	check "$at: test mmap --refs replays it" [ "$(fact replay_rc) $(fact replay)" = "0 1" ]
	check "$at: SIGINT mid-recording: the kdamond was on" [ "$(fact int_during)" = "1 on" ]
	check "$at: the recording dies of SIGINT ($(fact int_rc))" [ "$(fact int_rc)" = 130 ]
	check "$at: and DAMON is as before" [ "$(fact int_after)" = 0 ]
	check "$at: kill -9 leaves the kdamond on" [ "$(fact kill_rc) $(fact kill_after)" = "137 1 on" ]
	check "$at: cleanup puts DAMON back" [ "$(fact cleanup_rc) $(fact cleanup_after)" = "0 0" ]
	check "$at: a blank kdamond is used ($(fact blank_err))" [ "$(fact blank_rc)" = 0 ]
	check "$at: and left blank and off" [ "$(fact blank_after)" = "1 off 0" ]
	check "$at: a configured kdamond that is off is refused, exit 3" [ "$(fact conf_rc)" = 3 ]
	check "$at: saying its settings would be lost" grep -q "configured and off" <<< "$(fact conf_err)"
	check "$at: and it keeps its context" [ "$(fact conf_after)" = "1 1" ]
	check "$at: a kdamond on is refused, exit 3" [ "$(fact on_rc)" = 3 ]
	check "$at: saying so" grep -q "kdamond 0 is on" <<< "$(fact on_err)"
	check "$at: and stays on" [ "$(fact on_after)" = "1 on" ]
}

if [ ! -d "$A" ]; then
	skip "refs record --method damon on this host" "no $A (CONFIG_DAMON_SYSFS)"
elif ! is_root; then
	skip "refs record --method damon on this host" "needs root"
else
	damon_files > "$T_TMP/damon.before"
	sleep 60 & SLEEPER=$!
	run "$VMR" refs record --method damon --pid "$SLEEPER" --duration 1s -o "$T_TMP/host.trace"
	if [ "$RC" = 3 ]; then
		expect_rc "DAMON cannot be used on this host: exit 3" 3
		check "the refusal is one line" one_line_err
		expect_err "it gives the reason" "^vmregress: --method damon: (this kernel|DAMON)"
		echo "# host: $ERR"
		damon_files > "$T_TMP/damon.after"
		check "DAMON's files are the same after the refusal" cmp -s "$T_TMP/damon.before" "$T_TMP/damon.after"
		check "no trace is written" [ ! -e "$T_TMP/host.trace" ]
		kill "$SLEEPER"
		HOST_FREE=
	else
		kill "$SLEEPER"
		HOST_FREE=1
		[ -x "$HELPER" ] || { not_ok "$HELPER is built (make build/helpers/touch_region)"; done_testing; exit 0; }
		sh "$T_TMP/damon.sh" "$VMR" "$HELPER" $HOT $COLD "$T_TMP" > "$T_TMP/facts" 2>&1
		judge host
	fi
fi

[ -n "${HOST_FREE:-}" ] && { done_testing; exit 0; }
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then
	skip "refs record --method damon in a guest" "guests are off"; done_testing; exit 0
fi
STATIC=$(dirname "$VMR")/build/vmregress-static
[ -x "$STATIC" ] || STATIC=$(dirname "$VMR")/vmregress-static
if [ ! -x "$STATIC" ] || [ ! -x "$HELPER" ]; then
	skip "refs record --method damon in a guest" "needs build/vmregress-static and $HELPER"; done_testing; exit 0
fi
if ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "refs record --method damon in a guest" "needs jq and qemu-system-x86_64"; done_testing; exit 0
fi
run "$VMR" matrix --kernel "$K" --static-binary "$STATIC" --guest-script "$T_TMP/damon.sh" \
	--guest-file "$HELPER" --cpus 2 --timeout 600s --name damon --log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && registry_unreachable "$K"; then
	skip "refs record --method damon in a guest" "Debian's package registry cannot be reached: ${ERR:0:200}"; done_testing; exit 0
fi
expect_rc "the guest ran the script (exit 0)" 0
label=$(jq -r '.guests[0].label' <<< "$OUT")
cp "$T_TMP/logs/$label.stdout" "$T_TMP/facts" 2>/dev/null
check "the guest sent its output" [ -s "$T_TMP/facts" ]
v=$(jq -r '.guests[0].version' <<< "$OUT"); v=${v%%+*}
judge "$v"
done_testing
