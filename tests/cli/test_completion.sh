#!/usr/bin/env bash
# Shell completion and man pages come from the same tables as the parser:
# bash's own completion machinery runs the generated script, and every
# command has a man page with the sections a reader expects.
. "$(dirname "$0")/lib.sh"

run "$VMR" help --completion bash
expect_rc "help --completion bash exits 0" 0
printf '%s\n' "$OUT" > "$T_TMP/vmregress.bash"
if [ -n "$OUT" ] && bash -n "$T_TMP/vmregress.bash" 2>/dev/null; then ok "the completion script is bash"; else not_ok "the completion script is bash"; fi
run "$VMR" help --completion fish
expect_rc "a shell it does not know exits 2" 2

# complete WORDS...: what bash offers for the last word (empty: a new word),
# one per line, sorted.
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_vmregress
		printf "%s\n" "${COMPREPLY[@]}" | sort
	' complete "$T_TMP/vmregress.bash" "$@" 2>&1
}
expect_words() { # NAME WANT WORDS...: every word of WANT is offered
	local name=$1 want=$2 got w missing=""; shift 2
	got=$(complete_words "$@")
	for w in $want; do grep -qxF -- "$w" <<< "$got" || missing+=" $w"; done
	if [ -n "$got" ] && [ -z "$missing" ]; then ok "$name"; else not_ok "$name (missing:$missing; got: $(echo $got | cut -c1-200))"; fi
}
expect_none() { # NAME UNWANTED WORDS...: the word is not offered
	local name=$1 bad=$2 got; shift 2
	got=$(complete_words "$@")
	if ! grep -qxF -- "$bad" <<< "$got"; then ok "$name"; else not_ok "$name (got $bad)"; fi
}
expect_words "commands complete" "compare cleanup" vmregress c
expect_words "every command of --help completes" "$("$VMR" --help | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }' | tr '\n' ' ')" vmregress ""
expect_words "workloads complete after test" "fault" vmregress test fa
expect_words "a workload's own options complete" "--passes --level" vmregress test fault --
expect_words "and the sandbox's" "--mem --swap --no-sandbox" vmregress test fault --
expect_none "another workload's options do not" "--tasks" vmregress test fault --t
expect_words "enum choices complete" "fast low min zero" vmregress test fault --level ""
expect_words "knobs complete after --set" "vm.page-cluster=" vmregress run quick --set vm.page
expect_words "suites complete after run" "quick" vmregress run qu
expect_words "sub-commands of sense complete" "zones structsizes kvirtual pagemap system vmstat" vmregress sense ""
expect_words "sub-commands of sandbox complete" "status exec" vmregress sandbox ""
expect_words "compare's options complete" "--alpha --only-significant" vmregress compare a b --
touch "$T_TMP/afile.db"
expect_words "--db completes files" "$T_TMP/afile.db" vmregress list --db "$T_TMP/af"

# Man pages: one per command, and the suite-file format.
mkdir -p "$T_TMP/man"
run "$VMR" help --man-dir "$T_TMP/man"
expect_rc "help --man-dir exits 0" 0
n=0
for c in $("$VMR" --help | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }'); do
	n=$((n + 1))
	f=$T_TMP/man/vmregress-$c.1
	if [ -s "$f" ] && grep -q '^\.SH SYNOPSIS' "$f" && grep -q '^\.SH EXIT STATUS' "$f" && grep -q '^\.SH ENVIRONMENT' "$f"; then
		ok "vmregress-$c(1) has synopsis, environment and exit status"
	else
		not_ok "vmregress-$c(1) has synopsis, environment and exit status"
	fi
done
[ "$n" -gt 10 ] && ok "man pages were checked for $n commands" || not_ok "man pages were checked for $n commands"
grep -q '^\.SH EXAMPLES' "$T_TMP/man/vmregress-run.1" && ok "vmregress-run(1) has examples" || not_ok "vmregress-run(1) has examples"
grep -q '^\.SH FILES' "$T_TMP/man/vmregress-run.1" && ok "vmregress-run(1) names its files" || not_ok "vmregress-run(1) names its files"
grep -q 'passes' "$T_TMP/man/vmregress-test.1" && ok "vmregress-test(1) has the workloads' options" || not_ok "vmregress-test(1) has the workloads' options"
f=$T_TMP/man/vmregress-suite.5
if [ -s "$f" ] && grep -q '^\.TH VMREGRESS-SUITE 5' "$f" && grep -q 'iterations' "$f" && grep -q 'mem' "$f"; then
	ok "vmregress-suite(5) documents the suite keys"
else
	not_ok "vmregress-suite(5) documents the suite keys"
fi
if command -v man >/dev/null 2>&1; then
	run env MANWIDTH=80 man -l "$T_TMP/man/vmregress-run.1"
	expect_rc "man renders vmregress-run(1)" 0
	expect_out "and shows its examples" "vmregress run quick"
else
	skip "man renders vmregress-run(1)" "man is not installed"
fi
run "$VMR" help --man nosuch
expect_rc "help --man of no command exits 2" 2
done_testing
