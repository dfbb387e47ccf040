/* The pseudo-random generator of reference traces: xoshiro256** (Blackman
 * and Vigna, 2018), seeded by expanding a 64-bit seed with splitmix64.
 * Both are specified bit for bit by their authors, use only 64-bit integer
 * arithmetic, and so give the same stream on every machine: a trace
 * generated with --seed S is byte-identical everywhere.
 *
 *   splitmix64: z = (x += 0x9e3779b97f4a7c15);
 *               z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
 *               z = (z ^ (z >> 27)) * 0x94d049bb133111eb;  return z ^ (z >> 31)
 *   state s[0..3] = four successive splitmix64 outputs of the seed
 *   xoshiro256**: r = rotl(s1 * 5, 7) * 9; t = s1 << 17; s2 ^= s0; s3 ^= s1;
 *                 s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45); return r
 *
 * Derived draws (also part of the specification):
 *   prng_double: (next >> 11) * 2^-53, uniform in [0, 1)
 *   prng_below(n): ((next >> 32) * n) >> 32 for n <= 2^32 (a multiply-shift,
 *                  biased by less than n / 2^32; used where speed matters)
 *   prng_below_exact(n): Lemire's unbiased bounded draw, for shuffles. */
#ifndef VMR_PRNG_H
#define VMR_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t prng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void prng_seed(struct prng *p, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		p->s[i] = prng_splitmix64(&seed);
}

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t r = prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return r;
}

static inline double prng_double(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * 0x1.0p-53;
}

/* n <= 2^32. */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	return ((prng_next(p) >> 32) * n) >> 32;
}

static inline uint64_t prng_below_exact(struct prng *p, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)prng_next(p) * n;
	uint64_t lo = (uint64_t)m;
	if (lo < n) {
		uint64_t floor = -n % n;
		while (lo < floor) {
			m = (unsigned __int128)prng_next(p) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

#endif
