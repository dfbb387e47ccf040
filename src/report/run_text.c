/* A stored run's summaries as text: `show` and the end of `run`. */
#include "report/run_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "stats/summary.h"
#include "store/store.h"

static void run_text_env_value(FILE *f, const char *prefix, const char *key, json_t *v)
{
	if (json_is_object(v) && !prefix) {
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x) run_text_env_value(f, key, k, x);
		return;
	}
	/* a real as people write it (0.1, not JSON's round-trip 0.10000000000000001) */
	char *text = json_is_string(v) ? xstrdup(json_string_value(v))
		   : json_is_real(v)   ? xasprintf("%.15g", json_real_value(v))
				       : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!text)
		return;
	size_t klen = strlen(key);
	if (json_is_integer(v) && json_integer_value(v) > 0 && klen > 6 && !strcmp(key + klen - 6, "_bytes")) {
		char human[48];
		char *both = xasprintf("%s (%s)", text, units_format_value(human, sizeof(human),
									   (double)json_integer_value(v), "bytes"));
		free(text);
		text = both;
	}
	size_t n = strlen(text);
	fprintf(f, "  %s%s%-*s %.*s%s\n", prefix ? prefix : "", prefix ? "." : "",
		prefix ? (int)(28 - strlen(prefix) - 1) > 0 ? (int)(28 - strlen(prefix) - 1) : 0 : 28, key,
		(int)(n > 100 ? 100 : n), text, n > 100 ? "..." : "");
	free(text);
}

static void run_text_header(FILE *f, const struct run *r, bool with_env)
{
	const struct run_info *ri = &r->info;
	char a[40], b[40];
	fprintf(f, "Run %lld: %s (%s)\n", (long long)ri->id, ri->name, run_info_state(ri));
	fprintf(f, "  %-28s %s\n", "uuid", ri->uuid ? ri->uuid : "");
	fprintf(f, "  %-28s %s\n", "suite", ri->suite ? ri->suite : "");
	fprintf(f, "  %-28s %s\n", "kernel", ri->kernel ? ri->kernel : "");
	fprintf(f, "  %-28s %s\n", "host", ri->host ? ri->host : "");
	fprintf(f, "  %-28s %s\n", "started", store_format_time(a, sizeof(a), ri->started));
	fprintf(f, "  %-28s %s\n", "ended", ri->ended ? store_format_time(b, sizeof(b), ri->ended) : "(not ended)");
	if (ri->group_uuid)
		fprintf(f, "  %-28s %s, variant %s%s\n", "group", ri->group_name ? ri->group_name : ri->group_uuid,
			ri->variant ? ri->variant : "?", ri->variant_index == 0 ? " (the base)" : "");
	if (with_env && json_object_size(r->env)) {
		fputs("\nEnvironment:\n", f);
		const char *k;
		json_t *v;
		json_object_foreach(r->env, k, v) run_text_env_value(f, NULL, k, v);
	}
}

static bool run_text_all_zero(const struct metric_summary *m)
{
	return m->n && m->min == 0 && m->max == 0;
}

static void run_text_case(FILE *f, const struct case_summary *cs)
{
	fprintf(f, "\nCase %s (%s): %zu iteration%s", cs->c->name, cs->c->workload, cs->c->niter,
		cs->c->niter == 1 ? "" : "s");
	const char *sep = ", ";
	for (int i = 0; i < 5; i++)
		if (cs->outcomes[i]) {
			fprintf(f, "%s%zu %s", sep, cs->outcomes[i], outcome_name((enum outcome)i));
			sep = " ";
		}
	fputc('\n', f);
	json_t *opts = json_object_get(cs->c->options, "options");
	char *text = json_object_size(opts) ? json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	if (text)
		fprintf(f, "  options %.*s%s\n", 160, text, strlen(text) > 160 ? "..." : "");
	free(text);
	for (size_t k = 0; k < cs->c->niter; k++)
		if (cs->c->iters[k].reason)
			fprintf(f, "  iteration %d: %s: %s\n", cs->c->iter_no[k] + 1,
				outcome_name(cs->c->iters[k].outcome), cs->c->iters[k].reason);
	size_t zero = 0;
	for (size_t i = 0; i < cs->nmetrics; i++)
		zero += run_text_all_zero(&cs->m[i]);
	if (cs->nmetrics > zero)
		fprintf(f, "  %-32s %15s %15s %15s %15s\n", "metric", "mean", "stddev", "min", "max");
	for (size_t i = 0; i < cs->nmetrics; i++) {
		const struct metric_summary *m = &cs->m[i];
		char mean[48], sd[48], lo[48], hi[48];
		if (run_text_all_zero(m))
			continue;
		fprintf(f, "  %-32s %15s %15s %15s %15s\n", m->name, units_format_value(mean, sizeof(mean), m->mean, m->unit),
			m->n > 1 ? units_format_value(sd, sizeof(sd), m->stddev, m->unit) : "-",
			units_format_value(lo, sizeof(lo), m->min, m->unit), units_format_value(hi, sizeof(hi), m->max, m->unit));
	}
	if (zero)
		fprintf(f, "  (%zu more metric%s zero in every iteration; show --json lists %s)\n", zero,
			zero == 1 ? " is" : "s are", zero == 1 ? "it" : "them");
}

