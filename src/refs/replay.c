#include "refs/replay.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/util.h"
#include "refs/trace.h"

static unsigned replay_shift(size_t page_size)
{
	return (unsigned)__builtin_ctzll(page_size);
}

static void replay_calibrate(struct replay *rp)
{
	uint64_t n0 = vmr_now_ns(), t0 = replay_ticks(), n1, t1;
	do {
		n1 = vmr_now_ns();
		t1 = replay_ticks();
	} while (n1 - n0 < 2000000);
	double ns_per_tick = t1 > t0 ? (double)(n1 - n0) / (double)(t1 - t0) : 1.0;
	rp->ns_per_tick = ns_per_tick;
	rp->slow_ticks = (uint64_t)((double)rp->cfg.slow_ns / ns_per_tick);
	uint64_t acc = 0, c0 = vmr_now_ns();
	for (int i = 0; i < 1000; i++)
		acc += replay_ticks();
	__asm__ volatile("" : : "r"(acc)); /* keep the reads */
	rp->timer_cost_ns = (double)(vmr_now_ns() - c0) / 1000.0;
	if (!rp->slow_ticks)
		rp->slow_ticks = 1;
}

void replay_init(struct replay *rp, uint64_t pages, const struct replay_cfg *cfg)
{
	memset(rp, 0, sizeof(*rp));
	rp->cfg = *cfg;
	if (!rp->cfg.batch)
		rp->cfg.batch = 1;
	if (rp->cfg.batch_max < rp->cfg.batch)
		rp->cfg.batch_max = rp->cfg.batch;
	rp->pages = pages;
	rp->ticks_hist = hist_new();
	rp->page_minflt = xcalloc(pages, sizeof(*rp->page_minflt));
	rp->page_majflt = xcalloc(pages, sizeof(*rp->page_majflt));
	replay_calibrate(rp);
}

void replay_free(struct replay *rp)
{
	free(rp->ticks_hist);
	free(rp->page_minflt);
	free(rp->page_majflt);
	free(rp->slow);
	memset(rp, 0, sizeof(*rp));
}

void replay_fill(char *region, uint64_t pages, size_t page_size, uint64_t salt)
{
	for (uint64_t p = 0; p < pages; p++) {
		volatile uint64_t *w = (volatile uint64_t *)(region + p * page_size);
		uint64_t v = replay_word((uint32_t)p, salt);
		w[0] = v;
		w[page_size / 8 - 1] = ~v;
	}
}

static void replay_rusage(uint64_t *minflt, uint64_t *majflt)
{
	struct rusage ru = { 0 };
	getrusage(RUSAGE_THREAD, &ru);
	*minflt = (uint64_t)ru.ru_minflt;
	*majflt = (uint64_t)ru.ru_majflt;
}

/* A slow access (or batch of nrefs references from ref): keep it, and count
 * the faults since the last one against its (first) page. */
static __attribute__((noinline, cold)) void replay_slow_hit(struct replay *rp, uint64_t ref, uint32_t page,
							      uint32_t nrefs, uint64_t ticks, struct replay_pass *pass)
{
	uint64_t mi, ma;
	replay_rusage(&mi, &ma);
	uint64_t dmi = mi - rp->last_minflt, dma = ma - rp->last_majflt;
	rp->last_minflt = mi;
	rp->last_majflt = ma;
	rp->page_minflt[page] += (uint32_t)dmi;
	rp->page_majflt[page] += (uint32_t)dma;
	pass->slow++;
	if (rp->nslow >= rp->cfg.max_slow) {
		rp->slow_dropped++;
		return;
	}
	if (rp->nslow == rp->slow_cap) {
		rp->slow_cap = rp->slow_cap ? rp->slow_cap * 2 : 256;
		rp->slow = xrealloc(rp->slow, rp->slow_cap * sizeof(*rp->slow));
	}
	rp->slow[rp->nslow++] = (struct replay_slow){ ref, page, nrefs, ticks, (uint32_t)dmi, (uint32_t)dma };
}

