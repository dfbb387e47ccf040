# Output files that a careless or hostile user brings (refs -o, plot-map -o,
# report -o DIR): a device, a FIFO or a directory named as the output is
# refused and left as it was; a symbolic link is followed only in a
# directory that no one else may write, and only to an existing file; a
# temporary file that another user made in a world-writable sticky
# directory (under the name the old writer predicted, OUT.tmp.PID) is never
# used; what is written is root's, with its intended mode, and nothing is
# left beside it.  Devices are made with mknod in a temporary directory, so
# that a binary without these checks replaces a copy, never /dev itself.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
FIX=$(cd "$HERE/../fixtures/runs" && pwd)/pc3.json
chmod 0755 "$T_TMP" # nobody must reach the sticky directory below
GEN=(refs generate --pages 64 --references 1000 --pattern linear)

# gen OUT: write a small trace to OUT, bounded in time (a FIFO must not hang)
gen() { run timeout 20 "$VMR" "${GEN[@]}" -o "$1"; }
# nothing_beside DIR: no temporary file left in DIR
nothing_beside() { ! ls -a "$1" | grep -q '\.tmp\.'; }

D=$T_TMP/own
mkdir -m 0755 "$D"

# --- special files named as the output -------------------------------------
if is_root; then
	mknod "$D/full" c 1 7
	gen "$D/full"
	expect_rc "refs -o DEVICE: refused" 3
	expect_err "refs -o DEVICE: says it is not a regular file" "full: cannot write: not a regular file"
	[ -c "$D/full" ] && ok "refs -o DEVICE: the device is still a device" ||
		not_ok "refs -o DEVICE: the device was replaced by: $(ls -l "$D/full")"
	# the real one, only once the copy came through: an older binary would
	# replace /dev/full itself
	if [ "$RC" = 3 ] && [ -c "$D/full" ]; then
		gen /dev/full
		[ "$RC" = 3 ] && [ -c /dev/full ] && ! ls /dev | grep -q '^full\.tmp\.' &&
			ok "refs -o /dev/full: refused, /dev/full is still the device" || not_ok "refs -o /dev/full: exit $RC"
	else
		skip "refs -o /dev/full: refused" "the copy was not refused: /dev is not tried"
	fi
else
	skip "refs -o DEVICE: refused" "mknod needs root"
fi
mkfifo "$D/fifo"
gen "$D/fifo"
expect_rc "refs -o FIFO: refused, without waiting for a reader" 3
[ -p "$D/fifo" ] && ok "refs -o FIFO: the FIFO is still a FIFO" || not_ok "refs -o FIFO: replaced: $(ls -l "$D/fifo")"
mkdir "$D/dir"
gen "$D/dir"
expect_rc "refs -o DIR: refused" 3
expect_err "refs -o DIR: says it is a directory" "Is a directory"
check "refused outputs leave no temporary file" nothing_beside "$D"

# --- a plain output: mode and owner ----------------------------------------
gen "$D/plain"
expect_rc "refs -o FILE: written" 0
[ "$(stat -c '%a %u' "$D/plain")" = "644 $(id -u)" ] && ok "refs -o FILE: 0644 (umask 022) and the user's" ||
	not_ok "refs -o FILE: mode and owner $(stat -c '%a %u' "$D/plain")"
run "$VMR" refs show "$D/plain" --json
[ "$RC" = 0 ] && [ -n "$OUT" ] && [ "$(jq -r .references <<< "$OUT")" = 1000 ] &&
	ok "refs -o FILE: the trace reads back" || not_ok "refs -o FILE: show (exit $RC): ${OUT:0:200} ${ERR:0:200}"
echo old > "$D/plain"
gen "$D/plain"
[ "$RC" = 0 ] && [ "$(stat -c %s "$D/plain")" -gt 4 ] && ok "refs -o FILE: an existing regular file is replaced" ||
	not_ok "refs -o FILE: replace (exit $RC, $(stat -c %s "$D/plain") bytes)"
