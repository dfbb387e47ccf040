# The command table, help, version and exit codes.
. "$(dirname "$0")/lib.sh"

run "$VMR" --version;  expect_rc "--version exits 0" 0; expect_out "--version prints the version" '^vmregress [0-9]+\.[0-9]+'
run "$VMR" --help;     expect_rc "--help exits 0" 0; expect_out "--help lists commands" 'sense'
run "$VMR";            expect_rc "no command is a usage error" 2
run "$VMR" frobnicate; expect_rc "unknown command exits 2" 2; expect_err "unknown command is named" "unknown command 'frobnicate'"
check "unknown command error is one line" one_line_err
run "$VMR" help sense; expect_rc "help CMD exits 0" 0; expect_out "help CMD shows usage" '^usage: vmregress sense'
run "$VMR" help nope;  expect_rc "help of unknown command exits 2" 2
run "$VMR" help --man; expect_rc "man page generates" 0; expect_out "man page has a title" '^\.TH VMREGRESS 1'
for c in $("$VMR" --help | awk '/^Commands:/{f=1;next} f&&/^  [a-z]/{print $1}'); do
	run "$VMR" help "$c"; expect_rc "help $c exits 0" 0
	grep -q "^\.SS $c" <<< "$("$VMR" help --man | sed 's/\\-/-/g')" && ok "man page has $c" || not_ok "man page has $c"
done
done_testing
