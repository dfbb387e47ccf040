# The kernel's selftests in guests of the matrix: the tests a suite names
# travel in the guest's initramfs (statically linked), each guest kernel
# runs those of its own source version (source = matched: a 6.1 kernel
# 6.1's, a 6.12 kernel 6.12's) and says so in its environment, the tests
# that change the whole machine run there (--guest), with a hugetlb pool the
# guest reserves at boot, cgroup's memory test under the guest's cgroup v2,
# and two kernels' functional results compare case by case.  Two guests of
# 1G, about a minute and a half each under TCG; skipped in the ASan pass
# and with VMR_NO_GUEST=1 (as test_matrix.sh).
. "$(dirname "$0")/lib.sh"
K1=${VMR_TEST_KERNEL:-linux-image-6.1.0-57-cloud-amd64}
K2=${VMR_TEST_KERNEL_MTHP:-linux-image-6.12.117+deb12-cloud-amd64}
if [ -n "${VMR_NO_GUEST:-}" ] || [ -n "${ASAN_OPTIONS:-}" ]; then skip "selftests in guests" "guests are off"; done_testing; exit 0; fi
if [ ! -x "$(dirname "$VMR")/vmregress-static" ] && [ ! -x "$(dirname "$VMR")/build/vmregress-static" ]; then
	skip "selftests in guests" "no build/vmregress-static (make build/vmregress-static)"; done_testing; exit 0
fi
if ! command -v jq >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "selftests in guests" "needs jq and qemu-system-x86_64"; done_testing; exit 0
fi
if [ "$(id -u)" != 0 ]; then skip "selftests in guests" "kselftest build needs root"; done_testing; exit 0; fi
for v in 6.12 6.1; do
	run "$VMR" kselftest build --source $v
	if [ "$RC" != 0 ] && grep -qE "Could not resolve|Failed to fetch|Temporary failure|Unable to connect|registry has no" <<< "$ERR"; then
		skip "selftests in guests" "Debian's registry cannot be reached: ${ERR:0:200}"; done_testing; exit 0
	fi
	expect_rc "the $v selftests are built (or were)" 0
done
cat > "$T_TMP/k.ini" <<'INI'
[global]
workload = kselftest
guest = yes
iterations = 1
mem = 192M
swap = file:128M
timeout = 600s
source = matched
[madvise]
tests = madv_populate,mkdirty
[memcg]
tests = cgroup/test_memcontrol
[hugetlb]
tests = hugepage-mmap
INI
run "$VMR" matrix --kernel "$K1" --kernel "$K2" --suite "$T_TMP/k.ini" --timeout 900s --name ks \
	--mem 1G --db "$T_TMP/r.db" --log-dir "$T_TMP/logs" --json
if [ "$RC" != 0 ] && grep -qE "Could not resolve|Failed to fetch|Temporary failure|Unable to connect" <<< "$ERR"; then
	skip "selftests in guests" "cannot fetch a kernel: ${ERR:0:200}"; done_testing; exit 0
fi
# exit 1 when a selftest failed in a guest: the small guests' memory makes
# some of cgroup's and hugetlb's fail, which is their result, not ours
check "the guests run the selftests (exit 0 or 1, not $RC)" [ "$RC" = 0 -o "$RC" = 1 ]
echo "$OUT" > "$T_TMP/matrix.json"
statuses=$(jq -r '[.guests[].status] | join(",")' "$T_TMP/matrix.json" 2>/dev/null)
check "... each guest's run complete ($statuses)" [ "$statuses" = "complete,complete" ]
labels=($(jq -r '.guests[].version' "$T_TMP/matrix.json" 2>/dev/null))
check "two guests came back" [ "${#labels[@]}" = 2 ]
for label in "${labels[@]}"; do
	v=${label%%-*}; v=${v%%+*}; mm=$(cut -d. -f1-2 <<< "$v")
	run "$VMR" show "ks-$label" --db "$T_TMP/r.db" --json
	expect_rc "$v: the guest's run is stored" 0
	expect_json_is "$v: its environment names the selftests it was sent: its own version's" \
		'.env.matrix.selftests' "$mm"
	expect_json_is "... and says they are the kernel's own" '.env.matrix.selftests_match' "$mm, the kernel's own"
	expect_json "$v: the guest reserved a hugetlb pool at boot (a quarter of its 1G)" \
		'.env.kernel.cmdline | test("hugepages=128( |$)")'
	expect_json "$v: madv_populate ran in the guest (from the initramfs), its iteration passed" \
		'[.cases[] | select(.name == "madvise") | .outcomes.pass] == [1]'
	# a case's figures over every iteration, failed ones too (show's
	# summary counts passing iterations only): from export's raw rows
	run "$VMR" export "ks-$label" --db "$T_TMP/r.db" --format json
	expect_rc "$v: export of the guest's run" 0
	expect_json "$v: madv_populate's cases passed, none failed" \
		'[.[] | select(.case == "madvise" and .metric == "cases-pass") | .value] | add > 5'
	expect_json "$v: cgroup's test_memcontrol ran its cases (cgroup v2 in the guest, --guest)" \
		'[.[] | select(.case == "memcg" and (.metric == "cases-pass" or .metric == "cases-fail")) | .value] | add > 5'
	expect_json "$v: hugepage-mmap ran and passed on the guest's pool (a host skips it)" \
		'[.[] | select(.case == "hugetlb" and (.metric == "tests-run" or .metric == "cases-pass" or .metric == "cases-fail")) | [.metric, .value]] | sort == [["cases-fail", 0], ["cases-pass", 1], ["tests-run", 1]]'
	run "$VMR" export "ks-$label" --db "$T_TMP/r.db" --format kcidb
	expect_json_is "$v: the selftests that ran are those of $mm (the result's own record)" \
		'[.tests[] | select(.path | test("\\.madvise\\.madv_populate\\.")) | .misc.selftests] | unique | join(",")' "$mm"
	[ "$mm" = 6.1 ] && expect_json "$v: mkdirty, which 6.1 has not, is a skip saying so" \
		'[.tests[] | select(.path | test("\\.madvise\\.mkdirty\\.")) | .status] == ["SKIP"]'
done
run "$VMR" compare "ks-${labels[0]}" "ks-${labels[1]:-none}" --db "$T_TMP/r.db" --json
expect_rc "compare takes the two kernels' selftest runs" 0
expect_json "... with a functional section counting every case" '.functional.cases > 16'
expect_json "... which says the selftests themselves differ" '.functional.versions | test("^6\\.1.* -> 6\\.12")'
expect_json "... as does the environment diff" '[.env_diff[].key] | any(. == "matrix.selftests")'
run "$VMR" compare "ks-${labels[0]}" "ks-${labels[1]:-none}" --db "$T_TMP/r.db"
expect_out "... and the text opens with the functional verdict" '^Functional \(kernel selftests, [0-9]+ cases\)'
echo "# $(head -1 <<< "$OUT")"
done_testing