void run_text_print(FILE *f, const struct run *r, const struct case_summary *s, bool with_env)
{
	run_text_header(f, r, with_env);
	for (size_t i = 0; i < r->ncases; i++)
		run_text_case(f, &s[i]);
	if (r->ncases)
		fputs("\nOver the iterations that passed (warm-ups and skipped ones left out); rates by harmonic\n"
		      "mean, as compare takes them.\n", f);
}

/* ---- the one-screen form ---- */

/* The counters that explain a headline change, in the order they are
 * worth a reader's eye: a stall is the kernel making the task wait. */
static const struct {
	const char *label;
	const char *const metrics[3];  /* summed */
} run_text_explain[] = {
	{ "reclaim stalls", { "vmstat-allocstall_normal", "vmstat-allocstall_movable", NULL } },
	{ "swap-ins", { "vmstat-pswpin", NULL } },
	{ "major faults", { "major-faults", NULL } },
};
#define RUN_TEXT_EXPLAIN_MAX 2

static const struct metric_summary *run_text_find_const(const struct case_summary *cs, const char *name)
{
	for (size_t i = 0; i < cs->nmetrics; i++)
		if (!strcmp(cs->m[i].name, name))
			return &cs->m[i];
	return NULL;
}

/* "swap-ins 56.07k, major faults 2.904k": the means, the non-zero ones. */
static void run_text_counters(char *buf, size_t len, const struct case_summary *cs)
{
	size_t used = 0, shown = 0;
	buf[0] = '\0';
	for (size_t e = 0; e < ARRAY_SIZE(run_text_explain) && shown < RUN_TEXT_EXPLAIN_MAX; e++) {
		double sum = 0;
		bool any = false;
		for (size_t k = 0; run_text_explain[e].metrics[k]; k++) {
			const struct metric_summary *m = run_text_find_const(cs, run_text_explain[e].metrics[k]);
			if (m)
				sum += m->mean, any = true;
		}
		if (!any || sum == 0)
			continue;
		char v[48];
		units_format_value(v, sizeof(v), sum, "");
		int n = snprintf(buf + used, len - used, "%s%s %s", shown ? ", " : "", run_text_explain[e].label, v);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
		shown++;
	}
}

static void run_text_mean_spread(char *buf, size_t len, const struct metric_summary *m)
{
	char mean[48], spread[48];
	units_format_value(mean, sizeof(mean), m->mean, m->unit);
	if (m->n < 2) {
		snprintf(buf, len, "%s", mean);
		return;
	}
	snprintf(buf, len, "%s ± %s", mean, units_format_value(spread, sizeof(spread), summary_spread(m->stddev, m->n), m->unit));
}

static void run_text_outcome_word(char *buf, size_t len, const struct case_summary *cs)
{
	size_t used = 0;
	buf[0] = '\0';
	if (!cs->c->niter) {
		snprintf(buf, len, "not run");
		return;
	}
	for (int i = 0; i < 5; i++) {
		if (!cs->outcomes[i])
			continue;
		int n = cs->outcomes[i] == cs->c->niter
				? snprintf(buf + used, len - used, "%s", outcome_name((enum outcome)i))
				: snprintf(buf + used, len - used, "%s%zu %s", used ? " " : "", cs->outcomes[i],
					   outcome_name((enum outcome)i));
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

static void run_text_brief_line(FILE *f, int wcase, const struct case_summary *cs, const char *outcome,
			       const char *cell, const char *counters)
{
	fprintf(f, "  %-*s %10zu  %-8s  ", wcase, cs->c->name, cs->c->niter, outcome);
	if (*counters)
		fprintf(f, "%-36s  %s\n", cell, counters);
	else
		fprintf(f, "%s\n", cell);
}

static void run_text_brief_case(FILE *f, const struct case_summary *cs, int wcase, run_text_headline_fn headline)
{
	char outcome[64], counters[128];
	run_text_outcome_word(outcome, sizeof(outcome), cs);
	run_text_counters(counters, sizeof(counters), cs);
	size_t lines = 0;
	for (size_t i = 0; i < cs->nmetrics; i++) {
		const struct metric_summary *m = &cs->m[i];
		if (!headline || !headline(cs->c->workload, m->name))
			continue;
		char v[112], cell[160];
		run_text_mean_spread(v, sizeof(v), m);
		snprintf(cell, sizeof(cell), "%s %s", m->name, v);
		if (!lines)
			run_text_brief_line(f, wcase, cs, outcome, cell, counters);
		else
			fprintf(f, "  %-*s %10s  %-8s  %s\n", wcase, "", "", "", cell);
		lines++;
	}
	if (!lines)
		run_text_brief_line(f, wcase, cs, outcome, "", counters);
}

static void run_text_brief_reasons(FILE *f, const struct case_summary *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].c->niter; k++) {
			const struct result *it = &s[i].c->iters[k];
			if (!it->reason)
				continue;
			size_t len = strlen(it->reason);
			fprintf(f, "  %s iteration %d: %s: %.*s%s\n", s[i].c->name, s[i].c->iter_no[k] + 1,
				outcome_name(it->outcome), (int)(len > 100 ? 100 : len), it->reason, len > 100 ? "..." : "");
		}
}

