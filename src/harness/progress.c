#include "harness/progress.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

struct progress {
	bool tty, quiet;
	volatile bool closed;       /* stderr is a pipe with no reader */
	const struct suite *s;
	double *expect_s;           /* per case: one iteration's expected wall time */
	size_t done, total;
	const struct suite_case *c; /* the case, iteration and variant running or last run */
	size_t ci;
	long it;
	const char *variant;
	double left_s;              /* expected time of the iterations not yet begun */
	bool from_run;              /* expect_s from the store's earlier run of the suite */
	uint64_t t0, t_begin;       /* the run's start, and the current iteration's */
	/* on a terminal, a thread redraws the line every second while an
	 * iteration runs, so the elapsed time moves */
	pthread_t ticker;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool ticking;
};

/* Seconds an iteration takes when the store has no run of the suite: rough,
 * from the quick suite's sizes on two cores, and only a first guess. */
static const struct {
	const char *workload;
	double s;
} progress_guess[] = {
	{ "null", 0.1 }, { "fault", 4 }, { "alloc", 1 }, { "reread", 3 }, { "mmap001", 1 },
	{ "mtest01", 3 }, { "pft", 3 }, { "mmap", 4 },
};
#define PROGRESS_GUESS_DEFAULT 3.0

static double progress_guess_s(const char *workload)
{
	for (size_t i = 0; i < ARRAY_SIZE(progress_guess); i++)
		if (!strcmp(progress_guess[i].workload, workload))
			return progress_guess[i].s;
	return PROGRESS_GUESS_DEFAULT;
}

/* The newest complete run of the suite with at least one iteration. */
static int64_t progress_last_run(struct store *st, const char *suite)
{
	struct run_info *runs = NULL;
	size_t n = 0;
	int64_t id = -1;
	if (store_list(st, &runs, &n) < 0)
		return -1;
	for (size_t i = 0; i < n && id < 0; i++)
		if (runs[i].suite && !strcmp(runs[i].suite, suite) && runs[i].status &&
		    !strcmp(runs[i].status, "complete") && runs[i].niterations && runs[i].ended > runs[i].started)
			id = runs[i].id;
	run_info_free_array(runs, n);
	return id;
}

/* Per case of the earlier run, the mean of its iterations' "elapsed" (the
 * workload's own wall time), plus an equal share of what the run spent
 * around them (sandboxes, monitor start and stop), so that the expected
 * times add up to the earlier run's wall time. */
static void progress_from_run(struct progress *p, const struct run *r)
{
	double sum = 0;
	size_t iters = 0;
	double *mean = xcalloc(r->ncases ? r->ncases : 1, sizeof(double));
	for (size_t i = 0; i < r->ncases; i++) {
		const struct run_case *c = &r->cases[i];
		size_t n = 0;
		for (size_t k = 0; k < c->niter; k++) {
			const struct metric *m = result_find_metric(&c->iters[k], "elapsed");
			if (m)
				mean[i] += m->value / 1e9, n++;
		}
		sum += mean[i];
		iters += c->niter;
		mean[i] = n ? mean[i] / (double)n : -1;
	}
	double around = iters ? (r->info.ended - r->info.started - sum) / (double)iters : 0;
	around = around > 0 ? around : 0;
	for (size_t ci = 0; ci < p->s->ncases; ci++)
		for (size_t i = 0; i < r->ncases; i++)
			if (mean[i] >= 0 && !strcmp(r->cases[i].name, p->s->cases[ci].name) &&
			    !strcmp(r->cases[i].workload, p->s->cases[ci].w->name))
				p->expect_s[ci] = mean[i] + around;
	free(mean);
}

static void progress_expect(struct progress *p, struct store *st)
{
	for (size_t ci = 0; ci < p->s->ncases; ci++)
		p->expect_s[ci] = progress_guess_s(p->s->cases[ci].w->name);
	int64_t id = st && p->s->name ? progress_last_run(st, p->s->name) : -1;
	struct run *r = NULL;
	/* the iterations' metrics alone: "elapsed" is all it reads of them */
	if (id >= 0 && store_load_run_parts(st, id, RESULT_METRICS, &r) == 0) {
		progress_from_run(p, r);
		p->from_run = true;
	}
	run_free(r);
}

/* --iterations auto runs its minimum whatever --budget says: when that
 * minimum is expected to take longer, say so before the run starts. */
static void progress_budget_note(const struct progress *p)
{
	const struct suite *s = p->s;
	if (p->quiet || !s->ncases || !s->cases[0].set.iterations_auto || !s->cases[0].set.budget_ns)
		return;
	double budget_s = (double)s->cases[0].set.budget_ns / 1e9;
	if (p->left_s <= budget_s)
		return;
	char a[32], b[32];
	vmr_warn("--budget %s: the minimum of %ld iterations a variant of every case takes about %s (%s), and runs "
		 "whatever the budget",
		 units_format_value(b, sizeof(b), budget_s * 1e9, "ns"), s->cases[0].set.iterations,
		 units_format_value(a, sizeof(a), p->left_s * 1e9, "ns"),
		 p->from_run ? "by the store's last run of the suite" : "by a rough guess per workload");
}

