# Input that only the open run can check (a value the kernel refuses, a
# zram device larger than the memory available) is refused without a run
# left in the store: a run that never started is not stored.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/r.db
suite() { # suite FILE SWAP: a sandboxed null case, one iteration
	printf '[global]\niterations = 1\nmem = 32M\nswap = %s\nno-monitor = yes\nno-probe = yes\ntimeout = 60s\n[n]\nworkload = null\n' \
		"$2" > "$1"
}
stored() { sqlite3 "$DB" 'SELECT COUNT(*) FROM runs' 2>/dev/null || echo 0; }
suite "$T_TMP/none.ini" none

# vm.swappiness takes 0..200: the kernel refuses 999 when it is written
run "$VMR" run "$T_TMP/none.ini" --db "$DB" --quiet --set vm.swappiness=999
if grep -q 'kept the knobs' <<< "$ERR"; then
	skip "a value the kernel refuses" "another vmregress held the knobs for the whole timeout (a busy machine)"
else
	expect_rc "a value the kernel refuses: refused as bad input (exit 2)" 2
	expect_err "a value the kernel refuses: says so" "vm.swappiness=999.*the kernel refused it"
fi
check "a value the kernel refuses: no run stored ($(stored) runs)" [ "$(stored)" = 0 ]

# a zram device far beyond MemAvailable is refused when the sandbox is made
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
suite "$T_TMP/zram.ini" "zram:$((mem_kb * 4))K"
run "$VMR" run "$T_TMP/zram.ini" --db "$DB" --quiet
expect_rc "a zram size beyond MemAvailable: refused (exit 3)" 3
expect_err "a zram size beyond MemAvailable: says why" "not enough free memory: MemAvailable is"
check "a zram size beyond MemAvailable: no run stored ($(stored) runs)" [ "$(stored)" = 0 ]

# and a run that did begin is stored as ever
run "$VMR" run "$T_TMP/none.ini" --db "$DB" --quiet
expect_rc "a run that can start runs" 0
check "and is stored ($(stored) runs)" [ "$(stored)" = 1 ]
done_testing
