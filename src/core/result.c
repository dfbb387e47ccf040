#include "core/result.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/spelling.h"
#include "core/util.h"

static const char *const outcome_names[] = { "pass", "fail", "skip", "error", "oom" };
static const char *const better_names[] = { "none", "lower", "higher" };
static const char *const combine_names[] = { "amean", "hmean" };

const char *better_name(enum better b)
{
	return better_names[(unsigned)b < ARRAY_SIZE(better_names) ? b : BETTER_NONE];
}

const char *combine_name(enum combine c)
{
	return combine_names[(unsigned)c < ARRAY_SIZE(combine_names) ? c : 0];
}

const char *outcome_name(enum outcome o)
{
	return (unsigned)o < ARRAY_SIZE(outcome_names) ? outcome_names[o] : "error";
}

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

int outcome_parse(const char *s, enum outcome *o)
{
	int i = name_index(outcome_names, ARRAY_SIZE(outcome_names), s);
	if (i < 0)
		return -1;
	*o = (enum outcome)i;
	return 0;
}

void result_init(struct result *r, const char *workload)
{
	memset(r, 0, sizeof(*r));
	r->workload = xstrdup(workload);
	r->options = json_object();
	r->info = json_object();
}

void result_drop(struct result *r, unsigned parts)
{
	for (size_t i = 0; parts & RESULT_TABLES && i < r->ntables; i++) {
		struct table *t = &r->tables[i];
		for (size_t c = 0; c < t->ncols; c++)
			free(t->cols[c]);
		free(t->cols);
		free(t->cells);
		free(t->name);
	}
	for (size_t i = 0; parts & RESULT_HISTS && i < r->nhists; i++) {
		free(r->hists[i].name);
		free(r->hists[i].unit);
		free(r->hists[i].h);
	}
	for (size_t i = 0; parts & RESULT_MAPS && i < r->nmaps; i++) {
		free(r->maps[i].name);
		free(r->maps[i].pages);
	}
	for (size_t i = 0; parts & RESULT_SERIES && i < r->nseries; i++) {
		free(r->series[i].name);
		free(r->series[i].unit);
		free(r->series[i].t);
		free(r->series[i].v);
	}
	if (parts & RESULT_TABLES) {
		free(r->tables);
		r->tables = NULL;
		r->ntables = 0;
	}
	if (parts & RESULT_HISTS) {
		free(r->hists);
		r->hists = NULL;
		r->nhists = 0;
	}
	if (parts & RESULT_MAPS) {
		free(r->maps);
		r->maps = NULL;
		r->nmaps = 0;
	}
	if (parts & RESULT_SERIES) {
		free(r->series);
		r->series = NULL;
		r->nseries = 0;
	}
}

void result_free(struct result *r)
{
	free(r->workload);
	free(r->reason);
	json_decref(r->options);
	json_decref(r->info);
	for (size_t i = 0; i < r->nmetrics; i++) {
		free(r->metrics[i].name);
		free(r->metrics[i].unit);
	}
	free(r->metrics);
	result_drop(r, RESULT_DETAIL);
	memset(r, 0, sizeof(*r));
}

void result_set_outcome(struct result *r, enum outcome o, const char *fmt, ...)
{
	if (r->outcome != OUTCOME_PASS)
		return;
	r->outcome = o;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		free(r->reason);
		if (vasprintf(&r->reason, fmt, ap) < 0)
			r->reason = NULL;
		va_end(ap);
	}
}

