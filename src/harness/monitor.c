#include "harness/monitor.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "probe/vmstat_counters.h"
#include "sandbox/sandbox.h"

static const char *const monitor_meminfo_names[] = {
	"MemFree", "MemAvailable", "Cached", "Dirty", "AnonPages", "SwapFree", "SwapCached", "Zswap", "Zswapped",
};

void monitor_init(struct monitor *m, uint64_t interval_ns)
{
	memset(m, 0, sizeof(*m));
	m->interval_ns = interval_ns < MONITOR_MIN_INTERVAL_NS ? MONITOR_MIN_INTERVAL_NS : interval_ns;
	vmstat_init(&m->prev);
	vmstat_init(&m->cur);
	result_init(&m->acc, "monitor");
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &ca);
	pthread_condattr_destroy(&ca);
}

void monitor_destroy(struct monitor *m)
{
	if (m->running)
		monitor_stop(m, NULL);
	vmstat_free(&m->prev);
	vmstat_free(&m->cur);
	meminfo_free(&m->mi);
	thp_sampler_free(&m->thp);
	free(m->delta);
	result_free(&m->acc);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
}

static void monitor_note_error(struct monitor *m, const char *what, const char *err)
{
	if (!m->err[0])
		snprintf(m->err, sizeof(m->err), "%s: %s", what, err);
}

static void monitor_add(struct monitor *m, const char *name, const char *unit, double t, double v)
{
	series_add(result_series(&m->acc, name, unit), t, v);
}

static bool monitor_prefix(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(name, prefix, n) && (name[n] == '\0' || name[n] == '_');
}

static void monitor_vmstat(struct monitor *m, double t)
{
	char err[PROBE_ERR_MAX] = "";
	if (vmstat_read(&m->cur, NULL, err) < 0) {
		monitor_note_error(m, "/proc/vmstat", err);
		return;
	}
	if (m->delta_cap < m->cur.n) {
		m->delta_cap = m->cur.n;
		m->delta = xrealloc(m->delta, m->delta_cap * sizeof(*m->delta));
	}
	vmstat_delta(&m->prev, &m->cur, m->delta);
	/* the series of VMSTAT_MONITOR counters of probe/vmstat_counters.h:
	 * by exact name, or a VMSTAT_SUM entry summing NAME and NAME_* */
	double sums[VMSTAT_NCOUNTERS] = { 0 };
	bool seen[VMSTAT_NCOUNTERS] = { false };
	for (size_t i = 0; i < m->cur.n; i++) {
		const char *name = m->cur.items[i].name;
		for (size_t k = 0; k < VMSTAT_NCOUNTERS; k++) {
			const struct vmstat_counter *c = &vmstat_counters[k];
			if (!(c->uses & VMSTAT_MONITOR))
				continue;
			if (c->uses & VMSTAT_SUM) {
				if (monitor_prefix(name, c->name)) {
					sums[k] += (double)m->delta[i];
					seen[k] = true;
				}
			} else if (!strcmp(name, c->name)) {
				char sname[VMSTAT_NAME_MAX + 8];
				snprintf(sname, sizeof(sname), "vmstat.%s", name);
				monitor_add(m, sname, "events", t, (double)m->delta[i]);
			}
		}
	}
	for (size_t k = 0; k < VMSTAT_NCOUNTERS; k++) {
		if (!seen[k])
			continue;
		char sname[VMSTAT_NAME_MAX + 8];
		snprintf(sname, sizeof(sname), "vmstat.%s", vmstat_counters[k].name);
		monitor_add(m, sname, "events", t, sums[k]);
	}
	/* cur becomes prev: swap the two snapshots (and their open files) */
	struct vmstat tmp = m->prev;
	m->prev = m->cur;
	m->cur = tmp;
}

static void monitor_meminfo(struct monitor *m, double t)
{
	char err[PROBE_ERR_MAX] = "";
	if (meminfo_read(&m->mi, NULL, err) < 0) {
		monitor_note_error(m, "/proc/meminfo", err);
		return;
	}
	for (size_t k = 0; k < ARRAY_SIZE(monitor_meminfo_names); k++) {
		uint64_t v;
		if (meminfo_get(&m->mi, monitor_meminfo_names[k], &v) == 0) {
			char sname[MEMINFO_NAME_MAX + 8];
			snprintf(sname, sizeof(sname), "meminfo.%s", monitor_meminfo_names[k]);
			monitor_add(m, sname, "bytes", t, (double)v);
		}
	}
}

