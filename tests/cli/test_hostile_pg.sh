# A PostgreSQL store URL that is malformed, or a server that does not
# answer: libpq's URL-parse errors quote the URL or a token of it, and no
# password may show in what vmregress prints (user:PASSWORD@, password=,
# percent-encoded or not); a server that accepts connections and never
# answers ends `list` after connect_timeout (10 s by default, the URL's or
# PGCONNECT_TIMEOUT's when given); a read that waits on a locked table ends
# after the read timeout (60 s by default, the session's own when it has
# one), which writing transactions lift (seen in the server's statement
# log).  Every wait here is bounded.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/pg-setup"
BG=()
trap 'for p in "${BG[@]}"; do kill -9 "$p" 2>/dev/null; done; pg_stop; rm -rf "$T_TMP"' EXIT

# --- passwords in libpq's own messages ------------------------------------------
# URL|the password as libpq would read it, as written in the URL
while IFS='|' read -r url pw; do
	run timeout 30 "$VMR" list --db "$url"
	[ "$RC" = 2 ] && [ -n "$ERR" ] && ! grep -qF -- "$pw" <<< "$ERR" && grep -qF '***' <<< "$ERR" &&
		ok "list --db '$(sed "s/$pw/PW/" <<< "$url")': exit 2, the password masked" ||
		not_ok "list --db $url: exit $RC, stderr: $ERR"
done <<'EOF'
postgresql://u:secret@[::1/x|secret
postgresql://u:secret%zz@localhost/x|secret
postgresql://u@localhost/x?password=sec%zzret|sec%zzret
postgresql://u@localhost/x?password=sec%zzret|sec
postgresql://u:secret@[::1]x/db|secret
postgres://u:hunter2%41@[::1/x|hunter2
postgresql://u@[::1/x?%70assword=topsecret|topsecret
postgresql://u:pw1@[::1/x?password=pw2secret|pw2secret
EOF
run timeout 30 "$VMR" list --db 'postgresql://u:s%z@h/x'
[ "$RC" = 2 ] && ! grep -q '"s%z"' <<< "$ERR" && ok "a short password is masked where libpq quotes it" ||
	not_ok "short password: $ERR"

# --- a server that accepts and never answers ------------------------------------
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])
' > "$T_TMP/port" &
BG+=($!)
for _ in $(seq 50); do [ -s "$T_TMP/port" ] && break; sleep 0.1; done
PORT=$(cat "$T_TMP/port")
# seconds CMD...: run CMD, set SECS to how long it took
timed() { local t0; t0=$(date +%s.%N); run "$@"; SECS=$(echo "$(date +%s.%N) - $t0" | bc); }
# bg_timed NAME CMD...: the same in the background, into $T_TMP/NAME.{rc,err,secs}:
# the three waits on the silent server overlap each other and what follows.
bg_timed() {
	local name=$1; shift
	( t0=$(date +%s.%N); "$@" >/dev/null 2>"$T_TMP/$name.err"; echo $? > "$T_TMP/$name.rc"
	  echo "$(date +%s.%N) - $t0" | bc > "$T_TMP/$name.secs" ) &
	SILENT_PIDS+=($!)
}
# bg_result NAME: RC, ERR and SECS of a bg_timed command
bg_result() { RC=$(cat "$T_TMP/$1.rc" 2>/dev/null); ERR=$(cat "$T_TMP/$1.err" 2>/dev/null)
	SECS=$(cat "$T_TMP/$1.secs" 2>/dev/null); SECS=${SECS:-0}; }
SILENT_PIDS=()
if [ -n "$PORT" ]; then
	SILENT="postgresql://u@127.0.0.1:$PORT/x"
	bg_timed silent-default timeout 60 "$VMR" list --db "$SILENT"
	bg_timed silent-url timeout 60 "$VMR" list --db "$SILENT?connect_timeout=2"
	bg_timed silent-env env PGCONNECT_TIMEOUT=2 timeout 60 "$VMR" list --db "$SILENT"
else
	not_ok "the silent server did not start"
