# vmregress bisect: usage errors and series files that are refused with
# their line named, then real bisections in QEMU guests of one Debian cloud
# kernel: a series of eight candidates whose command line plants
# vm.page-cluster=0 from the sixth on (the re-read case's major faults grow
# eightfold: swap readahead reads one page instead of eight), with the
# fourth a kernel that does not exist (skipped, a neighbour tried), must
# name the sixth as the first bad; a series whose good and bad are the same
# kernel must stop at the confirmation.  The two run side by side.
#
# Guests are skipped in the ASan pass (ASAN_OPTIONS set) and whenever
# VMR_NO_GUEST=1; the kernel package is fetched once into the default cache
# (skipped only when Debian's archive cannot be reached).
. "$(dirname "$0")/lib.sh"

KPKG=${VMR_TEST_KERNEL:-linux-image-6.1.0-57-cloud-amd64}
DB=$T_TMP/results.db

cat > "$T_TMP/reread.ini" <<'EOT'
[global]
iterations = 3
mem = 16M
swap = file:32M
timeout = 120s

[reread]
; a 12M buffer pushed out to swap and read back, one word a page
workload = reread
sleep = 0
touch = page

[null]
workload = null
EOT

# --- usage and series files -------------------------------------------------
run "$VMR" bisect --case reread --metric x
expect_rc "no --series exits 2" 2
expect_err "no --series says so" "^vmregress: bisect: no --series FILE given"
printf '%s\n' "$KPKG" "$KPKG extra-word" > "$T_TMP/two-words"
run "$VMR" bisect --series "$T_TMP/two-words" --case reread --metric x --db "$DB"
expect_rc "two words without -- exit 2" 2
expect_err "the bad line is named" "two-words:2: .*one kernel a line"
one_line_err && ok "a bad series line is one error line" || not_ok "a bad series line is one error line ($ERR)"
printf '%s\n' "$KPKG" > "$T_TMP/one"
run "$VMR" bisect --series "$T_TMP/one" --case reread --metric x --db "$DB"
expect_rc "one candidate exits 2" 2
run "$VMR" bisect --series "$T_TMP/no-such-file" --case reread --metric x --db "$DB"
expect_rc "a missing series file exits 2" 2
expect_err "a missing series file is named" "no-such-file"
printf '%s\n' "$KPKG" "$KPKG -- quiet" "$KPKG -- quiet=1" > "$T_TMP/three"
run "$VMR" bisect --series "$T_TMP/three" --case no-such-case --metric x --suite "$T_TMP/reread.ini" --db "$DB"
expect_rc "an unknown case exits 2" 2
expect_err "an unknown case lists the suite's cases" "no case 'no-such-case' .*its cases: reread, null"
run "$VMR" bisect --series "$T_TMP/three" --case reread --metric x --good 3 --bad 1 --suite "$T_TMP/reread.ini" --db "$DB"
expect_rc "a good after the bad exits 2" 2
expect_err "a good after the bad is explained" "oldest first"
run "$VMR" bisect --series "$T_TMP/three" --case reread --metric x --bad 4 --suite "$T_TMP/reread.ini" --db "$DB"
expect_rc "a --bad beyond the series exits 2" 2
run "$VMR" bisect --help
expect_out "help lists --series" "--series FILE"
expect_out "help lists the matrix's guest options" "--mem SIZE"
expect_out "help lists --alpha" "--alpha P"

# --- real bisections ----------------------------------------------------------
if [ ! -x "$(dirname "$VMR")/vmregress-static" ] && [ ! -x "$(dirname "$VMR")/build/vmregress-static" ]; then
	skip "bisections in guests" "no build/vmregress-static (make build/vmregress-static)"
	done_testing
	exit 0
fi
if [ -n "${ASAN_OPTIONS:-}" ] || [ -n "${VMR_NO_GUEST:-}" ]; then
	skip "bisections in guests" "ASan pass or VMR_NO_GUEST set"
	done_testing
	exit 0
fi
if ! command -v qemu-system-x86_64 > /dev/null; then
	skip "bisections in guests" "qemu-system-x86_64 is not installed"
	done_testing
	exit 0
