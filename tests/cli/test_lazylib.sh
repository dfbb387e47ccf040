# GSL, libbpf (with libelf) and SQLite are loaded on first use: a command
# that calls none of them (test null) loads none of them, each command that
# needs one loads it and works, and a machine without one gets a one-line
# error naming the library and its package, while the commands that do not
# need it still work there.
. "$(dirname "$0")/lib.sh"
cat > "$T_TMP/tiny.ini" <<'INI'
[global]
iterations = 3
no-sandbox = yes

[a]
workload = null
INI
vrun() { "$VMR" run "$T_TMP/tiny.ini" --db "$T_TMP/r.db" --name "$1" --quiet --no-monitor --no-probe; }
run vrun lazy-a
expect_rc "a run into a SQLite store" 0
run vrun lazy-b
expect_rc "a second run" 0

# loaded_libs CMD...: the shared objects the dynamic loader brought in,
# one name a line (LD_DEBUG=files names each one as it loads it).
loaded_libs() {
	LD_DEBUG=files LD_DEBUG_OUTPUT=$T_TMP/ld "$@" > /dev/null 2>&1
	cat "$T_TMP"/ld.* 2>/dev/null | sed -n 's/.*file=\([^ ]*\) .*/\1/p' | sed 's|.*/||' | sort -u
	rm -f "$T_TMP"/ld.*
}
# loads NAME REGEX CMD...: CMD loads a library matching REGEX.
loads() {
	local name=$1 re=$2 libs; shift 2
	libs=$(loaded_libs "$@")
	if ! grep -q 'libc\.so' <<< "$libs"; then not_ok "$name (LD_DEBUG=files named nothing: ${libs:0:200})"
	elif grep -qE "$re" <<< "$libs"; then ok "$name"
	else not_ok "$name (it loads: $(tr '\n' ' ' <<< "$libs" | cut -c1-300))"; fi
}

libs=$(loaded_libs "$VMR" test null --no-sandbox)
if ! grep -q 'libc\.so' <<< "$libs"; then
	not_ok "LD_DEBUG=files names what test null loads (got: ${libs:0:200})"
elif grep -qE 'libgsl|libbpf|libelf|libsqlite3' <<< "$libs"; then
	not_ok "test null loads none of GSL, libbpf, libelf, SQLite (it loads: $(tr '\n' ' ' <<< "$libs" | cut -c1-300))"
else
	ok "test null loads none of GSL, libbpf, libelf, SQLite"
fi
loads "a SQLite store loads SQLite" '^libsqlite3\.so\.0$' "$VMR" list --db "$T_TMP/r.db"
loads "compare loads GSL for its statistics" '^libgsl\.so\.27$' "$VMR" compare lazy-a lazy-b --db "$T_TMP/r.db"
if [ -r /sys/kernel/btf/vmlinux ]; then
	loads "sense structsizes loads libbpf" '^libbpf\.so\.1$' "$VMR" sense structsizes
else
	skip "sense structsizes loads libbpf" "no /sys/kernel/btf/vmlinux"
fi

# The libraries, called through their loaded tables, answer as before.
run "$VMR" compare lazy-a lazy-b --db "$T_TMP/r.db"
expect_out "compare gives a confidence interval (GSL's t quantile)" '95% CI'
run "$VMR" list --db "$T_TMP/r.db"
expect_out "list reads both runs back" 'lazy-b'

