# The command reference (docs/reference.md) lists exactly the commands,
# workloads and options that the help prints; neither the README nor any
# page of the manual names an option that no command has; the README stays
# short and shows commands that run as pasted after its quick start.
# Reads only help output: no root, no sandbox.
. "$(dirname "$0")/lib.sh"
TOP=$(dirname "$0")/../..
README=$TOP/README.md
REFERENCE=$TOP/docs/reference.md

# Options other programs take, which the README shows in their commands, and
# `vmregress help --man`, which no help lists.
FOREIGN='--pwprompt --sort --man --man-dir --completion'

# help_opts GROUP < HELP: "GROUP OPTION" for each option line of the help,
# GROUP being the table it belongs in ("vmregress CMD", "vmregress test W",
# "sandbox", "tracing"); short forms as -x.
help_opts() {
	awk -v cmd="$1" '
	/^[A-Za-z].*:$/ {
		sect = $0
		g = cmd # "Options:" and "Workload options:"
		if (sect ~ /^Sandbox options/) g = "sandbox"
		else if (sect ~ /^Tracing options/) g = "tracing"
		else if (sect ~ /^Output options/) g = "vmregress test"
		else if (sect != "Options:" && sect !~ /^Workload options/) g = ""
		next
	}
	g != "" && /^  (-[a-z], )?--[a-z]/ {
		s = $0; sub(/^  /, "", s)
		if (s ~ /^-[a-z], /) { print g " " substr(s, 1, 2); s = substr(s, 5) }
		sub(/[ =].*/, "", s)
		print g " " s
	}'
}

# What the help says.
CMDS=$("$VMR" --help | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }')
WORKLOADS=$("$VMR" test --list | awk '{ print $1 }')
[ -n "$CMDS" ] && ok "--help lists commands" || not_ok "--help lists commands"
[ -n "$WORKLOADS" ] && ok "test --list lists workloads" || not_ok "test --list lists workloads"
{
	"$VMR" --help | head -1 | grep -oE -- '--[a-z]+' | sed 's/^/vmregress /'
	"$VMR" -h > /dev/null && echo "vmregress -h"
	for c in $CMDS; do "$VMR" help "$c" | help_opts "vmregress $c"; done
	for w in $WORKLOADS; do "$VMR" test "$w" --help | help_opts "vmregress test $w"; done
} | sort -u > "$T_TMP/help"

# What the reference says: for each "## `vmregress ...`" (or "## Sandbox
# options", "## Tracing options") the options in its table's first column.
awk '
/^## / {
	g = $0; sub(/^## /, "", g); gsub(/`/, "", g)
	if (g == "Sandbox options") g = "sandbox"
	else if (g == "Tracing options") g = "tracing"
	print "section " g
	next
}
/^\| / {
	split($0, cell, "|"); c = cell[2]
	while (match(c, /(^|[^a-z0-9-])--?[a-z][a-z0-9-]*/)) {
		o = substr(c, RSTART, RLENGTH); sub(/^[^-]/, "", o)
		print g " " o
		c = substr(c, RSTART + RLENGTH)
	}
}' "$REFERENCE" > "$T_TMP/readme.all"
grep -v '^section ' "$T_TMP/readme.all" | sort -u > "$T_TMP/readme"
sed -n 's/^section //p' "$T_TMP/readme.all" | sort -u > "$T_TMP/sections"

if [ -s "$T_TMP/readme" ]; then ok "docs/reference.md is a command reference"
else not_ok "docs/reference.md is a command reference (no option tables under '## ' headings)"; fi

# Every command and workload has its section, and every section is one.
{ echo vmregress; for c in $CMDS; do echo "vmregress $c"; done
  for w in $WORKLOADS; do echo "vmregress test $w"; done; echo sandbox; echo tracing; } | sort -u > "$T_TMP/want"
missing=$(comm -23 "$T_TMP/want" "$T_TMP/sections" | paste -sd, -)
extra=$(comm -13 "$T_TMP/want" "$T_TMP/sections" | paste -sd, -)
[ -z "$missing" ] && ok "every command and workload has a reference section" \
	|| not_ok "reference sections missing: $missing"
[ -z "$extra" ] && ok "every reference section is a command or workload" \
	|| not_ok "reference sections for what does not exist: $extra"

# The same options, table by table.
missing=$(comm -23 "$T_TMP/help" "$T_TMP/readme" | paste -sd, -)
extra=$(comm -13 "$T_TMP/help" "$T_TMP/readme" | paste -sd, -)
[ "$(wc -l < "$T_TMP/help")" -gt "$(wc -w <<< "$CMDS $WORKLOADS")" ] && ok "the help lists options" ||
	not_ok "the help lists options (only $(wc -l < "$T_TMP/help"))"
[ -z "$missing" ] && ok "the reference lists every option of the help ($(wc -l < "$T_TMP/help") options)" \
	|| not_ok "options missing from docs/reference.md: $missing"
[ -z "$extra" ] && ok "the reference lists no option the help lacks" \
	|| not_ok "options in docs/reference.md that the help lacks: $extra"

# Anywhere in the README: every --option is one of some command's.
awk '{ print $NF }' "$T_TMP/help" | grep -- '^--' | sort -u > "$T_TMP/all"
printf '%s\n' $FOREIGN >> "$T_TMP/all"
sort -u -o "$T_TMP/all" "$T_TMP/all"
for f in "$README" "$TOP"/docs/*.md; do
	case $f in */DESIGN.md|*/testing.md|*/uninitialised.md) continue ;; esac  # about the code, not the commands
	grep -oE -- '(^|[^a-zA-Z0-9_-])--[a-z][a-z0-9-]*' "$f" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u > "$T_TMP/named"
	unknown=$(comm -13 "$T_TMP/all" "$T_TMP/named" | paste -sd, -)
	[ -z "$unknown" ] && ok "$(basename "$f") names no option that no command has" \
		|| not_ok "$(basename "$f") names options no command has: $unknown"
done

# The README is the front door: short, and its commands run as pasted.
n=$(wc -l < "$README")
[ "$n" -le 300 ] && ok "the README is short ($n lines)" || not_ok "the README has $n lines (at most 300)"
bare=$(awk '/^```/ { code = !code; next } code && /^([$#] )?vmregress / { print NR ": " $0 }' "$README" | head -3)
[ -z "$bare" ] && ok "the README's commands run as pasted (./vmregress after make)" \
	|| not_ok "the README shows vmregress off PATH: $bare"
for f in $(grep -oE '\(docs/[a-zA-Z0-9_.-]+\.md\)' "$README" | tr -d '()' | sort -u); do
	[ -f "$TOP/$f" ] || not_ok "the README links to $f, which is missing"
done
ok "the README's links to docs/ were checked"
done_testing
