/* usemem's tasks: each maps its region and walks it, word by word; see
 * usemem.c for what is measured and usemem_walk.h for the state. */
#include "workload/usemem_walk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/util.h"
#include "workload/pattern.h"

/* The index of a random touch, drawn as usemem draws it (lrand48_r scaled
 * through a double): the draw costs tens of nanoseconds, a large part of
 * what a random touch costs, so a cheaper generator would measure a
 * different, faster program. */
static inline size_t um_index(struct drand48_data *rd, size_t max)
{
	long v = 0;
	lrand48_r(rd, &v);
	return (size_t)((double)max * (double)v / 2147483648.0);
}

static inline uint64_t *um_word(const struct um_state *st, const struct um_region *rg, size_t i)
{
	size_t per = st->unit / 8;
	return rg->units[i / per] + i % per;
}

static int um_map(struct um_state *st, long idx, struct um_region *rg, uint64_t *bytes)
{
	int prot = st->o.readonly ? PROT_READ : PROT_READ | PROT_WRITE;
	int fd = st->fds[st->o.shared_file ? 0 : idx];
	int flags = fd >= 0 ? MAP_SHARED : st->o.shm ? MAP_SHARED | MAP_ANONYMOUS : MAP_PRIVATE | MAP_ANONYMOUS;
	flags |= st->o.prefault ? MAP_POPULATE : 0;
	rg->n = st->nunits;
	rg->units = xcalloc(rg->n, sizeof(*rg->units));
	if (st->o.cow) {
		rg->units[0] = st->cow_region;
		*bytes += st->size / 8;
		return 0;
	}
	for (size_t u = 0; u < rg->n; u++) {
		size_t len = u + 1 < rg->n ? st->unit : st->size - u * st->unit;
		void *p = mmap(NULL, len, prot, flags, fd, (off_t)(u * st->unit));
		if (p == MAP_FAILED) {
			rg->n = u;
			return -errno;
		}
		rg->units[u] = p;
	}
	*bytes += st->size / 8;   /* usemem's credit for the allocation */
	return 0;
}

static void um_unmap(struct um_state *st, struct um_region *rg)
{
	for (size_t u = 0; !st->o.cow && u < rg->n; u++)
		munmap(rg->units[u], u + 1 < st->nunits ? st->unit : st->size - u * st->unit);
	free(rg->units);
}

/* A word read or written through a call, as usemem touches every word
 * through its do_access(), which its -O build does not inline: where
 * faults are cheap (reads of the zero page, pages already present) the
 * call is a large part of a word's cost, and an inlined loop measured
 * twice usemem's throughput. */
__attribute__((noinline)) static uint64_t um_touch(volatile uint64_t *w, uint64_t v, bool read)
{
	if (read)
		return *w;
	*w = v;
	return 0;
}

/* Words [a, b) of the region at the step k, all in the one mapping that
 * starts at p with word base: the sequential loops, one per kind of
 * access so that nothing else is decided per word. */
static void um_seq(volatile uint64_t *p, size_t base, size_t a, size_t b, size_t k, int kind, uint64_t salt,
		   struct um_task *t, size_t ps, uint64_t *acc)
{
	size_t i = (a + k - 1) / k * k;
	switch (kind) {
	case 0:
		for (; i < b; i += k)
			*acc |= um_touch(p + (i - base), 0, true);
		break;
	case 1:
		for (; i < b; i += k)
			um_touch(p + (i - base), i ^ salt, false);
		break;
	default:
		for (; i < b; i += k) {
			if (p[i - base] != (i ^ salt) && t->bad_page < 0) {
				t->bad_page = (int64_t)(i * 8 / ps);
				t->found = p[i - base];
			}
			um_touch(p + (i - base), i ^ salt, false);
		}
	}
}

/* n random words: usemem's --random touches as many words as a pass in
 * order would, each anywhere in the region. */
static void um_rand(struct um_state *st, struct um_region *rg, size_t n, struct drand48_data *rd, uint64_t *acc)
{
	size_t m = st->nwords;
	uint64_t salt = st->salt, or = 0;
	volatile uint64_t *p0 = rg->units[0];
	for (size_t j = 0; j < n; j++) {
		size_t i = um_index(rd, m - 1);
		/* one mapping (the cases but small-allocs): no division */
		or |= um_touch(rg->n == 1 ? p0 + i : um_word(st, rg, i), i ^ salt, st->o.readonly);
	}
	*acc |= or;
}

