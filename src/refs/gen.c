#include "refs/gen.h"

#include <endian.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "refs/dmath.h"
#include "refs/prng.h"

#define SIN_BITS 12
#define SIN_N (1u << SIN_BITS)
#define MAX_PHASES 64

static const char *const pattern_names[REFS_NPATTERNS] = {
	"linear", "random", "smooth_sin", "zipf", "hotcold", "gauss", "sawtooth", "phases",
};

void refs_params_default(struct refs_params *p)
{
	*p = (struct refs_params){ .alpha = 1.0, .hot_fraction = 0.1, .hot_probability = 0.9,
				   .sigma = 0.05, .cycles = 4.0, .noise = 0.02 };
}

const char *refs_pattern_name(enum refs_pattern p)
{
	return (unsigned)p < REFS_NPATTERNS ? pattern_names[p] : "?";
}

int refs_pattern_parse(const char *name, enum refs_pattern *p)
{
	for (int i = 0; i < REFS_NPATTERNS; i++)
		if (!strcmp(name, pattern_names[i])) {
			*p = (enum refs_pattern)i;
			return 0;
		}
	return -1;
}

struct phase {
	enum refs_pattern pat;
	double share;
};

static int gen_parse_phases(const char *spec, struct phase *ph, size_t *n, char *err, size_t errlen)
{
	*n = 0;
	if (!spec || !*spec) {
		snprintf(err, errlen, "--phases: needed with --pattern phases (e.g. linear:1,random:1)");
		return -1;
	}
	const char *s = spec;
	while (*s) {
		size_t len = strcspn(s, ",");
		char item[64];
		if (len >= sizeof(item) || *n >= MAX_PHASES) {
			snprintf(err, errlen, "--phases: '%s' has too long an item or more than %d phases", spec,
				 MAX_PHASES);
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		char *colon = strchr(item, ':'), *end;
		double share = 1.0;
		if (colon) {
			*colon = '\0';
			share = strtod(colon + 1, &end);
			if (end == colon + 1 || *end || !(share > 0) || !isfinite(share)) {
				snprintf(err, errlen, "--phases: '%s': share '%s' is not a positive number", spec, colon + 1);
				return -1;
			}
		}
		enum refs_pattern pat;
		if (refs_pattern_parse(item, &pat) < 0 || pat == REFS_PHASES) {
			snprintf(err, errlen, "--phases: '%s': '%s' is not a pattern (one of %s, but not phases)", spec,
				 item, REFS_PATTERN_CHOICES);
			return -1;
		}
		ph[(*n)++] = (struct phase){ pat, share };
		s += len;
		if (*s == ',')
			s++;
	}
	if (!*n) {
		snprintf(err, errlen, "--phases: '%s' names no phase", spec);
		return -1;
	}
	return 0;
}

static int gen_check_one(enum refs_pattern pat, const struct refs_params *p, char *err, size_t errlen)
{
	const char *bad = NULL;
	switch (pat) {
	case REFS_ZIPF:
		if (!(p->alpha > 0 && p->alpha <= 100))
			bad = "--alpha: must be above 0 and at most 100";
		break;
	case REFS_HOTCOLD:
		if (!(p->hot_fraction > 0 && p->hot_fraction <= 1))
			bad = "--hot-fraction: must be above 0 and at most 1";
		else if (!(p->hot_probability >= 0 && p->hot_probability <= 1))
			bad = "--hot-probability: must be from 0 to 1";
		break;
	case REFS_GAUSS:
		if (!(p->sigma > 0 && p->sigma <= 10))
			bad = "--sigma: must be above 0 and at most 10";
		/* fall through */
	case REFS_SMOOTH_SIN:
	case REFS_SAWTOOTH:
		if (!(p->cycles >= 0 && p->cycles <= 1e9))
			bad = "--cycles: must be from 0 to 1e9";
		else if (pat != REFS_GAUSS && !(p->noise >= 0 && p->noise <= 1))
			bad = "--noise: must be from 0 to 1";
		break;
	default:
		break;
	}
	if (bad) {
		snprintf(err, errlen, "%s", bad);
		return -1;
	}
	return 0;
}

int refs_gen_check(enum refs_pattern pat, const struct refs_params *p, char *err, size_t errlen)
{
	if ((unsigned)pat >= REFS_NPATTERNS) {
		snprintf(err, errlen, "unknown pattern");
		return -1;
	}
	if (pat != REFS_PHASES)
		return gen_check_one(pat, p, err, errlen);
	struct phase ph[MAX_PHASES] = { 0 };
	size_t n;
	if (gen_parse_phases(p->phases, ph, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (gen_check_one(ph[i].pat, p, err, errlen) < 0)
			return -1;
	return 0;
}

/* The shortest %g form that reads back as the same double. */
static void gen_fmt_double(char *buf, size_t len, double v)
{
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static void gen_describe_params(enum refs_pattern pat, const struct refs_params *p, unsigned *done,
				char *buf, size_t len)
{
	char a[40], b[40];
	size_t used = strlen(buf);
	unsigned want = 0;
	switch (pat) {
	case REFS_ZIPF: want = 1; break;
	case REFS_HOTCOLD: want = 2; break;
	case REFS_GAUSS: want = 4 | 8; break;
	case REFS_SMOOTH_SIN:
	case REFS_SAWTOOTH: want = 8 | 16; break;
	default: break;
	}
	want &= ~*done;
	*done |= want;
	if (want & 1) {
		gen_fmt_double(a, sizeof(a), p->alpha);
		used += (size_t)snprintf(buf + used, len - used, " alpha=%s", a);
	}
	if ((want & 2) && used < len) {
		gen_fmt_double(a, sizeof(a), p->hot_fraction);
		gen_fmt_double(b, sizeof(b), p->hot_probability);
		used += (size_t)snprintf(buf + used, len - used, " hot_fraction=%s hot_probability=%s", a, b);
	}
	if ((want & 4) && used < len) {
		gen_fmt_double(a, sizeof(a), p->sigma);
		used += (size_t)snprintf(buf + used, len - used, " sigma=%s", a);
	}
	if ((want & 8) && used < len) {
		gen_fmt_double(a, sizeof(a), p->cycles);
		used += (size_t)snprintf(buf + used, len - used, " cycles=%s", a);
	}
	if ((want & 16) && used < len) {
		gen_fmt_double(a, sizeof(a), p->noise);
		snprintf(buf + used, len - used, " noise=%s", a);
	}
}

void refs_gen_describe(enum refs_pattern pat, const struct refs_params *p, char *buf, size_t len)
{
	unsigned done = 0;
	snprintf(buf, len, "pattern=%s", refs_pattern_name(pat));
	if (pat != REFS_PHASES) {
		gen_describe_params(pat, p, &done, buf, len);
		return;
	}
	size_t used = strlen(buf);
	snprintf(buf + used, len - used, " phases=%s", p->phases ? p->phases : "");
	struct phase ph[MAX_PHASES] = { 0 };
	size_t n;
	char err[200] = "";
	if (gen_parse_phases(p->phases, ph, &n, err, sizeof(err)) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		gen_describe_params(ph[i].pat, p, &done, buf, len);
}

/* ---- the patterns ---- */

struct gen {
	struct prng rng;
	uint64_t pages;
	const struct refs_params *p;
	double sin_table[SIN_N + 1];
	int have_sin;
};

static uint32_t gen_reflect(double x, double hi)
{
	if (x < 0)
		x = -x;
	if (x > hi)
		x = 2 * hi - x;
	if (x < 0)
		x = 0;
	return (uint32_t)(x + 0.5);
}

/* frac(cycles / n) as a 64-bit fixed-point step. */
static uint64_t gen_phase_step(double cycles, uint64_t n)
{
	double f = cycles / (double)n;
	f -= floor(f);
	return f < 1.0 ? (uint64_t)ldexp(f, 64) : 0;
}

static void gen_linear(struct gen *g, uint32_t *out, uint64_t n)
{
	uint64_t page = 0, pages = g->pages;
	for (uint64_t i = 0; i < n; i++) {
		out[i] = htole32((uint32_t)page);
		if (++page == pages)
			page = 0;
	}
}

static void gen_random(struct gen *g, uint32_t *out, uint64_t n)
{
	struct prng r = g->rng;
	uint64_t pages = g->pages;
	for (uint64_t i = 0; i < n; i++)
		out[i] = htole32((uint32_t)prng_below(&r, pages));
	g->rng = r;
}

static void gen_sin_table(struct gen *g)
{
	if (g->have_sin)
		return;
	for (unsigned k = 0; k <= SIN_N; k++)
		g->sin_table[k] = dm_sin_turn(k, SIN_N);
	g->have_sin = 1;
}

static void gen_smooth_sin(struct gen *g, uint32_t *out, uint64_t n)
{
	gen_sin_table(g);
	struct prng r = g->rng;
	const double *t = g->sin_table;
	double hi = (double)(g->pages - 1), half = hi / 2.0, w = g->p->noise * (double)g->pages;
	uint64_t phase = 0, step = gen_phase_step(g->p->cycles, n);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t idx = phase >> (64 - SIN_BITS);
		double fr = (double)((phase >> (32 - SIN_BITS)) & 0xffffffffu) * 0x1.0p-32;
		double s = t[idx] + (t[idx + 1] - t[idx]) * fr;
		double x = half * (1.0 + s) + (2.0 * prng_double(&r) - 1.0) * w;
		out[i] = htole32(gen_reflect(x, hi));
		phase += step;
	}
	g->rng = r;
}

static void gen_sawtooth(struct gen *g, uint32_t *out, uint64_t n)
{
	struct prng r = g->rng;
	double hi = (double)(g->pages - 1), w = g->p->noise * (double)g->pages;
	uint64_t phase = 0, step = gen_phase_step(g->p->cycles, n), pages = g->pages;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t base = ((phase >> 32) * pages) >> 32;
		if (w > 0)
			out[i] = htole32(gen_reflect((double)base + (2.0 * prng_double(&r) - 1.0) * w, hi));
		else
			out[i] = htole32((uint32_t)base);
		phase += step;
	}
	g->rng = r;
}

static void gen_hotcold(struct gen *g, uint32_t *out, uint64_t n)
{
	struct prng r = g->rng;
	uint64_t pages = g->pages;
	uint64_t hot = (uint64_t)floor(g->p->hot_fraction * (double)pages + 0.5);
	hot = hot < 1 ? 1 : hot > pages ? pages : hot;
	uint64_t thr = (uint64_t)ldexp(g->p->hot_probability, 53), cold = pages - hot;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t page;
		if ((prng_next(&r) >> 11) < thr || !cold)
			page = prng_below(&r, hot);
		else
			page = hot + prng_below(&r, cold);
		out[i] = htole32((uint32_t)page);
	}
	g->rng = r;
}

static void gen_gauss(struct gen *g, uint32_t *out, uint64_t n)
{
	struct prng r = g->rng;
	uint64_t pages = g->pages, phase = 0, step = gen_phase_step(g->p->cycles, n);
	double sd = g->p->sigma * (double)pages, spare = 0;
	int have_spare = 0;
	for (uint64_t i = 0; i < n; i++) {
		double z;
		if (have_spare) {
			z = spare;
			have_spare = 0;
		} else {
			double u, v, s;
			do {
				u = 2.0 * prng_double(&r) - 1.0;
				v = 2.0 * prng_double(&r) - 1.0;
				s = u * u + v * v;
			} while (s >= 1.0 || s == 0.0);
			double f = sqrt(-2.0 * dm_log(s) / s);
			z = u * f;
			spare = v * f;
			have_spare = 1;
		}
		double c = (double)(((phase >> 32) * pages) >> 32);
		int64_t k = (int64_t)floor(c + sd * z + 0.5) % (int64_t)pages;
		out[i] = htole32((uint32_t)(k < 0 ? k + (int64_t)pages : k));
		phase += step;
	}
	g->rng = r;
}

/* Rejection-inversion sampling of Zipf (Hormann and Derflinger 1996), in
 * the form of Apache Commons RNG's RejectionInversionZipfSampler. */
struct zipf {
	double a, n, hx1, hn, s;
};

static double zipf_helper1(double x)
{
	return fabs(x) > 1e-8 ? dm_log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

static double zipf_helper2(double x)
{
	return fabs(x) > 1e-8 ? dm_expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

static double zipf_h(const struct zipf *z, double x)
{
	return dm_exp(-z->a * dm_log(x));
}

static double zipf_hint(const struct zipf *z, double x)
{
	double lx = dm_log(x);
	return zipf_helper2((1.0 - z->a) * lx) * lx;
}

static double zipf_hint_inv(const struct zipf *z, double x)
{
	double t = x * (1.0 - z->a);
	if (t < -1.0)
		t = -1.0;
	return dm_exp(zipf_helper1(t) * x);
}

static void gen_zipf(struct gen *g, uint32_t *out, uint64_t n)
{
	struct zipf z = { .a = g->p->alpha, .n = (double)g->pages };
	z.hx1 = zipf_hint(&z, 1.5) - 1.0;
	z.hn = zipf_hint(&z, z.n + 0.5);
	z.s = 2.0 - zipf_hint_inv(&z, zipf_hint(&z, 2.5) - zipf_h(&z, 2.0));
	struct prng r = g->rng;
	for (uint64_t i = 0; i < n; i++) {
		double k;
		for (;;) {
			double u = z.hn + prng_double(&r) * (z.hx1 - z.hn);
			double x = zipf_hint_inv(&z, u);
			k = floor(x + 0.5);
			k = k < 1.0 ? 1.0 : k > z.n ? z.n : k;
			if (k - x <= z.s || u >= zipf_hint(&z, k + 0.5) - zipf_h(&z, k))
				break;
		}
		out[i] = htole32((uint32_t)(k - 1.0));
	}
	g->rng = r;
}

static void gen_one(struct gen *g, enum refs_pattern pat, uint32_t *out, uint64_t n)
{
	if (!n)
		return;
	switch (pat) {
	case REFS_LINEAR: gen_linear(g, out, n); break;
	case REFS_RANDOM: gen_random(g, out, n); break;
	case REFS_SMOOTH_SIN: gen_smooth_sin(g, out, n); break;
	case REFS_ZIPF: gen_zipf(g, out, n); break;
	case REFS_HOTCOLD: gen_hotcold(g, out, n); break;
	case REFS_GAUSS: gen_gauss(g, out, n); break;
	case REFS_SAWTOOTH: gen_sawtooth(g, out, n); break;
	default: abort();
	}
}

static void gen_phases(struct gen *g, uint32_t *out, uint64_t n)
{
	struct phase ph[MAX_PHASES] = { 0 };
	size_t np;
	char err[200] = "";
	if (gen_parse_phases(g->p->phases, ph, &np, err, sizeof(err)) < 0)
		abort(); /* refs_gen_check passed: cannot happen */
	double total = 0, run = 0;
	for (size_t i = 0; i < np; i++)
		total += ph[i].share;
	uint64_t start = 0;
	for (size_t i = 0; i < np; i++) {
		run += ph[i].share;
		uint64_t end = i + 1 == np ? n : (uint64_t)floor((double)n * run / total + 0.5);
		end = end > n ? n : end < start ? start : end;
		gen_one(g, ph[i].pat, out + start, end - start);
		start = end;
	}
}

void refs_generate(uint32_t *out, uint64_t pages, uint64_t refs, enum refs_pattern pat,
		   const struct refs_params *p, uint64_t seed)
{
	struct gen *g = xcalloc(1, sizeof(*g));
	prng_seed(&g->rng, seed);
	g->pages = pages;
	g->p = p;
	if (pat == REFS_PHASES)
		gen_phases(g, out, refs);
	else
		gen_one(g, pat, out, refs);
	free(g);
}

void refs_shuffle(uint32_t *v, uint64_t n, uint64_t seed)
{
	struct prng r = { 0 };
	prng_seed(&r, seed);
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = prng_below_exact(&r, i);
		uint32_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}
