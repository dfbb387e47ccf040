#include "core/rusage.h"

#include <string.h>

static uint64_t rusage_tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

void rusage_from_sys(const struct rusage *ru, struct rusage_counts *c)
{
	c->user_ns = rusage_tv_ns(&ru->ru_utime);
	c->sys_ns = rusage_tv_ns(&ru->ru_stime);
	c->minflt = (uint64_t)ru->ru_minflt;
	c->majflt = (uint64_t)ru->ru_majflt;
	c->nvcsw = (uint64_t)ru->ru_nvcsw;
	c->nivcsw = (uint64_t)ru->ru_nivcsw;
}

void rusage_self(struct rusage_counts *c)
{
	struct rusage ru = { 0 };
	memset(&ru, 0, sizeof(ru));
	getrusage(RUSAGE_SELF, &ru);
	rusage_from_sys(&ru, c);
}

void rusage_thread(struct rusage_counts *c)
{
	struct rusage ru = { 0 };
	memset(&ru, 0, sizeof(ru));
	getrusage(RUSAGE_THREAD, &ru);
	rusage_from_sys(&ru, c);
}

void rusage_delta(const struct rusage_counts *a, const struct rusage_counts *b,
		  struct rusage_counts *d)
{
	d->user_ns = b->user_ns - a->user_ns;
	d->sys_ns = b->sys_ns - a->sys_ns;
	d->minflt = b->minflt - a->minflt;
	d->majflt = b->majflt - a->majflt;
	d->nvcsw = b->nvcsw - a->nvcsw;
	d->nivcsw = b->nivcsw - a->nivcsw;
}

static const struct metric_def rusage_defs[] = {
	{ "user-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "user CPU time of the workload process", .headline = false },
	{ "sys-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "system CPU time of the workload process", .headline = false },
	{ "elapsed", "ns", BETTER_LOWER, COMBINE_AMEAN, "wall-clock time of the workload process", .headline = false },
	{ "cpu-percent", "%", BETTER_NONE, COMBINE_AMEAN, "(user + system) / elapsed", .headline = false },
	{ "major-faults", "faults", BETTER_LOWER, COMBINE_AMEAN, "page faults that needed I/O", .headline = false },
	{ "minor-faults", "faults", BETTER_LOWER, COMBINE_AMEAN, "page faults served from memory", .headline = false },
	{ "voluntary-switches", "switches", BETTER_NONE, COMBINE_AMEAN, "context switches while waiting", .headline = false },
	{ "involuntary-switches", "switches", BETTER_NONE, COMBINE_AMEAN, "context switches by preemption", .headline = false },
	{ "max-rss", "bytes", BETTER_NONE, COMBINE_AMEAN, "largest resident set size", .headline = false },
};

void rusage_metrics(struct result *r, const struct rusage *ru, uint64_t elapsed_ns)
{
	struct rusage_counts c = { 0 };
	rusage_from_sys(ru, &c);
	double cpu = elapsed_ns ? 100.0 * (double)(c.user_ns + c.sys_ns) / (double)elapsed_ns : 0;
	const double v[] = {
		(double)c.user_ns, (double)c.sys_ns, (double)elapsed_ns, cpu,
		(double)c.majflt, (double)c.minflt, (double)c.nvcsw, (double)c.nivcsw,
		(double)ru->ru_maxrss * 1024.0,
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		result_metric_def(r, &rusage_defs[i], v[i]);
}
