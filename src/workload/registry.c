#include <string.h>

#include "core/suggest.h"
#include "core/util.h"
#include "workload/workload.h"

extern const struct workload wl_null, wl_fault, wl_alloc, wl_reread, wl_mmap001, wl_mtest01, wl_pft;
extern const struct workload wl_mmap;
extern const struct workload wl_mthp, wl_zswap, wl_reclaim, wl_senpai;
extern const struct workload wl_tiering, wl_usemem;
extern const struct workload wl_will_it_scale, wl_stutter, wl_thpchallenge;
extern const struct workload wl_kselftest;

const struct workload *const workloads[] = {
	&wl_null,
	&wl_fault,
	&wl_alloc,
	&wl_reread,
	&wl_mmap001,
	&wl_mtest01,
	&wl_pft,
	&wl_mmap,
	&wl_mthp,
	&wl_zswap,
	&wl_reclaim,
	&wl_senpai,
	&wl_tiering,
	&wl_usemem,
	&wl_will_it_scale,
	&wl_stutter,
	&wl_thpchallenge,
	&wl_kselftest,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

const char *workload_suggest(const char *name)
{
	const char *names[64] = { NULL };
	size_t n = 0;
	for (size_t i = 0; workloads[i] && n < sizeof(names) / sizeof(names[0]); i++)
		names[n++] = workloads[i]->name;
	return suggest(name, names, n);
}

bool workload_metric_headline(const char *workload, const char *metric)
{
	const struct workload *w = workload_find(workload);
	for (const struct metric_def *d = w ? w->metrics : NULL; d && d->name; d++) {
		if (!d->headline)
			continue;
		size_t n = strlen(d->name);
		if (!strcmp(metric, d->name))
			return true;
		/* pft and will-it-scale name their figures per task count:
		 * faults-per-sec-t2, per-process-ops-t2 */
		if (!strncmp(metric, d->name, n) && metric[n] == '-' && metric[n + 1] == 't' && metric[n + 2] &&
		    strspn(metric + n + 2, "0123456789") == strlen(metric + n + 2))
			return true;
	}
	return false;
}

size_t workload_headline_count(const char *workload)
{
	const struct workload *w = workload_find(workload);
	size_t n = 0;
	for (const struct metric_def *d = w ? w->metrics : NULL; d && d->name; d++)
		n += d->headline;
	return n;
}

void workload_holds(const struct workload *w, struct strlist *hold)
{
	for (size_t i = 0; w && w->holds && w->holds[i]; i++)
		if (!strlist_has(hold, w->holds[i]))
			strlist_add(hold, w->holds[i]);
}
