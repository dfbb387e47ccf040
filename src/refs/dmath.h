/* Deterministic elementary functions for trace generation.
 *
 * libm's sin, exp and log may differ in the last bit between C libraries,
 * versions and CPUs (some use fused multiply-add), and one bit is enough to
 * move a page index.  These use only +, -, *, / and sqrt-free range
 * reduction in IEEE-754 double, in a fixed order (the Makefile builds with
 * -ffp-contract=off so no fused multiply-add is introduced), so every
 * machine computes the same bits.  They are accurate to a few ulp, which is
 * plenty for drawing page numbers. */
#ifndef VMR_DMATH_H
#define VMR_DMATH_H

/* e^x; 0 below -745, +inf above 709.78. */
double dm_exp(double x);
/* Natural logarithm, x > 0 (returns -inf for 0, NaN below). */
double dm_log(double x);
/* log(1 + x) and e^x - 1, accurate near 0. */
double dm_log1p(double x);
double dm_expm1(double x);
/* sin(2*pi*k/n) for 0 <= k <= n, n a multiple of 4: exact symmetry. */
double dm_sin_turn(unsigned k, unsigned n);

#endif
