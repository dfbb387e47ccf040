# libpq is loaded only when a PostgreSQL store is opened: a command that
# never opens one does not load it (nor its Kerberos, LDAP and TLS
# libraries), a postgresql:// store loads it and works as before, and a
# machine without libpq gets a one-line error naming the store and the
# package, while SQLite stores still work there.
. "$(dirname "$0")/lib.sh"
PGURL=postgresql://vmregress@127.0.0.1:1/nothing   # nothing listens on port 1
cat > "$T_TMP/tiny.ini" <<'INI'
[global]
iterations = 1
no-sandbox = yes

[a]
workload = null
INI
vrun() { "$VMR" run "$T_TMP/tiny.ini" --db "$1" --name pqlib --quiet --no-monitor --no-probe; }
run vrun "$T_TMP/r.db"
expect_rc "a run into a SQLite store" 0

# loaded_libs CMD...: the shared objects the dynamic loader brought in,
# one name a line (LD_DEBUG=files names each one as it loads it).
loaded_libs() {
	LD_DEBUG=files LD_DEBUG_OUTPUT=$T_TMP/ld "$@" > /dev/null 2>&1
	cat "$T_TMP"/ld.* | sed -n 's/.*file=\([^ ]*\) .*/\1/p' | sort -u
	rm -f "$T_TMP"/ld.*
}

libs=$(loaded_libs "$VMR" test null --no-sandbox)
if ! grep -q 'libc\.so' <<< "$libs"; then
	not_ok "LD_DEBUG=files names what test null loads (got: ${libs:0:200})"
elif grep -q libpq <<< "$libs"; then
	not_ok "test null loads no libpq (it loads: $(tr '\n' ' ' <<< "$libs" | cut -c1-300))"
else
	ok "test null loads no libpq"
fi
libs=$(loaded_libs vrun "$T_TMP/r.db")
if grep -q 'libsqlite3' <<< "$libs" && ! grep -q 'libpq\|libkrb5\|libldap' <<< "$libs"; then
	ok "a run into a SQLite store loads neither libpq nor Kerberos nor LDAP"
else
	not_ok "a run into a SQLite store: loads $(tr '\n' ' ' <<< "$libs" | cut -c1-300)"
fi
libs=$(loaded_libs "$VMR" list --db "$PGURL")
if grep -q 'libpq\.so\.5' <<< "$libs"; then ok "a postgresql:// store loads libpq"
else not_ok "a postgresql:// store loads libpq (it loads: ${libs:0:300})"; fi

# libpq itself answers: its own message for a server that is not there
run "$VMR" list --db "$PGURL"
expect_rc "a server that is not there: exit 2" 2
expect_err "the message is libpq's, through the loaded library" \
	'^vmregress: cannot connect to postgresql://vmregress@127\.0\.0\.1:1/nothing: .*(refused|failed)'

# A machine without libpq: the library's file made empty in a private
# mount namespace, so only this command sees it missing.
lib=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libpq\.so\.5 (.*x86-64.*) => //p' | head -1)
[ -n "$lib" ] || lib=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libpq\.so\.5 .* => //p' | head -1)
if ! is_root; then
	skip "without libpq: a clear error" "needs root for a private mount namespace"
elif ! command -v unshare > /dev/null; then
	skip "without libpq: a clear error" "no unshare(1)"
elif [ -z "$lib" ] || [ ! -e "$lib" ]; then
	skip "without libpq: a clear error" "ldconfig names no libpq.so.5"
else
	hide() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" "$@"; }
	run hide "$VMR" list --db "$PGURL"
	expect_rc "without libpq: a postgresql:// store fails, exit 2" 2
	expect_err "without libpq: one line naming the store, libpq and the package" \
		'^vmregress: postgresql://vmregress@127\.0\.0\.1:1/nothing: cannot load libpq\.so\.5, which a PostgreSQL store needs \(.*\); install the libpq5 package$'
	check "without libpq: the error is one line" one_line_err
	run hide "$VMR" list --db "$T_TMP/r.db"
	expect_out "without libpq: a SQLite store still lists its run" 'pqlib'
	run hide "$VMR" run "$T_TMP/tiny.ini" --db "$T_TMP/r.db" --name pqlib-2 --quiet --no-monitor --no-probe
	expect_rc "without libpq: a run into a SQLite store" 0
	run hide "$VMR" test null --no-sandbox
	expect_out "without libpq: test null still runs" 'null: pass'
fi
done_testing
