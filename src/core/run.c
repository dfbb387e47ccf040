/* The stored run's rules of its own (run.h): parts read on demand, and
 * how a run is freed, whoever filled it (the store, a JSON file). */
#include "core/run.h"

#include <stdlib.h>
#include <string.h>

json_t *run_iter_info(const struct run *r, const struct run_case *c, size_t i)
{
	if (i >= c->niter)
		return NULL;
	if (!c->iters[i].info && r->source.load && r->source.load(r->source.ctx, r, c, i, RESULT_INFO) < 0)
		return NULL;
	return c->iters[i].info;
}

void run_info_clear(struct run_info *ri)
{
	free(ri->uuid);
	free(ri->name);
	free(ri->suite);
	free(ri->status);
	free(ri->kernel);
	free(ri->host);
	free(ri->tag);
	free(ri->group_uuid);
	free(ri->group_name);
	free(ri->variant);
	memset(ri, 0, sizeof(*ri));
}

void run_info_free_array(struct run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_info_clear(&runs[i]);
	free(runs);
}

void run_free(struct run *r)
{
	if (!r)
		return;
	run_info_clear(&r->info);
	json_decref(r->env);
	json_decref(r->group_plan);
	free(r->suite_text);
	for (size_t i = 0; i < r->ncases; i++) {
		struct run_case *c = &r->cases[i];
		free(c->name);
		free(c->workload);
		json_decref(c->options);
		for (size_t k = 0; k < c->niter; k++)
			result_free(&c->iters[k]);
		free(c->iters);
		free(c->iter_no);
		free(c->iter_seq);
	}
	free(r->cases);
	free(r);
}