const struct metric *result_find_metric(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

void result_metric(struct result *r, const char *name, const char *unit, enum better b,
		   enum combine c, double value)
{
	struct metric *m = (struct metric *)result_find_metric(r, name);
	if (!m) {
		r->metrics = xrealloc(r->metrics, (r->nmetrics + 1) * sizeof(*m));
		m = &r->metrics[r->nmetrics++];
		m->name = xstrdup(name);
		m->unit = xstrdup(unit);
	}
	m->better = b;
	m->combine = c;
	m->value = value;
}

void result_metric_def(struct result *r, const struct metric_def *d, double value)
{
	result_metric(r, d->name, d->unit, d->better, d->combine, value);
}

struct table *result_table(struct result *r, const char *name, size_t ncols, const char *const *cols)
{
	r->tables = xrealloc(r->tables, (r->ntables + 1) * sizeof(*r->tables));
	struct table *t = &r->tables[r->ntables++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->ncols = ncols;
	t->cols = xcalloc(ncols, sizeof(char *));
	for (size_t i = 0; i < ncols; i++)
		t->cols[i] = xstrdup(cols[i]);
	return t;
}

/* Room for rows grows by doubling: the space for nrows rows is the next
 * power of two, so a new one is needed only when nrows is a power of two
 * (or 0).  Growing by one row at a time copied the whole table every row,
 * which is quadratic where realloc cannot grow in place (under ASan, a
 * table of 80000 slow accesses took minutes). */
static bool table_full(const struct table *t)
{
	return (t->nrows & (t->nrows - 1)) == 0;
}

void table_add_row(struct table *t, const double *row)
{
	if (table_full(t))
		t->cells = xrealloc(t->cells, (t->nrows ? 2 * t->nrows : 1) * t->ncols * sizeof(double));
	memcpy(t->cells + t->nrows * t->ncols, row, t->ncols * sizeof(double));
	t->nrows++;
}

void result_hist(struct result *r, const char *name, const char *unit, struct hist *h)
{
	r->hists = xrealloc(r->hists, (r->nhists + 1) * sizeof(*r->hists));
	struct named_hist *nh = &r->hists[r->nhists++];
	nh->name = xstrdup(name);
	nh->unit = xstrdup(unit);
	nh->h = h;
}

const struct table *result_find_table(const struct result *r, const char *name)
{
	const struct table *t = NULL;
	for (size_t i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].name, name))
			t = &r->tables[i];
	return t;
}

long table_col(const struct table *t, const char *name)
{
	for (size_t c = 0; t && c < t->ncols; c++)
		if (!strcmp(t->cols[c], name))
			return (long)c;
	return -1;
}

double table_get(const struct table *t, size_t row, const char *name)
{
	long c = table_col(t, name);
	return c < 0 || row >= t->nrows ? NAN : t->cells[row * t->ncols + (size_t)c];
}

const struct named_hist *result_find_hist(const struct result *r, const char *name)
{
	for (size_t i = 0; i < r->nhists; i++)
		if (!strcmp(r->hists[i].name, name))
			return &r->hists[i];
	return NULL;
}

void result_map(struct result *r, const char *name, const char *pages, size_t n)
{
	r->maps = xrealloc(r->maps, (r->nmaps + 1) * sizeof(*r->maps));
	struct map *m = &r->maps[r->nmaps++];
	m->name = xstrdup(name);
	m->pages = xmalloc(n + 1);
	memcpy(m->pages, pages, n);
	m->pages[n] = '\0';
}

struct series *result_series(struct result *r, const char *name, const char *unit)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (!strcmp(r->series[i].name, name))
			return &r->series[i];
	r->series = xrealloc(r->series, (r->nseries + 1) * sizeof(*r->series));
	struct series *s = &r->series[r->nseries++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->unit = xstrdup(unit);
	return s;
}

void series_add(struct series *s, double t, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->t = xrealloc(s->t, s->cap * sizeof(double));
		s->v = xrealloc(s->v, s->cap * sizeof(double));
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
}

void result_info_set(struct result *r, const char *key, json_t *v)
{
	json_object_set_new(r->info, key, v);
}

static json_t *result_metrics_json(const struct result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct metric *m = &r->metrics[i];
		json_array_append_new(a, json_pack("{ss ss ss ss sf}", "name", m->name, "unit", m->unit,
						   "better", better_names[m->better], "combine",
						   combine_names[m->combine], "value", m->value));
	}
	return a;
}

