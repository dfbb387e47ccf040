# Sourced by every benchmark, after its cd to the top of the tree (not a
# bench/*.sh itself, so bench/run-all does not run it).  A benchmark whose
# command fails stops at once with a message naming that command and exits
# non-zero: it never prints figures, or "ok", for runs that did not happen.  $VMR is the binary measured (VMR=/bin/false shows
# the failure path).
set -Eeuo pipefail
shopt -s inherit_errexit   # a failure inside $(...) fails the assignment too
BENCH=bench/$(basename "$0")
VMR=${VMR:-./vmregress}
# (a password in a store URL is masked, as vmregress itself masks it)
bench_fail() { echo "$BENCH: $*" | sed -E 's#(://[^:/@ ]*:)[^@ ]*@#\1***@#g' >&2; exit 1; }
# Anything else that fails (a build, a pipeline) is named by the trap, once:
# inside $(...) it only passes the failure up to the command around it.
trap 'rc=$?; [ "$BASH_SUBSHELL" = 0 ] || exit $rc
	bench_fail "line $LINENO: \"$BASH_COMMAND\" failed (exit $rc)"' ERR
# bench_run CMD...: runs CMD, its output dropped; a non-zero exit stops the
# benchmark with CMD and the last line it printed on stderr.
bench_run() {
	local rc=0 err
	err=$("$@" 2>&1 > /dev/null) || rc=$?
	[ "$rc" = 0 ] || bench_fail "'$*' failed (exit $rc): $(tail -1 <<< "$err")"
}
# bench_out CMD...: CMD's stdout (its stderr goes through); CMD must exit 0
# and print something.
bench_out() {
	local rc=0 out
	out=$("$@") || rc=$?
	[ "$rc" = 0 ] || bench_fail "'$*' failed (exit $rc)"
	[ -n "$out" ] || bench_fail "'$*' printed nothing"
	printf '%s\n' "$out"
}
# bench_nums WHAT VALUE...: each VALUE is a number (what a jq filter or a
# bare loop printed), else the benchmark stops naming WHAT.
bench_nums() {
	local what=$1 v; shift
	[ $# -gt 0 ] || bench_fail "$what: no value"
	for v in "$@"; do
		[[ $v =~ ^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$ ]] || bench_fail "$what: '$v' is not a number"
	done
}
