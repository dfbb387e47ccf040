# sense vmstat's default columns come from the one table of counters
# (probe/vmstat_counters.h) that the runner's stored metrics come from:
# each default column that is an event counter (not an nr_* level) is also
# stored as "vmstat-NAME" with every result.  The table itself, the runner's
# and the monitor's use of it are checked by tests/unit/test_vmstat_counters.c.
. "$(dirname "$0")/lib.sh"
if ! command -v jq >/dev/null; then skip "vmstat counters" "jq is not installed"; done_testing; exit 0; fi

run "$VMR" sense vmstat --json --count 1 --interval 50ms
expect_rc "sense vmstat --json exits 0" 0
cols=$(jq -r '.[0].values | keys_unsorted[]' <<< "$OUT" 2>/dev/null)
check "sense vmstat has default columns" [ -n "$cols" ]

run "$VMR" test null --no-sandbox --json
expect_rc "test null --no-sandbox --json exits 0" 0
stored=$(jq -r '.metrics[].name | select(startswith("vmstat-")) | ltrimstr("vmstat-")' <<< "$OUT" 2>/dev/null)
check "a result stores vmstat-* metrics" [ -n "$stored" ]

missing=
for c in $cols; do
	case $c in nr_*) continue ;; esac
	grep -qx -- "$c" <<< "$stored" || missing="$missing $c"
done
all_stored() { [ -n "$cols" ] && [ -n "$stored" ] && [ -z "$missing" ]; }
check "each event counter sense vmstat shows is stored with results${missing:+ (not stored:$missing)}" all_stored
done_testing
