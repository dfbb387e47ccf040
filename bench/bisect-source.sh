#!/usr/bin/env bash
# A real bisection over a kernel source tree (opt-in: bench/run-all runs it
# only when named, `bench/run-all bisect-source`; never in make check).
#
# Debian's linux-source-VERSION (6.1 unless VERSION says) is fetched with
# apt-get download and unpacked with dpkg-deb into the cache, as the
# kselftest build fetches it, and made a git repository.  On top of the
# Debian tree six commits: five harmless (comments, a document) and ONE that
# changes a memory-management default, the fourth: swap readahead's
# page_cluster from 3 to 0 in mm/swap.c's swap_setup(), which the re-read
# case sees in its major faults (about 8x as many).  The guest kernel is
# tinyconfig plus bench/bisect-guest.config.  The tree's first and last
# commits are built and stored as the references (vmregress bisect start),
# then
#   git bisect run sh -c 'make -j2 bzImage || exit 125;
#       vmregress bisect run --kernel arch/x86/boot/bzImage --reference NAME'
# must name the planted commit.  ccache (when installed) makes rebuilds of
# a commit already built cheap.  Prints the wall time and its parts
# (builds, and each vmregress step: boots and measurements) as rows.
#
# The work tree stays in the cache ($XDG_CACHE_HOME/vmregress/bisect-source/
# VERSION; WORK= overrides) so that a second run builds incrementally.
cd "$(dirname "$0")/.."
. bench/lib.sh
VMR=$(realpath "${VMR:-./vmregress}")
VERSION=${VERSION:-6.1}
JOBS=${JOBS:-2}
WORK=${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/vmregress/bisect-source/$VERSION}
NAME=${NAME:-src-pc}
SRC=$WORK/linux
DB=$WORK/results.db
CONFIG_FRAG=$(realpath bench/bisect-guest.config)
command -v qemu-system-x86_64 > /dev/null || bench_fail "qemu-system-x86_64 is not installed"
for t in git flex bison bc; do command -v $t > /dev/null || bench_fail "$t is needed to build a kernel (scripts/deps)"; done
if command -v ccache > /dev/null && [ -d /usr/lib/ccache ]; then
	export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=${CCACHE_DIR:-$WORK/ccache}
	echo "ccache: $CCACHE_DIR"
else
	echo "ccache is not installed: every build of a commit compiles what changed since the last"
fi
mkdir -p "$WORK"
exec 9> "$WORK/.lock"
flock -n 9 || bench_fail "$WORK is in use by another bisect-source run"
now() { date +%s; }
T0=$(now)
declare -A took

# --- the tree -------------------------------------------------------------
if ! git -C "$SRC" rev-parse -q --verify HEAD > /dev/null 2>&1; then
	t=$(now)
	rm -rf "$WORK/dl" "$SRC"
	mkdir -p "$WORK/dl"
	echo "fetching linux-source-$VERSION"
	(cd "$WORK/dl" && apt-get download -q -o APT::Sandbox::User=root "linux-source-$VERSION") > "$WORK/fetch.log" 2>&1 ||
		bench_fail "apt-get download linux-source-$VERSION failed (see $WORK/fetch.log)"
	dpkg-deb -x "$WORK"/dl/linux-source-"$VERSION"_*.deb "$WORK/dl/pkg"
	echo "unpacking"
	# the whole tree: Kconfig reads every architecture's crypto/Kconfig
	tar -xJf "$WORK/dl/pkg/usr/src/linux-source-$VERSION.tar.xz" -C "$WORK"
	mv "$WORK/linux-source-$VERSION" "$SRC"
	deb=$(basename "$WORK"/dl/linux-source-"$VERSION"_*.deb)
	rm -rf "$WORK/dl"
	git -C "$SRC" init -q
	git -C "$SRC" config user.name vmregress
	git -C "$SRC" config user.email vmregress@localhost
	git -C "$SRC" config gc.auto 0   # no repacking of 75,000 files in the background
	# -f: Debian's .gitignore ignores everything at the top (its packaging
	# repository holds only debian/)
	git -C "$SRC" add -A -f
	git -C "$SRC" commit -qm "Debian ${deb%.deb}"
	took[tree]=$(($(now) - t))
