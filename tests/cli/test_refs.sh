# vmregress refs: generate, randomize, show and the refusal of broken traces.
. "$(dirname "$0")/lib.sh"
D=$T_TMP

run "$VMR" refs generate --pages 500 --references 20000 --pattern smooth_sin --seed 3 -o "$D/a"
expect_rc "generate smooth_sin" 0
run "$VMR" refs generate --pages 500 --references 20000 --pattern smooth_sin --seed 3 -o "$D/b"
expect_rc "generate again with the same seed" 0
cmp -s "$D/a" "$D/b" && ok "the same seed gives a byte-identical file" || not_ok "the same seed gives a byte-identical file"
run "$VMR" refs generate --pages 500 --references 20000 --pattern smooth_sin --seed 4 -o "$D/c"
expect_rc "generate with another seed" 0
[ -s "$D/a" ] && [ -s "$D/c" ] && ! cmp -s "$D/a" "$D/c" && ok "another seed gives another file" || not_ok "another seed gives another file"
for p in linear random zipf hotcold gauss sawtooth; do
	run "$VMR" refs generate --pages 300 --references 5000 --pattern $p -o "$D/p_$p"
	expect_rc "generate $p" 0
done
run "$VMR" refs generate --pages 300 --references 5000 --pattern phases --phases linear:1,zipf:3 -o "$D/ph"
expect_rc "generate phases" 0

run "$VMR" refs show "$D/a" --json
expect_rc "show --json" 0
if python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["pages"]==500 and d["references"]==20000 and d["distinct_pages"]<=500' <<< "$OUT" 2>/dev/null; then
	ok "show --json is one JSON document with the trace's numbers"
else
	not_ok "show --json is one JSON document with the trace's numbers"
fi
run "$VMR" refs show "$D/a"
expect_out "show names the pattern" 'pattern=smooth_sin cycles=4 noise=0.02'
expect_out "show has the reuse-distance histogram" 'reuse distance'

run "$VMR" refs randomize "$D/a" -o "$D/r" --seed 9
expect_rc "randomize" 0
[ -s "$D/r" ] && ! cmp -s "$D/a" "$D/r" && ok "randomize changes the file" || not_ok "randomize changes the file"
# the multiset: the hottest pages and distinct pages are unchanged
a=$("$VMR" refs show "$D/a" --json --top 500 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["distinct_pages"], sorted((h["page"],h["references"]) for h in d["hottest"]))')
r=$("$VMR" refs show "$D/r" --json --top 500 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["distinct_pages"], sorted((h["page"],h["references"]) for h in d["hottest"]), d["sampled"], d["flags"])')
[ -n "$a" ] && [ "${r%% False randomized}" = "$a" ] && ok "randomize keeps the multiset of references" || not_ok "randomize keeps the multiset of references ($a / $r)"

# broken files: each refused with exit 2, one line naming the file and the problem
head -c 100 "$D/a" > "$D/cut"
run "$VMR" refs show "$D/cut"; expect_rc "a truncated trace exits 2" 2
expect_err "a truncated trace is named and called truncated" "^vmregress: $D/cut: truncated"
check "its error is one line" one_line_err
cp "$D/a" "$D/flip"; printf '\x55' | dd of="$D/flip" bs=1 seek=5000 conv=notrunc 2>/dev/null
run "$VMR" refs show "$D/flip"; expect_rc "a corrupted trace exits 2" 2
expect_err "a corrupted trace fails its checksum" "^vmregress: $D/flip: corrupted: checksum"
cp "$D/a" "$D/ver"; printf '\x07' | dd of="$D/ver" bs=1 seek=8 conv=notrunc 2>/dev/null
run "$VMR" refs show "$D/ver"; expect_rc "a wrong version exits 2" 2
expect_err "a wrong version is named" "^vmregress: $D/ver: version 7 is not supported"
printf 'hello world, not a trace at all, no sir, not at all......' > "$D/txt"
run "$VMR" refs show "$D/txt"; expect_rc "a foreign file exits 2" 2; expect_err "a foreign file is refused" "not a reference trace"
cp "$D/a" "$D/long"; printf 'xxxx' >> "$D/long"
run "$VMR" refs show "$D/long"; expect_rc "trailing data exits 2" 2; expect_err "trailing data is refused" "4 bytes of trailing data"
run "$VMR" refs show "$D/missing"; expect_rc "a missing trace exits 2" 2
run "$VMR" refs randomize "$D/cut" -o "$D/never"
expect_rc "randomize refuses a broken input" 2
[ -e "$D/never" ] && not_ok "nothing is written from a broken input" || ok "nothing is written from a broken input"

# usage errors
run "$VMR" refs generate --pages 10 -o "$D/x"; expect_rc "generate without --references exits 2" 2
run "$VMR" refs generate --pages 10 --references 10 --pattern zipf --alpha 0 -o "$D/x"
expect_rc "a bad --alpha exits 2" 2
expect_err "a bad --alpha is named" "--alpha"
run "$VMR" refs generate --pages 10 --references 10 --pattern nope -o "$D/x"
expect_rc "an unknown pattern exits 2" 2
run "$VMR" refs generate --pages 10 --references 10 -o "$D/nodir/x"; expect_rc "an unwritable output exits 3" 3
run "$VMR" refs frob; expect_rc "an unknown subcommand exits 2" 2
run "$VMR" refs --help; expect_out "help documents the formulas" 'smooth_sin  page = reflect'
run "$VMR" refs record --pid 4194303 -o "$D/x"; expect_rc "record of a missing process exits 2" 2

# record: sample a real process (vmregress itself analysing a large trace,
# which faults its tables and the mapped file in as it goes)
if is_root; then
	"$VMR" refs generate --pages 20000 --references 2000000 --pattern random -o "$D/big" 2>/dev/null
	"$VMR" refs show "$D/big" > /dev/null &
	pid=$!
	run "$VMR" refs record --pid $pid --interval 20ms --duration 200ms -o "$D/rec"
	wait $pid
	expect_rc "record a running process" 0
	run "$VMR" refs show "$D/rec" --json
	if python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["sampled"] and d["references"] > 10 and "recorded pid=" in d["description"]' <<< "$OUT" 2>/dev/null; then
		ok "the recorded trace is flagged sampled and names the process"
	else
		not_ok "the recorded trace is flagged sampled and names the process (${OUT:0:300})"
	fi
	run "$VMR" test mmap --refs "$D/rec" --no-sandbox --passes 2
	expect_rc "the recorded trace replays" 0
	expect_out "the replay reports its numbers" 'References/s: +[0-9]+'
	rm -f "$D/big"
else
	skip "record a running process" "needs root"
fi
done_testing
