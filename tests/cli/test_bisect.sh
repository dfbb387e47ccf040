# vmregress bisect: usage errors and series files that are refused with
# their line named, then real bisections in QEMU guests of one Debian cloud
# kernel: a series of eight candidates whose command line plants
# vm.page-cluster=0 from the sixth on (the re-read case's major faults grow
# eightfold: swap readahead reads one page instead of eight), with the
# fourth a kernel that does not exist (skipped, a neighbour tried), must
# name the sixth as the first bad; a series whose good and bad are the same
# kernel must stop at the confirmation.  Beside them, bisect start | run |
# show as `git bisect run` uses them: references stored once, then a real
# git bisect run over a repository of four commits whose file `append`
# holds the guest's command line, the third planting vm.page-cluster=0; git
# must name the third, a kernel that does not exist must be a skip (125),
# and bisect show must state every step and the bound.  The three run side
# by side.  The planted bisection's report leads with its answer and draws
# the metric along the series.
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
run "$VMR" bisect run --reference x --db "$DB"
expect_rc "bisect run without --kernel aborts git bisect (exit 130)" 130
expect_err "it says what is missing" "--kernel PATH and --reference NAME are needed"
run "$VMR" bisect run --kernel x --reference no-such --db "$DB"
expect_rc "bisect run of an unknown bisection aborts (exit 130)" 130
run "$VMR" bisect start --good "$KPKG" --case reread --metric x --name y --db "$DB"
expect_rc "bisect start without --bad exits 2" 2
run "$VMR" bisect show --db "$DB"
expect_rc "bisect show without a name exits 2" 2
run "$VMR" bisect frob
expect_rc "an unknown subcommand exits 2" 2
expect_err "the subcommands are listed" "start, run and show"
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
if ! command -v qemu-system-x86_64 > /dev/null || ! command -v git > /dev/null; then
	skip "bisections in guests" "qemu-system-x86_64 or git is not installed"
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


# bisect start, then git bisect run over four commits, the third planted.
git_flow() {
	local d=$T_TMP/git i
	mkdir -p "$d"
	"$VMR" bisect start --good "$KPKG -- vmr.pos=1" --bad "$KPKG -- vmr.pos=4 sysctl.vm.page-cluster=0" \
		"${GUEST[@]}" --name gitref --db "$d/results.db" --log-dir "$d/logs" --json > "$d/start.out" 2> "$d/start.err"
	echo $? > "$d/start.rc"
	git init -q "$d/src"
	for i in 1 2 3 4; do
		if [ "$i" -ge 3 ]; then echo "vmr.pos=$i sysctl.vm.page-cluster=0"; else echo "vmr.pos=$i"; fi > "$d/src/append"
		git -C "$d/src" add append
		git -C "$d/src" -c user.name=t -c user.email=t@example.org commit -qm "commit $i"
	done
	git -C "$d/src" rev-list --reverse HEAD | sed -n 3p > "$d/third"
	(cd "$d/src" && git bisect start HEAD "$(git rev-list --reverse HEAD | head -1)" > /dev/null &&
		git bisect run sh -c '"$0" bisect run --kernel "$1" --append "$(cat append)" --reference gitref \
			--db "$2" --log-dir "$3"' "$VMR" "$KPKG" "$d/results.db" "$d/logs") > "$d/git.out" 2>&1
	"$VMR" bisect run --kernel "$T_TMP/no-such-bzImage" --reference gitref --db "$d/results.db" \
		--log-dir "$d/logs" > /dev/null 2> "$d/skip.err"
	echo $? > "$d/skip.rc"
	"$VMR" bisect show gitref --db "$d/results.db" --json > "$d/show.out" 2> "$d/show.err"
	echo $? > "$d/show.rc"
	"$VMR" bisect show gitref --db "$d/results.db" > "$d/show.txt" 2>&1
}
git_flow &

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
	'[.steps[] | select(.decision == "good" or .decision == "bad") | .error_bound > 0 and .error_bound < 0.02 and .iterations >= 1] | all and length >= 2'
expect_json "the answer's error bound is stated, above the steps' and below 10%" \
	'.error_bound > ([.steps[].error_bound] | add) and .error_bound < 0.1'
