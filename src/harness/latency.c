#include "harness/latency.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

void probe_init(struct probe *p, uint64_t period_ns)
{
	memset(p, 0, sizeof(*p));
	p->period_ns = period_ns ? period_ns : 10000000;
	p->buf = xcalloc(1, PROBE_BUFFER_BYTES);
	p->late = hist_new();
	p->touch = hist_new();
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&p->lock, NULL);
}

void probe_destroy(struct probe *p)
{
	if (p->running)
		probe_stop(p, NULL);
	free(p->buf);
	free(p->late);
	free(p->touch);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	memset(p, 0, sizeof(*p));
}

/* Sleep until t_ns on the monotonic clock, or until probe_stop wakes us. */
static void probe_sleep_until(struct probe *p, uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000u), .tv_nsec = (long)(t_ns % 1000000000u) };
	pthread_mutex_lock(&p->lock);
	while (!atomic_load(&p->stop) && pthread_cond_timedwait(&p->wake, &p->lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&p->lock);
}

/* Like a player filling its next period of samples: write one byte in
 * every cache line, so each page of the buffer is touched. */
static void probe_touch(struct probe *p, unsigned char v)
{
	for (size_t i = 0; i < PROBE_BUFFER_BYTES; i += 64)
		p->buf[i] = (unsigned char)(p->buf[i] + v);
	__asm__ volatile("" : : "r"(p->buf) : "memory");
}

static void *probe_thread(void *arg)
{
	struct probe *p = arg;
	uint64_t next = vmr_now_ns() + p->period_ns;
	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		probe_sleep_until(p, next);
		if (atomic_load_explicit(&p->stop, memory_order_relaxed))
			break;
		uint64_t woke = vmr_now_ns();
		probe_touch(p, (unsigned char)p->wakeups);
		uint64_t done = vmr_now_ns();
		hist_add(p->late, woke - next);
		hist_add(p->touch, done - woke);
		p->wakeups++;
		p->deadlines++;
		next += p->period_ns;
		if (done > next)
			p->missed++;
		/* Deadlines that passed while we were late are missed too; the
		 * next wake-up is the first deadline still ahead. */
		while (next + p->period_ns <= done) {
			next += p->period_ns;
			p->deadlines++;
			p->missed++;
		}
	}
	return NULL;
}

int probe_start(struct probe *p)
{
	hist_reset(p->late);
	hist_reset(p->touch);
	p->wakeups = p->deadlines = p->missed = 0;
	atomic_store(&p->stop, false);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	if (p->cpus)
		pthread_attr_setaffinity_np(&attr, sizeof(*p->cpus), p->cpus);
	int e = pthread_create(&p->thread, &attr, probe_thread, p);
	pthread_attr_destroy(&attr);
	if (e) {
		errno = e;
		return -1;
	}
	p->running = true;
	return 0;
}

static int probe_hook_start(void *ctx, pid_t child, struct sandbox *sb)
{
	return probe_start(ctx);  /* -1 with errno */
}

static void probe_results(struct probe *p, struct result *r)
{
	result_metric(r, "probe-late-p50", "ns", BETTER_LOWER, COMBINE_AMEAN, hist_percentile(p->late, 50));
	result_metric(r, "probe-late-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, hist_percentile(p->late, 99));
	result_metric(r, "probe-late-max", "ns", BETTER_LOWER, COMBINE_AMEAN, (double)(p->late->count ? p->late->max : 0));
	result_metric(r, "probe-touch-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, hist_percentile(p->touch, 99));
	result_metric(r, "probe-missed", "%", BETTER_LOWER, COMBINE_AMEAN,
		      p->deadlines ? 100.0 * (double)p->missed / (double)p->deadlines : 0);
	struct hist *late = hist_new(), *touch = hist_new();
	hist_merge(late, p->late);
	hist_merge(touch, p->touch);
	result_hist(r, "probe-lateness", "ns", late);
	result_hist(r, "probe-touch", "ns", touch);
	result_info_set(r, "probe", json_pack("{sI sI sI sI}", "period_ns", (json_int_t)p->period_ns, "wakeups",
					      (json_int_t)p->wakeups, "deadlines", (json_int_t)p->deadlines,
					      "missed", (json_int_t)p->missed));
}

void probe_stop(struct probe *p, struct result *r)
{
	if (!p->running)
		return;
	/* The thread is asleep nearly always: wake it rather than wait up to
	 * a period. */
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->stop, true);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->running = false;
	if (r)
		probe_results(p, r);
}

static void probe_hook_stop(void *ctx, struct result *r)
{
	probe_stop(ctx, r);
}

struct runner_hook probe_hook(struct probe *p)
{
	return (struct runner_hook){ .name = "latency probe", .start = probe_hook_start, .stop = probe_hook_stop,
				     .ctx = p };
}