static void monitor_pressure(struct monitor *m, double t, uint64_t dt_ns)
{
	struct pressure now = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (!m->have_psi || pressure_read(&now, NULL, err) < 0)
		return;
	double dt_us = (double)dt_ns / 1000.0;
	if (dt_us > 0) {
		monitor_add(m, "pressure.some", "%", t, 100.0 * (double)(now.some.total_us - m->psi.some.total_us) / dt_us);
		if (now.have_full)
			monitor_add(m, "pressure.full", "%", t,
				    100.0 * (double)(now.full.total_us - m->psi.full.total_us) / dt_us);
	}
	m->psi = now;
}

static void monitor_memcg(struct monitor *m, double t)
{
	if (!m->sb || !sandbox_active(m->sb))
		return;
	json_t *st = sandbox_stats(m->sb);
	const char *key;
	json_t *v;
	json_object_foreach(st, key, v) {
		if (!json_is_number(v))
			continue;
		char sname[128];
		snprintf(sname, sizeof(sname), "memcg.%s", key);
		monitor_add(m, sname, "", t, json_number_value(v));
	}
	json_decref(st);
}

static void monitor_mthp_emit(void *arg, const char *name, double change)
{
	void **a = arg;
	char sname[96];
	snprintf(sname, sizeof(sname), "mthp.%s", name);
	monitor_add(a[0], sname, "events", *(double *)a[1], change);
}

static void monitor_mthp(struct monitor *m, double t)
{
	void *arg[2] = { m, &t };
	thp_sampler_sample(&m->thp, NULL, monitor_mthp_emit, arg);
}

static void monitor_sample(struct monitor *m)
{
	uint64_t now = vmr_now_ns();
	double t = (double)(now - m->t0) / 1e9;
	monitor_vmstat(m, t);
	monitor_meminfo(m, t);
	monitor_pressure(m, t, now - m->last);
	monitor_memcg(m, t);
	monitor_mthp(m, t);
	m->last = now;
	m->samples++;
}

static void *monitor_thread(void *arg)
{
	struct monitor *m = arg;
	uint64_t next = m->t0 + m->interval_ns;
	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		struct timespec ts = { .tv_sec = (time_t)(next / 1000000000u), .tv_nsec = (long)(next % 1000000000u) };
		int e = pthread_cond_timedwait(&m->cond, &m->lock, &ts);
		if (m->stop)
			break;
		if (e != ETIMEDOUT && vmr_now_ns() < next)
			continue;
		pthread_mutex_unlock(&m->lock);
		monitor_sample(m);
		next += m->interval_ns;
		/* a sample that overran does not cause a burst to catch up */
		uint64_t now = vmr_now_ns();
		if (next < now)
			next = now + m->interval_ns;
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	monitor_sample(m);
	struct timespec cpu = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	m->cpu_ns = (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec;
	return NULL;
}

int monitor_start(struct monitor *m, struct sandbox *sb)
{
	char err[PROBE_ERR_MAX] = "";
	result_free(&m->acc);
	result_init(&m->acc, "monitor");
	m->sb = sb;
	m->samples = 0;
	m->cpu_ns = 0;
	m->err[0] = '\0';
	m->stop = false;
	if (vmstat_read(&m->prev, NULL, err) < 0)
		monitor_note_error(m, "/proc/vmstat", err);
	m->have_psi = pressure_read(&m->psi, NULL, err) == 0;
	thp_sampler_start(&m->thp, NULL);
	m->t0 = m->last = vmr_now_ns();
	int e = pthread_create(&m->thread, NULL, monitor_thread, m);
	if (e) {
		errno = e;
		return -1;
	}
	m->running = true;
	return 0;
}

static void monitor_results(struct monitor *m, struct result *r)
{
	for (size_t i = 0; i < m->acc.nseries; i++) {
		const struct series *s = &m->acc.series[i];
		struct series *d = result_series(r, s->name, s->unit);
		for (size_t k = 0; k < s->n; k++)
			series_add(d, s->t[k], s->v[k]);
	}
	json_t *info = json_pack("{sI sI sI}", "interval_ns", (json_int_t)m->interval_ns, "samples",
				 (json_int_t)m->samples, "cpu_ns", (json_int_t)m->cpu_ns);
	if (m->err[0])
		json_object_set_new(info, "error", json_string(m->err));
	result_info_set(r, "monitor", info);
}

void monitor_stop(struct monitor *m, struct result *r)
{
	if (!m->running)
		return;
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);
	m->running = false;
	if (r)
		monitor_results(m, r);
}

static int monitor_hook_start(void *ctx, pid_t child, struct sandbox *sb)
{
	return monitor_start(ctx, sb);  /* -1 with errno */
}

static void monitor_hook_stop(void *ctx, struct result *r)
{
	monitor_stop(ctx, r);
}

struct runner_hook monitor_hook(struct monitor *m)
{
	return (struct runner_hook){ .name = "monitor", .start = monitor_hook_start, .stop = monitor_hook_stop,
				     .ctx = m };
}
