/* The replay core: every reference is timed and counted (one at a time,
 * and in batches), reads check the pattern and catch a damaged page, a
 * write replay verifies afterwards, and faults are counted against the
 * pages (or batches) that took them (real faults of a fresh anonymous
 * mapping and of pages dropped with MADV_DONTNEED, counted by the
 * kernel). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/util.h"
#include "refs/gen.h"
#include "refs/replay.h"
#include "t.h"

#define PAGES 64
#define REFS 5000

static uint64_t hist_total(const struct hist *h)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		n += h->b[i];
	return n;
}

/* A write replay over fresh memory: the first write to each page faults,
 * and the last batch starts with the first write to one more page.  With
 * a 1 ns threshold every access (batch) that faulted is slow, and its
 * faults are counted against its own access, or its batch's first page.
 * An access that did not fault may be timed at 0 ticks: the counter can
 * be coarser than a resident access (this project's x86-64 test machine,
 * a KVM guest on AMD EPYC, shows its 2.4 GHz TSC in steps of 24-25 ticks,
 * 10 ns, and a resident write between two reads takes 0 or 1 step), so
 * nothing here asks that such an access be slow. */
static void write_fresh(const uint32_t *refs0, char *region, size_t ps, uint32_t batch)
{
	struct replay_cfg cfg = { .write = true, .salt = 77, .slow_ns = 1, .max_slow = 200, .batch = batch };
	struct replay rp = { 0 };
	struct replay_pass pass = { 0 };
	uint32_t *refs = malloc(REFS * sizeof(*refs));
	uint64_t last = (REFS - 1) / batch * batch, batches = (REFS + batch - 1) / batch, faulting = 0;
	bool seen[PAGES + 1] = { false }, batch_faults = false;
	memcpy(refs, refs0, REFS * sizeof(*refs));
	refs[last] = PAGES;
	for (uint64_t i = 0; i < REFS; i++) {  /* the batches holding a first write */
		batch_faults |= !seen[refs[i]];
		seen[refs[i]] = true;
		if (i % batch == batch - 1 || i == REFS - 1) {
			faulting += batch_faults;
			batch_faults = false;
		}
	}
	replay_init(&rp, PAGES + 1, &cfg);
	replay_run_pass(&rp, refs, REFS, region, ps, 0, &pass);
	CHECK_EQ_U(rp.ticks_hist->count, REFS, "batch %u: every reference is counted", batch);
	CHECK_EQ_U(hist_total(rp.ticks_hist), REFS, "batch %u: the buckets hold one sample per reference", batch);
	uint64_t kept = 0;
	for (size_t i = 0; i < rp.nslow; i++)
		kept += rp.slow[i].ticks;
	CHECK(rp.ticks_hist->sum >= kept && rp.ticks_hist->sum <= rp.ticks_total,
	      "batch %u: the histogram's sum is the batches' ticks (%llu, kept %llu, replay %llu)", batch,
	      (unsigned long long)rp.ticks_hist->sum, (unsigned long long)kept, (unsigned long long)rp.ticks_total);
	CHECK(pass.minflt >= PAGES + 1, "batch %u: the first touch of each page faulted (%llu minor faults)", batch,
	      (unsigned long long)pass.minflt);
	uint64_t attributed = 0, pages_faulted = 0;
	for (int i = 0; i <= PAGES; i++) {
		attributed += rp.page_minflt[i];
		pages_faulted += rp.page_minflt[i] > 0;
	}
	CHECK_EQ_U(attributed + rp.unattr_minflt, rp.minflt,
		   "batch %u: per-page and unattributed faults add up to the total", batch);
	uint64_t slow = rp.nslow + rp.slow_dropped;
	CHECK(slow >= faulting && slow <= batches && rp.nslow == (slow < 200 ? slow : 200),
	      "batch %u: every batch that faulted is slow (%llu of %llu batches faulted), kept up to the limit "
	      "(%zu kept, %llu dropped)", batch, (unsigned long long)faulting, (unsigned long long)batches, rp.nslow,
	      (unsigned long long)rp.slow_dropped);
	CHECK(rp.nslow && rp.slow[0].ref == 0 && rp.slow[0].page == refs[0] && rp.slow[0].refs == batch &&
		      rp.slow[0].minflt >= 1,
	      "batch %u: the first slow access is reference 0 with its fault", batch);
	bool shaped = rp.nslow > 0;
	for (size_t i = 0; i < rp.nslow; i++) {
		const struct replay_slow *x = &rp.slow[i];
		shaped &= x->ref % batch == 0 && x->ref < REFS && x->page == refs[x->ref] &&
			  x->refs == (REFS - x->ref < batch ? REFS - x->ref : batch) && (!i || x->ref > rp.slow[i - 1].ref);
	}
	CHECK(shaped, "batch %u: each slow batch is kept by its first reference and page, with its length", batch);
	if (batch == 1) {
		CHECK_EQ_U(pages_faulted, PAGES + 1, "every page has its fault");
	} else {
		const struct replay_slow *end = rp.nslow ? &rp.slow[rp.nslow - 1] : NULL;
		CHECK(end && end->ref == last && end->refs == REFS - last && end->page == PAGES && end->minflt >= 1,
		      "the last batch, which faulted, holds what is left (%u references)", end ? end->refs : 0);
	}
	struct hist *h = replay_finish(&rp);
	CHECK_EQ_U(h->count, REFS, "batch %u: every reference is timed", batch);
	CHECK(h->min <= h->max && h->max > 0, "batch %u: access times are recorded", batch);
	free(h);
	replay_free(&rp);
	free(refs);
}

