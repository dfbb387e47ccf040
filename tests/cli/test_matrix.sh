# vmregress matrix: usage errors, the guest-side framing, the initramfs's
# structure (listed with Debian's cpio), and real guests under QEMU: one
# that runs a tiny suite whose run arrives in the store, and guests that
# panic, hang or print garbage, each reported failed within its watchdog
# with its console log kept.
#
# Guest boots take 10-30 s each under TCG; they are skipped in the ASan
# pass (ASAN_OPTIONS set: the guests run the plain static binary anyway,
# so nothing new would be sanitized) and whenever VMR_NO_GUEST=1.
# The kernel package is fetched once into the default kernel cache
# ($XDG_CACHE_HOME/vmregress/kernels) and reused by later runs.
. "$(dirname "$0")/lib.sh"

KPKG=${VMR_TEST_KERNEL:-linux-image-6.1.0-57-cloud-amd64}
DB=$T_TMP/results.db
LOGS=$T_TMP/logs

# --- usage -----------------------------------------------------------------
run "$VMR" matrix
expect_rc "no kernel exits 2" 2
expect_err "no kernel says so" "^vmregress: matrix: no kernel given"
run "$VMR" matrix --kernel "$T_TMP/no-such-vmlinuz"
expect_rc "a missing kernel file exits 2" 2
expect_err "a missing kernel file is named" "no-such-vmlinuz"
run "$VMR" matrix --kernel x --accel fast
expect_rc "a bad --accel exits 2" 2
expect_err "a bad --accel lists the choices" "auto\|kvm\|tcg"
run "$VMR" matrix --kernel x --suite no-such-suite
expect_rc "an unknown suite exits 2" 2
run "$VMR" matrix --help
expect_out "help lists --kernel" "--kernel PATH\|PACKAGE"
expect_no_out "guest-side options are hidden" "--guest-emit"

# --- the guest side: framing a file ---------------------------------------
printf 'hello' > "$T_TMP/payload"
run "$VMR" matrix --guest-emit "$T_TMP/payload" --guest-label result --guest-rc 1
expect_rc "guest-emit exits 0" 0
expect_out "guest-emit writes the header with length and crc32" "^VMR-BEGIN 1 result 1 5 3610a686$"
expect_out "guest-emit writes the payload in base64" "^VMR-D aGVsbG8=$"
expect_out "guest-emit closes the frame" "^VMR-END 3610a686$"
run "$VMR" matrix --guest-done
expect_out "guest-done says VMR-DONE" "^VMR-DONE$"
run "$VMR" matrix --guest-emit "$T_TMP/payload" --guest-label "Bad Label"
expect_rc "a label the host would refuse exits 2" 2
run "$VMR" matrix --guest-emit "$T_TMP/nothing-here"
expect_rc "a missing file to frame exits 2" 2
one_line_err && ok "a missing file to frame is one error line" || not_ok "a missing file to frame is one error line ($ERR)"

# --- the initramfs ---------------------------------------------------------
if [ ! -x "$(dirname "$VMR")/vmregress-static" ] && [ ! -x "$(dirname "$VMR")/build/vmregress-static" ]; then
	skip "initramfs and guests" "no build/vmregress-static (make build/vmregress-static)"
	done_testing; exit 0
fi
if ! command -v cpio > /dev/null; then
	skip "initramfs structure" "cpio is not installed"
else
	run "$VMR" matrix --build-initramfs "$T_TMP/bare.cpio" --guest-cmd=--version
	expect_rc "an initramfs without a kernel builds" 0
	list=$(cpio -it < "$T_TMP/bare.cpio" 2>/dev/null)
	miss=
	for f in init bin/busybox bin/sh vmregress dev/console proc sys tmp modules/order; do
		grep -qx "$f" <<< "$list" || miss="$miss $f"
	done
	[ -z "$miss" ] && ok "the initramfs holds init, busybox, vmregress and /dev/console" ||
		not_ok "the initramfs lacks$miss"
	cpio -itv < "$T_TMP/bare.cpio" 2>/dev/null | grep -q '^crw.* 5, *1 .* dev/console$' &&
		ok "dev/console is the character device 5,1" || not_ok "dev/console is not the device 5,1"
	(cd "$T_TMP" && mkdir x && cd x && cpio -id --quiet < ../bare.cpio 2>/dev/null)
	sh -n "$T_TMP/x/init" && ok "the init script is valid sh" || not_ok "the init script is not valid sh"
	[ "$("$T_TMP/x/vmregress" --version)" = "$("$VMR" --version)" ] &&
		ok "the guest's vmregress runs and is this version" || not_ok "the guest's vmregress does not run"
	grep -q "^/vmregress '--version' > /tmp/out" "$T_TMP/x/init" && ok "init runs the guest command" ||
		not_ok "init does not run the guest command"
fi

# Fetching the kernel needs Debian's archive; later runs use the cache.
run "$VMR" matrix --build-initramfs "$T_TMP/k.cpio" --kernel "$KPKG" --guest-cmd=--version
if [ "$RC" != 0 ] && registry_unreachable "$KPKG"; then
	skip "guests under $KPKG" "Debian's package registry cannot be reached: ${ERR:0:200}"
	done_testing; exit 0
