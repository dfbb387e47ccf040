#!/usr/bin/env bash
# The layer order of docs/DESIGN.md: scripts/check-layers passes on the tree
# and fails on an upward include, a same-layer include, a folder the order
# does not place and a file over 700 lines, each planted in a copy of src/,
# and on a circle of calls between files, planted in a small tree.
# Needs no binary ($VMR unused).
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
check_layers=$root/scripts/check-layers

run "$check_layers"
expect_rc "the tree has no violation" 0
expect_out "and says how many files it read" "^check-layers: [0-9]{3,} files; 0 violation\(s\)$"

# A copy of src/ to plant violations in, hard-linked to be quick: a planted
# file is always a new file put in place with mv, never written through a
# link into the tree.
cp -al "$root/src" "$T_TMP/src" 2>/dev/null || { rm -rf "$T_TMP/src"; cp -r "$root/src" "$T_TMP/src"; }
plant() { # plant FILE LINE: FILE of the copy of src/ gets LINE at its end
	{ cat "$T_TMP/src/$1"; echo "$2"; } > "$T_TMP/planted" && mv "$T_TMP/planted" "$T_TMP/src/$1"
}
fresh() { # fresh FILE...: put back the tree's copy of each planted FILE of src/
	local f
	for f in "$@"; do
		rm -rf "${T_TMP:?}/src/$f"
		if [ -e "$root/src/$f" ]; then ln "$root/src/$f" "$T_TMP/src/$f" 2>/dev/null || cp "$root/src/$f" "$T_TMP/src/$f"; fi
	done
}
# Every kind of violation planted at once (one run is quicker than five),
# each then looked for by name; beside them, what must pass: downward
# includes and a file of exactly 700 lines.
plant core/fileio.c '#include "cmd/cmd.h"'
{ echo '#  include "refs/trace.h"'; cat "$root/src/store/store.c"; } > "$T_TMP/planted"
mv "$T_TMP/planted" "$T_TMP/src/store/store.c"
plant cmd/list.c '#include "core/util.h"'
plant cmd/list.c '#include "sandbox/sandbox.h"'
seq 701 | sed 's|.*|/* & */|' > "$T_TMP/src/core/big.c"
seq 700 | sed 's|.*|/* & */|' > "$T_TMP/src/core/ok.c"
mkdir "$T_TMP/src/attic"
echo '#include "core/util.h"' > "$T_TMP/src/attic/x.c"
run "$check_layers" "$T_TMP/src"
expect_rc "planted violations fail" 1
expect_out "an upward include is named with its line and layers" \
	'^src/core/fileio.c:[0-9]+: includes "cmd/cmd.h": core \(layer 1\) -> cmd \(layer 6\)$'
expect_out "an include between two folders of one layer is named" \
	'^src/store/store.c:1: includes "refs/trace.h": store \(layer 2\) -> refs \(layer 2\)$'
expect_out "a 701-line file is named with its size" "^src/core/big.c: 701 lines, over 700$"
expect_out "a folder the order does not place is named" \
	"^src/attic/x.c: folder attic has no layer in the design document$"
expect_no_out "downward includes pass" "^src/cmd/list.c"
expect_no_out "a 700-line file passes" "ok\.c"
expect_out "and nothing else is reported" "; 4 violation\(s\)$"

fresh core/fileio.c store/store.c cmd/list.c core/big.c core/ok.c attic
run "$check_layers" "$T_TMP/src"
expect_rc "the copy passes again once they are taken out" 0

# Output for people is formatted in report/ alone, report/ computes
# nothing, and every function has a caller: each rule fails on a planted
# violation and passes what its allow-lists name.
plant cmd/list.c 'static void planted_print(void) { printf("%d\n", 1); }'
plant stats/summary.c 'static void planted_fputs(void) { fputs("x", stdout); }'
plant cmd/common.c 'static void planted_allowed(void) { printf("x\n"); }'
plant report/suite_list.c 'static void planted_report_prints(void) { printf("x\n"); }'
plant report/sense.c 'static void planted_compute(void) { compare_runs(NULL, 0, NULL, NULL); }'
plant core/fileio.c 'int planted_uncalled(void)'
plant core/fileio.c '{ return 0; }'
plant core/units.c 'int planted_called(void)'
plant core/units.c '{ return planted_uncalled() * 0; }'
run "$check_layers" "$T_TMP/src"
expect_rc "planted prints, a computing call and an uncalled function fail" 1
expect_out "a printf outside report/ is named" \
	'^src/cmd/list.c:[0-9]+: prints to standard output \(printf\) outside report/'
expect_out "an fputs to stdout outside report/ is named" \
	'^src/stats/summary.c:[0-9]+: prints to standard output \(fputs\) outside report/'
expect_out "a call of report/ into compare_runs is named" \
	'^src/report/sense.c:[0-9]+: calls compare_runs: report/ formats finished structures'
expect_out "a function nothing calls is named" '^src/core/units.c:[0-9]+: planted_called has no caller in src/'
expect_no_out "a file on a prints: line may print" '^src/cmd/common.c'
expect_no_out "report/ may print" '^src/report/suite_list.c'
expect_no_out "a function called from another file has a caller" 'planted_uncalled'
expect_out "and nothing else is reported" "; 4 violation\(s\)$"
fresh cmd/list.c stats/summary.c cmd/common.c report/suite_list.c report/sense.c core/fileio.c core/units.c