fi
run "$VMR" matrix --build-initramfs "$T_TMP/k.cpio" --kernel "$KPKG" --guest-cmd=--version
if [ "$RC" != 0 ]; then
	skip "bisections in guests" "cannot fetch $KPKG: ${ERR:0:200}"
	done_testing
	exit 0
fi

GUEST=(--suite "$T_TMP/reread.ini" --case reread --metric major-faults-reread --references 3 --batch 3
	--max-iterations 9 --accel tcg --mem 256M --timeout 300s --budget 20m)

# Good and bad the same kernel and command line: nothing to bisect.
printf '%s\n' "$KPKG -- vmr.pos=1" "$KPKG -- vmr.pos=2" "$KPKG -- vmr.pos=3" > "$T_TMP/same"
("$VMR" bisect --series "$T_TMP/same" "${GUEST[@]}" --name same --db "$T_TMP/same.db" \
	--log-dir "$T_TMP/logs-same" --json > "$T_TMP/same.out" 2> "$T_TMP/same.err"; echo $? > "$T_TMP/same.rc") &

# Planted from the sixth candidate on; the fourth does not exist.
for i in 1 2 3 4 5 6 7 8; do
	if [ "$i" = 4 ]; then echo "$T_TMP/no-such-bzImage -- vmr.pos=$i"
	elif [ "$i" -ge 6 ]; then echo "$KPKG -- vmr.pos=$i sysctl.vm.page-cluster=0"
	else echo "$KPKG -- vmr.pos=$i"; fi
done > "$T_TMP/planted"
t0=$SECONDS
run "$VMR" bisect --series "$T_TMP/planted" "${GUEST[@]}" --name planted --db "$DB" --log-dir "$T_TMP/logs" --json
took=$((SECONDS - t0))
expect_rc "the planted series is bisected (exit 0, ${took}s)" 0
expect_json_is "the first bad is the sixth candidate" '.first_bad.index' 6
expect_json_is "it is named by its series line" '.first_bad.line' "$KPKG -- vmr.pos=6 sysctl.vm.page-cluster=0"
expect_json_is "the last good is the fifth" '.last_good.index' 5
expect_json_is "good and bad were confirmed to differ" '.confirmation.differ' true
expect_json_is "the missing kernel was skipped" '[.skipped[].index] | join(",")' 4
expect_json "its step says it did not boot" '.steps[] | select(.candidate.index == 4) | .skipped | test("did not boot")'
expect_json "every decided step states its error bound and iterations" \
	'[.steps[] | select(.decision != "undecided") | .error_bound > 0 and .error_bound < 0.02 and .iterations >= 1] | all and length >= 2'
expect_json "the answer's error bound is stated, above the steps' and below 10%" \
	'.error_bound > ([.steps[].error_bound] | add) and .error_bound < 0.1'
expect_json "the metric is tested on means (a counter)" '.test.kind == "means"'
printf '%s\n' "$OUT" > "$T_TMP/planted.json"
run "$VMR" list --db "$DB" --json
expect_json "every boot is a run of the group 'planted'" \
	'[.[] | select(.tag == "planted")] | length >= 4 and (map(.group.name == "planted") | all)'
run "$VMR" compare planted --db "$DB" --metrics major-faults-reread --headline major-faults-reread \
	--fail-on regression
expect_rc "compare takes the bisection's group (exit 1: a regression)" 1
expect_out "compare sees the bad candidates' major faults regress" "[1-9][0-9]* regressions?"

wait
RC=$(cat "$T_TMP/same.rc") OUT=$(cat "$T_TMP/same.out") ERR=$(cat "$T_TMP/same.err") WANT_RC=1
expect_rc "good and bad that do not differ exit 1" 1
expect_json_is "it stops at the confirmation" '.end' no-difference
expect_json "it says what it could have seen" '.reason | test("^nothing to bisect: good and bad do not differ on major-faults-reread \\(could have seen >= [0-9.]+%")'
expect_json_is "no step was tried" '.steps | length' 0
done_testing