fi
git -C "$SRC" bisect reset > /dev/null 2>&1 || true
base=$(git -C "$SRC" rev-list --max-parents=0 HEAD)

# --- the commits, the fourth planted -----------------------------------------
commit() { git -C "$SRC" commit -qam "$1"; }
if [ "$(git -C "$SRC" rev-list --count HEAD)" != 7 ]; then
	git -C "$SRC" checkout -q -f "$base" 2>/dev/null
	git -C "$SRC" checkout -q -B bench
	grep -q 'page_cluster = 3;' "$SRC/mm/swap.c" || bench_fail "mm/swap.c has no 'page_cluster = 3;' to change"
	sed -i '0,/^ \* This file contains the default values/s//&\n * (and the swap readahead window set up at boot)/' \
		"$SRC/mm/swap.c"
	commit "mm: say where swap readahead's window is set up"
	sed -i '0,/^#include/s//\/* The page allocator. *\/\n&/' "$SRC/mm/page_alloc.c"
	commit "mm/page_alloc: a one-line summary above the includes"
	printf '\nvmregress bench: the tree of a source bisection.\n' >> "$SRC/README"
	commit "README: note what this tree is for"
	sed -i 's/page_cluster = 3;/page_cluster = 0;/' "$SRC/mm/swap.c"
	grep -q 'page_cluster = 0;' "$SRC/mm/swap.c" || bench_fail "the planted change did not apply"
	commit "mm/swap: read one page at a time on swap-in by default"
	sed -i '0,/^#include/s//\/* Reclaim. *\/\n&/' "$SRC/mm/vmscan.c"
	commit "mm/vmscan: a one-line summary above the includes"
	sed -i '0,/^#include/s//\/* The swap cache. *\/\n&/' "$SRC/mm/swap_state.c"
	commit "mm/swap_state: a one-line summary above the includes"
fi
planted=$(git -C "$SRC" log --format=%H --grep='read one page at a time on swap-in')
[ -n "$planted" ] || bench_fail "no planted commit in $SRC"
head=$(git -C "$SRC" rev-parse HEAD)

# --- the configuration and the builds ----------------------------------------
build() { # build LABEL: make bzImage at the checked-out commit, timed
	local t=$(now)
	make -C "$SRC" -s -j"$JOBS" bzImage > "$WORK/build-$1.log" 2>&1 ||
		bench_fail "the build at $1 failed (see $WORK/build-$1.log)"
	took[build-$1]=$(($(now) - t))
	echo "build $1: ${took[build-$1]} s"
}
git -C "$SRC" checkout -q "$base"
if [ ! -f "$SRC/.config" ] || ! cmp -s "$CONFIG_FRAG" "$WORK/config.frag"; then
	make -C "$SRC" -s tinyconfig > "$WORK/config.log" 2>&1
	grep -v '^#' "$CONFIG_FRAG" >> "$SRC/.config"
	make -C "$SRC" -s olddefconfig >> "$WORK/config.log" 2>&1
	while read -r l; do
		grep -qx "$l" "$SRC/.config" || bench_fail "$l did not survive make olddefconfig (see $WORK/config.log)"
	done < <(grep '^CONFIG_' "$CONFIG_FRAG")
	cp "$CONFIG_FRAG" "$WORK/config.frag"
fi
build good
cp "$SRC/arch/x86/boot/bzImage" "$WORK/bzImage-good"
git -C "$SRC" checkout -q "$head"
build bad
cp "$SRC/arch/x86/boot/bzImage" "$WORK/bzImage-bad"