fi
silent_results() {
	[ -n "$PORT" ] || return 0
	wait "${SILENT_PIDS[@]}"
	bg_result silent-default
	[ "$RC" = 2 ] && [ "$(echo "$SECS >= 9 && $SECS < 20" | bc)" = 1 ] &&
		ok "a server that never answers: list gives up after the default 10 s (${SECS%.*} s)" ||
		not_ok "silent server, default: exit $RC after $SECS s (timeout 60 gives 124): ${ERR:0:200}"
	WANT_RC=2
	expect_err "and says it timed out" "timeout expired"
	bg_result silent-url
	[ "$RC" = 2 ] && [ "$(echo "$SECS < 6" | bc)" = 1 ] && ok "connect_timeout in the URL wins (${SECS%.*} s)" ||
		not_ok "silent server, connect_timeout=2: exit $RC after $SECS s"
	bg_result silent-env
	[ "$RC" = 2 ] && [ "$(echo "$SECS < 6" | bc)" = 1 ] && ok "PGCONNECT_TIMEOUT wins over the default (${SECS%.*} s)" ||
		not_ok "silent server, PGCONNECT_TIMEOUT=2: exit $RC after $SECS s"
}

# --- a read that waits on a locked table ----------------------------------------
if ! pg_start; then
	skip "a read held up by a lock ends after the read timeout" "$PG_SKIP"
	silent_results
	done_testing; exit 0
fi
cat > "$T_TMP/tiny.ini" <<'EOF'
[global]
iterations = 1
no-sandbox = yes

[a]
workload = null
spin = 1ms
EOF
pg_psql "ALTER SYSTEM SET log_statement = 'all'" >/dev/null && pg_psql "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
run "$VMR" run "$T_TMP/tiny.ini" --db "$PG_URL" --name first --quiet --no-monitor --no-probe
expect_rc "a run is stored in the server" 0
# what the server was told: the read timeout for the session, lifted in
# each writing transaction (a write that waits for another must not fail)
log=$(grep -E "statement: (SET statement_timeout|BEGIN; SET LOCAL statement_timeout = 0|INSERT INTO iterations)" \
	"$PG_DIR/server.log" | sed 's/.*statement: //')
grep -qx "SET statement_timeout = '60s'" <<< "$log" && ok "the session gets a 60 s statement timeout" ||
	not_ok "no read timeout set: ${log:0:300}"
[ "$(grep -c "^BEGIN; SET LOCAL statement_timeout = 0" <<< "$log")" -ge 2 ] &&
	ok "writing transactions lift it" || not_ok "writes not lifted: ${log:0:300}"
pg_psql "ALTER SYSTEM RESET log_statement" >/dev/null && pg_psql "SELECT pg_reload_conf()" >/dev/null
# hold an exclusive lock on runs for up to 200 s, in one session
"$PG_BINDIR/psql" -X -q -h "$PG_DIR" -U postgres -d vmr \
	-c "BEGIN; LOCK TABLE runs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(200)" >/dev/null 2>&1 &
BG+=($!)
for _ in $(seq 50); do
	[ "$(pg_psql "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE c.relname = 'runs' AND l.mode = 'AccessExclusiveLock' AND l.granted")" = 1 ] && break
	sleep 0.1
done
timed timeout 120 "$VMR" list --db "$PG_URL&options=-c%20statement_timeout%3D2s"
[ "$RC" = 3 ] && [ "$(echo "$SECS < 10" | bc)" = 1 ] &&
	ok "a locked table: the session's own statement_timeout is kept (${SECS%.*} s)" ||
	not_ok "locked table, statement_timeout=2s: exit $RC after $SECS s: ${ERR:0:200}"
# The default is a minute of honest waiting: the plain binary's run shows
# it; the sanitized one's would only repeat the wait.
case $VMR in
*asan*)
	skip "a locked table: list gives up after the default read timeout" "waits 60 s; checked with the plain binary"
	;;
*)
	timed timeout 120 "$VMR" list --db "$PG_URL"
	[ "$RC" = 3 ] && [ "$(echo "$SECS >= 55 && $SECS < 90" | bc)" = 1 ] &&
		ok "a locked table: list gives up after the default read timeout (${SECS%.*} s)" ||
		not_ok "locked table, default: exit $RC after $SECS s (timeout 120 gives 124): ${ERR:0:200}"
	WANT_RC=3
	expect_err "and says why" "statement timeout"
	;;
esac
silent_results
done_testing