struct progress *progress_new(const struct suite *s, size_t nvars, struct store *st, bool quiet)
{
	struct progress *p = xcalloc(1, sizeof(*p));
	*p = (struct progress){ .tty = isatty(2), .quiet = quiet, .s = s, .t0 = vmr_now_ns() };
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->expect_s = xcalloc(s->ncases ? s->ncases : 1, sizeof(double));
	if (!quiet)
		progress_expect(p, st);
	for (size_t i = 0; i < s->ncases; i++) {
		size_t n = nvars * (size_t)(s->cases[i].set.warmup + s->cases[i].set.iterations);
		p->total += n;
		p->left_s += p->expect_s[i] * (double)n;
	}
	progress_budget_note(p);
	return p;
}

void progress_free(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p->expect_s);
	free(p);
}

double progress_left(const struct progress *p, double running_s)
{
	double cur = p->ci < p->s->ncases ? p->expect_s[p->ci] - running_s : 0;
	return p->left_s + (cur > 0 ? cur : 0);
}

static void progress_fmt_secs(char *buf, size_t len, double s)
{
	if (s < 0)
		snprintf(buf, len, "?");
	else if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

/* state: "running", or the outcome of the iteration that just ended. */
static void progress_line(struct progress *p, const char *state, bool running)
{
	if (p->quiet || (!p->tty && running))
		return;
	const struct suite_case *c = p->c;
	uint64_t now = vmr_now_ns();
	double el = (double)(now - p->t0) / 1e9;
	double left = progress_left(p, running ? (double)(now - p->t_begin) / 1e9 : p->expect_s[p->ci]);
	char e[32], l[32];
	progress_fmt_secs(e, sizeof(e), el);
	progress_fmt_secs(l, sizeof(l), left);
	int w = fprintf(stderr, "%s[%zu/%zu] %s (%s)%s%s iteration %ld/%ld: %s  elapsed %s, left %s%s",
			p->tty ? "\r\033[K" : "", p->done + (running ? 1 : 0), p->total, c->name, c->w->name,
			p->variant ? " " : "", p->variant ? p->variant : "", p->it + 1, c->set.warmup + c->set.iterations, state, e, l,
			p->tty ? "" : "\n");
	if ((w < 0 || fflush(stderr) == EOF) && errno == EPIPE)
		p->closed = true;
}

void progress_begin(struct progress *p, const struct suite_case *c, size_t ci, long it, const char *variant)
{
	p->c = c;
	p->ci = ci < p->s->ncases ? ci : 0;
	p->it = it;
	p->variant = variant;
	p->t_begin = vmr_now_ns();
	p->left_s -= p->expect_s[p->ci];
	p->left_s = p->left_s > 0 ? p->left_s : 0;
	progress_line(p, "running", true);
}

static void *progress_ticker(void *arg)
{
	struct progress *p = arg;
	pthread_mutex_lock(&p->lock);
	while (p->ticking) {
		struct timespec ts = { 0 };
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&p->cond, &p->lock, &ts);
		if (p->ticking)
			progress_line(p, "running", true);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The ticker is a runner hook: its thread starts after the workload child
 * is forked and stops after it ends, so that no thread of ours runs beside a
 * fork (a lock it held, stderr's say, would stay locked in the child). */
static int progress_hook_start(void *ctx, pid_t child, struct sandbox *sb)
{
	struct progress *p = ctx;
	(void)child;
	(void)sb;
	if (!p->tty || p->quiet)
		return 0;
	p->ticking = true;
	if (pthread_create(&p->ticker, NULL, progress_ticker, p) != 0)
		p->ticking = false;
	return 0;
}

static void progress_ticker_stop(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	bool was = p->ticking;
	p->ticking = false;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	if (was)
		pthread_join(p->ticker, NULL);
}

static void progress_hook_stop(void *ctx, struct result *r)
{
	(void)r;
	progress_ticker_stop(ctx);
}

struct runner_hook progress_hook(struct progress *p)
{
	return (struct runner_hook){ "progress", progress_hook_start, progress_hook_stop, p };
}

void progress_end(struct progress *p, const struct result *r)
{
	progress_ticker_stop(p);  /* if the runner could not start the hooks' stops */
	p->done++;
	progress_line(p, outcome_name(r->outcome), false);
	if (!p->quiet && r->outcome != OUTCOME_PASS) {
		if (p->tty)
			fputc('\n', stderr);
		vmr_warn("%s%s%s iteration %ld: %s: %s", p->c->name, p->variant ? " " : "", p->variant ? p->variant : "",
			 p->it + 1, outcome_name(r->outcome), r->reason ? r->reason : "no reason given");
	}
}

bool progress_closed(const struct progress *p)
{
	return p && p->closed;
}

void progress_finish(struct progress *p)
{
	if (p->tty && !p->quiet)
		fputc('\n', stderr);
}

void progress_grow(struct progress *p, size_t n)
{
	pthread_mutex_lock(&p->lock);
	p->total += n;
	p->left_s += p->expect_s[p->ci] * (double)n;
	pthread_mutex_unlock(&p->lock);
}