# --- the references, then git bisect run -------------------------------------
make -s vmregress build/vmregress-static
cat > "$WORK/reread.ini" <<'EOT'
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
EOT
GUEST=(--suite "$WORK/reread.ini" --case reread --metric major-faults-reread --references 3 --batch 3
	--max-iterations 9 --accel tcg --mem 256M --timeout 300s --budget 60m --db "$DB" --log-dir "$WORK/logs")
rm -f "$DB"
rm -rf "$WORK/logs"
t=$(now)
rc=0
"$VMR" bisect start --good "$WORK/bzImage-good" --bad "$WORK/bzImage-bad" "${GUEST[@]}" --name "$NAME" \
	> "$WORK/start.txt" 2>&1 || rc=$?
took[start]=$(($(now) - t))
cat "$WORK/start.txt"
[ "$rc" = 0 ] || bench_fail "vmregress bisect start exited $rc (see $WORK/start.txt)"
# each step's wall time, its build's and its vmregress's, kept by the step
cat > "$WORK/step.sh" <<'EOS'
#!/bin/sh
# one git bisect run step: build (a failed build is a skip), then test
t0=$(date +%s)
make -s -j"$JOBS" bzImage > "$WORK/build-step.log" 2>&1 || exit 125
t1=$(date +%s)
"$VMR" bisect run --kernel arch/x86/boot/bzImage --reference "$NAME" --db "$DB" --log-dir "$WORK/logs"
rc=$?
t2=$(date +%s)
echo "$(git rev-parse --short HEAD) $((t1 - t0)) $((t2 - t1)) $rc" >> "$WORK/steps.txt"
exit $rc
EOS
: > "$WORK/steps.txt"
t=$(now)
(cd "$SRC" && git bisect start "$head" "$base" && JOBS=$JOBS WORK=$WORK VMR=$VMR NAME=$NAME DB=$DB \
	git bisect run sh "$WORK/step.sh") > "$WORK/git-bisect.txt" 2>&1 || true
took[bisect]=$(($(now) - t))
git -C "$SRC" bisect log > "$WORK/git-bisect.log" 2>&1 || true
git -C "$SRC" bisect reset > /dev/null 2>&1 || true
grep 'is the first bad commit' "$WORK/git-bisect.txt" || bench_fail "git bisect run named no commit (see $WORK/git-bisect.txt)"
"$VMR" bisect show "$NAME" --db "$DB" | tee "$WORK/show.txt"
"$VMR" bisect show "$NAME" --db "$DB" --json > "$WORK/show.json"
grep -q "^$planted is the first bad commit" "$WORK/git-bisect.txt" ||
	bench_fail "git bisect run did not name the planted commit ${planted:0:12}: $(grep 'first bad' "$WORK/git-bisect.txt")"
echo "git bisect run named the planted commit ${planted:0:12}"

# --- the times -------------------------------------------------------------------
total=$(($(now) - T0))
echo "steps (commit, build s, vmregress bisect run s, exit):"
cat "$WORK/steps.txt"
bsteps=$(awk '{ b += $2 } END { print b + 0 }' "$WORK/steps.txt")
vsteps=$(awk '{ v += $3 } END { print v + 0 }' "$WORK/steps.txt")
nsteps=$(wc -l < "$WORK/steps.txt")
[ -n "${took[tree]:-}" ] && bench_row "fetch, unpack and commit the tree (s)" "${took[tree]}" - - - 1
bench_row "build of the good commit (s)" "${took[build-good]}" - - - 1
bench_row "build of the bad commit (s)" "${took[build-bad]}" - - - 1
bench_row "bisect start: two reference boots and their measurements (s)" "${took[start]}" - - - 1
bench_row "git bisect run, $nsteps steps (s)" "${took[bisect]}" - - - 1
bench_row "  of which builds (s)" "$bsteps" - - - "$nsteps"
bench_row "  of which vmregress bisect run: boots and measurements (s)" "$vsteps" - - - "$nsteps"
bench_row "total wall time (s)" "$total" - - - 1