/* A resident region read in sweeps: nothing is slow, every reference is
 * counted once and the histogram's sum is the ticks of the loop. */
static void resident(char *region, size_t ps, uint32_t batch)
{
	enum { N = 200003 };
	uint32_t *refs = malloc(N * 4);
	for (uint32_t i = 0; i < N; i++)
		refs[i] = i % PAGES;
	replay_fill(region, PAGES, ps, 3);
	struct replay_cfg cfg = { .verify = true, .salt = 3, .slow_ns = 1000000000, .max_slow = 10, .batch = batch };
	struct replay rp = { 0 };
	struct replay_pass pass = { 0 };
	replay_init(&rp, PAGES, &cfg);
	replay_run_pass(&rp, refs, N, region, ps, 0, &pass);
	replay_run_pass(&rp, refs, N, region, ps, 1, &pass);
	const struct hist *t = rp.ticks_hist;
	CHECK(rp.bad == 0 && rp.nslow == 0, "batch %u: a resident replay reads right and is never slow", batch);
	CHECK_EQ_U(t->count, 2 * N, "batch %u: total count == references", batch);
	CHECK_EQ_U(hist_total(t), 2 * N, "batch %u: the buckets add up to the references", batch);
	if (batch > 1)
		CHECK(rp.res_avg > 0,
		      "batch %u: the running resident average was learned from the batches", batch);
	/* between the passes and around the loops: a few rusage calls */
	CHECK(t->sum <= rp.ticks_total && t->sum >= rp.ticks_total / 10 * 9,
	      "batch %u: the histogram's sum is the measured ticks (%llu of %llu)", batch, (unsigned long long)t->sum,
	      (unsigned long long)rp.ticks_total);
	free(replay_finish(&rp));
	replay_free(&rp);
	free(refs);
}

/* Adaptive batches over a resident region: each pass starts at 32, every
 * quick batch doubles the next up to 1024, so the counter is read exactly
 * as often as that schedule says (nothing is slow under a 1 s threshold). */
static void resident_adaptive(char *region, size_t ps)
{
	enum { N = 200003 };
	uint32_t *refs = malloc(N * 4);
	for (uint32_t i = 0; i < N; i++)
		refs[i] = (i * 7) % PAGES;
	replay_fill(region, PAGES, ps, 3);
	struct replay_cfg cfg = { .verify = true, .salt = 3, .slow_ns = 1000000000, .max_slow = 10, .batch = 32,
				  .batch_max = 1024 };
	struct replay rp = { 0 };
	struct replay_pass pass = { 0 };
	replay_init(&rp, PAGES, &cfg);
	replay_run_pass(&rp, refs, N, region, ps, 0, &pass);
	replay_run_pass(&rp, refs, N, region, ps, 1, &pass);
	uint64_t want = 0;
	for (uint64_t i = 0, b = 32; i < N; want++) {
		i += N - i < b ? N - i : b;
		b = b * 2 < 1024 ? b * 2 : 1024;
	}
	CHECK(rp.bad == 0 && rp.nslow == 0, "adaptive: a resident replay reads right and is never slow");
	CHECK_EQ_U(rp.batches, 2 * want, "adaptive: batches grow 32, 64, ... 1024 in each pass");
	CHECK_EQ_U(rp.ticks_hist->count, 2 * N, "adaptive: every reference is counted");
	CHECK_EQ_U(hist_total(rp.ticks_hist), 2 * N, "adaptive: the buckets add up to the references");
	CHECK(rp.res_avg > 0, "adaptive: the running resident average was learned from the batches");
	free(replay_finish(&rp));
	replay_free(&rp);

	/* a batch_max below batch keeps batches fixed */
	cfg.batch_max = 8;
	replay_init(&rp, PAGES, &cfg);
	replay_run_pass(&rp, refs, N, region, ps, 0, &pass);
	CHECK_EQ_U(rp.batches, (N + 31) / 32, "a maximum below the batch keeps batches of 32");
	free(replay_finish(&rp));
	replay_free(&rp);
	free(refs);
}