static json_t *result_tables_json(const struct result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->ntables; i++) {
		const struct table *t = &r->tables[i];
		json_t *cols = json_array(), *rows = json_array();
		for (size_t c = 0; c < t->ncols; c++)
			json_array_append_new(cols, json_string(t->cols[c]));
		for (size_t row = 0; row < t->nrows; row++) {
			json_t *jr = json_array();
			for (size_t c = 0; c < t->ncols; c++)
				json_array_append_new(jr, json_real(t->cells[row * t->ncols + c]));
			json_array_append_new(rows, jr);
		}
		json_array_append_new(a, json_pack("{ss so so}", "name", t->name, "cols", cols, "rows", rows));
	}
	return a;
}

static json_t *result_series_json(const struct result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->nseries; i++) {
		const struct series *s = &r->series[i];
		json_t *t = json_array(), *v = json_array();
		for (size_t k = 0; k < s->n; k++) {
			json_array_append_new(t, json_real(s->t[k]));
			json_array_append_new(v, json_real(s->v[k]));
		}
		json_array_append_new(a, json_pack("{ss ss so so}", "name", s->name, "unit", s->unit, "t", t, "v", v));
	}
	return a;
}

json_t *result_to_json(const struct result *r)
{
	json_t *hists = json_array(), *maps = json_array();
	for (size_t i = 0; i < r->nhists; i++)
		json_array_append_new(hists, json_pack("{ss ss so}", "name", r->hists[i].name, "unit",
						       r->hists[i].unit, "hist", hist_to_json(r->hists[i].h)));
	for (size_t i = 0; i < r->nmaps; i++)
		json_array_append_new(maps, json_pack("{ss ss}", "name", r->maps[i].name, "pages", r->maps[i].pages));
	return json_pack("{ss ss ss* sO sO so so so so so}", "workload", r->workload, "outcome",
			 outcome_name(r->outcome), "reason", r->reason,
			 "options", r->options, "info", r->info, "metrics", result_metrics_json(r),
			 "tables", result_tables_json(r), "hists", hists, "maps", maps, "series",
			 result_series_json(r));
}

int result_metric_spelled(struct result *r, const char *name, const char *unit, const char *better,
			  const char *combine, double v)
{
	int b = name_index(better_names, ARRAY_SIZE(better_names), better);
	int c = name_index(combine_names, ARRAY_SIZE(combine_names), combine);
	if (b < 0 || c < 0)
		return -1;
	char now[128];
	result_metric(r, spelling_metric(name, unit, now, sizeof(now)), spelling_unit(unit), (enum better)b,
		      (enum combine)c, v);
	return 0;
}

static int metrics_from_json(json_t *a, struct result *r)
{
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e) {
		const char *name, *unit, *better, *combine;
		double v;
		if (json_unpack(e, "{ss ss ss ss sF}", "name", &name, "unit", &unit, "better", &better,
				"combine", &combine, "value", &v) < 0 ||
		    result_metric_spelled(r, name, unit, better, combine, v) < 0)
			return -1;
	}
	return 0;
}

static int tables_from_json(json_t *a, struct result *r)
{
	size_t i, k;
	json_t *e, *x;
	json_array_foreach(a, i, e) {
		const char *name;
		json_t *cols, *rows;
		if (json_unpack(e, "{ss so so}", "name", &name, "cols", &cols, "rows", &rows) < 0 ||
		    !json_is_array(cols) || !json_is_array(rows) || json_array_size(cols) == 0 ||
		    json_array_size(cols) > 1024)
			return -1;
		size_t nc = json_array_size(cols);
		const char **names = xcalloc(nc, sizeof(char *));
		json_array_foreach(cols, k, x) names[k] = json_is_string(x) ? json_string_value(x) : "";
		struct table *t = result_table(r, name, nc, names);
		free(names);
		double *row = xcalloc(nc, sizeof(double));
		json_array_foreach(rows, k, x) {
			if (!json_is_array(x) || json_array_size(x) != nc) {
				free(row);
				return -1;
			}
			for (size_t c = 0; c < nc; c++)
				row[c] = json_number_value(json_array_get(x, c));
			table_add_row(t, row);
		}
		free(row);
	}
	return 0;
}

