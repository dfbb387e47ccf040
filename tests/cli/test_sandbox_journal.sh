# The sandbox's journal costs what it must and no more: none is made when
# nothing on the host changes (--no-sandbox without --set); a sandbox's is
# complete while it runs (what a cleanup after kill -9 reads) though it is
# never fsync'd (only the swap file is); and a journal that a crash of the
# machine left cut short, older than the boot, is removed by cleanup while
# one cut short since the boot is still refused.
. "$(dirname "$0")/sandbox-lib.bash"

dead_pid() { sh -c 'exit 0' & local p=$!; wait $p; echo $p; }

# --no-sandbox changes nothing on the host: it writes no journal
run "$VMR" sandbox exec --no-sandbox -- sh -c "ls $SB_STATE; echo listed"
expect_out "--no-sandbox: the state directory is listed from inside" 'listed'
if grep -q '\.journal' <<< "$OUT"; then not_ok "--no-sandbox writes no journal (it has: $OUT)"
else ok "--no-sandbox writes no journal"; fi

# a sandbox's journal, read while it runs, names everything it changed
run "$VMR" sandbox exec --mem 64M --swap file -- sh -c "cat $SB_STATE/*.journal"
expect_out "a running sandbox's journal has its header" '^vmregress-journal 2 [0-9]+ [0-9]+ #[0-9a-f]{8}$'
for rec in swapfile swapon cgroup; do
	if grep -qE "^$rec /[^ ]+ #[0-9a-f]{8}$" <<< "$OUT"; then ok "a running sandbox's journal has its $rec record"
	else not_ok "a running sandbox's journal has its $rec record (journal: ${OUT:0:400})"; fi
done
check "and it is gone after the sandbox" [ -z "$(ours_left)" ]

# fsyncs: the swap file's (its header must be on disk before swapon), none
# of the journal's.  (LeakSanitizer cannot work under a tracer: off here.)
if ! command -v strace > /dev/null; then
	skip "the journal is never fsync'd" "no strace"
else
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run strace -f -qq -e signal=none -e trace=fsync,fdatasync,sync_file_range -o "$T_TMP/sync.st" \
		"$VMR" sandbox exec --mem 64M --swap file -- true
	expect_rc "a sandbox with a swap file runs under strace" 0
	n=$(grep -cE "(fsync|fdatasync|sync_file_range)\\(" "$T_TMP/sync.st")
	[ "$n" = 1 ] && ok "one fsync for a sandbox with a swap file: the swap file's" ||
		not_ok "fsyncs for a sandbox with a swap file: $n, want 1 ($(tr '\n' ' ' < "$T_TMP/sync.st" | cut -c1-300))"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run strace -f -qq -e signal=none -e trace=fsync,fdatasync,sync_file_range -o "$T_TMP/sync.st" \
		"$VMR" test null --no-sandbox
	expect_rc "test null --no-sandbox runs under strace" 0
	[ ! -s "$T_TMP/sync.st" ] && ok "test null --no-sandbox syncs nothing" ||
		not_ok "test null --no-sandbox syncs: $(tr '\n' ' ' < "$T_TMP/sync.st" | cut -c1-300)"
fi

# A journal cut short by a crash: empty, as a file created but never
# written back is after one.
btime=$(awk '$1 == "btime" { print $2 }' /proc/stat)
dp=$(dead_pid)
j=$SB_STATE/vmregress-$dp-1-0.journal
: > "$j"; chmod 600 "$j"
touch -d "@$((btime - 3600))" "$j"
run "$VMR" cleanup
expect_out "cleanup removes an empty journal from before the boot" "^removed journal $j \(left by pid $dp\)$"
check "and it is gone" [ ! -e "$j" ]
: > "$j"; chmod 600 "$j"
run "$VMR" cleanup
expect_rc "an empty journal written since the boot still makes cleanup fail" 1
expect_err "and it is refused as corrupt" "journal $j is corrupt or foreign \(no header line\)"
check "and kept" [ -f "$j" ]
rm -f "$j"
done_testing