/* Pages 32..63 of a resident region are dropped with MADV_DONTNEED; a write
 * sweep faults them back in.  With batch 32 the second batch (references
 * 32..63) takes 32 faults and is slow; with batch 1 each of them is. */
static void dropped_page(char *region, size_t ps, uint32_t batch, uint32_t batch_max)
{
	enum { N = 4 * PAGES };
	uint32_t refs[N];
	for (uint32_t i = 0; i < N; i++)
		refs[i] = i % PAGES;
	struct replay_cfg cfg = { .write = true, .salt = 8, .slow_ns = batch == 1 ? 300 : 5000, .max_slow = 100,
				  .batch = batch, .batch_max = batch_max };
	struct replay rp = { 0 };
	struct replay_pass pass = { 0 };
	int dropped = -1, attempt = 0;
	/* Adaptive batches double only after a quick one: when the first
	 * (references 0..31) was slow too, because the machine took the CPU
	 * away, the pass does not show what is checked below; it runs again
	 * from a fresh drop, up to 20 times. */
	for (;; attempt++) {
		replay_fill(region, PAGES, ps, 8);
		dropped = madvise(region + 32 * ps, 32 * ps, MADV_DONTNEED);
		replay_init(&rp, PAGES, &cfg);
		replay_run_pass(&rp, refs, N, region, ps, 0, &pass);
		bool first_slow = false;
		for (size_t i = 0; i < rp.nslow; i++)
			first_slow |= rp.slow[i].ref == 0;
		if (!first_slow || batch_max <= batch || batch == 1 || attempt == 19)
			break;
		free(replay_finish(&rp));
		replay_free(&rp);
		rp = (struct replay){ 0 };
		pass = (struct replay_pass){ 0 };
	}
	CHECK(dropped == 0, "drop pages 32..63");
	CHECK(pass.minflt >= 32, "batch %u: the dropped pages faulted (%llu)", batch, (unsigned long long)pass.minflt);
	CHECK_EQ_U(rp.ticks_hist->count, N, "batch %u: every reference is counted", batch);
	CHECK_EQ_U(hist_total(rp.ticks_hist), N, "batch %u: one sample per reference", batch);
	const struct replay_slow *hit = NULL;
	uint64_t faulted = 0;
	for (size_t i = 0; i < rp.nslow; i++) {
		const struct replay_slow *s = &rp.slow[i];
		if (batch > 1 && s->ref == 32)
			hit = s;
		if (batch == 1 && s->ref >= 32 && s->ref < 64 && s->minflt >= 1)
			faulted++;
	}
	if (batch > 1 && batch_max > batch) {
		/* 0..31 quick, so the next batch is 64 long: 32..95 with the
		 * faults, slow; then 32 again: 96..127, 128..191, 192..255 */
		CHECK(hit && hit->page == 32 && hit->refs == 64 && hit->minflt >= 32,
		      "adaptive: the doubled batch with the dropped pages is slow, kept by its first page with its "
		      "faults (%zu slow batches, pass %d)", rp.nslow, attempt + 1);
		CHECK(rp.nslow != 1 || rp.batches == 5, "adaptive: a slow batch sets the next back to 32 (%llu batches)",
		      (unsigned long long)rp.batches);
	} else if (batch > 1) {
		CHECK(hit && hit->page == 32 && hit->refs == 32 && hit->minflt >= 32,
		      "the batch with the dropped pages is slow, kept by its first page with its faults "
		      "(%zu slow batches)", rp.nslow);
		CHECK(rp.page_minflt[32] >= 32, "the batch's faults are counted against its first page");
		CHECK(rp.ticks_hist->max >= rp.slow_ticks / 2,
		      "the slow batch's sample is in the histogram's tail");
	} else {
		CHECK(faulted >= 16, "the accesses to dropped pages are slow with their faults (%llu of 32)",
		      (unsigned long long)faulted);
	}
	free(replay_finish(&rp));
	replay_free(&rp);
}