static __attribute__((noinline, cold)) void replay_bad(struct replay *rp, uint64_t ref, uint32_t page, uint64_t v)
{
	if (!rp->bad++) {
		rp->bad_ref = ref;
		rp->bad_page = page;
		rp->bad_found = v;
	}
}

/* A batch of reads (k references from i0) held a word other than its
 * pattern: read the batch again, outside its timing, to report each bad
 * read as the per-reference check would. */
static __attribute__((noinline, cold)) void replay_bad_batch(struct replay *rp, const uint32_t *refs, uint64_t i0,
							       uint64_t k, const char *region, unsigned shift,
							       uint64_t base)
{
	for (uint64_t i = i0; i < i0 + k; i++) {
		uint32_t p = refs_at(refs, i);
		uint64_t v = *(const volatile uint64_t *)(region + ((size_t)p << shift));
		if (v != replay_word(p, rp->cfg.salt))
			replay_bad(rp, base + i, p, v);
	}
}

/* n samples of v in h's buckets, min and max (the caller adds count and
 * sum, which it keeps exact). */
static inline void replay_hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	h->b[hist_index(v)] += n;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
}

/* A batch of n references at least slow_ticks long, d ticks, with avg the
 * running average ticks of a resident access: one sample of the batch's
 * time less n-1 average accesses, clamped at 0, and n-1 of the average. */
static __attribute__((noinline, cold)) void replay_slow_batch(struct replay *rp, uint64_t ref, uint32_t page,
								uint64_t n, uint64_t d, uint64_t avg,
								struct replay_pass *pass)
{
	uint64_t rest = (n - 1) * avg;
	replay_hist_add_n(rp->ticks_hist, d > rest ? d - rest : 0, 1);
	if (n > 1)
		replay_hist_add_n(rp->ticks_hist, avg, n - 1);
	replay_slow_hit(rp, ref, page, (uint32_t)n, d, pass);
}

/* The measured loops.  The histogram's count, sum, min and max are kept in
 * registers and merged after the loop; only the bucket is stored per
 * reference. */
#define REPLAY_LOOP(ACCESS)                                                              \
	do {                                                                             \
		uint64_t prev = replay_ticks(), sum = 0, mn = UINT64_MAX, mx = 0;        \
		for (uint64_t i = 0; i < n; i++) {                                       \
			uint32_t p = refs_at(refs, i);                                   \
			volatile uint64_t *w = (volatile uint64_t *)(region + ((size_t)p << shift)); \
			uint64_t want = replay_word(p, salt);                            \
			ACCESS;                                                          \
			uint64_t now = replay_ticks(), d = now - prev;                   \
			prev = now;                                                      \
			b[hist_index(d)]++;                                              \
			sum += d;                                                        \
			mn = d < mn ? d : mn;                                            \
			mx = d > mx ? d : mx;                                            \
			if (__builtin_expect(d >= slow, 0)) {                            \
				replay_slow_hit(rp, base + i, p, 1, d, out);                \
				prev = replay_ticks();                                   \
			}                                                                \
		}                                                                        \
		h->count += n;                                                           \
		h->sum += sum;                                                           \
		h->min = mn < h->min ? mn : h->min;                                      \
		h->max = mx > h->max ? mx : h->max;                                      \
		rp->batches += n;                                                        \
	} while (0)

/* The same, one counter read per batch of references (replay.h says how a
 * batch's time is shared out and how batches grow).  The running average
 * resident access, from the quick batches, sets each batch's threshold. */
