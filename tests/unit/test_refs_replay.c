/* The replay core: every reference is timed and counted, reads check the
 * pattern and catch a damaged page, a write replay verifies afterwards,
 * and faults are counted against the pages that took them (real faults of
 * a fresh anonymous mapping, counted by the kernel). */
#include <stdlib.h>
#include <sys/mman.h>

#include "core/util.h"
#include "refs/gen.h"
#include "refs/replay.h"
#include "t.h"

#define PAGES 64
#define REFS 5000

int main(void)
{
	size_t ps = vmr_page_size();
	uint32_t *refs = malloc(REFS * 4);
	struct refs_params p;
	refs_params_default(&p);
	refs_generate(refs, PAGES, REFS, REFS_RANDOM, &p, 1);
	char *region = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(region != MAP_FAILED, "map a region");

	/* write replay over fresh memory: the first write to each page faults;
	 * with a 1 ns threshold every access is slow, so each fault is counted
	 * against its own page */
	struct replay_cfg cfg = { .write = true, .salt = 77, .slow_ns = 1, .max_slow = 100 };
	struct replay rp;
	struct replay_pass pass;
	replay_init(&rp, PAGES, &cfg);
	replay_run_pass(&rp, refs, REFS, region, ps, 0, &pass);
	struct hist *h = replay_finish(&rp);
	CHECK_EQ_U(h->count, REFS, "every reference is timed");
	CHECK(h->min <= h->max && h->max > 0, "access times are recorded");
	CHECK(pass.minflt >= PAGES, "the first touch of each page faulted (%llu minor faults)",
	      (unsigned long long)pass.minflt);
	uint64_t attributed = 0, pages_faulted = 0;
	for (int i = 0; i < PAGES; i++) {
		attributed += rp.page_minflt[i];
		pages_faulted += rp.page_minflt[i] > 0;
	}
	CHECK_EQ_U(attributed + rp.unattr_minflt, rp.minflt, "per-page and unattributed faults add up to the total");
	CHECK_EQ_U(pages_faulted, PAGES, "every page has its fault");
	CHECK(rp.nslow == 100 && rp.slow_dropped == REFS - 100, "slow accesses are kept up to the limit");
	CHECK(rp.slow[0].ref == 0 && rp.slow[0].page == refs[0] && rp.slow[0].minflt >= 1,
	      "the first slow access is reference 0 with its fault");
	uint32_t bad_page;
	uint64_t found;
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, &bad_page, &found), 0,
		   "every written page holds its pattern");
	free(h);
	replay_free(&rp);

	/* a damaged page is caught by the verification and by a read replay */
	*(uint64_t *)(region + 5 * ps) ^= 1;
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, &bad_page, &found), 1, "verify finds the damage");
	CHECK(bad_page == 5 && found == (replay_word(5, 77) ^ 1), "verify names the page and what it held");
	cfg = (struct replay_cfg){ .verify = true, .salt = 77, .slow_ns = 1000000, .max_slow = 10 };
	replay_init(&rp, PAGES, &cfg);
	replay_run_pass(&rp, refs, REFS, region, ps, 0, &pass);
	replay_run_pass(&rp, refs, REFS, region, ps, 1, &pass);
	uint64_t first = 0;
	while (refs[first] != 5)
		first++;
	uint64_t per_pass = 0;
	for (int i = 0; i < REFS; i++)
		per_pass += refs[i] == 5;
	CHECK(rp.bad == 2 * per_pass && rp.bad_page == 5 && rp.bad_ref == first,
	      "a read replay reports every bad read, first at reference %llu", (unsigned long long)first);
	CHECK_EQ_U(rp.refs, 2 * REFS, "two passes replay twice the references");
	free(replay_finish(&rp));
	replay_free(&rp);

	replay_fill(region, PAGES, ps, 9);
	uint64_t sum = replay_bare(refs, REFS, region, ps, false, 9), want = 0;
	for (int i = 0; i < REFS; i++)
		want += replay_word(refs[i], 9);
	CHECK_EQ_U(sum, want, "the bare loop reads the same words");
	munmap(region, PAGES * ps);
	free(refs);
	T_DONE();
}
