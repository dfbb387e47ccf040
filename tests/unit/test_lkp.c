/* LKP's reading of a comparison (stats/lkp.c): the table's mean and
 * %stddev, the trimming, and each reason LKP marks or drops a change,
 * worked by hand from lkp-tests' stats.rb and changed_stat.rb. */
#include <math.h>

#include "stats/lkp.h"
#include "t.h"

static void test_side(void)
{
	const double v[] = { 4, 2, 6, 8 };
	struct lkp_side s;
	lkp_side(v, 4, 3, &s);
	CHECK_NEAR(s.mean, 5, 1e-12, "the mean is the arithmetic one");
	/* population deviation: sqrt(((1+9+1+9)/4)) = sqrt(5) */
	CHECK_NEAR(s.stddev_pct, 100 * sqrt(5.0) / 5, 1e-9, "%%stddev divides by n, as statistics.rb does");
	CHECK_NEAR(s.mid, 6, 0, "the middle is sorted[n/2], not the mean");
	CHECK(s.min == 2 && s.max == 8, "under 32 samples nothing is trimmed");

	double many[64];
	for (int i = 0; i < 64; i++)
		many[i] = i;
	lkp_side(many, 64, 3, &s);
	CHECK(s.min == 2 && s.max == 61, "64 samples: 64 >> 5 = 2 trimmed from each end");
	lkp_side(many, 64, 1, &s);
	CHECK(s.min == 1 && s.max == 62, "the margin is capped");
}

static void test_marks(void)
{
	const double base[] = { 100, 101, 102 }, up[] = { 110, 111, 112 }, near[] = { 101.5, 102, 103 };
	const double one[] = { 120 }, flat[] = { 100.2, 100.3, 100.4 }, wide[] = { 95, 130, 131 };
	struct lkp_cell c;
	lkp_cell(base, 3, up, 3, "throughput", &c);
	CHECK(c.mark == LKP_CHANGED, "ranges apart, 10%% up: changed");
	CHECK_NEAR(c.change_pct, 100.0 * (111 - 101) / 101, 1e-9, "%%change of the means");
	lkp_cell(base, 3, near, 3, "throughput", &c);
	CHECK(c.mark == LKP_OVERLAP, "a run whose smallest is below the base's middle: not marked");
	lkp_cell(base, 3, wide, 3, "throughput", &c);
	CHECK(c.mark == LKP_OVERLAP, "one low sample in the run keeps the ranges together");
	lkp_cell(base, 1, one, 1, "throughput", &c);
	CHECK(c.mark == LKP_TOO_FEW, "one sample a side: too few");
	lkp_cell(base, 3, one, 1, "throughput", &c);
	CHECK(c.mark == LKP_CHANGED, "3 samples on one side are enough for LKP");
	const double b2[] = { 99.9, 100.0, 100.1 };
	lkp_cell(b2, 3, flat, 3, "throughput", &c);
	CHECK(c.mark == LKP_SMALL, "apart, but the middles are within 1%%");
	const double vb[] = { 100, 110, 120 }, vr[] = { 300, 310, 320 };
	lkp_cell(vb, 3, vr, 3, "vmstat-pgmajfault", &c);
	CHECK(c.mark == LKP_THRESHOLD, "a vmstat counter under 1000 is not worth LKP's report");
	const double vb2[] = { 1000, 1100, 1200 }, vr2[] = { 3000, 3100, 3200 };
	lkp_cell(vb2, 3, vr2, 3, "vmstat-pgmajfault", &c);
	CHECK(c.mark == LKP_CHANGED, "past 1000 it is");
	const double nb[] = { 10, 11, 12 }, nr[] = { 40, 41, 42 };
	lkp_cell(nb, 3, nr, 3, "vmstat-nr_anon_pages", &c);
	CHECK(c.mark == LKP_THRESHOLD, "nr_* counters need 100");
	lkp_cell(base, 3, NULL, 0, "throughput", &c);
	CHECK(c.mark == LKP_MISSING && isnan(c.change_pct), "a side without samples is missing");
	lkp_cell(up, 3, base, 3, "throughput", &c);
	CHECK(c.mark == LKP_CHANGED && c.change_pct < 0, "down as well as up");
}

int main(void)
{
	test_side();
	test_marks();
	T_DONE();
}
