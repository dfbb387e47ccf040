#include "refs/dmath.h"

#include <math.h>

#define LN2_HI 6.93147180369123816490e-01 /* fdlibm: few bits, k * LN2_HI is exact */
#define LN2_LO 1.90821492927058770002e-10
#define LOG2E 1.44269504088896338700e+00

double dm_exp(double x)
{
	if (x != x)
		return x;
	if (x < -745.2)
		return 0.0;
	if (x > 709.78)
		return HUGE_VAL;
	double kd = floor(x * LOG2E + 0.5);
	int k = (int)kd;
	double r = (x - kd * LN2_HI) - kd * LN2_LO; /* |r| <= 0.35 */
	double p = 1.0;
	for (int i = 17; i >= 1; i--)
		p = 1.0 + p * r / (double)i;
	return ldexp(p, k);
}

double dm_log(double x)
{
	if (x != x || x < 0)
		return NAN;
	if (x == 0)
		return -HUGE_VAL;
	if (isinf(x))
		return x;
	int e;
	double m = frexp(x, &e); /* exact: x = m * 2^e, m in [0.5, 1) */
	if (m < 0.70710678118654752440) {
		m *= 2.0;
		e--;
	}
	double z = (m - 1.0) / (m + 1.0), z2 = z * z; /* |z| <= 0.1716 */
	double s = 0.0;
	for (int i = 27; i >= 1; i -= 2)
		s = 1.0 / (double)i + z2 * s;
	return (double)e * LN2_HI + (2.0 * z * s + (double)e * LN2_LO);
}

double dm_log1p(double x)
{
	double u = 1.0 + x;
	if (u == 1.0)
		return x;
	return dm_log(u) * x / (u - 1.0); /* Goldberg's correction */
}

double dm_expm1(double x)
{
	if (x > -0.5 && x < 0.5) {
		double p = 0.0; /* x + x^2/2! + ...: no cancellation */
		for (int i = 20; i >= 1; i--)
			p = x / (double)i * (1.0 + p);
		return p;
	}
	return dm_exp(x) - 1.0;
}

static double dm_sin_quarter(double a) /* 0 <= a <= pi/2 */
{
	double a2 = a * a, s = 1.0;
	for (int i = 25; i >= 3; i -= 2)
		s = 1.0 - s * a2 / ((double)i * (double)(i - 1));
	return a * s;
}

double dm_sin_turn(unsigned k, unsigned n)
{
	unsigned q = n / 4;
	k %= n;
	double sign = k >= 2 * q ? -1.0 : 1.0;
	k %= 2 * q;
	if (k > q)
		k = 2 * q - k;
	if (k == q)
		return sign;
	return sign * dm_sin_quarter(6.283185307179586476925 * (double)k / (double)n);
}