expect_json "the metric is tested on means (a counter)" '.test.kind == "means"'
printf '%s\n' "$OUT" > "$T_TMP/planted.json"
run "$VMR" bisect show planted --db "$DB" --json
expect_rc "bisect show reads the planted bisection back" 0
expect_json_is "from the store, the missing kernel is skipped" '[.skipped[].index] | join(",")' 4
expect_json "with its reason" '.steps[] | select(.candidate.index == 4) | .skipped | test("did not boot: the kernel cannot")'
expect_json_is "and the same first bad" '.first_bad.index' 6
run "$VMR" list --db "$DB" --json
expect_json "the skipped candidate is a failed run of the group" \
	'[.[] | select(.group.name == "planted" and .status == "failed")] | length == 1'
run "$VMR" list --db "$DB" --json
expect_json "every boot is a run of the group 'planted'" \
	'[.[] | select(.tag == "planted")] | length >= 4 and (map(.group.name == "planted") | all)'
run "$VMR" compare planted --db "$DB" --metrics major-faults-reread --headline major-faults-reread \
	--fail-on regression
expect_rc "compare takes the bisection's group (exit 1: a regression)" 1
expect_out "compare sees the bad candidates' major faults regress" "[1-9][0-9]* regressions?"
if command -v gnuplot > /dev/null; then
	run "$VMR" report planted --db "$DB" -o "$T_TMP/report"
	expect_rc "report takes the bisection's group" 0
	page=$(cat "$T_TMP/report/index.html" 2>/dev/null)
	grep -q '<section id="bisection">' <<< "$page" && grep -q 'first bad: #6 ' <<< "$page" &&
		ok "the report leads with the bisection's answer" || not_ok "the report does not lead with the bisection"
	grep -q 'major-faults-reread along the series' <<< "$page" &&
		ok "the report draws the metric along the series" || not_ok "the report has no graph along the series"
else
	skip "the report of a bisection" "gnuplot is not installed"
fi

wait
RC=$(cat "$T_TMP/same.rc") OUT=$(cat "$T_TMP/same.out") ERR=$(cat "$T_TMP/same.err") WANT_RC=1
expect_rc "good and bad that do not differ exit 1" 1
expect_json_is "it stops at the confirmation" '.end' no-difference
expect_json "it says what it could have seen" '.reason | test("^nothing to bisect: good and bad do not differ on major-faults-reread \\(could have seen >= [0-9.]+%")'
expect_json_is "no step was tried" '.steps | length' 0

d=$T_TMP/git
RC=$(cat "$d/start.rc") OUT=$(cat "$d/start.out") ERR=$(cat "$d/start.err") WANT_RC=0
expect_rc "bisect start stores references that differ" 0
expect_json_is "it is ready for git bisect run" '.end' ready
grep -q "^$(cat "$d/third") is the first bad commit" "$d/git.out" && ok "git bisect run names the planted commit" ||
	not_ok "git bisect run does not name the planted commit: $(tail -5 "$d/git.out")"
[ "$(cat "$d/skip.rc")" = 125 ] && ok "bisect run of a kernel that does not boot exits 125 (skip)" ||
	not_ok "bisect run of a kernel that does not boot exits $(cat "$d/skip.rc"): $(head -c 300 "$d/skip.err")"
RC=$(cat "$d/show.rc") OUT=$(cat "$d/show.out") ERR=$(cat "$d/show.err") WANT_RC=0
expect_json_is "bisect show states git's steps" '.end' git
expect_json "every step tested has a decision, its iterations and its bound" \
	'[.steps[] | select(.skipped == null) | (.decision == "good" or .decision == "bad") and .iterations >= 1 and .error_bound > 0] | all and length >= 2'
expect_json "the kernel that does not boot is listed as skipped, with its reason" \
	'([.skipped[] | .kernel | test("no-such-bzImage")] | any) and ([.steps[] | select(.skipped != null) | .skipped | test("did not boot")] | length == 1)'
expect_json "the answer's bound is stated" '.error_bound > 0 and .error_bound < 0.1'
expect_json_is "the steps name their command lines" \
	'[.steps[].candidate.append // ""] | map(select(test("page-cluster=0"))) | length >= 1' true
expect_json "the steps git bisect ran are known by their commits (the kernel after)" \
	"[.steps[] | select(.skipped == null) | .candidate.line | test(\"^[0-9a-f]{7,} commit [0-9]: \")] | all and length >= 2"
expect_json "the kernel run by hand, outside git bisect, by its path" \
	'[.skipped[] | .line | test("^/.*no-such-bzImage$")] | any'
grep -q "chance this answer is wrong: at most" "$d/show.txt" && ok "bisect show's text states the bound" ||
	not_ok "bisect show's text does not state the bound: $(head -c 300 "$d/show.txt")"
done_testing