check "a written output leaves no temporary file" nothing_beside "$D"

# --- symbolic links ---------------------------------------------------------
echo old > "$D/real"
ln -s real "$D/link"
gen "$D/link"
[ "$RC" = 0 ] && [ -L "$D/link" ] && [ "$(stat -c %s "$D/real")" -gt 4 ] &&
	ok "refs -o LINK in one's own directory: the file it names is written, the link stays" ||
	not_ok "refs -o LINK (own directory): exit $RC, $(ls -l "$D/link" "$D/real" | tr '\n' ' ')"
ln -s nothing "$D/dangling"
gen "$D/dangling"
[ "$RC" = 3 ] && [ ! -e "$D/nothing" ] && [ -L "$D/dangling" ] &&
	ok "refs -o LINK to nothing: refused, nothing created" || not_ok "refs -o dangling LINK: exit $RC; $(ls "$D")"

S=$T_TMP/sticky
mkdir -m 1777 "$S"
echo victim > "$D/victim"
ln -s "$D/victim" "$S/out.trace"
gen "$S/out.trace"
expect_rc "refs -o LINK in a sticky world-writable directory: refused" 3
expect_err "refs -o LINK in a sticky directory: says why" "symbolic link in a directory that others may write"
[ "$(cat "$D/victim")" = victim ] && [ -L "$S/out.trace" ] &&
	ok "refs -o LINK in a sticky directory: the file it names is untouched" ||
	not_ok "refs -o LINK in a sticky directory: victim now $(stat -c %s "$D/victim") bytes"
# a chain: a link in one's own directory to a link in the sticky one
ln -s "$S/out.trace" "$D/chain"
gen "$D/chain"
[ "$RC" = 3 ] && [ "$(cat "$D/victim")" = victim ] && ok "refs -o LINK to a link in a sticky directory: refused" ||
	not_ok "refs -o chained LINK: exit $RC, victim $(stat -c %s "$D/victim") bytes"

# --- a temporary file pre-created by another user ---------------------------
# The shell execs vmregress, so $$ is its pid: the name the old writer used.
if is_root && command -v setpriv >/dev/null; then
	NOBODY=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	pre() { # pre OUT CMD...: nobody plants OUT.tmp.PID (0666), then CMD runs as PID
		local out=$1; shift
		run timeout 20 bash -c 'umask 0; '"${NOBODY[*]}"' sh -c "echo planted > \"\$1\"" _ "$0.tmp.$$" ||
			exit 99; exec "$@"' "$out" "$@"
	}
	pre "$S/t1" "$VMR" "${GEN[@]}" -o "$S/t1"
	[ "$RC" = 0 ] && [ "$(stat -c '%U %a' "$S/t1")" = "root 644" ] &&
		ok "refs -o in a sticky directory with OUT.tmp.PID planted by nobody: the output is root's 0644" ||
		not_ok "planted temporary (refs): exit $RC, output $(stat -c '%U %a' "$S/t1" 2>&1) ${ERR:0:200}"
	planted=$(ls "$S" | grep -c '^t1\.tmp\.')
	[ "$planted" = 1 ] && [ "$(cat "$S"/t1.tmp.* 2>/dev/null)" = planted ] &&
		ok "the planted file is left as it was, and nothing else beside the output" ||
		not_ok "planted temporary: $(ls -l "$S" | tr '\n' ' ')"
	"${NOBODY[@]}" sh -c "echo rewritten > '$S/t1'" 2>/dev/null
	! grep -q rewritten "$S/t1" && ok "nobody cannot rewrite the output afterwards" ||
		not_ok "nobody rewrote root's output"
	# the same for a report's page, written into the sticky directory itself
	pre "$S/index.html" "$VMR" report "$FIX" -o "$S" --no-graphs
	[ "$RC" = 0 ] && [ "$(stat -c '%U %a' "$S/index.html" 2>&1)" = "root 644" ] &&
		ok "report -o DIR with index.html.tmp.PID planted: the page is root's 0644" ||
		not_ok "planted temporary (report): exit $RC, $(stat -c '%U %a' "$S/index.html" 2>&1) ${ERR:0:200}"