# lib_path SONAME: the file ldconfig names for it (x86-64 first).
lib_path() {
	local re=${1//./\\.} p
	p=$(ldconfig -p 2>/dev/null | sed -n "s/^[[:space:]]*$re (.*x86-64.*) => //p" | head -1)
	[ -n "$p" ] || p=$(ldconfig -p 2>/dev/null | sed -n "s/^[[:space:]]*$re .* => //p" | head -1)
	echo "$p"
}
# A machine without the library: its file made empty in a private mount
# namespace, so only this command sees it missing.
hide() { local lib=$1; shift; unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" "$@"; }
can_hide() { # can_hide NAME SONAME: says why not (a SKIP) when it cannot
	if ! is_root; then skip "$1" "needs root for a private mount namespace"
	elif ! command -v unshare > /dev/null; then skip "$1" "no unshare(1)"
	elif [ -z "$(lib_path "$2")" ] || [ ! -e "$(lib_path "$2")" ]; then skip "$1" "ldconfig names no $2"
	else return 0; fi
	return 1
}

if can_hide "without SQLite: a clear error" libsqlite3.so.0; then
	lib=$(lib_path libsqlite3.so.0)
	run hide "$lib" "$VMR" list --db "$T_TMP/r.db"
	expect_rc "without SQLite: a SQLite store fails, exit 2" 2
	expect_err "without SQLite: one line naming the store, the library and the package" \
		"^vmregress: $T_TMP/r\.db: cannot load libsqlite3\.so\.0, which a SQLite store needs \(.*\); install the libsqlite3-0 package$"
	check "without SQLite: the error is one line" one_line_err
	run hide "$lib" "$VMR" test null --no-sandbox
	expect_out "without SQLite: test null still runs" 'null: pass'
fi
if can_hide "without GSL: a clear error" libgsl.so.27; then
	lib=$(lib_path libgsl.so.27)
	run hide "$lib" "$VMR" compare lazy-a lazy-b --db "$T_TMP/r.db"
	expect_rc "without GSL: compare cannot run here, exit 3" 3
	expect_err "without GSL: one line naming the library and the package" \
		'^vmregress: cannot load libgsl\.so\.27, which statistics need \(.*\); install the libgsl27 package$'
	check "without GSL: the error is one line" one_line_err
	check "without GSL: no half-written comparison" test -z "$OUT"
	run hide "$lib" "$VMR" list --db "$T_TMP/r.db"
	expect_out "without GSL: list still works" 'lazy-a'
fi
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	skip "without libbpf: a clear error" "no /sys/kernel/btf/vmlinux, so no BTF to read"
elif can_hide "without libbpf: a clear error" libbpf.so.1; then
	lib=$(lib_path libbpf.so.1)
	run hide "$lib" "$VMR" sense structsizes
	expect_rc "without libbpf: sense structsizes cannot run here, exit 3" 3
	expect_err "without libbpf: one line naming the library and the package" \
		'^vmregress: sense structsizes: cannot load libbpf\.so\.1, which BTF needs \(.*\); install the libbpf1 package$'
	check "without libbpf: the error is one line" one_line_err
	run hide "$lib" "$VMR" sense zones
	expect_out "without libbpf: sense zones still works" '[Nn]ode'
fi

# The static binary has the libraries linked in and loads nothing: its
# tables are filled at compile time (src/static/libs.c).
static=$(dirname "$VMR")/build/vmregress-static
[ -x "$static" ] || static=$(dirname "$VMR")/vmregress-static
if [ ! -x "$static" ]; then
	skip "the static binary's tables" "no build/vmregress-static (make build/vmregress-static)"
else
	srun() { "$static" run "$T_TMP/tiny.ini" --db "$T_TMP/s.db" --name "$1" --quiet --no-monitor --no-probe; }
	run srun static-a
	expect_rc "static: a run into a SQLite store" 0
	run srun static-b
	expect_rc "static: a second run" 0
	run "$static" compare static-a static-b --db "$T_TMP/s.db"
	expect_out "static: compare gives a confidence interval (GSL)" '95% CI'
	if [ -r /sys/kernel/btf/vmlinux ]; then
		run "$static" sense structsizes
		expect_out "static: sense structsizes reads BTF (libbpf)" '^page +[0-9]+'
	else
		skip "static: sense structsizes reads BTF (libbpf)" "no /sys/kernel/btf/vmlinux"
	fi
fi
done_testing
