/* Booting a guest: see guest.h. */
#include "vm/guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/kvm.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "vm/spawn.h"

#define GUEST_GRACE_NS (10ull * 1000000000ull)  /* from VMR-DONE to poweroff */

static bool guest_kvm_fail(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s: %s", what, strerror(errno));
	return false;
}

/* Run one vCPU of vm on a page holding `hlt` at guest address 0. */
static bool guest_kvm_run_hlt(int kvm, int vm, char *why, size_t whylen)
{
	bool ok = false;
	int vcpu = -1;
	struct kvm_run *run = MAP_FAILED;
	long run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED || run_size <= 0)
		return guest_kvm_fail(why, whylen, "cannot map guest memory");
	mem[0] = 0xf4;  /* hlt */
	struct kvm_userspace_memory_region region = {
		.slot = 0, .guest_phys_addr = 0, .memory_size = 4096, .userspace_addr = (uintptr_t)mem,
	};
	struct kvm_sregs sregs = { 0 };
	struct kvm_regs regs = { .rip = 0, .rflags = 2 };
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0) {
		guest_kvm_fail(why, whylen, "KVM_SET_USER_MEMORY_REGION");
		goto unmap_mem;
	}
	if ((vcpu = ioctl(vm, KVM_CREATE_VCPU, 0)) < 0) {
		guest_kvm_fail(why, whylen, "KVM_CREATE_VCPU");
		goto unmap_mem;
	}
	run = mmap(NULL, (size_t)run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED || ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0) {
		guest_kvm_fail(why, whylen, "cannot set up a vCPU");
		goto close_vcpu;
	}
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0 || ioctl(vcpu, KVM_SET_REGS, &regs) < 0) {
		guest_kvm_fail(why, whylen, "cannot set vCPU registers");
		goto close_vcpu;
	}
	if (ioctl(vcpu, KVM_RUN, 0) < 0) {
		guest_kvm_fail(why, whylen, "KVM_RUN");
		goto close_vcpu;
	}
	ok = run->exit_reason == KVM_EXIT_HLT;
	if (!ok)
		snprintf(why, whylen, "a test guest exited with reason %u instead of hlt", run->exit_reason);
close_vcpu:
	if (run != MAP_FAILED)
		munmap(run, (size_t)run_size);
	if (vcpu >= 0)
		close(vcpu);
unmap_mem:
	munmap(mem, 4096);
	return ok;
}

bool guest_kvm_works(char *why, size_t whylen)
{
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC), vm;
	bool ok = false;

	if (kvm < 0)
		return guest_kvm_fail(why, whylen, "cannot open /dev/kvm");
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		snprintf(why, whylen, "/dev/kvm speaks an unknown API version");
		goto close_kvm;
	}
	if ((vm = ioctl(kvm, KVM_CREATE_VM, 0)) < 0) {
		guest_kvm_fail(why, whylen, "KVM_CREATE_VM");
		goto close_kvm;
	}
	ok = guest_kvm_run_hlt(kvm, vm, why, whylen);
	close(vm);
close_kvm:
	close(kvm);
	return ok;
}

int guest_pick_accel(enum guest_accel want, enum guest_accel *got, char *why, size_t whylen)
{
	why[0] = '\0';
	if (want == GUEST_ACCEL_TCG) {
		*got = GUEST_ACCEL_TCG;
		return 0;
	}
	if (guest_kvm_works(why, whylen)) {
		*got = GUEST_ACCEL_KVM;
		return 0;
	}
	*got = GUEST_ACCEL_TCG;
	return want == GUEST_ACCEL_KVM ? -1 : 0;
}

/* A CPU-less node is a lower memory tier only when the firmware says it is
 * slower: without the HMAT the kernel puts both nodes in one tier (no
 * demotion target); with node 1 at ten times node 0's latency and a tenth
 * of its bandwidth, Debian's 6.12 puts it in a tier of its own. */
static void guest_numa_tiered(const struct guest_config *c, struct strlist *a)
{
	unsigned long long half = c->mem_bytes / 2 >> 20;
	char *v;
	static const char *const hmat[] = {
		"hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=10",
		"hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=10G",
		"hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=100",
		"hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=1G",
	};
	strlist_add(a, "-machine");
	strlist_add(a, "pc,hmat=on");
	for (int n = 0; n < 2; n++) {
		v = xasprintf("memory-backend-ram,id=m%d,size=%lluM", n, half);
		strlist_add(a, "-object");
		strlist_add(a, v);
		free(v);
	}
	v = xasprintf("node,nodeid=0,cpus=0-%d,memdev=m0", c->cpus - 1);
	strlist_add(a, "-numa");
	strlist_add(a, v);
	free(v);
	strlist_add(a, "-numa");
	strlist_add(a, "node,nodeid=1,memdev=m1,initiator=0");
	for (size_t i = 0; i < ARRAY_SIZE(hmat); i++) {
		strlist_add(a, "-numa");
		strlist_add(a, hmat[i]);
	}
}

