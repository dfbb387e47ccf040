# The results store given as something it should not be: a store that does
# not exist is an error naming it for every command that only reads (exit
# 2), and nothing, not even its directory, is created; an unknown URL scheme
# is an error, not a file ./mysql:/x/y; a device, a FIFO or a directory is
# refused before SQLite opens it (which left "<device>-journal" beside it);
# a symbolic link is followed only in a directory that no one else may
# write (a user's $XDG_DATA_HOME seen by root is not such a place).  The
# PostgreSQL URL checks are in test_hostile_pg.sh.  Devices are copies made
# with mknod; the real /dev/null and /dev/full are tried only once the
# copies came through untouched, so that an older binary leaves /dev alone.
. "$(dirname "$0")/lib.sh"
chmod 0755 "$T_TMP"
cd "$T_TMP" || exit 1

cat > tiny.ini <<'EOF'
[global]
iterations = 1
no-sandbox = yes

[a]
workload = null
spin = 1ms
EOF
vrun() { # vrun DB NAME: one tiny run
	"$VMR" run tiny.ini --db "$1" --name "$2" --quiet --no-monitor --no-probe
}
run vrun good.db one
expect_rc "a tiny run is stored" 0

# --- a store that does not exist ---------------------------------------------
READERS=("list" "show last" "export last" "compare 1 2" "report last -o $T_TMP/rep" "plot-map 1:a -o $T_TMP/m.png"
	"push --all --to $T_TMP/dest.db" "delete 1")
for c in "${READERS[@]}"; do
	read -ra argv <<< "$c"
	run timeout 20 "$VMR" "${argv[@]}" --db nodir/x.db
	[ "$RC" = 2 ] && grep -q "nodir/x.db" <<< "$ERR" && one_line_err &&
		ok "$c --db nodir/x.db: exit 2, one line naming the store" ||
		not_ok "$c --db nodir/x.db: exit $RC, stderr: ${ERR:0:200}"
done
[ ! -e nodir ] && [ ! -e dest.db ] && [ ! -e rep ] && ok "no store, directory or output was created by them" ||
	not_ok "created: $(ls -d nodir dest.db rep 2>/dev/null)"
run "$VMR" list --db /nonexistent/x.db
expect_rc "list --db /nonexistent/x.db: exit 2" 2
expect_err "list --db /nonexistent/x.db: names the path" "/nonexistent/x.db: no such results file"
[ -z "$OUT" ] && ok "list of no store prints no table" || not_ok "list of no store printed: ${OUT:0:100}"
mkdir empty
run "$VMR" list --db empty/x.db --json
[ "$RC" = 2 ] && [ -z "$(ls -A empty)" ] && ok "list --db DIR/missing.db: exit 2, nothing created in DIR" ||
	not_ok "list --db DIR/missing.db: exit $RC, DIR has $(ls -A empty)"
run env -u VMREGRESS_DB HOME="$T_TMP/home" XDG_DATA_HOME= "$VMR" list
[ "$RC" = 2 ] && [ ! -e home ] && ok "list with no default store: exit 2, ~/.local/share not created" ||
	not_ok "list with no default store: exit $RC, $(find home 2>/dev/null | head -3)"

# --- an unknown URL scheme ---------------------------------------------------
for c in list "run tiny.ini --quiet --no-monitor --no-probe"; do
	read -ra argv <<< "$c"
	run "$VMR" "${argv[@]}" --db 'mysql://u:hunter22@x/y'
	[ "$RC" = 2 ] && grep -q "unknown store URL scheme 'mysql'" <<< "$ERR" && ok "${c%% *} --db mysql://...: refused" ||
		not_ok "${c%% *} --db mysql://: exit $RC ${ERR:0:200}"
	! grep -q hunter22 <<< "$ERR" && ok "${c%% *} --db mysql://...: the password is masked" ||
		not_ok "${c%% *} --db mysql://: password shown: $ERR"
done
[ ! -e mysql: ] && ok "no file ./mysql:/x/y" || not_ok "created $(find mysql: | head -3)"
run "$VMR" list --db sqlite:good.db --json
[ "$RC" = 0 ] && [ "$(jq length <<< "$OUT")" = 1 ] && ok "sqlite:FILE still names a file" ||
	not_ok "sqlite:FILE: exit $RC ${ERR:0:200}"

