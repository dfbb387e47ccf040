# The SQLite store under faults and careless use: two runs creating one
# new store at once, a store on a read-only medium, an immutable one, a
# damaged one, and one whose file system is full (read, refused a run) or
# fills up.  Each leaves nothing
# beside the results file and says what is wrong with it in its own words.
. "$(dirname "$0")/lib.sh"
cat > "$T_TMP/n.ini" <<'INI'
[global]
iterations = 1
no-sandbox = yes
no-monitor = yes
no-probe = yes
[n]
workload = null
INI
beside() { # beside FILE: what else is there whose name begins with FILE
	local f; for f in "$1"?*; do [ -e "$f" ] && printf '%s ' "${f##*/}"; done
}

# --- two runs creating one new store at once ------------------------------
# Setting a new file's journal mode while another process creates the
# schema (it holds the write lock, BEGIN IMMEDIATE) was answered "database
# is locked" at once, and that run was lost with "not a vmregress results
# file".  First that moment held open on purpose (the window is narrow),
# then runs creating one store at once, as they come.
rm -f "$T_TMP/flag"
python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
time.sleep(1.5)
c.execute("COMMIT")' "$T_TMP/held.db" "$T_TMP/flag" &
for _ in $(seq 100); do [ -e "$T_TMP/flag" ] && break; sleep 0.05; done
run "$VMR" run "$T_TMP/n.ini" --db "$T_TMP/held.db" --quiet
wait
check "a new store another process is creating: the run waits for it and is stored (exit $RC: ${ERR:0:200})" \
	[ "$RC" = 0 ] && [ "$(sqlite3 "$T_TMP/held.db" 'SELECT COUNT(*) FROM runs')" = 1 ]
lost=0 said=
for try in $(seq 10); do
	db=$T_TMP/race$try.db
	for k in 1 2 3; do "$VMR" run "$T_TMP/n.ini" --db "$db" --quiet 2>"$T_TMP/race.$k" & done
	wait
	n=$(sqlite3 "$db" 'SELECT COUNT(*) FROM runs' 2>/dev/null)
	[ "$n" = 3 ] || lost=$((lost + 3 - ${n:-0}))
	said+=$(grep -h 'results file' "$T_TMP"/race.? | head -1)
done
check "three runs creating one store at once, 10 times: no run lost ($lost lost${said:+: ${said:0:200}})" \
	[ "$lost" = 0 ]

# --- a read-only medium ---------------------------------------------------
mkdir -p "$T_TMP/rw" "$T_TMP/ro"
"$VMR" run "$T_TMP/n.ini" --db "$T_TMP/rw/r.db" --quiet --name one >/dev/null 2>&1
"$VMR" run "$T_TMP/n.ini" --db "$T_TMP/rw/r.db" --quiet --name two >/dev/null 2>&1
if ! is_root || ! mount --bind "$T_TMP/rw" "$T_TMP/ro" 2>/dev/null; then
	skip "a store on a read-only medium" "cannot bind-mount here (needs root)"
else
	trap 'umount "$T_TMP/ro" 2>/dev/null; rm -rf "$T_TMP"' EXIT
	if mount -o remount,ro,bind "$T_TMP/ro" && ! touch "$T_TMP/ro/x" 2>/dev/null; then
		ro=$T_TMP/ro/r.db
		run "$VMR" list --db "$ro"; expect_out "read-only medium: list lists the runs" "^[0-9]+ +one "
		run "$VMR" show one --db "$ro"; expect_out "read-only medium: show shows a run" "one"
		run "$VMR" export one --db "$ro" --format csv; expect_out "read-only medium: export exports" "n,"
		run "$VMR" compare one two --db "$ro"; expect_out "read-only medium: compare compares" "."
		run "$VMR" report one two --db "$ro" -o "$T_TMP/rep"
		check "read-only medium: report writes its report (exit $RC: ${ERR:0:200})" [ "$RC" = 0 -a -s "$T_TMP/rep/index.html" ]
		run "$VMR" run "$T_TMP/n.ini" --db "$ro" --quiet
		expect_rc "read-only medium: run is refused before it starts (exit 3)" 3
		expect_err "read-only medium: run says the store cannot be written, and why" \
			"r.db: cannot write to the results file: Read-only file system"
		run "$VMR" delete one --db "$ro"
		expect_rc "read-only medium: delete is refused (exit 2, as for any store it cannot open)" 2
		expect_err "read-only medium: delete says why" "cannot write to the results file: Read-only file system"
	else
		skip "a store on a read-only medium" "the bind mount did not become read-only"
	fi
	umount "$T_TMP/ro"
fi
left=$(beside "$T_TMP/rw/r.db")
check "read-only medium: nothing left beside the results file${left:+ ($left)}" [ -z "$left" ]

# --- an immutable store ---------------------------------------------------
cp "$T_TMP/rw/r.db" "$T_TMP/imm.db"
if chattr +i "$T_TMP/imm.db" 2>/dev/null; then
	run "$VMR" list --db "$T_TMP/imm.db"; expect_out "immutable store: list lists the runs" "^[0-9]+ +one "
	run "$VMR" run "$T_TMP/n.ini" --db "$T_TMP/imm.db" --quiet
	expect_rc "immutable store: run is refused (exit 3)" 3
	expect_err "immutable store: run says it is immutable, and how to lift it" "immutable.*chattr -i"
	left=$(beside "$T_TMP/imm.db")
	chattr -i "$T_TMP/imm.db"
	check "immutable store: no -wal or -shm left beside it${left:+ ($left)}" [ -z "$left" ]
else
	skip "an immutable store" "chattr +i is refused here (not root, or the file system has no such flag)"
fi

