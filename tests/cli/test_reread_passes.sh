# reread --passes N: the push out, sleep and re-read run N times; each
# pass's re-read time is stored, and the headline reread-time is the median
# pass's; a damaged page still fails.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "reread --passes" "needs root (a sandbox of its own)"
	done_testing; exit 0
fi
# jqt FILTER: the last run's stdout satisfies FILTER (jq -e, its output dropped)
jqt() { [ -n "$OUT" ] && jq -e "$1" > /dev/null <<< "$OUT"; }
SB=(--mem 32M --swap file:64M --sleep 0 --size 12M --second 24M)
run "$VMR" test reread "${SB[@]}" --passes 3 --json
expect_rc "reread --passes 3: runs" 0
check "three passes' re-read times are stored" \
	jqt '.info["reread-time-passes"] | length == 3 and all(. > 0)'
check "reread-time is the median pass's" jqt '(.info["reread-time-passes"] | sort | .[1]) ==
	(.metrics[] | select(.name == "reread-time") | .value)'
run "$VMR" test reread "${SB[@]}" --passes 1 --json
check "one pass (the default's count) stores no list" jqt '.info | has("reread-time-passes") | not'
run "$VMR" test reread "${SB[@]}" --passes 3 --corrupt-page 100
expect_rc "reread --passes 3 catches a damaged page" 1
expect_err "and names it" 'page 100 of [0-9]+ read back wrong data on the re-read'
run "$VMR" test reread "${SB[@]}" --passes 0
expect_rc "--passes 0: refused" 2
done_testing
