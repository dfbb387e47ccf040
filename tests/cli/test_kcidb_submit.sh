#!/usr/bin/env bash
# vmregress kcidb submit: a KCIDB document POSTed with a bearer token to an
# endpoint on 127.0.0.1 (tests/cli/kcidb_server.py, which checks the token
# and the body): accepted, accepted after a 500 (a retry), refused (exit
# 1), not reached (exit 3), bad input (exit 2); the token never shows.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/s.db
TOKEN=tok-$RANDOM-$RANDOM-secret
printf '%s\n' "$TOKEN" > "$T_TMP/token"
chmod 600 "$T_TMP/token"
/usr/bin/python3 "$(dirname "$0")/kcidb_server.py" "$T_TMP/token" "$T_TMP/log" "$T_TMP/port" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$T_TMP"' EXIT
for _ in $(seq 100); do [ -s "$T_TMP/port" ] && break; sleep 0.1; done
PORT=$(cat "$T_TMP/port" 2>/dev/null)
URL=http://127.0.0.1:$PORT

cat > "$T_TMP/s.ini" <<'INI'
[global]
no-monitor = yes
no-probe = yes
no-sandbox = yes
[spin]
workload = null
spin = 1ms
INI
run "$VMR" run "$T_TMP/s.ini" --db "$DB" --quiet --name solo
expect_rc "a run to submit runs" 0
"$VMR" export solo --db "$DB" --format kcidb > "$T_TMP/doc.json"
sum=$(sha256sum < "$T_TMP/doc.json" | cut -d' ' -f1)
# no_token NAME: the last run printed nothing of the token
no_token() {
	if grep -qF -- "$TOKEN" <<< "$OUT$ERR"; then not_ok "$1 (the token was printed)"; else ok "$1"; fi
}
# logged N PATH STATUS...: the server's last N requests were to PATH, with
# the token, the document's bytes as JSON, and these statuses
logged() {
	local n=$1 path=$2; shift 2
	local got want
	got=$(tail -n "$n" "$T_TMP/log" | jq -r "select(.path == \"$path\" and .token_ok and .type == \"application/json\" and .sha256 == \"$sum\") | .status" | tr '\n' ' ')
	want="$* "
	if [ "$got" = "$want" ]; then ok "the server got the document and the token: $*"
	else not_ok "the server's log has '$got', want '$want' ($(tail -n "$n" "$T_TMP/log" | tr '\n' ' ' | cut -c1-300))"; fi
}

if [ -z "$PORT" ]; then
	not_ok "the test's HTTP server started"
	done_testing
	exit
fi

run "$VMR" kcidb submit "$T_TMP/doc.json" --url "$URL/submit" --token-file "$T_TMP/token"
expect_rc "a document is accepted: exit 0" 0
expect_out "and it says so" "^submitted .*doc.json \([0-9]+ bytes\) to http://127.0.0.1:$PORT/submit: HTTP 200, attempt 1$"
logged 1 /submit 200
no_token "the token is not printed"

run "$VMR" kcidb submit - --url "$URL/flaky" --token-file "$T_TMP/token" < "$T_TMP/doc.json"
expect_rc "from standard input, after a 500: accepted, exit 0" 0
expect_out "on the second attempt" "HTTP 200, attempt 2$"
expect_err "the retry is said, with its wait" "HTTP 500 from http://127.0.0.1:$PORT/flaky; trying again in 1 s \(attempt 2 of 5\)"
logged 2 /flaky 500 200
no_token "the token is not printed on a retry"

printf '%s\n' wrong-token > "$T_TMP/wrong"
run "$VMR" kcidb submit "$T_TMP/doc.json" --url "$URL/submit" --token-file "$T_TMP/wrong"
expect_rc "a wrong token is refused: exit 1, no retry" 1
expect_err "with the server's answer" "refused the document: HTTP 401: bad token \(attempt 1\)"
run "$VMR" kcidb submit "$T_TMP/doc.json" --url "$URL/echo" --token-file "$T_TMP/token"
expect_rc "a refusal that quotes the token back exits 1" 1
expect_err "and the quote is masked" "you sent: Bearer \*\*\*"
no_token "the token is not printed when the server echoes it"

# a port nothing listens on: the server's own, once it is stopped
kill $SERVER; wait $SERVER 2>/dev/null
run "$VMR" kcidb submit "$T_TMP/doc.json" --url "$URL/submit" --token-file "$T_TMP/token" --retries 1
expect_rc "an endpoint that is not there: exit 3 after the retries" 3
expect_err "it says which and why" "cannot reach http://127.0.0.1:$PORT/submit: .*(after 2 attempts)"
expect_err "after a back-off" "trying again in 1 s \(attempt 2 of 2\)"
no_token "the token is not printed when nothing answers"

echo '{"checkouts": []}' > "$T_TMP/nover.json"
run "$VMR" kcidb submit "$T_TMP/nover.json" --url "$URL/submit" --token-file "$T_TMP/token"
expect_rc "a file that is no KCIDB document exits 2" 2
expect_err "naming the file" "nover.json is not a KCIDB document"
echo 'not json' > "$T_TMP/bad.json"
run "$VMR" kcidb submit "$T_TMP/bad.json" --url "$URL/submit" --token-file "$T_TMP/token"
expect_rc "a file that is not JSON exits 2" 2
: > "$T_TMP/empty"
run "$VMR" kcidb submit "$T_TMP/doc.json" --url "$URL/submit" --token-file "$T_TMP/empty"
expect_rc "an empty token file exits 2" 2
expect_err "and says so" "token file .* cannot be used: it is empty"
run "$VMR" kcidb submit "$T_TMP/doc.json" --url "$URL/submit"
expect_rc "no --token-file exits 2" 2
run "$VMR" kcidb send "$T_TMP/doc.json"
expect_rc "a word that is not submit exits 2" 2
done_testing