void run_text_brief(FILE *f, const struct run *r, const struct case_summary *s, const struct summary_totals *t,
		    run_text_headline_fn headline)
{
	const struct run_info *ri = &r->info;
	char took[40] = "";
	if (ri->ended > ri->started) {
		char d[32];
		snprintf(took, sizeof(took), ", %s", units_format_value(d, sizeof(d), (ri->ended - ri->started) * 1e9, "ns"));
	}
	fprintf(f, "Run %lld: %s (%s), kernel %s%s\n", (long long)ri->id, ri->name, run_info_state(ri),
		ri->kernel ? ri->kernel : "?", took);
	if (ri->group_uuid)
		fprintf(f, "  variant %s%s of group %s\n", ri->variant ? ri->variant : "?",
			ri->variant_index == 0 ? " (the base)" : "", ri->group_name ? ri->group_name : ri->group_uuid);
	int wcase = 4;
	size_t nmax = 0;
	for (size_t i = 0; i < r->ncases; i++) {
		wcase = (int)strlen(r->cases[i].name) > wcase ? (int)strlen(r->cases[i].name) : wcase;
		nmax = r->cases[i].niter > nmax ? r->cases[i].niter : nmax;
	}
	fprintf(f, "  %-*s %10s  %-8s  %-36s  %s\n", wcase, "case", "iterations", "outcome", "headline (mean ± spread)",
		"counters (mean)");
	for (size_t i = 0; i < r->ncases; i++)
		run_text_brief_case(f, &s[i], wcase, headline);
	run_text_brief_reasons(f, s, r->ncases);
	if (nmax > 1)
		fputs("  ±: of the passing iterations (no warm-up), rates by harmonic mean as in compare: the 95% CI "
		      "of the mean from 3 iterations on, the stddev from 2\n", f);
	char nr[40] = "";
	if (t->not_run)
		snprintf(nr, sizeof(nr), ", %zu not run", t->not_run);
	fprintf(f, "%zu passed, %zu failed, %zu skipped%s (cases; %zu iteration%s)\n", t->passed, t->failed, t->skipped,
		nr, t->iterations, t->iterations == 1 ? "" : "s");
}

/* A word for a shell command line: quoted when it holds anything but
 * the characters of plain paths and names. */
static void run_text_shell_word(FILE *f, const char *w)
{
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+=,-") == strlen(w)) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (; *w; w++)
		fputs(*w == '\'' ? "'\\''" : (char[]){ *w, 0 }, f);
	fputc('\'', f);
}

void run_text_stop_note(char *buf, size_t len, const struct run_stop_note *s)
{
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	if (s->group) {
		fprintf(f, "vmregress: stopped: the runs of group %s are stored as interrupted,", s->group);
		for (size_t i = 0; i < s->n; i++)
			fprintf(f, "%s %s with %zu iteration%s kept", i ? "," : "", s->names[i], s->kept[i],
				s->kept[i] == 1 ? "" : "s");
		fputs("\nvmregress: compare them: vmregress compare ", f);
		run_text_shell_word(f, s->group);
	} else {
		fprintf(f, "vmregress: stopped: run %s is stored as interrupted, with %zu iteration%s kept\n",
			s->names[0], s->kept[0], s->kept[0] == 1 ? "" : "s");
		fputs(s->base ? "vmregress: compare it with the suite's last run: vmregress compare "
			      : "vmregress: compare it with another run of the suite (vmregress list): vmregress compare "
				"RUN ", f);
		if (s->base) {
			run_text_shell_word(f, s->base);
			fputc(' ', f);
		}
		run_text_shell_word(f, s->names[0]);
	}
	if (s->db) {
		fputs(" --db ", f);
		run_text_shell_word(f, s->db);
	}
	fputc('\n', f);
	fclose(f);
	snprintf(buf, len, "%s", text ? text : "");
	free(text);
}