/* A read replay (two passes) over a region whose page 5 is damaged. */
static void read_damaged(const uint32_t *refs, char *region, size_t ps, uint32_t batch)
{
	struct replay rp = { 0 };
	struct replay_pass pass = { 0 };
	struct replay_cfg cfg = { .verify = true, .salt = 77, .slow_ns = 1000000, .max_slow = 10, .batch = batch };
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
	      "batch %u: a read replay reports every bad read, first at reference %llu", batch,
	      (unsigned long long)first);
	CHECK_EQ_U(rp.refs, 2 * REFS, "two passes replay twice the references");
	CHECK_EQ_U(rp.ticks_hist->count, 2 * REFS, "batch %u: two passes count every reference", batch);
	free(replay_finish(&rp));
	replay_free(&rp);
}

int main(void)
{
	size_t ps = vmr_page_size();
	uint32_t *refs = malloc(REFS * 4);
	struct refs_params p = { 0 };
	refs_params_default(&p);
	refs_generate(refs, PAGES, REFS, REFS_RANDOM, &p, 1);
	char *region = mmap(NULL, (PAGES + 1) * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(region != MAP_FAILED, "map a region");
	write_fresh(refs, region, ps, 1);
	uint32_t bad_page;
	uint64_t found;
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, REPLAY_TAIL_ZERO, &bad_page, &found), 0,
		   "every written page holds its pattern");
	munmap(region, (PAGES + 1) * ps);
	region = mmap(NULL, (PAGES + 1) * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(region != MAP_FAILED, "map a fresh region");
	write_fresh(refs, region, ps, 32);
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, REPLAY_TAIL_ZERO, &bad_page, &found), 0,
		   "every page written in batches holds its pattern");
	{
		/* a second pass writes a word of its own: a page still holding the
		 * first pass's word is stale */
		struct replay_cfg cfg = { .write = true, .salt = 77, .slow_ns = 1, .max_slow = 200, .batch = 32 };
		struct replay rp = { 0 };
		struct replay_pass pass = { 0 };
		replay_init(&rp, PAGES, &cfg);
		replay_run_pass(&rp, refs, REFS, region, ps, 1, &pass);
		replay_free(&rp);
		CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, replay_pass_salt(&cfg, 1), REPLAY_TAIL_ZERO,
					 &bad_page, &found), 0, "pass 1 of a write replay stores its own words");
		*(uint64_t *)(region + 7 * ps) = replay_word(7, replay_pass_salt(&cfg, 0));
		CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, replay_pass_salt(&cfg, 1), REPLAY_TAIL_ZERO,
					 &bad_page, &found), 1, "a page left with pass 0's word fails after pass 1");
		CHECK(bad_page == 7, "and is named");
		CHECK(replay_pass_salt(&(struct replay_cfg){ .salt = 5 }, 3) == 5, "a read replay's salt is the fill's");
	}
	resident(region, ps, 1);
	resident(region, ps, 32);
	resident(region, ps, 4096);
	resident_adaptive(region, ps);
	dropped_page(region, ps, 1, 1);
	dropped_page(region, ps, 32, 32);
	dropped_page(region, ps, 32, 1024);
	replay_fill(region, PAGES, ps, 77);

	/* a damaged page is caught by the verification and by a read replay */
	*(uint64_t *)(region + 5 * ps) ^= 1;
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, REPLAY_TAIL_COMPLEMENT, &bad_page, &found), 1,
		   "verify finds the damage");
	CHECK(bad_page == 5 && found == (replay_word(5, 77) ^ 1), "verify names the page and what it held");
	*(uint64_t *)(region + 5 * ps) ^= 1;
	/* a torn page: the first word is right, the complement is not */
	((uint64_t *)(region + 6 * ps))[ps / 8 - 1] ^= 1;
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, REPLAY_TAIL_COMPLEMENT, &bad_page, &found), 1,
		   "verify finds a page whose last word lost its complement");
	CHECK(bad_page == 6 && found == (~replay_word(6, 77) ^ 1), "and names it with the last word it held");
	CHECK_EQ_U(replay_verify(refs, REFS, PAGES, region, ps, 77, REPLAY_TAIL_ZERO, &bad_page, &found), PAGES,
		   "a filled page is not what a write replay over fresh memory leaves");
	((uint64_t *)(region + 6 * ps))[ps / 8 - 1] ^= 1;
	*(uint64_t *)(region + 5 * ps) ^= 1;
	read_damaged(refs, region, ps, 1);
	read_damaged(refs, region, ps, 32);

	replay_fill(region, PAGES, ps, 9);
	uint64_t sum = replay_bare(refs, REFS, region, ps, false, 9), want = 0;
	for (int i = 0; i < REFS; i++)
		want += replay_word(refs[i], 9);
	CHECK_EQ_U(sum, want, "the bare loop reads the same words");
	munmap(region, (PAGES + 1) * ps);
	free(refs);
	T_DONE();
}