/* One pass over the region, the measured loop, in slices of 64K words
 * that never cross a mapping: the clock is read between slices, as usemem
 * checks its runtime every 64K words.  Returns the words touched; a wrong
 * word sets t->bad_page. */
#define UM_SLICE ((size_t)1 << 16)
static size_t um_pass(struct um_state *st, struct um_region *rg, struct um_task *t, long pass, struct drand48_data *rd,
		      uint64_t deadline)
{
	size_t m = st->nwords, k = st->step_words, per = st->unit / 8, n = 0;
	int kind = st->o.readonly ? 0 : pass > 0 ? 2 : 1;
	uint64_t acc = 0;
	for (size_t a = 0; a < m;) {
		size_t u = a / per, b = a + UM_SLICE;
		b = b < (u + 1) * per ? b : (u + 1) * per;   /* not past the mapping's end */
		b = b < m ? b : m;
		size_t touched = (b + k - 1) / k - (a + k - 1) / k;
		if (st->o.random)
			um_rand(st, rg, touched, rd, &acc);
		else
			um_seq(rg->units[u], u * per, a, b, k, kind, st->salt, t, st->ps, &acc);
		n += touched;
		a = b;
		if (deadline && a < m && vmr_now_ns() > deadline) {
			t->reached = a;
			return n;
		}
	}
	t->reached = m;
	t->passes++;
	if (acc && t->bad_page < 0)
		t->bad_page = -2;   /* found by the check below */
	return n;
}

/* Read the region back: every word at the step must hold its pattern, or
 * (random writes, reads, the words after where --runtime stopped the first
 * pass) what was there before. */
void um_check(struct um_state *st, struct um_region *rg, struct um_task *t, uint64_t salt,
		     uint64_t before_salt, bool before_zero)
{
	for (size_t i = 0; i < st->nwords && t->bad_page < 0; i += st->step_words) {
		uint64_t w = *(volatile uint64_t *)um_word(st, rg, i);
		bool untouched = st->o.random || (t->passes == 0 && i >= t->reached);
		bool ok = st->o.readonly ? w == 0
			: w == (i ^ salt) || (untouched && (before_zero ? w == 0 : w == (i ^ before_salt)));
		if (!ok) {
			t->bad_page = (int64_t)(i * 8 / st->ps);
			t->found = w;
		}
	}
}

static int um_corrupt(struct um_state *st, struct um_region *rg)
{
	size_t off = (size_t)st->o.corrupt_page * st->ps;
	if (st->fds[0] >= 0) {
		/* a shared or read-only file mapping cannot be written through
		 * /proc/self/mem: change the file behind the mapping instead */
		uint64_t junk = 0xdeadbeefbadc0ffeull;
		return pwrite(st->fds[0], &junk, sizeof(junk), (off_t)off) == (ssize_t)sizeof(junk) ? 0 : -EIO;
	}
	return pattern_corrupt(um_word(st, rg, off / 8));
}

static uint64_t um_cpu_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void um_task_mmap(struct um_state *st, long idx, struct um_task *t)
{
	struct um_region rg = { 0 };
	uint64_t c0 = um_cpu_ns();
	struct drand48_data rd = { 0 };
	srand48_r((long)(st->salt ^ (uint64_t)idx), &rd);
	uint64_t t0 = vmr_now_ns();
	uint64_t deadline = st->o.runtime_ns ? t0 + st->o.runtime_ns : 0;
	int err = um_map(st, idx, &rg, &t->bytes);
	for (long pass = 0; !err && pass < st->o.repeat && t->bad_page == -1; pass++) {
		t->bytes += 8 * um_pass(st, &rg, t, pass, &rd, deadline);
		if (st->o.msync && msync(rg.units[0], st->size, MS_SYNC) < 0)
			err = -errno;
		if (deadline && vmr_now_ns() > deadline)
			break;
	}
	t->ns = vmr_now_ns() - t0 + st->cow_ns;
	t->cpu_ns = um_cpu_ns() - c0;
	t->err = -err;
	if (!err && idx == 0 && st->o.corrupt_page >= 0)
		t->corrupted = um_corrupt(st, &rg) == 0;
	if (!err && t->bad_page < -1)
		t->bad_page = -1;   /* the read pass's OR was not 0: the check names the page */
	uint64_t k0 = vmr_now_ns();
	if (!err && t->bad_page == -1)
		um_check(st, &rg, t, st->salt, st->parent_salt, !st->o.cow);
	t->check_ns = vmr_now_ns() - k0;
	um_unmap(st, &rg);
}

