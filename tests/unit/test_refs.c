/* Reference traces: the generator is specified (same seed, same bytes on
 * every machine), every pattern stays in its region and has the shape its
 * formula says, shuffling keeps the multiset, and the deterministic math
 * agrees with libm. */
#include <stdlib.h>
#include <zlib.h>

#include "core/util.h"
#include "refs/dmath.h"
#include "refs/gen.h"
#include "refs/prng.h"
#include "t.h"

#define PAGES 1000
#define REFS 200000

static uint32_t *gen(enum refs_pattern pat, const struct refs_params *p, uint64_t pages, uint64_t n,
		     uint64_t seed)
{
	uint32_t *v = malloc(n * sizeof(*v));
	refs_generate(v, pages, n, pat, p, seed);
	return v;
}

static uint32_t crc_of(const uint32_t *v, uint64_t n)
{
	return (uint32_t)crc32(0, (const unsigned char *)v, (uInt)(n * 4));
}

static int all_below(const uint32_t *v, uint64_t n, uint64_t pages)
{
	for (uint64_t i = 0; i < n; i++)
		if (v[i] >= pages)
			return 0;
	return 1;
}

static void test_prng(void)
{
	/* splitmix64's published first output from state 0. */
	uint64_t x = 0;
	CHECK_EQ_U(prng_splitmix64(&x), 0xe220a8397b1dcdafull, "splitmix64 from 0 gives its reference value");
	struct prng a = { 0 }, b = { 0 };
	prng_seed(&a, 42);
	prng_seed(&b, 42);
	int same = 1;
	for (int i = 0; i < 1000; i++)
		same &= prng_next(&a) == prng_next(&b);
	CHECK(same, "the same seed gives the same stream");
	int below = 1;
	for (int i = 0; i < 100000; i++)
		below &= prng_below(&a, 7) < 7 && prng_below_exact(&a, 3) < 3;
	CHECK(below, "bounded draws stay below their bound");
	double lo = 1, hi = 0;
	for (int i = 0; i < 100000; i++) {
		double d = prng_double(&a);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	CHECK(lo >= 0 && lo < 0.001 && hi < 1 && hi > 0.999, "doubles cover [0, 1)");
}

static void test_dmath(void)
{
	double worst = 0;
	for (double x = -700; x < 700; x += 0.731) {
		double e = fabs(dm_exp(x) - exp(x)) / exp(x);
		worst = e > worst ? e : worst;
	}
	CHECK(worst < 1e-14, "dm_exp agrees with libm (worst relative error %.3g)", worst);
	worst = 0;
	for (double x = 1e-300; x < 1e300; x *= 3.7) {
		double e = fabs(dm_log(x) - log(x)) / fmax(1, fabs(log(x)));
		worst = e > worst ? e : worst;
	}
	CHECK(worst < 1e-14, "dm_log agrees with libm (worst error %.3g)", worst);
	worst = 0;
	for (double x = -0.9; x < 3; x += 0.0137) {
		double e1 = fabs(dm_log1p(x) - log1p(x)) / fmax(1e-300, fabs(log1p(x)));
		double e2 = fabs(dm_expm1(x) - expm1(x)) / fmax(1e-300, fabs(expm1(x)));
		worst = fmax(worst, fmax(e1, e2));
	}
	CHECK(worst < 1e-13, "dm_log1p and dm_expm1 agree with libm (worst %.3g)", worst);
	CHECK(fabs(dm_log1p(1e-12) - log1p(1e-12)) < 1e-27, "dm_log1p keeps tiny arguments");
	worst = 0;
	for (unsigned k = 0; k <= 4096; k++)
		worst = fmax(worst, fabs(dm_sin_turn(k, 4096) - sin(2 * M_PI * k / 4096)));
	CHECK(worst < 1e-15, "dm_sin_turn agrees with libm (worst %.3g)", worst);
	CHECK(dm_sin_turn(1024, 4096) == 1.0 && dm_sin_turn(3072, 4096) == -1.0 && dm_sin_turn(2048, 4096) == 0,
	      "dm_sin_turn is exact at quarter turns");
}

/* Golden CRC-32s of each pattern's bytes for fixed parameters.  They pin
 * the specification: a change of generator, formula or arithmetic shows up
 * here, and the same values must come out on every machine. */
static const struct {
	enum refs_pattern pat;
	uint32_t crc;
} golden[] = {
	{ REFS_LINEAR, 0x408595d6 }, { REFS_RANDOM, 0x805c01dc }, { REFS_SMOOTH_SIN, 0x3ef51ba4 },
	{ REFS_ZIPF, 0x8f42465e }, { REFS_HOTCOLD, 0x4e25111f }, { REFS_GAUSS, 0x1d86f25b },
	{ REFS_SAWTOOTH, 0x77cf5998 }, { REFS_PHASES, 0x40968c6f },
};

static void test_determinism(void)
{
	struct refs_params p = { 0 };
	refs_params_default(&p);
	p.phases = "linear:1,zipf:2,gauss:1";
	for (size_t i = 0; i < ARRAY_SIZE(golden); i++) {
		enum refs_pattern pat = golden[i].pat;
		const char *name = refs_pattern_name(pat);
		uint32_t *a = gen(pat, &p, PAGES, REFS, 7), *b = gen(pat, &p, PAGES, REFS, 7);
		uint32_t *c = gen(pat, &p, PAGES, REFS, 8);
		CHECK(!memcmp(a, b, REFS * 4), "%s: the same seed gives identical bytes", name);
		CHECK(pat == REFS_LINEAR || memcmp(a, c, REFS * 4), "%s: another seed gives another trace", name);
		CHECK(all_below(a, REFS, PAGES), "%s: every page is inside the region", name);
		uint32_t crc = crc_of(a, REFS);
		if (getenv("VMR_PRINT_GOLDEN"))
			printf("# %s 0x%08x\n", name, crc);
		CHECK(crc == golden[i].crc, "%s: bytes match the specification (crc 0x%08x)", name, crc);
		free(a);
		free(b);
		free(c);
	}
}

static void test_shapes(void)
{
	struct refs_params p = { 0 };
	refs_params_default(&p);
	uint32_t *v = gen(REFS_LINEAR, &p, PAGES, REFS, 1);
	int ok = 1;
	for (uint64_t i = 0; i < REFS; i++)
		ok &= v[i] == i % PAGES;
	CHECK(ok, "linear: page = i mod N");
	free(v);

	p.noise = 0;
	v = gen(REFS_SMOOTH_SIN, &p, PAGES, REFS, 1);
	double worst = 0;
	for (uint64_t i = 0; i < REFS; i++) {
		double c = (PAGES - 1) / 2.0 * (1 + sin(2 * M_PI * p.cycles * (double)i / REFS));
		worst = fmax(worst, fabs(v[i] - c));
	}
	CHECK(worst <= 0.51, "smooth_sin without noise follows the sine (worst %.3f pages)", worst);
	free(v);
	p.noise = 0.02;
	v = gen(REFS_SMOOTH_SIN, &p, PAGES, REFS, 1);
	worst = 0;
	for (uint64_t i = 0; i < REFS; i++) {
		double c = (PAGES - 1) / 2.0 * (1 + sin(2 * M_PI * p.cycles * (double)i / REFS));
		worst = fmax(worst, fabs(v[i] - c));
	}
	CHECK(worst <= 0.02 * PAGES + 0.51 && worst > 0.015 * PAGES, "smooth_sin noise stays within +-noise*N (%.1f)",
	      worst);
	free(v);

	uint64_t hot = 0;
	v = gen(REFS_HOTCOLD, &p, PAGES, REFS, 1);
	for (uint64_t i = 0; i < REFS; i++)
		hot += v[i] < 100;
	CHECK_NEAR((double)hot / REFS, 0.9, 0.005, "hotcold: 90%% of references go to the hot 10%%");
	free(v);

	uint64_t *count = calloc(PAGES, sizeof(*count));
	v = gen(REFS_ZIPF, &p, PAGES, REFS, 1);
	for (uint64_t i = 0; i < REFS; i++)
		count[v[i]]++;
	double h = 0;
	for (int k = 1; k <= PAGES; k++)
		h += 1.0 / k;
	CHECK_NEAR((double)count[0] / REFS, 1 / h, 0.004, "zipf alpha=1: page 0 gets 1/H_N of the references");
	CHECK_NEAR((double)count[9] / REFS, 0.1 / h, 0.002, "zipf alpha=1: page 9 gets 1/(10 H_N)");
	free(v);
	free(count);

	p.cycles = 1;
	v = gen(REFS_GAUSS, &p, PAGES, REFS, 1);
	double s2 = 0;
	for (uint64_t i = 0; i < REFS; i++) {
		double c = floor((double)i / REFS * PAGES), d = v[i] - c;
		d = d > PAGES / 2 ? d - PAGES : d < -PAGES / 2 ? d + PAGES : d;
		s2 += d * d;
	}
	CHECK_NEAR(sqrt(s2 / REFS), 0.05 * PAGES, 1.0, "gauss: the window's spread is sigma*N");
	free(v);

	p.noise = 0;
	p.cycles = 4;
	v = gen(REFS_SAWTOOTH, &p, PAGES, REFS, 1);
	CHECK(v[0] == 0 && v[REFS / 4 - 1] >= PAGES - 2 && v[REFS / 4 + 1] <= 1, "sawtooth: ramps and drops");
	free(v);

	p.phases = "linear:1,random:3";
	v = gen(REFS_PHASES, &p, PAGES, 1000, 1);
	ok = 1;
	for (int i = 0; i < 250; i++)
		ok &= v[i] == (uint32_t)i % PAGES;
	CHECK(ok && v[250] != 250, "phases: the first quarter is linear, then random");
	free(v);

	v = gen(REFS_RANDOM, &p, 1, 100, 1);
	CHECK(all_below(v, 100, 1), "a one-page region only references page 0");
	free(v);
}

static void test_shuffle(void)
{
	struct refs_params p = { 0 };
	refs_params_default(&p);
	uint32_t *a = gen(REFS_ZIPF, &p, PAGES, REFS, 3);
	uint32_t *b = malloc(REFS * 4);
	memcpy(b, a, REFS * 4);
	refs_shuffle(b, REFS, 9);
	uint64_t *ca = calloc(PAGES, 8), *cb = calloc(PAGES, 8);
	for (uint64_t i = 0; i < REFS; i++) {
		ca[a[i]]++;
		cb[b[i]]++;
	}
	CHECK(!memcmp(ca, cb, PAGES * 8), "shuffle keeps the multiset");
	CHECK(memcmp(a, b, REFS * 4), "shuffle changes the order");
	uint32_t *c = malloc(REFS * 4);
	memcpy(c, a, REFS * 4);
	refs_shuffle(c, REFS, 9);
	CHECK(!memcmp(b, c, REFS * 4), "shuffle with the same seed gives the same order");
	free(a);
	free(b);
	free(c);
	free(ca);
	free(cb);
}

static void test_check(void)
{
	struct refs_params p = { 0 };
	char err[200] = "";
	refs_params_default(&p);
	p.alpha = 0;
	CHECK(refs_gen_check(REFS_ZIPF, &p, err, sizeof(err)) < 0 && strstr(err, "--alpha"), "zipf refuses alpha 0");
	refs_params_default(&p);
	p.phases = "linear:1,bogus:2";
	CHECK(refs_gen_check(REFS_PHASES, &p, err, sizeof(err)) < 0 && strstr(err, "'bogus'"),
	      "phases names an unknown pattern");
	p.phases = "linear:-1";
	CHECK(refs_gen_check(REFS_PHASES, &p, err, sizeof(err)) < 0, "phases refuses a negative share");
	p.phases = "linear,zipf:2";
	CHECK(refs_gen_check(REFS_PHASES, &p, err, sizeof(err)) == 0, "a phase without a share counts 1");
	char d[256];
	p.alpha = 1.2;
	p.phases = "zipf:1,smooth_sin:1";
	refs_gen_describe(REFS_PHASES, &p, d, sizeof(d));
	CHECK_STR(d, "pattern=phases phases=zipf:1,smooth_sin:1 alpha=1.2 cycles=4 noise=0.02",
		  "the description names exactly the parameters used");
}

int main(void)
{
	test_prng();
	test_dmath();
	test_determinism();
	test_shapes();
	test_shuffle();
	test_check();
	T_DONE();
}