# Circles of calls, in a small tree of its own: a.c calls b.c, b.c calls
# c.c, c.c calls a.c back; d.c calls a.c and e.c, and nothing calls d.c
# (e.c names d_one only as a tag and a member); f.c calls its own static
# a_one, not a.c's, though a.c calls f.c; g.c is the static build's
# stand-in for b_one, which it defines and names itself.
mkdir -p "$T_TMP/ring/src/core"
(cd "$T_TMP/ring/src/core" &&
	printf 'int a_one(void)\n{\n\treturn b_one() + f_one(); /* d_one() */\n}\n' > a.c &&
	printf 'int b_one(void) { return c_one(); }\n' > b.c &&
	printf 'int c_one(void) { return a_one(); }\n' > c.c &&
	printf 'int d_one(void) { return a_one() + e_one(NULL); }\n' > d.c &&
	printf 'int e_one(struct d_one *p) { return p->d_one + "d_one()"[0]; }\n' > e.c &&
	printf 'static int a_one(void) { return 1; }\nint f_one(void) { return a_one(); }\n' > f.c &&
	printf 'int b_one(void) { return b_one == 0; }\n' > g.c)
ring_design() { # ring_design LINE...: a design document for the small tree
	{ echo '```layers'; echo 'layer 1: core'; echo 'uncalled: d_one'; printf '%s\n' "$@"; echo '```'; } \
		> "$T_TMP/ring/design.md"
}
ring_design
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "a circle of calls fails" 1
expect_out "it is one line naming its files and the names that tie them" \
	'^src/core/a.c src/core/b.c src/core/c.c call each other \(core/a.c -> core/b.c: b_one; core/b.c -> core/c.c: c_one; core/c.c -> core/a.c: a_one\): break the circle'
expect_no_out "a file that calls into the circle and is not called back is not on it" 'src/core/d.c'
expect_no_out "a tag, a member, a comment or a string is no call" 'src/core/e.c'
expect_no_out "a call of a static function of the file's own is no call of another file's" 'src/core/f.c'
expect_no_out "the static build's stand-in calls nothing it stands in for" 'src/core/g.c'
expect_out "and nothing else is reported" "; 1 violation\(s\)$"

ring_design 'circle-ok: core/c.c core/b.c core/a.c  # planted (2026-12-02)'
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "a circle-ok: line naming all its files lets the circle pass" 0
ring_design 'circle-ok: core/a.c core/b.c  # planted (2026-12-02)'
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "one naming only some of them does not" 1
expect_out "the circle is reported" '^src/core/a.c src/core/b.c src/core/c.c call each other'
expect_out "and so is the line, whose files are on no circle of its own" \
	'^layers block: circle-ok: core/a.c core/b.c: core/a.c core/b.c on no circle of the line.s files now: take them off the line$'
ring_design 'circle-ok: core/a.c core/b.c core/c.c core/d.c  # planted (2026-12-02)'
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "a file on a circle-ok: line that is on no circle fails" 1
expect_out "and is named" '^layers block: circle-ok: core/a.c core/b.c core/c.c core/d.c: core/d.c on no circle of the line.s files now: take it off the line$'
expect_out "alone" "; 1 violation\(s\)$"
ring_design 'circle-ok: core/a.c core/b.c core/c.c  # planted'
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "a circle-ok: line without its day is bad" 1
expect_out "and says what it needs" 'a circle-ok: line names two files or more, and says after a # why the circle stands and since when'
ring_design 'circle-ok: core/a.c core/b.c core/c.c  # planted (2026-12-02)'
printf 'int c_one(void) { return 0; }\n' > "$T_TMP/ring/src/core/c.c"
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "once the circle is broken its circle-ok: line fails" 1
expect_out "naming each of its files" ': core/a.c core/b.c core/c.c on no circle of the line.s files now: take them off the line$'
expect_out "once" "; 1 violation\(s\)$"
ring_design
run "$check_layers" --design "$T_TMP/ring/design.md" "$T_TMP/ring/src"
expect_rc "and without it the tree passes" 0

# The design document's table of includes is the tree's, as --table counts
# it; a planted include shows in it.
run "$check_layers" --table
expect_rc "--table prints the table of includes" 0
expect_out "a row per folder, a count per folder it includes" '^\| harness  \| [0-9]+ \| [0-9]+ \|'
doc=$(awk '/^\| from \\ to \|/ { on = 1 } on && !/^\|/ { exit } on' "$root/docs/DESIGN.md")
if [ -n "$doc" ] && [ "$doc" = "$OUT" ]; then
	ok "docs/DESIGN.md's table of includes is the tree's"
else
	not_ok "docs/DESIGN.md's table of includes is the tree's (write it from scripts/check-layers --table): $(diff <(echo "$doc") <(echo "$OUT") | grep '^[<>]' | head -4 | tr '\n' ' ')"
fi
cmd_vm=$(awk -F'|' '$2 ~ /^ cmd +$/ { print $13 + 0 }' <<< "$OUT")
plant cmd/list.c '#include "vm/guest.h"'
run "$check_layers" --table "$T_TMP/src"
got=$(awk -F'|' '$2 ~ /^ cmd +$/ { print $13 + 0 }' <<< "$OUT")
check "a planted include from cmd to vm counts one more ($cmd_vm -> $got)" test -n "$cmd_vm" -a "$got" = "$((cmd_vm + 1))"
fresh cmd/list.c

printf '# design\n' > "$T_TMP/design.md"
run "$check_layers" --design "$T_TMP/design.md"
expect_rc "a design document without a layers block is bad input" 2
expect_err "and is named" "design.md: no \`\`\`layers block"
done_testing
