#!/usr/bin/env bash
# vmregress list keeps its columns aligned whatever the names' lengths
# (a matrix names its runs after kernels) and whatever their script.
. "$(dirname "$0")/lib.sh"
DB=$T_TMP/l.db
printf '[a]\nworkload = null\nno-sandbox = yes\nno-monitor = yes\nno-probe = yes\n' > "$T_TMP/s.ini"
for name in short linux-image-6.12.48+deb13-amd64-quick-matrix-run ünïcödé-näme; do
	run "$VMR" run "$T_TMP/s.ini" --db "$DB" --quiet --name "$name"
	expect_rc "a run named $name is stored" 0
done
run "$VMR" list --db "$DB"
expect_rc "list exits 0" 0
expect_out "the longest name is listed whole" ' linux-image-6\.12\.48\+deb13-amd64-quick-matrix-run '
# The character column where KERNEL starts is the same on every line.
cols=$(LC_ALL=C.UTF-8 python3 -c '
import sys
lines = sys.stdin.read().splitlines()
head = lines[0]
print(len(lines), " ".join(str(l.index(" 6.") + 1 if l is not head else head.index("KERNEL")) for l in lines))
' <<< "$OUT")
read -r nlines first rest <<< "$cols"
if [ "${nlines:-0}" = 4 ] && [ -n "$first" ] && [ -z "$(tr ' ' '\n' <<< "$rest" | grep -vx "$first")" ]; then
	ok "every line's KERNEL column starts where the header's does ($cols)"
else
	not_ok "KERNEL columns differ: $cols; ${OUT:0:400}"
fi
done_testing