else
	skip "a temporary file planted by another user is not used" "needs root and setpriv"
fi

# --- report -o DIR ------------------------------------------------------------
run "$VMR" report "$FIX" -o "$D/rep" --no-graphs
expect_rc "report -o DIR: written" 0
check "report -o DIR: the page is there" test -s "$D/rep/index.html"
mkdir -m 0755 "$D/target"
ln -s "$D/target" "$S/repdir"
run "$VMR" report "$FIX" -o "$S/repdir" --no-graphs
[ "$RC" != 0 ] && [ ! -e "$D/target/index.html" ] && ok "report -o DIR, DIR a link in a sticky directory: refused" ||
	not_ok "report -o DIR through a link in a sticky directory: exit $RC, $(ls "$D/target")"
ln -s target "$D/replink"
run "$VMR" report "$FIX" -o "$D/replink" --no-graphs
[ "$RC" = 0 ] && [ -s "$D/target/index.html" ] && ok "report -o DIR, DIR a link in one's own directory: followed" ||
	not_ok "report -o DIR through one's own link: exit $RC ${ERR:0:200}"
if is_root; then
	# a directory that nobody owns, with index.html already a link of theirs
	mkdir -m 0755 "$S/theirs"
	chown nobody "$S/theirs"
	ln -s "$D/victim" "$S/theirs/index.html"
	run "$VMR" report "$FIX" -o "$S/theirs" --no-graphs
	[ "$RC" != 0 ] && [ "$(cat "$D/victim")" = victim ] &&
		ok "report -o DIR owned by another user, index.html their link: refused, its target untouched" ||
		not_ok "report into another user's directory: exit $RC, victim $(stat -c %s "$D/victim") bytes"
fi
echo file > "$D/notdir"
run "$VMR" report "$FIX" -o "$D/notdir" --no-graphs
[ "$RC" != 0 ] && [ "$(cat "$D/notdir")" = file ] && ok "report -o FILE (not a directory): refused" ||
	not_ok "report -o FILE: exit $RC"

# --- plot-map -o ---------------------------------------------------------------
if command -v gnuplot >/dev/null; then
	sleep 60 &
	SP=$!
	if is_root; then
		mknod "$D/null" c 1 3
		run timeout 30 "$VMR" plot-map "$SP" -o "$D/null"
		[ "$RC" = 3 ] && [ -c "$D/null" ] && ok "plot-map -o DEVICE: refused, the device stays" ||
			not_ok "plot-map -o DEVICE: exit $RC, $(ls -l "$D/null") ${ERR:0:200}"
	fi
	run timeout 30 "$VMR" plot-map "$SP" -o "$S/out.trace"
	[ "$RC" = 3 ] && [ "$(cat "$D/victim")" = victim ] && ok "plot-map -o LINK in a sticky directory: refused" ||
		not_ok "plot-map -o LINK in a sticky directory: exit $RC ${ERR:0:200}"
	run timeout 30 "$VMR" plot-map "$SP" -o "$D/map.png"
	[ "$RC" = 0 ] && [ "$(head -c 4 "$D/map.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] && ok "plot-map -o FILE: a PNG" ||
		not_ok "plot-map -o FILE: exit $RC ${ERR:0:200}"
	kill "$SP" 2>/dev/null
	wait "$SP" 2>/dev/null
else
	skip "plot-map -o refuses special files and links" "gnuplot not installed"
fi
check "nothing temporary is left in the sticky directory but what nobody planted" \
	bash -c "! ls -a '$S' '$D' | grep '\\.tmp\\.' | grep -v '^t1\\.tmp\\.\\|^index.html\\.tmp\\.'"
done_testing
