/* The stored run's one rule of its own (run.h): parts read on demand. */
#include "core/run.h"

json_t *run_iter_info(const struct run *r, const struct run_case *c, size_t i)
{
	if (i >= c->niter)
		return NULL;
	if (!c->iters[i].info && r->source.load && r->source.load(r->source.ctx, r, c, i, RESULT_INFO) < 0)
		return NULL;
	return c->iters[i].info;
}
