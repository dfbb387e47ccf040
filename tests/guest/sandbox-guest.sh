#!/usr/bin/env bash
# Runs the sandbox's command-line tests inside a QEMU guest whose memory
# controller is on cgroup v2, with zram loaded: the code paths a host with
# v1 memory (or no zram) cannot reach.  Not part of 'make check' (a guest
# boots for a minute or two without KVM); run it by hand as root:
#
#   tests/guest/sandbox-guest.sh [KERNEL_ROOT]
#
# KERNEL_ROOT holds boot/vmlinuz-VERSION and lib/modules/VERSION (an
# unpacked Debian linux-image package, as 'vmregress matrix' caches them);
# by default the newest under $XDG_CACHE_HOME/vmregress/kernels.  Prints the
# guest's ok/not ok lines; exits 1 if any failed.  SANDBOX_GUEST_TESTS, file
# name patterns under tests/cli (default test_sandbox*.sh), runs fewer.
set -eu
cd "$(dirname "$0")/../.."
cache=${XDG_CACHE_HOME:-$HOME/.cache}/vmregress/kernels
root=${1:-$(ls -d "$cache"/*/root 2>/dev/null | sort -V | tail -1)}
vmlinuz=$(ls "$root"/boot/vmlinuz-* 2>/dev/null | head -1)
mods=$(ls -d "$root"/lib/modules/* 2>/dev/null | head -1)
if [ -z "$vmlinuz" ] || [ -z "$mods" ]; then
	echo "sandbox-guest: no kernel (boot/vmlinuz-* and lib/modules/*) under '${root:-$cache}'" >&2
	exit 3
fi
for tool in qemu-system-x86_64 busybox cpio mkfs.ext4 xz; do
	command -v "$tool" >/dev/null || { echo "sandbox-guest: needs $tool" >&2; exit 3; }
done
[ -x ./vmregress ] || { echo "sandbox-guest: build ./vmregress first" >&2; exit 3; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g=$work/root
mkdir -p "$g"/{bin,proc,sys,dev,tmp,run/lock,mod,etc,repo}

# Programs, with the shared libraries they need at the same paths.
cp "$(command -v busybox)" "$g/bin/busybox"
for b in ./vmregress "$(command -v bash)" "$(command -v jq)"; do
	cp "$b" "$g/bin/"
	for l in $(ldd "$b" | grep -o '/[^ ]*'); do
		mkdir -p "$g$(dirname "$l")"
		cp -nL "$l" "$g$l"
	done
done
# glibc loads libgcc_s itself when a thread is cancelled (vmregress run's
# monitor), so ldd does not name it
gcc_s=$(realpath "$(cc -print-file-name=libgcc_s.so.1)")
mkdir -p "$g/lib/x86_64-linux-gnu" && cp -L "$gcc_s" "$g/lib/x86_64-linux-gnu/libgcc_s.so.1"
cc -O2 -static -o "$g/bin/memfill" tests/helpers/memfill.c
# The tests build memfill with cc; the guest has a prebuilt one.
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && exec cp /bin/memfill "$2"; shift; done; exit 1\n' > "$g/bin/cc"
chmod +x "$g/bin/cc"
cp -r tests "$g/repo/"

# Modules, dependencies first (read from each module's depends= field).
declare -A loaded=()
order=()
add_module() {
	local name=$1 f dep
	[ -n "${loaded[$name]:-}" ] && return 0
	loaded[$name]=1
	f=$(find "$mods" -name "$name.ko*" -o -name "${name//_/-}.ko*" | head -1)
	[ -n "$f" ] || return 0   # built in
	case $f in
	*.xz) xz -dc "$f" > "$g/mod/$name.ko" ;;
	*.zst) zstd -qdc "$f" > "$g/mod/$name.ko" ;;
	*) cp "$f" "$g/mod/$name.ko" ;;
	esac
	for dep in $(grep -ao 'depends=[a-z0-9_,-]*' "$g/mod/$name.ko" | head -1 | cut -d= -f2 | tr ',' ' '); do
		add_module "$dep"
	done
	order+=("$name")
}
# the PCI transport is no dependency of virtio_blk, but it is needed to see the
# disk; zram asks for its compressors by name, and the guest has no modprobe
for m in virtio_pci virtio_blk zram lzo lzo_rle lz4; do add_module "$m"; done

guest_tests=$(for p in ${SANDBOX_GUEST_TESTS:-test_sandbox*.sh}; do ls tests/cli/$p; done | tr '\n' ' ')
cat > "$g/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
ln -s /proc/self/fd /dev/fd
for m in ${order[*]}; do insmod /mod/\$m.ko; done
mount -t ext4 /dev/vda /tmp || { echo "not ok - the guest's disk (swap files need a real file system)"; poweroff -f; }
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
export PATH=/bin HOME=/tmp TMPDIR=/tmp
cd /repo
for t in $guest_tests; do VMR=/bin/vmregress bash \$t 2>/dev/null; done
echo "swaps left: \$(tail -n +2 /proc/swaps | wc -l)"
poweroff -f
EOF
chmod +x "$g/init"
(cd "$g" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$work/initrd.gz"
truncate -s 1G "$work/disk.img"
mkfs.ext4 -q -F "$work/disk.img"

timeout 1200 qemu-system-x86_64 -kernel "$vmlinuz" -initrd "$work/initrd.gz" -m 2048 -smp 2 \
	-append "console=ttyS0 panic=-1 quiet" -nographic -no-reboot \
	-drive "file=$work/disk.img,if=virtio,format=raw" > "$work/console.log" 2>&1 || true
tr -d '\r' < "$work/console.log" | grep -E '^(ok|not ok) |^swaps left' | sed "s/^/[$(basename "$vmlinuz")] /"
! grep -q '^not ok' "$work/console.log" && grep -q '^swaps left: 0' "$work/console.log"