#define REPLAY_BATCH_LOOP(ACCESS, CHECK)                                                 \
	do {                                                                             \
		uint64_t prev = replay_ticks(), sum = 0, mn = UINT64_MAX, mx = 0;        \
		uint64_t nb = 0, batch = bmin, k;                                        \
		double avg = rp->res_avg;                                                \
		for (uint64_t i0 = 0; i0 < n; i0 += k) {                                 \
			uint64_t diff = 0;                                               \
			k = n - i0 < batch ? n - i0 : batch;                             \
			_Pragma("GCC unroll 4")                                          \
			for (uint64_t i = i0; i < i0 + k; i++) {                         \
				uint32_t p = refs_at(refs, i);                           \
				volatile uint64_t *w = (volatile uint64_t *)(region + ((size_t)p << shift)); \
				uint64_t want = replay_word(p, salt);                    \
				ACCESS;                                                  \
			}                                                                \
			uint64_t now = replay_ticks(), d = now - prev;                   \
			prev = now;                                                      \
			sum += d;                                                        \
			nb++;                                                            \
			uint64_t e = (uint64_t)((double)k * avg);                        \
			if (__builtin_expect(d < slow + e || d < 2 * e, 1)) {            \
				uint64_t a = d / k;                                      \
				b[hist_index(a)] += k;                                   \
				mn = a < mn ? a : mn;                                    \
				mx = a > mx ? a : mx;                                    \
				avg = avg ? (avg + (double)d / (double)k) * 0.5 : (double)d / (double)k; \
				batch = batch * 2 < bmax ? batch * 2 : bmax;             \
			} else {                                                         \
				replay_slow_batch(rp, base + i0, refs_at(refs, i0), k, d, (uint64_t)avg, out); \
				batch = bmin;                                            \
				prev = replay_ticks();                                   \
			}                                                                \
			CHECK;                                                           \
		}                                                                        \
		h->count += n;                                                           \
		h->sum += sum;                                                           \
		h->min = mn < h->min ? mn : h->min;                                      \
		h->max = mx > h->max ? mx : h->max;                                      \
		rp->batches += nb;                                                       \
		rp->res_avg = avg;                                                       \
	} while (0)

/* The loops are inlined into replay_loop with the shift of 4 KiB pages as a
 * constant (a shift by a register costs more), and with any other. */
static inline __attribute__((always_inline)) void replay_loop_read(struct replay *rp, const uint32_t *refs,
								   uint64_t n, char *region, unsigned shift,
								   uint64_t base, struct replay_pass *out)
{
	struct hist *h = rp->ticks_hist;
	uint64_t *b = h->b, salt = rp->cfg.salt, slow = rp->slow_ticks;
	uint64_t bmin = rp->cfg.batch, bmax = rp->cfg.batch_max;
	if (bmin == 1) {
		if (rp->cfg.verify)
			REPLAY_LOOP(uint64_t v = *w; if (__builtin_expect(v != want, 0)) replay_bad(rp, base + i, p, v));
		else
			REPLAY_LOOP((void)want; (void)*w);
	} else {
		if (rp->cfg.verify)
			REPLAY_BATCH_LOOP(diff |= *w ^ want, if (__builtin_expect(diff != 0, 0)) {
				replay_bad_batch(rp, refs, i0, k, region, shift, base);
				prev = replay_ticks();
			});
		else
			REPLAY_BATCH_LOOP((void)want; (void)*w, (void)diff);
	}
}

static inline __attribute__((always_inline)) void replay_loop_write(struct replay *rp, const uint32_t *refs,
								    uint64_t n, char *region, unsigned shift,
								    uint64_t base, unsigned pass,
								    struct replay_pass *out)
{
	struct hist *h = rp->ticks_hist;
	uint64_t *b = h->b, salt = replay_pass_salt(&rp->cfg, pass), slow = rp->slow_ticks;
	uint64_t bmin = rp->cfg.batch, bmax = rp->cfg.batch_max;
	if (bmin == 1)
		REPLAY_LOOP(*w = want);
	else
		REPLAY_BATCH_LOOP(*w = want, (void)diff);
}

static void replay_loop(struct replay *rp, const uint32_t *refs, uint64_t n, char *region, unsigned shift,
			uint64_t base, unsigned pass, struct replay_pass *out)
{
	if (shift == 12 && rp->cfg.write)
		replay_loop_write(rp, refs, n, region, 12, base, pass, out);
	else if (shift == 12)
		replay_loop_read(rp, refs, n, region, 12, base, out);
	else if (rp->cfg.write)
		replay_loop_write(rp, refs, n, region, shift, base, pass, out);
	else
		replay_loop_read(rp, refs, n, region, shift, base, out);
}

