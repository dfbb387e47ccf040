/* senpai's controller, fed stalls instead of a cgroup: memory-needed is a
 * memory.high that a step tried and whose stall stayed under the target,
 * never the memory.current the walk started from and never a value between
 * steps; the walk never goes under the floor and always ends. */
#include <stdlib.h>

#include "t.h"
#include "workload/senpai.h"

#define PS 4096ull
#define MAX_STEPS 10000

struct trial {
	uint64_t high[MAX_STEPS];
	double stall[MAX_STEPS];
	int n;
};

/* The stall a cgroup shows at memory.high = high: under the working set
 * (ws) it rises the further high goes below it. */
static double stall_of(uint64_t high, uint64_t ws)
{
	return high >= ws ? 0.01 : 0.01 + (double)(ws - high) / (double)ws * 4;
}

/* Walk with stalls from stall_of(high, ws), or from seq[] when given. */
static void walk(struct senpai_walk *w, struct trial *t, uint64_t start, uint64_t floor, double step, double target,
		 uint64_t ws, const double *seq, int nseq)
{
	uint64_t high;
	t->n = 0;
	senpai_walk_start(w, start, floor, PS, step, target);
	while (senpai_walk_next(w, &high) && t->n < MAX_STEPS) {
		double s = seq ? (t->n < nseq ? seq[t->n] : 0) : stall_of(high, ws);
		t->high[t->n] = high;
		t->stall[t->n++] = s;
		senpai_walk_record(w, s);
	}
}

/* What every walk must hold, whatever the stalls were.  A description of
 * the first broken rule, or NULL. */
static const char *walk_holds(const struct senpai_walk *w, const struct trial *t, uint64_t floor, double target)
{
	uint64_t high;
	if (t->n >= MAX_STEPS || senpai_walk_next(w, &high))
		return "the walk did not end";
	if (t->n == 0)
		return "no step was tried";
	if (w->steps != t->n)
		return "steps is not the number of values tried";
	uint64_t lowest_under = 0;
	bool any_under = false;
	for (int i = 0; i < t->n; i++) {
		if (t->high[i] < floor)
			return "a step went under the floor";
		if (i && t->high[i] >= t->high[i - 1])
			return "a step did not lower memory.high";
		if (t->stall[i] < target && (!any_under || t->high[i] < lowest_under)) {
			lowest_under = t->high[i];
			any_under = true;
		}
	}
	if (w->have_needed != any_under)
		return any_under ? "a step stayed under the target but no memory-needed is kept"
				 : "memory-needed is kept though no step stayed under the target";
	if (any_under && w->needed != lowest_under)
		return "memory-needed is not the lowest memory.high tried that stayed under the target";
	if (w->reached != (t->stall[t->n - 1] >= target) || (w->reached && w->passed != t->high[t->n - 1]))
		return "high-at-target is not the step that passed the target";
	return NULL;
}

static void check_walk(const char *what, uint64_t start, uint64_t floor, double step, double target, uint64_t ws,
		       const double *seq, int nseq)
{
	struct senpai_walk w = { .next = 0 };
	static struct trial t;
	walk(&w, &t, start, floor, step, target, ws, seq, nseq);
	const char *broken = walk_holds(&w, &t, floor, target);
	CHECK(!broken, "%s: %s", what, broken ? broken : "every figure kept is a step's");
}

int main(void)
{
	struct senpai_walk w = { .next = 0 };
	static struct trial t;
	const uint64_t mib = 1 << 20;

	/* The stall passes at the very first step, memory.current: no memory.high
	 * stayed under the target, so there is no memory-needed at all. */
	const double at_once[] = { 0.5 };
	walk(&w, &t, 100 * mib, 5 * mib, 0.05, 0.1, 0, at_once, 1);
	CHECK(t.n == 1 && w.reached && w.passed == 100 * mib, "the first step passes the target");
	CHECK(!w.have_needed, "... and memory-needed is absent, not memory.current");

	/* A working set of 60 MiB: the steps go down from 100 MiB until the
	 * stall passes; memory-needed is the step before. */
	walk(&w, &t, 100 * mib, 5 * mib, 0.05, 0.1, 60 * mib, NULL, 0);
	CHECK(w.reached && w.have_needed && w.needed > w.passed && t.n >= 2 && w.needed == t.high[t.n - 2],
	      "memory-needed is the last step under the target, the one before the step that passed it");
	CHECK(w.needed % PS == 0 && w.passed % PS == 0, "memory.high is set in whole pages");

	/* Never any stall: the walk goes down to the floor, tries it, and stops. */
	walk(&w, &t, 100 * mib, 5 * mib, 0.2, 0.1, 0, NULL, 0);
	CHECK(!w.reached && w.have_needed && w.needed == 5 * mib && t.high[t.n - 1] == 5 * mib,
	      "no stall: the floor is tried last and is memory-needed");

	/* memory.current already at or under the floor: one step, at the floor. */
	walk(&w, &t, 3 * mib, 5 * mib, 0.05, 0.1, 0, NULL, 0);
	CHECK(t.n == 1 && t.high[0] == 5 * mib && w.have_needed && w.needed == 5 * mib,
	      "memory.current under the floor: the floor is the one step, and memory-needed");

	/* A stall that comes and goes (another sandbox's pressure): memory-needed
	 * is still a step's, the lowest under the target before the walk ended. */
	const double noisy[] = { 0.01, 0.3 };
	walk(&w, &t, 100 * mib, 5 * mib, 0.05, 0.1, 0, noisy, 2);
	CHECK(w.reached && w.have_needed && w.needed == 100 * mib && w.passed == t.high[1],
	      "under, then over: memory-needed is the first step");

	check_walk("a memory.current that is not whole pages", 100 * mib + 123, 5 * mib, 0.05, 0.1, 50 * mib, NULL, 0);
	check_walk("a floor that is not whole pages", 100 * mib, 5 * mib + 7, 0.3, 0.1, 0, NULL, 0);
	check_walk("the smallest step", 64 * mib, 1 * mib, 0.001, 0.1, 32 * mib, NULL, 0);
	check_walk("a floor of 0", 1 * mib, 0, 0.5, 0.1, 0, NULL, 0);

	/* Random walks: any stalls, any start, floor and step, the rules hold. */
	srand(27);
	int broken = 0;
	const char *first = NULL;
	for (int i = 0; i < 2000; i++) {
		uint64_t start = (uint64_t)(rand() % 4096) * PS + (uint64_t)(rand() % 3 ? 0 : rand() % PS);
		uint64_t floor = (uint64_t)(rand() % 512) * PS + (uint64_t)(rand() % 2 ? 0 : rand() % PS);
		double step = 0.001 + (rand() % 500) / 1000.0, target = 0.0001 + (rand() % 1000) / 1000.0;
		double seq[64];
		for (int k = 0; k < 64; k++)
			seq[k] = rand() % 4 ? target * (rand() % 100) / 100.0 : target * (1 + (rand() % 100) / 100.0);
		walk(&w, &t, start, floor, step, target, 0, seq, rand() % 2 ? 64 : rand() % 8);
		const char *why = walk_holds(&w, &t, floor, target);
		if (why && !broken++)
			first = why;
	}
	CHECK(!broken, "2000 random walks keep only figures a step measured (%d broke: %s)", broken,
	      first ? first : "none");
	T_DONE();
}