fi
expect_rc "an initramfs for $KPKG builds" 0
[ "$RC" = 0 ] || { done_testing; exit 0; }
order=$(cd "$T_TMP" && cpio -i --to-stdout modules/order < k.cpio 2>/dev/null | tr '\n' ' ')
case " $order" in
*" virtio_ring "*" virtio_blk "*) ok "modules load dependencies first ($order)" ;;
*) not_ok "module order puts virtio_blk's dependencies first ($order)" ;;
esac
cpio -it < "$T_TMP/k.cpio" 2>/dev/null | grep -qx modules/virtio_blk.ko && ok "virtio_blk.ko is in the initramfs" ||
	not_ok "virtio_blk.ko is not in the initramfs"

if [ -n "${ASAN_OPTIONS:-}" ] || [ -n "${VMR_NO_GUEST:-}" ]; then
	skip "guest boots" "ASan pass or VMR_NO_GUEST set"
	done_testing; exit 0
fi
if ! command -v qemu-system-x86_64 > /dev/null; then
	skip "guest boots" "qemu-system-x86_64 is not installed"
	done_testing; exit 0
fi

cat > "$T_TMP/tiny.ini" <<'EOT'
[global]
iterations = 1
mem = 32M
swap = file:32M
timeout = 60s

[null]
workload = null
spin = 10ms
EOT

# Three bad guests at once while the good one boots: panics, hangs and
# garbage must all come back `failed` within their watchdog.  A boot takes
# 10 s on an idle host and over a minute on a loaded one, so only the hang
# has a short watchdog; the others must end by themselves, long before
# theirs.
bad_guest() { # bad_guest FAULT WATCHDOG
	"$VMR" matrix --kernel "$KPKG" --suite "$T_TMP/tiny.ini" --accel tcg --timeout "$2" \
		--guest-fault "$1" --name "bad-$1" --db "$T_TMP/$1.db" --log-dir "$LOGS/$1" --json \
		> "$T_TMP/$1.out" 2> "$T_TMP/$1.err"
	echo $? > "$T_TMP/$1.rc"
}
bad_guest panic 300s &
bad_guest hang 30s &
bad_guest garbage 300s &

# The good guest: auto accelerator (on this kind of host KVM opens but
# cannot run a kernel, so it must fall back to TCG and say so).
run "$VMR" matrix --kernel "$KPKG" --suite "$T_TMP/tiny.ini" --timeout 300s --name ci \
	--db "$DB" --log-dir "$LOGS/ok" --json
expect_rc "a guest running a tiny suite succeeds" 0
if ! ran_as_expected out; then
	not_ok "the good guest's accelerator is reported ($WHY)"
elif grep -q '"accel": "tcg"' <<< "$OUT"; then
	expect_err "falling back to tcg is said" "kvm cannot run guests here .*using tcg"
else
	ok "kvm runs guests here"
fi
run "$VMR" list --db "$DB" --json
expect_out "the guest's run is in the host store" '"name": "ci-6.1.0-57-cloud-amd64"'
expect_out "it is tagged with the matrix name" '"tag": "ci"'
expect_out "it ran the guest's kernel" '"kernel": "6.1.0-57-cloud-amd64"'
expect_out "it is complete" '"status": "complete"'
run "$VMR" show ci-6.1.0-57-cloud-amd64 --db "$DB" --json
expect_out "the stored run holds the null case" '"workload": "null"'
expect_out "its sandbox used cgroup v2's memory controller in the guest" '"memory_controller": "v2"'
[ -s "$LOGS/ok/6.1.0-57-cloud-amd64.console.log" ] && ok "the console log is kept" || not_ok "no console log kept"

wait
for f in panic hang garbage; do
	rc=$(cat "$T_TMP/$f.rc")
	[ "$rc" = 1 ] && ok "a guest that does '$f' exits 1" || not_ok "a guest that does '$f' exits $rc ($(head -c 300 "$T_TMP/$f.err"))"
	grep -q '"status": "failed"' "$T_TMP/$f.out" && ok "a '$f' guest is reported failed" ||
		not_ok "a '$f' guest is not reported failed"
	[ -s "$LOGS/$f/6.1.0-57-cloud-amd64.console.log" ] && ok "a '$f' guest's console log is kept" ||
		not_ok "a '$f' guest's console log is missing"
	"$VMR" list --db "$T_TMP/$f.db" --json 2>/dev/null | grep -q '"status": "failed"' &&
		ok "a '$f' guest is stored as a failed run" || not_ok "a '$f' guest is not stored as a failed run"
done
grep -q 'panicked' "$T_TMP/panic.out" && ok "the panic is named" || not_ok "the panic is not named ($(grep reason "$T_TMP/panic.out"))"
grep -q 'watchdog' "$T_TMP/hang.out" && ok "the hang is caught by the watchdog" || not_ok "the hang is not named ($(grep reason "$T_TMP/hang.out"))"
grep -q 'garbled' "$T_TMP/garbage.out" && ok "the garbage is refused" || not_ok "the garbage is not named ($(grep reason "$T_TMP/garbage.out"))"
for f in panic garbage; do
	s=$(grep -o '"elapsed_s": [0-9]*' "$T_TMP/$f.out" | grep -o '[0-9]*$')
	[ -n "$s" ] && [ "$s" -lt 300 ] && ok "a '$f' guest ends by itself (${s} s)" || not_ok "a '$f' guest took ${s:-?} s"
done
s=$(grep -o '"elapsed_s": [0-9]*' "$T_TMP/hang.out" | grep -o '[0-9]*$')
[ -n "$s" ] && [ "$s" -lt 40 ] && ok "a hung guest is killed at its watchdog (${s} s)" || not_ok "a hung guest took ${s:-?} s"
done_testing