void replay_run_pass(struct replay *rp, const uint32_t *refs, uint64_t n, char *region, size_t page_size,
		     unsigned pass, struct replay_pass *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t mi0, ma0, mi1, ma1;
	replay_rusage(&mi0, &ma0);
	rp->last_minflt = mi0;
	rp->last_majflt = ma0;
	uint64_t ns0 = vmr_now_ns(), t0 = replay_ticks();
	if (!rp->refs) {
		rp->t0_ns = ns0;
		rp->t0_ticks = t0;
	}
	replay_loop(rp, refs, n, region, replay_shift(page_size), (uint64_t)pass * n, pass, out);
	uint64_t t1 = replay_ticks(), ns1 = vmr_now_ns();
	replay_rusage(&mi1, &ma1);
	out->ns = ns1 - ns0;
	out->minflt = mi1 - mi0;
	out->majflt = ma1 - ma0;
	rp->unattr_minflt += mi1 - rp->last_minflt;
	rp->unattr_majflt += ma1 - rp->last_majflt;
	rp->minflt += out->minflt;
	rp->majflt += out->majflt;
	rp->refs += n;
	rp->ns += out->ns;
	rp->ticks_total = t1 - rp->t0_ticks;
	if (ns1 > rp->t0_ns && rp->ticks_total)
		rp->ns_per_tick = (double)(ns1 - rp->t0_ns) / (double)rp->ticks_total;
}

struct hist *replay_finish(struct replay *rp)
{
	struct hist *out = hist_new(), *h = rp->ticks_hist;
	double k = rp->ns_per_tick;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		double mid = (double)hist_bucket_low(i) + (double)(hist_bucket_width(i) - 1) / 2.0;
		uint64_t v = (uint64_t)(mid * k + 0.5);
		out->b[hist_index(v)] += h->b[i];
	}
	out->count = h->count;
	out->sum = (uint64_t)((double)h->sum * k + 0.5);
	out->min = h->count ? (uint64_t)((double)h->min * k + 0.5) : UINT64_MAX;
	out->max = (uint64_t)((double)h->max * k + 0.5);
	for (size_t i = 0; i < rp->nslow; i++)
		rp->slow[i].ticks = (uint64_t)((double)rp->slow[i].ticks * k + 0.5);
	return out;
}

uint64_t replay_verify(const uint32_t *refs, uint64_t n, uint64_t pages, const char *region, size_t page_size,
		       uint64_t salt, enum replay_tail tail, uint32_t *bad_page, uint64_t *found)
{
	uint8_t *seen = xcalloc(pages, 1);
	uint64_t bad = 0;
	for (uint64_t i = 0; i < n; i++)
		seen[refs_at(refs, i)] = 1;
	for (uint64_t p = 0; p < pages; p++) {
		if (!seen[p])
			continue;
		const volatile uint64_t *w = (const volatile uint64_t *)(region + p * page_size);
		uint64_t v = w[0], last = w[page_size / 8 - 1], want = replay_word((uint32_t)p, salt);
		bool ok = v == want && last == (tail == REPLAY_TAIL_COMPLEMENT ? ~want : 0);
		if (!ok && !bad++) {
			*bad_page = (uint32_t)p;
			*found = v == want ? last : v;
		}
	}
	free(seen);
	return bad;
}

static inline __attribute__((always_inline)) uint64_t replay_bare_loop(const uint32_t *refs, uint64_t n,
									 char *region, unsigned shift, bool write,
									 uint64_t salt)
{
	uint64_t acc = 0;
	if (write) {
		for (uint64_t i = 0; i < n; i++) {
			uint32_t p = refs_at(refs, i);
			*(volatile uint64_t *)(region + ((size_t)p << shift)) = replay_word(p, salt);
		}
		return n;
	}
	for (uint64_t i = 0; i < n; i++)
		acc += *(volatile uint64_t *)(region + ((size_t)refs_at(refs, i) << shift));
	return acc;
}

uint64_t replay_bare(const uint32_t *refs, uint64_t n, char *region, size_t page_size, bool write, uint64_t salt)
{
	unsigned shift = replay_shift(page_size);
	return shift == 12 ? replay_bare_loop(refs, n, region, 12, write, salt)
			   : replay_bare_loop(refs, n, region, shift, write, salt);
}
