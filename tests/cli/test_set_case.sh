# --set KNOB=VALUE on a suite whose case sets the same knob: refused in one
# line naming the case and the suite, with what to do instead (a variant's
# setting replaces the case's value), exit 2 and nothing stored; the same
# knob twice on the command line keeps its own message.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/s.db
printf '[global]\nswap = none\nmem = 32M\n[plain]\nworkload = null\nspin = 1ms\n[pc-two]\nworkload = null\nspin = 1ms\nset = vm.page-cluster=2\n' > "$T_TMP/pc.ini"
run "$VMR" run "$T_TMP/pc.ini" --db "$DB" --set vm.page-cluster=0 -n 1 --quiet
expect_rc "a knob the case sets too: exit 2" 2
expect_err "naming the case, its suite and its value" \
	"^vmregress: --set: 'vm\.page-cluster=0': case pc-two of suite .*pc\.ini sets it itself \(vm\.page-cluster=2\); as a variant's setting \(--variant NAME:vm\.page-cluster=0\) it replaces the case's value$"
one_line_err && ok "in one line" || not_ok "in one line: $ERR"
[ ! -e "$DB" ] && ok "nothing stored (no store made)" || not_ok "nothing stored ($DB was made)"
run "$VMR" run "$T_TMP/pc.ini" --db "$DB" --set vm.swappiness=60 --set vm.swappiness=70 -n 1 --quiet
expect_rc "the same knob twice: exit 2" 2
expect_err "said as before" "^vmregress: --set: 'vm\.swappiness=70' sets vm\.swappiness a second time$"
if is_root; then
	run "$VMR" run "$T_TMP/pc.ini" --db "$DB" --variant a: --variant b:vm.page-cluster=0 -n 1 --quiet
	expect_rc "as a variant's setting it runs" 0
else
	skip "as a variant's setting it runs" "needs root for the sandbox"
fi
done_testing
