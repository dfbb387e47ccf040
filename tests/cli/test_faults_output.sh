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

done_testing