static void guest_argv(const struct guest_config *c, struct strlist *a, char *mem, char *cpus)
{
	const char *fixed[] = { "-nodefaults", "-no-reboot", "-nographic", "-monitor", "none", "-serial", "stdio" };

	strlist_add(a, c->qemu ? c->qemu : "qemu-system-x86_64");
	strlist_add(a, "-accel");
	strlist_add(a, c->accel == GUEST_ACCEL_KVM ? "kvm" : "tcg");
	if (c->accel == GUEST_ACCEL_KVM) {
		strlist_add(a, "-cpu");
		strlist_add(a, "host");
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		strlist_add(a, fixed[i]);
	strlist_add(a, "-m");
	strlist_add(a, mem);
	strlist_add(a, "-smp");
	strlist_add(a, cpus);
	if (c->numa_tiered)
		guest_numa_tiered(c, a);
	strlist_add(a, "-kernel");
	strlist_add(a, c->kernel);
	strlist_add(a, "-initrd");
	strlist_add(a, c->initrd);
	strlist_add(a, "-append");
	strlist_add(a, c->append);
	if (c->disk) {
		/* cache=unsafe makes the disk as fast as the host's page cache:
		 * writeback never lags unless the throttle says how fast the
		 * disk writes */
		char rate[48] = "";
		if (c->disk_write_bps)
			snprintf(rate, sizeof(rate), ",throttling.bps-write=%" PRIu64, c->disk_write_bps);
		char *d = xasprintf("file=%s,format=raw,if=virtio,cache=unsafe%s", c->disk, rate);
		strlist_add(a, "-drive");
		strlist_add(a, d);
		free(d);
	}
}

static void guest_append(struct guest_outcome *o, size_t *cap, const char *buf, size_t n, int logfd)
{
	if (o->log_len + n + 1 > *cap) {
		*cap = (o->log_len + n + 1) * 2;
		o->log = xrealloc(o->log, *cap);
	}
	memcpy(o->log + o->log_len, buf, n);
	o->log_len += n;
	o->log[o->log_len] = '\0';
	if (logfd >= 0 && write(logfd, buf, n) < 0)
		vmr_warn("cannot write console log: %s", strerror(errno));
}

/* Read the console until EOF, the watchdog or the grace after VMR-DONE. */
static void guest_watch(int fd, int logfd, uint64_t deadline, volatile sig_atomic_t *stop,
			struct guest_outcome *o)
{
	size_t cap = 0;
	char buf[65536];
	uint64_t grace_end = 0;

	for (;;) {
		uint64_t now = vmr_now_ns(), end = grace_end && grace_end < deadline ? grace_end : deadline;
		if (stop && *stop) {
			o->stopped = true;
			return;
		}
		if (now >= end) {
			o->timed_out = now >= deadline && !o->done_seen;
			return;
		}
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int wait_ms = (int)((end - now) / 1000000 + 1);
		int r = poll(&p, 1, wait_ms > 1000 ? 1000 : wait_ms);
		if (r < 0 && errno != EINTR)
			return;
		if (r <= 0)
			continue;
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return;  /* QEMU exited */
		size_t before = o->log_len > 32 ? o->log_len - 32 : 0;
		guest_append(o, &cap, buf, (size_t)n, logfd);
		if (memmem(o->log + before, o->log_len - before, "KVM internal error", 18)) {
			o->kvm_failed = true;
			return;
		}
		if (!o->done_seen && memmem(o->log + before, o->log_len - before, "VMR-DONE", 8)) {
			o->done_seen = true;
			grace_end = vmr_now_ns() + GUEST_GRACE_NS;
		}
	}
}

int guest_run(const struct guest_config *c, struct guest_outcome *o)
{
	struct strlist a = { 0 };
	char *mem = xasprintf("%llum", (unsigned long long)(c->mem_bytes >> 20)), *cpus = xasprintf("%d", c->cpus);
	int fd, status, logfd;
	uint64_t t0 = vmr_now_ns();
	pid_t pid;

	memset(o, 0, sizeof(*o));
	o->exit_status = -1;
	guest_argv(c, &a, mem, cpus);
	logfd = c->log_path ? open(c->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	if (c->log_path && logfd < 0)
		vmr_warn("cannot write console log %s: %s", c->log_path, strerror(errno));
	pid = spawn_piped(a.v, &fd);
	if (pid < 0) {
		vmr_errno("cannot start %s", a.v[0]);
		goto free_args;
	}
	guest_watch(fd, logfd, t0 + c->timeout_ns, c->stop, o);
	if (waitpid(pid, &status, WNOHANG) == 0) {
		kill(pid, SIGKILL);  /* watchdog, or no poweroff after VMR-DONE */
		waitpid(pid, &status, 0);
	} else {
		/* exited by itself */
	}
	o->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	close(fd);
	o->elapsed_s = (double)(vmr_now_ns() - t0) / 1e9;
	o->panicked = o->log && strstr(o->log, "Kernel panic") != NULL;
	if (!o->log)
		o->log = xstrdup("");
free_args:
	if (logfd >= 0)
		close(logfd);
	strlist_free(&a);
	free(mem);
	free(cpus);
	return pid < 0 ? -1 : 0;
}

void guest_outcome_free(struct guest_outcome *o)
{
	free(o->log);
	memset(o, 0, sizeof(*o));
}