static int hists_from_json(json_t *a, struct result *r)
{
	size_t i;
	json_t *e, *hj;
	json_array_foreach(a, i, e) {
		const char *name, *unit;
		if (json_unpack(e, "{ss ss so}", "name", &name, "unit", &unit, "hist", &hj) < 0)
			return -1;
		struct hist *h = hist_from_json(hj);
		if (!h)
			return -1;
		result_hist(r, name, unit, h);
	}
	return 0;
}

static int maps_from_json(json_t *a, struct result *r)
{
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e) {
		const char *name, *pages;
		if (json_unpack(e, "{ss ss}", "name", &name, "pages", &pages) < 0)
			return -1;
		result_map(r, name, pages, strlen(pages));
	}
	return 0;
}

static int series_from_json(json_t *a, struct result *r)
{
	size_t i, k;
	json_t *e, *t, *v, *x;
	json_array_foreach(a, i, e) {
		const char *name, *unit;
		if (json_unpack(e, "{ss ss so so}", "name", &name, "unit", &unit, "t", &t, "v", &v) < 0 ||
		    !json_is_array(t) || !json_is_array(v) || json_array_size(t) != json_array_size(v))
			return -1;
		struct series *s = result_series(r, name, unit);
		json_array_foreach(t, k, x) series_add(s, json_number_value(x), json_number_value(json_array_get(v, k)));
	}
	return 0;
}

/* One detail part's member: absent and not asked for is empty. */
static int result_part_from_json(json_t *j, const char *key, unsigned parts, unsigned part, struct result *r,
				 int (*from)(json_t *, struct result *))
{
	json_t *a = json_object_get(j, key);
	if (!(parts & part))
		return 0;
	return json_is_array(a) && from(a, r) == 0 ? 0 : -1;
}

int result_from_json_parts(const json_t *j, unsigned parts, struct result *r, const char **why)
{
	const char *workload, *outcome, *reason = NULL;
	json_t *options = NULL, *info = NULL, *metrics;
	*why = "not a result object";
	if (json_unpack((json_t *)j, "{ss ss s?s so}", "workload", &workload, "outcome", &outcome, "reason",
			&reason, "metrics", &metrics) < 0)
		return -1;
	if (parts & RESULT_INFO && json_unpack((json_t *)j, "{so so}", "options", &options, "info", &info) < 0)
		return -1;
	static const struct {
		const char *key;
		unsigned part;
	} detail[] = { { "tables", RESULT_TABLES }, { "hists", RESULT_HISTS }, { "maps", RESULT_MAPS },
		       { "series", RESULT_SERIES } };
	for (size_t i = 0; i < ARRAY_SIZE(detail); i++)
		if (parts & detail[i].part && !json_object_get(j, detail[i].key))
			return -1;
	result_init(r, workload);
	json_decref(r->options);
	json_decref(r->info);
	r->options = json_incref(options);
	r->info = json_incref(info);
	spelling_info(r->info);
	if (outcome_parse(outcome, &r->outcome) < 0) {
		*why = "unknown outcome";
		goto bad;
	}
	r->reason = reason ? xstrdup(reason) : NULL;
	*why = "malformed metrics";
	if (!json_is_array(metrics) || metrics_from_json(metrics, r) < 0)
		goto bad;
	*why = "malformed tables";
	if (result_part_from_json((json_t *)j, "tables", parts, RESULT_TABLES, r, tables_from_json) < 0)
		goto bad;
	*why = "malformed histograms";
	if (result_part_from_json((json_t *)j, "hists", parts, RESULT_HISTS, r, hists_from_json) < 0)
		goto bad;
	*why = "malformed maps";
	if (result_part_from_json((json_t *)j, "maps", parts, RESULT_MAPS, r, maps_from_json) < 0)
		goto bad;
	*why = "malformed series";
	if (result_part_from_json((json_t *)j, "series", parts, RESULT_SERIES, r, series_from_json) < 0)
		goto bad;
	*why = NULL;
	return 0;
bad:
	result_free(r);
	return -1;
}

int result_from_json(const json_t *j, struct result *r, const char **why)
{
	return result_from_json_parts(j, RESULT_ALL, r, why);
}