# --- a damaged store, and a file that is no store -------------------------
cp "$T_TMP/rw/r.db" "$T_TMP/bad.db"
root=$(sqlite3 "$T_TMP/bad.db" "SELECT rootpage FROM sqlite_master WHERE name = 'runs'")
size=$(sqlite3 "$T_TMP/bad.db" 'PRAGMA page_size')
# the runs table's root page, its b-tree header overwritten
printf '\377\377\377\377\377\377\377\377' | dd of="$T_TMP/bad.db" bs=1 seek=$(( (root - 1) * size )) conv=notrunc 2>/dev/null
run "$VMR" list --db "$T_TMP/bad.db"
expect_rc "damaged store: list fails (exit 3)" 3
expect_err "damaged store: says the file is damaged and how to check it" \
	"bad.db: .*the file is damaged \(.*\); check it with: sqlite3 .*bad.db 'pragma integrity_check'"
check "damaged store: not called 'not a vmregress results file' (${ERR:0:200})" \
	eval '! grep -q "not a vmregress results file" <<< "$ERR"'
echo 'just some text, long enough to be more than a header of a database file, surely' > "$T_TMP/text.db"
run "$VMR" list --db "$T_TMP/text.db"
expect_rc "a text file: list refuses it (exit 2)" 2
expect_err "a text file: not a vmregress results file" "text.db: not a vmregress results file \(file is not a database\)"

# --- a full file system ---------------------------------------------------
mkdir "$T_TMP/full"
if is_root && mount -t tmpfs -o size=2m tmpfs "$T_TMP/full" 2>/dev/null; then
	trap 'umount "$T_TMP/full" 2>/dev/null; rm -rf "$T_TMP"' EXIT
	cp "$T_TMP/rw/r.db" "$T_TMP/full/r.db"
	dd if=/dev/zero of="$T_TMP/full/fill" bs=4k 2>/dev/null
	run "$VMR" run "$T_TMP/n.ini" --db "$T_TMP/full/r.db" --quiet
	expect_rc "full file system: run is refused before it starts (exit 3)" 3
	expect_err "full file system: run says there is no room, and how much there is" \
		"r.db: no room to store a run: [0-9]+ kB free on its file system"
	# reads need no room: SQLite's "-shm" cannot be made, so the store is
	# read as it is on disk, said once
	full=$T_TMP/full/r.db
	run "$VMR" list --db "$full"; expect_out "full file system: list lists the runs" "^[0-9]+ +one "
	expect_err "... saying once that a run being written may lack its newest rows" \
		"^vmregress: warning: .*r.db: its file system is full: read as it is on disk, so a run being written now may lack its newest rows$"
	check "... on one line" one_line_err
	run "$VMR" show one --db "$full"; expect_out "full file system: show shows a run" "one"
	run "$VMR" export one --db "$full" --format csv; expect_out "full file system: export exports" "n,"
	check "... and says it once" one_line_err
	run "$VMR" compare one two --db "$full"; expect_out "full file system: compare compares" "."
	run "$VMR" report one two --db "$full" -o "$T_TMP/full-rep"
	check "full file system: report writes its report (exit $RC: ${ERR:0:200})" [ "$RC" = 0 -a -s "$T_TMP/full-rep/index.html" ]
	left=$(beside "$full")
	check "full file system: reading left nothing beside the results file${left:+ ($left)}" [ -z "$left" ]
	rm "$T_TMP/full/fill"
	n=$(sqlite3 "$T_TMP/full/r.db" 'SELECT COUNT(*) FROM runs')
	check "full file system: no run stored for the refused one ($n runs)" [ "$n" = 2 ]
	left=$(beside "$T_TMP/full/r.db")
	check "full file system: nothing left beside the results file${left:+ ($left)}" [ -z "$left" ]

	# the disk fills up during a run: what was stored stays, and the
	# iteration that could not be stored is kept in a file named on stderr
	printf '[global]\niterations = 30\nno-sandbox = yes\nno-monitor = yes\nno-probe = yes\n[n]\nworkload = null\nspin = 200ms\n' \
		> "$T_TMP/slow.ini"
	mkdir -p "$T_TMP/tmp"
	TMPDIR=$T_TMP/tmp "$VMR" run "$T_TMP/slow.ini" --db "$T_TMP/full/r.db" --quiet --name filled \
		>/dev/null 2>"$T_TMP/filled.err" &
	p=$!
	for _ in $(seq 200); do
		n=$(sqlite3 "$T_TMP/full/r.db" "SELECT COUNT(*) FROM iterations i JOIN cases c ON c.id = i.case_id JOIN runs r ON r.id = c.run_id WHERE r.name = 'filled'" 2>/dev/null)
		[ "${n:-0}" -ge 1 ] && break
		sleep 0.1
	done
	dd if=/dev/zero of="$T_TMP/full/fill" bs=4k 2>/dev/null
	wait $p; rc=$?
	rm -f "$T_TMP/full/fill"
	check "disk full during a run: the run stops, unable to go on (exit $rc)" [ "$rc" = 3 ]
	kept=$(sed -n 's/.*measured but not stored; its result is kept in \(.*\)$/\1/p' "$T_TMP/filled.err" | head -1)
	check "disk full during a run: says where the iteration not stored is kept ($(tr '\n' ' ' < "$T_TMP/filled.err" | head -c 300))" \
		[ -n "$kept" ]
	check "disk full during a run: that file holds its result" \
		sh -c 'jq -e ".result.metrics | length > 0" "$1" >/dev/null' _ "${kept:-/nonexistent}"
	run "$VMR" show filled --db "$T_TMP/full/r.db" --json
	expect_json "disk full during a run: the iterations stored before stay" '.run.iterations >= 1'
	umount "$T_TMP/full"
else
	skip "a full file system" "cannot mount a small tmpfs here (needs root)"
fi
done_testing