/* dd bs=4k if=FILE of=/dev/null, each block's first and last words checked
 * (the file is sparse: zeros). */
static void um_task_read(struct um_state *st, long idx, struct um_task *t, bool timed)
{
	int fd = st->fds[st->o.shared_file ? 0 : idx];
	uint64_t buf[UM_BLOCK / 8], t0 = vmr_now_ns(), c0 = um_cpu_ns();
	uint64_t deadline = st->o.runtime_ns && timed ? t0 + st->o.runtime_ns : 0;
	if (idx == 0 && st->o.corrupt_page >= 0 && !t->corrupted) {
		uint64_t junk = 0xdeadbeefbadc0ffeull;
		t->corrupted = pwrite(fd, &junk, sizeof(junk), st->o.corrupt_page * (off_t)st->ps) == sizeof(junk);
	}
	for (long pass = 0; pass < (timed ? st->o.repeat : 1) && t->bad_page < 0 && !t->err; pass++) {
		for (off_t off = 0; off < (off_t)st->size; off += UM_BLOCK) {
			ssize_t n = pread(fd, buf, UM_BLOCK, off);
			if (n <= 0) {
				t->err = n < 0 ? errno : EIO;
				break;
			}
			if ((buf[0] | buf[n / 8 - 1]) && t->bad_page < 0) {
				t->bad_page = off / (off_t)st->ps;
				t->found = buf[0] ? buf[0] : buf[n / 8 - 1];
			}
			t->bytes += timed ? (uint64_t)n : 0;
			if (deadline && !(off & 0xffffff) && vmr_now_ns() > deadline)
				break;
		}
	}
	t->ns = vmr_now_ns() - t0;
	t->cpu_ns = um_cpu_ns() - c0;
	if (timed || t->err || t->bad_page >= 0)
		return;
	/* truncate: the cache is full of the file; time dropping it */
	t0 = vmr_now_ns();
	c0 = um_cpu_ns();
	if (ftruncate(fd, 0) < 0)
		t->err = errno;
	t->ns = vmr_now_ns() - t0;
	t->cpu_ns = um_cpu_ns() - c0;
	t->bytes = st->size;
}

static void um_task(struct um_state *st, long idx)
{
	struct um_task *t = &st->sh->task[idx];
	atomic_fetch_add(&st->sh->ready, 1);
	while (!atomic_load(&st->sh->go))
		;
	if (st->o.io == UM_IO_MMAP)
		um_task_mmap(st, idx, t);
	else
		um_task_read(st, idx, t, st->o.io == UM_IO_READ);
}

struct um_arg {
	struct um_state *st;
	long idx;
};

static void *um_thread(void *arg)
{
	struct um_arg *a = arg;
	um_task(a->st, a->idx);
	return NULL;
}

/* Start the tasks and wait for them.  With threads the calling thread is
 * task 0, so one task is one thread, as in usemem. */
int um_start(struct um_state *st)
{
	long T = st->o.tasks, started = st->o.threads ? 1 : 0;
	pthread_t th[UM_MAX_TASKS];
	pid_t pids[UM_MAX_TASKS];
	struct um_arg args[UM_MAX_TASKS];
	for (; started < T; started++) {
		args[started] = (struct um_arg){ st, started };
		if (st->o.threads) {
			if (pthread_create(&th[started], NULL, um_thread, &args[started]))
				break;
			continue;
		}
		pids[started] = fork();
		if (pids[started] == 0) {
			um_task(st, started);
			_exit(0);
		}
		if (pids[started] < 0)
			break;
	}
	while (atomic_load(&st->sh->ready) < started - (st->o.threads ? 1 : 0))
		;
	atomic_store(&st->sh->go, 1);
	if (st->o.threads && started == T)
		um_task(st, 0);
	for (long i = st->o.threads ? 1 : 0; i < started; i++) {
		if (st->o.threads)
			pthread_join(th[i], NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	return started == T ? 0 : -1;
}
