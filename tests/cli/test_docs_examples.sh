# Every command example of the README and docs/*.md runs, as written or as
# tests/cli/docs_examples.tab says (each exception with its reason), and
# exits 0; where the page shows the output after the command, the output's
# shape (its header, column headings, verdict lines and closing line, the
# figures masked) is still what the command prints.  Each page's examples
# run in document order, in a directory and a scratch store of their own
# (VMREGRESS_DB), so that one example can compare another's runs.
# tests/helpers/doc_examples.py finds the examples and compares the shapes.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)

# docs/workloads.md's table has a row for every workload the build has
missing=
for w in $("$VMR" test --list | awk '{ print $1 }'); do
	grep -q "^| \`$w\` |" "$TOP/docs/workloads.md" || missing="$missing $w"
done
[ -n "$("$VMR" test --list)" ] && [ -z "$missing" ] && ok "docs/workloads.md's table lists every workload of test --list" \
	|| not_ok "docs/workloads.md's table lacks:${missing:- (test --list printed nothing)}"

if ! is_root; then
	skip "the docs' examples" "they build sandboxes, which needs root"
	done_testing; exit 0
fi
case "$(basename "$VMR")" in
*asan*)	# the examples guard the docs, not memory safety; the sanitizer's own
	# memory does not fit some of their 64M sandboxes (test_refs_mmap.sh)
	# and would double their minutes
	skip "the docs' examples" "the plain binary runs them"
	done_testing; exit 0 ;;
esac

n_examples=$(python3 "$TOP/tests/helpers/doc_examples.py" list "$TOP/README.md" "$TOP"/docs/*.md | grep -c '"cmd"')
[ "$n_examples" -ge 50 ] && ok "the pages hold $n_examples examples" \
	|| not_ok "the pages hold $n_examples examples (the extractor finds too few)"

# the pages run two at a time (VMR_DOCS_JOBS), each example for at most
# VMR_DOCS_TIMEOUT seconds (150); VMR_DOCS_PAGES="docs/runs.md ..." runs
# only those pages (while writing one)
pages=()
for p in ${VMR_DOCS_PAGES:-README.md $(cd "$TOP" && echo docs/*.md)}; do pages+=("$TOP/$p"); done
python3 "$TOP/tests/helpers/doc_examples.py" check "$TOP/tests/cli/docs_examples.tab" "$VMR" "$TOP" \
	"$T_TMP" "${pages[@]}" > "$T_TMP/checks" 2>&1
rc=$?
grep -E '^(not )?ok - |^# ' "$T_TMP/checks"
T_CHECKS=$((T_CHECKS + $(grep -cE '^(not )?ok - ' "$T_TMP/checks")))
# its last checks are on the table's entries: without them it stopped early
if [ "$rc" != 0 ] || ! grep -qE '^(not )?ok - .*matches an example' "$T_TMP/checks"; then
	not_ok "the examples' check ran to its end (exit $rc: $(tail -1 "$T_TMP/checks" | cut -c1-300))"
fi
# a run cut short by the time limit may have left the host changed
grep -q '(exit timeout' "$T_TMP/checks" && "$VMR" cleanup > /dev/null 2>&1
done_testing