# --- not a regular file ------------------------------------------------------
mkdir dev
if is_root; then
	mknod dev/null c 1 3
	mknod dev/full c 1 7
fi
mkfifo dev/fifo
mkdir dev/dir
for f in dev/null dev/full dev/fifo dev/dir; do
	[ -e "$f" ] || { skip "--db $f is refused" "mknod needs root"; continue; }
	for c in list "run tiny.ini --quiet --no-monitor --no-probe"; do
		read -ra argv <<< "$c"
		run timeout 20 "$VMR" "${argv[@]}" --db "$f"
		[ "$RC" = 2 ] && grep -qE "$f: cannot use as a results file: (not a regular file|Is a directory)" <<< "$ERR" &&
			ok "${c%% *} --db $f: refused (exit 2)" || not_ok "${c%% *} --db $f: exit $RC ${ERR:0:200}"
	done
done
[ "$(ls dev | tr '\n' ' ')" = "$(is_root && echo 'dir fifo full null ' || echo 'dir fifo ')" ] &&
	ok "nothing was made beside them (no -journal, -wal, -lock)" || not_ok "beside the devices: $(ls dev | tr '\n' ' ')"
if is_root && [ "$(ls dev | tr '\n' ' ')" = "dir fifo full null " ] && [ -c dev/null ] && [ -c dev/full ]; then
	for f in /dev/null /dev/full; do
		had=$([ -e "$f-journal" ] && echo yes)
		run "$VMR" list --db "$f"
		[ "$RC" = 2 ] && { [ -n "$had" ] || [ ! -e "$f-journal" ]; } && [ -c "$f" ] &&
			ok "list --db $f: refused, no $f-journal" || not_ok "list --db $f: exit $RC, $(ls -l "$f"*)"
	done
else
	skip "list --db /dev/null leaves no /dev/null-journal" "the copies were not refused cleanly: /dev is not tried"
fi

# --- symbolic links ----------------------------------------------------------
ln -s good.db own-link.db
run "$VMR" list --db own-link.db --json
[ "$RC" = 0 ] && [ "$(jq length <<< "$OUT")" = 1 ] && ok "a link in one's own directory to a store: followed" ||
	not_ok "own link: exit $RC ${ERR:0:200}"
run vrun own-link.db two
[ "$RC" = 0 ] && [ -L own-link.db ] && [ ! -e own-link.db-lock ] && ok "a run through it writes the store it names" ||
	not_ok "run through own link: exit $RC, $(ls)"
if is_root; then
	# a user's data directory, as root sees it: owned by nobody
	U=$T_TMP/user-data
	mkdir -p "$U/vmregress"
	chown -R nobody "$U"
	ln -s "$T_TMP/planted.db" "$U/vmregress/results.db"
	run env -u VMREGRESS_DB XDG_DATA_HOME="$U" "$VMR" run tiny.ini --quiet --no-monitor --no-probe
	[ "$RC" = 2 ] && [ ! -e planted.db ] && ok "run: a dangling results.db link in another user's directory is refused" ||
		not_ok "run through a planted link: exit $RC, $(ls -l planted.db 2>&1) ${ERR:0:200}"
	WANT_RC=2
	expect_err "and says why" "results.db: cannot use as a results file: a symbolic link in a directory that others"
	run env -u VMREGRESS_DB XDG_DATA_HOME="$U" "$VMR" pull --all --from good.db
	[ "$RC" = 2 ] && [ ! -e planted.db ] && ok "pull: the same link is refused, nothing created at its target" ||
		not_ok "pull through a planted link: exit $RC, $(ls -l planted.db 2>&1) ${ERR:0:200}"
	# an existing store, linked from there: not followed either
	ln -sf "$T_TMP/good.db" "$U/vmregress/results.db"
	run env -u VMREGRESS_DB XDG_DATA_HOME="$U" "$VMR" list
	expect_rc "list: a link to a real store in another user's directory is refused" 2
fi
mkdir -m 1777 sticky
ln -s "$T_TMP/good.db" sticky/results.db
run "$VMR" list --db sticky/results.db
expect_rc "list: a link in a sticky world-writable directory is refused" 2
done_testing
