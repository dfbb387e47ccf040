/* The sequential test of a bisection step: is a candidate kernel like the
 * good reference or like the bad one?  Wald's sequential probability ratio
 * test (SPRT): the candidate's iterations are added one at a time to a log
 * likelihood ratio of "bad" against "good", and the test stops when it
 * crosses log((1-a)/a) (bad) or log(a/(1-a)) (good).  Wald's inequality
 * bounds each error by a/(1-a) whatever the overshoot; a test cut short by
 * its budget decides nothing (undecided), which only lowers the errors.
 *
 * The two hypotheses come from the references, measured beforehand, and
 * are taken where they are hardest to tell apart, so that the bound holds
 * for every candidate that is at least as good as the good reference or at
 * least as bad as the bad one (a composite test: the likelihood ratio is
 * monotone in the parameter, so the errors are largest at the inner ends):
 *
 * - means (SPRT_MEANS), and rates on their reciprocals (SPRT_RECIPROCALS,
 *   what a harmonic mean averages), as compare tests them: a normal model,
 *   each reference's mean moved by its one-sided (1 - a/3) confidence bound
 *   towards the other, and the standard deviation the upper (1 - a/3)
 *   bound of the references' pooled one (chi-square, Wilson-Hilferty);
 * - percentiles by ranks (SPRT_RANKS), as compare tests them with
 *   Mann-Whitney: each iteration is one Bernoulli draw, "beyond the cut"
 *   (the midpoint of the two references' medians, on the bad side), whose
 *   chance is bounded by the Wilson score interval at (1 - a/2) for each
 *   reference (the good one's upper, the bad one's lower end).
 *
 * The references' bounds fail with probability at most a in all, once per
 * bisection (every step shares them): sprt_answer_bound adds it once.
 * Nothing here prints; a reason is handed back. */
#ifndef VMR_SPRT_H
#define VMR_SPRT_H

#include <stdbool.h>
#include <stddef.h>

enum sprt_kind { SPRT_MEANS, SPRT_RECIPROCALS, SPRT_RANKS };
enum sprt_decision { SPRT_UNDECIDED, SPRT_GOOD, SPRT_BAD };

struct sprt {
	enum sprt_kind kind;
	double alpha;            /* each error's target, a */
	double upper, lower;     /* the log thresholds: bad above, good below */
	/* SPRT_MEANS and SPRT_RECIPROCALS, on the tested scale, times sign so
	 * that bad is the larger */
	double sign;
	double mu_good, mu_bad;  /* the hypotheses (the references' inner bounds) */
	double sigma;            /* the upper bound of the standard deviation */
	/* SPRT_RANKS */
	double cut;              /* on the tested scale, times sign */
	double p_good, p_bad;    /* chance of an iteration beyond the cut */
	/* the test so far */
	size_t n;
	double llr;
	enum sprt_decision decision;
};

/* Set the test up from the references' values (as stored: the transform
 * is applied here).  -1 with the reason in why when they cannot give one:
 * fewer than two values on a side, a reciprocal of a value <= 0, or
 * references that their bounds cannot tell apart. */
int sprt_init(struct sprt *s, enum sprt_kind kind, double alpha, const double *good, size_t ng,
	      const double *bad, size_t nb, char *why, size_t whylen);
/* Add one iteration's value; the decision so far (once made, it stays and
 * later values are ignored). */
enum sprt_decision sprt_add(struct sprt *s, double x);
const char *sprt_decision_name(enum sprt_decision d);

/* A step's figure and its 95% interval as the test sees the values:
 * means the mean with the t interval; rates the harmonic mean with the
 * interval of the reciprocals' mean turned back; percentiles the median
 * with the order statistics' distribution-free interval (the widest, the
 * minimum and the maximum, when n is small).  NAN where n is too small. */
void sprt_figure(enum sprt_kind kind, const double *v, size_t n, double *centre, double *lo, double *hi);

/* Each decided step's error bound, Wald's a/(1-a). */
double sprt_step_bound(double alpha);

/* An upper bound on the probability that a bisection's answer is wrong,
 * by the union bound over everything that can send it astray: the
 * confirmation that good and bad differ (its q-value: they may not), the
 * references' bounds (alpha, once), and every decided step's bound.  A
 * skipped step decided nothing, so it adds no error, but a skip between
 * the last good and the first bad widens the answer to a range (the
 * caller says so).  At most 1. */
double sprt_answer_bound(double confirm_q, double alpha, const double *step_bounds, size_t nsteps);

#endif
