# Careless use of the output and of echoed input: a closed pipe after
# `run --json` exits as every other writer does (141, quietly), a value
# with control characters in it is echoed escaped on one line, and an
# empty output directory is named as such.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/r.db
cat > "$T_TMP/n.ini" <<'INI'
[global]
iterations = 1
mem = 32M
swap = none
no-monitor = yes
no-probe = yes
[n]
workload = null
INI

# `run --json | true`: the reader is gone before the JSON is written.
# SIGPIPE is ignored in a run with a sandbox (so that it can undo it), so the write
# fails with EPIPE: that must end as SIGPIPE would, 141 and no message.
rc=$( { "$VMR" run "$T_TMP/n.ini" --db "$DB" --json --quiet 2>"$T_TMP/pipe.err"; echo $? > "$T_TMP/pipe.rc"; } | true; cat "$T_TMP/pipe.rc")
check "run --json into a closed pipe exits 141, as a writer killed by SIGPIPE (exit $rc)" [ "$rc" = 141 ]
# (besides a note that another vmregress holds the knob lock)
said=$(grep -v 'waiting for another vmregress' "$T_TMP/pipe.err")
check "run --json into a closed pipe prints no error (${said:0:200})" [ -z "$said" ]
rc=$( { "$VMR" list --db "$DB" --json 2>/dev/null; echo $? > "$T_TMP/pipe.rc"; } | true; cat "$T_TMP/pipe.rc")
check "list --json into a closed pipe exits 141 too (exit $rc)" [ "$rc" = 141 ]



# Input echoed in an error is escaped: a newline in a value (here pasted
# into --set, a suite's path and a run's name) leaves the message on one
# line, the control character shown as \n; the same for an escape.
escaped() { # escaped NAME CMD...: refused, in one line, the input escaped
	local name=$1; shift
	run "$VMR" "$@"
	expect_rc "$name: refused (exit 2)" 2
	check "$name: one line of error (${ERR:0:200})" one_line_err
	expect_err "$name: the control character shown escaped" '\\(n|x1b)'
}
escaped "--set with a newline" run "$T_TMP/n.ini" --db "$DB" --set $'vm.page-cluster=3\nX'
escaped "a suite path with a newline" run "$T_TMP/no"$'\n'"such.ini" --db "$DB"
escaped "show of a run name with a newline" show --db "$DB" $'no\nsuch'
escaped "an escape sequence in --db" list --db "$T_TMP/"$'x\e[31m.db'

# An empty output directory: one line naming the option and that it is
# empty, not "cannot create report directory :" after the runs were read.
"$VMR" run "$T_TMP/n.ini" --db "$DB" --quiet --name one >/dev/null 2>&1
for o in "-o" "--output="; do
	if [ "$o" = -o ]; then run "$VMR" report one --db "$DB" -o ''; else run "$VMR" report one --db "$DB" --output=; fi
	expect_rc "report $o'': refused as bad input (exit 2)" 2
	check "report $o'': one line of error (${ERR:0:200})" one_line_err
	expect_err "report $o'': names the option and that it is empty" "^vmregress: --output: '' is empty"
done
run "$VMR" list --db ''
expect_rc "list --db '': refused as bad input (exit 2)" 2
expect_err "list --db '': names the option and that it is empty" "^vmregress: --db: '' is empty"
done_testing
