# Inputs a careless or hostile user brings: a suite "file" that never ends
# (/dev/zero) or is too large is a one-line error, not "out of memory"
# (rc 134); a FIFO or a device given as a reference trace is refused at
# once instead of hanging `refs show`, `refs randomize` and `test mmap
# --refs` forever; a trace header that claims more than the file holds, or
# more than the format allows, is refused without allocating what it
# claims; run names are printable UTF-8 of 1 to 128 bytes, neither "last"
# nor a number, and unique.  Each command is bounded in time (timeout 20
# gives 124) and, so that a binary without these checks fails instead of
# eating the host's memory, in address space.
. "$(dirname "$0")/lib.sh"
cd "$T_TMP" || exit 1
case "$VMR" in *asan*) LIMIT=() ;; *) LIMIT=(prlimit --as=2000000000) ;; esac
# bounded CMD...: run CMD with a time limit and (not under ASan) an address-space limit
bounded() { run timeout 20 "${LIMIT[@]}" "$@"; }

cat > tiny.ini <<'EOF'
[global]
iterations = 1
no-sandbox = yes

[a]
workload = null
spin = 1ms
EOF
Q=(--quiet --no-monitor --no-probe)

# --- suite files ---------------------------------------------------------------
bounded "$VMR" run /dev/zero --db s.db "${Q[@]}"
[ "$RC" = 2 ] && one_line_err && grep -q "/dev/zero: too large for a suite file" <<< "$ERR" &&
	ok "run /dev/zero: exit 2, one line: too large" || not_ok "run /dev/zero: exit $RC, ${ERR:0:200}"
{ cat tiny.ini; yes '# a comment line, and many of them' | head -c 2000000; } > big.ini
bounded "$VMR" run big.ini --db s.db "${Q[@]}"
[ "$RC" = 2 ] && grep -q "big.ini: too large for a suite file" <<< "$ERR" && ok "run of a 2 MB suite file: too large" ||
	not_ok "run big.ini: exit $RC, ${ERR:0:200}"
[ ! -e s.db ] && ok "and no store was created for them" || not_ok "a store was created for a refused suite"
bounded "$VMR" run <(cat tiny.ini) --db s.db --name piped "${Q[@]}"
expect_rc "a suite from a pipe (process substitution) still runs" 0

# --- reference traces that are not regular files --------------------------------
mkfifo fifo.trace
for c in "refs show" "refs randomize" "test mmap --refs"; do
	read -ra argv <<< "$c"
	extra=()
	[ "$c" = "refs randomize" ] && extra=(-o out.trace)
	bounded "$VMR" "${argv[@]}" fifo.trace "${extra[@]}"
	[ "$RC" = 2 ] && grep -q "fifo.trace: not a regular file" <<< "$ERR" && ok "$c FIFO: refused at once (exit 2)" ||
		not_ok "$c FIFO: exit $RC (124: it hung), ${ERR:0:200}"
	bounded "$VMR" "${argv[@]}" /dev/zero "${extra[@]}"
	[ "$RC" = 2 ] && grep -q "/dev/zero: not a regular file" <<< "$ERR" && ok "$c /dev/zero: refused (exit 2)" ||
		not_ok "$c /dev/zero: exit $RC, ${ERR:0:200}"
done
[ ! -e out.trace ] && ok "refs randomize of a refused input writes nothing" || not_ok "refs randomize wrote out.trace"

# --- trace headers that claim too much -------------------------------------------
run "$VMR" refs generate --pages 64 --references 100 --pattern linear -o good.trace
expect_rc "a small trace is generated" 0
# claim COUNT OUT: good.trace with its references field (offset 32) set to COUNT
claim() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open("good.trace", "rb").read())
b[32:40] = struct.pack("<Q", int(sys.argv[1]))
open(sys.argv[2], "wb").write(b)
PY
}
claim 1000000000 liar.trace
bounded "$VMR" refs show liar.trace
[ "$RC" = 2 ] && grep -q "liar.trace: truncated: the header says 1000000000 references" <<< "$ERR" &&
	ok "a header claiming 10^9 references in a 500-byte file: truncated (exit 2)" || not_ok "liar: exit $RC, ${ERR:0:200}"
claim $((1 << 40)) huge.trace
bounded "$VMR" refs show huge.trace
[ "$RC" = 2 ] && grep -q "huge.trace: too large: 1099511627776 references" <<< "$ERR" &&
	ok "a header claiming 2^40 references: too large (exit 2)" || not_ok "huge: exit $RC, ${ERR:0:200}"
bounded "$VMR" refs randomize huge.trace -o out2.trace
[ "$RC" = 2 ] && [ ! -e out2.trace ] && ok "refs randomize of it: refused, nothing written" ||
	not_ok "randomize huge: exit $RC, ${ERR:0:200}"

# --- run names -------------------------------------------------------------------
run "$VMR" run tiny.ini --db n.db --name first "${Q[@]}"
expect_rc "a run named first is stored" 0
# NAME|why it is refused (printf escapes in NAME)
while IFS='|' read -r name why; do
	n=$(printf "$name")
	bounded "$VMR" run tiny.ini --db n.db --name "$n" "${Q[@]}"
	[ "$RC" = 2 ] && one_line_err && ok "--name '$name': refused ($why)" || not_ok "--name '$name': exit $RC, ${ERR:0:200}"
done <<'EOF'
|empty
a\tb|a tab
x\033[31mred|an escape sequence
line\nbreak|a line break
\302\205c1|a C1 control (U+0085)
bad\303\050utf8|not UTF-8
del\177|DEL
last|"last" means the newest run
42|a number is an id
first|taken
EOF
long=$(printf 'n%.0s' $(seq 129))
bounded "$VMR" run tiny.ini --db n.db --name "$long" "${Q[@]}"
[ "$RC" = 2 ] && grep -q "at most 128 bytes" <<< "$ERR" && ok "--name of 129 bytes: refused" || not_ok "--name 129 bytes: exit $RC"
bounded "$VMR" run tiny.ini --db n.db --name "${long:1}" "${Q[@]}"
expect_rc "--name of 128 bytes: accepted" 0
bounded "$VMR" run tiny.ini --db n.db --name "größe-α" "${Q[@]}"
expect_rc "--name of printable UTF-8: accepted" 0
run "$VMR" list --db n.db --json
[ "$RC" = 0 ] && [ -n "$OUT" ] && [ "$(jq -r 'map(.name) | sort | join(",")' <<< "$OUT")" = "first,größe-α,${long:1}" ] &&
	ok "only the three good names are stored" || not_ok "stored names: $(jq -c 'map(.name)' <<< "$OUT" 2>&1)"
done_testing
