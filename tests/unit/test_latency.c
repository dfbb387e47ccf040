/* The latency probe wakes on its period, records every wake-up in both
 * histograms, and reports its metrics; stopping is prompt even with a long
 * period. */
#include <time.h>

#include "harness/latency.h"
#include "core/util.h"
#include "t.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

int main(void)
{
	struct probe p = { 0 };
	struct result r = { 0 };
	probe_init(&p, 10000000);
	result_init(&r, "null");
	CHECK(probe_start(&p) == 0, "probe starts");
	sleep_ms(300);
	probe_stop(&p, &r);
	CHECK(p.wakeups >= 10 && p.wakeups <= 31, "about 30 wake-ups in 300 ms at 10 ms (got %llu)",
	      (unsigned long long)p.wakeups);
	CHECK(p.deadlines >= p.wakeups && p.missed <= p.deadlines, "deadlines count every wake-up");
	const struct named_hist *late = result_find_hist(&r, "probe-lateness");
	CHECK(late && late->h->count == p.wakeups, "every wake-up is in the lateness histogram");
	CHECK(result_find_hist(&r, "probe-touch") && result_find_hist(&r, "probe-touch")->h->count == p.wakeups,
	      "every touch is timed");
	const struct metric *p50 = result_find_metric(&r, "probe-late-p50"), *mx = result_find_metric(&r, "probe-late-max");
	CHECK(p50 && mx && p50->value > 0 && p50->value <= mx->value, "p50 lateness is positive and at most the max");
	CHECK(result_find_metric(&r, "probe-missed") && result_find_metric(&r, "probe-missed")->better == BETTER_LOWER,
	      "missed share reported, lower is better");
	CHECK(json_integer_value(json_object_get(json_object_get(r.info, "probe"), "wakeups")) == (json_int_t)p.wakeups,
	      "info counts wake-ups");
	result_free(&r);
	probe_destroy(&p);

	probe_init(&p, 1000000000);
	CHECK(probe_start(&p) == 0, "probe with a 1 s period starts");
	sleep_ms(20);
	uint64_t t0 = vmr_now_ns();
	result_init(&r, "null");
	probe_stop(&p, &r);
	CHECK(vmr_now_ns() - t0 < 200000000, "stop does not wait for the period");
	CHECK(p.wakeups == 0 && result_find_metric(&r, "probe-missed")->value == 0, "no wake-up, nothing missed");
	result_free(&r);
	probe_destroy(&p);
	T_DONE();
}
