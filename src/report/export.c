#include "report/export.h"

#include <math.h>
#include <string.h>

#include "core/util.h"

const char *const export_columns[] = { "run", "uuid", "group", "variant", "kernel", "host", "knobs", "case",
				       "workload", "iteration", "outcome", "metric", "unit", "value", NULL };

/* The knobs a case ran under, as "a=1,b=2" (its sandbox's --set), or "". */
static char *export_knobs(const struct run_case *c)
{
	json_t *set = json_object_get(json_object_get(c->options, "sandbox"), "set");
	size_t i, len = 0;
	json_t *v;
	json_array_foreach(set, i, v)
		len += strlen(json_string_value(v) ? json_string_value(v) : "") + 1;
	char *out = xmalloc(len + 1);
	out[0] = '\0';
	json_array_foreach(set, i, v) {
		if (i)
			strcat(out, ",");
		strcat(out, json_string_value(v) ? json_string_value(v) : "");
	}
	return out;
}

/* The row's fields but the value, as strings ("" where there is none). */
struct export_row {
	const char *f[13];
	char iteration[16];
};

static void export_row_fill(struct export_row *row, const struct run *r, const struct run_case *c,
			    const char *knobs, size_t k, const struct metric *x)
{
	const struct run_info *i = &r->info;
	snprintf(row->iteration, sizeof(row->iteration), "%d", c->iter_no[k] + 1);
	const char *f[13] = { i->name, i->uuid ? i->uuid : "", i->group_name ? i->group_name : "",
			      i->variant ? i->variant : "", i->kernel ? i->kernel : "", i->host ? i->host : "", knobs,
			      c->name, c->workload ? c->workload : "", row->iteration,
			      outcome_name(c->iters[k].outcome), x->name, x->unit ? x->unit : "" };
	memcpy(row->f, f, sizeof(f));
}

/* Call emit for every value of run r, in order: cases, iterations,
 * metrics. */
static void export_each(const struct run *r,
			void (*emit)(void *ctx, const struct export_row *row, int iteration, double value), void *ctx)
{
	for (size_t ci = 0; ci < r->ncases; ci++) {
		const struct run_case *c = &r->cases[ci];
		char *knobs = export_knobs(c);
		for (size_t k = 0; k < c->niter; k++)
			for (size_t m = 0; m < c->iters[k].nmetrics; m++) {
				struct export_row row = { .f = { NULL } };
				const struct metric *x = &c->iters[k].metrics[m];
				export_row_fill(&row, r, c, knobs, k, x);
				emit(ctx, &row, c->iter_no[k] + 1, x->value);
			}
		free(knobs);
	}
}

void export_json_begin(struct export_json *x, FILE *f)
{
	*x = (struct export_json){ .f = f };
	fputc('[', f);
}

/* One row: its object as json_dumpf prints an element of the array, each
 * line indented one level (a string's newline is escaped, so every newline
 * of the text is the layout's). */
static void export_emit_json(void *ctx, const struct export_row *row, int iteration, double value)
{
	struct export_json *x = ctx;
	json_t *o = json_object();
	for (size_t f = 0; f < 13; f++)
		json_object_set_new(o, export_columns[f], f == 9 ? json_integer(iteration) : json_string(row->f[f]));
	json_object_set_new(o, "value", isfinite(value) ? json_real(value) : json_null());
	char *text = json_dumps(o, EXPORT_JSON_FLAGS);
	json_decref(o);
	fputs(x->rows++ ? ",\n  " : "\n  ", x->f);
	for (const char *p = text; p && *p; p++) {
		fputc(*p, x->f);
		if (*p == '\n')
			fputs("  ", x->f);
	}
	free(text);
}

void export_json_run(struct export_json *x, const struct run *r)
{
	export_each(r, export_emit_json, x);
}

void export_json_end(struct export_json *x)
{
	fputs(x->rows ? "\n]\n" : "]\n", x->f);
}

static void export_emit_csv(void *ctx, const struct export_row *row, int iteration, double value)
{
	FILE *f = ctx;
	(void)iteration;
	for (size_t col = 0; col < 13; col++) {
		if (col)
			fputc(',', f);
		vmr_csv_field(f, row->f[col]);
	}
	fprintf(f, ",%.17g\n", value);
}

void export_csv_header(FILE *f)
{
	for (size_t i = 0; export_columns[i]; i++)
		fprintf(f, "%s%s", i ? "," : "", export_columns[i]);
	fputc('\n', f);
}

void export_csv_run(FILE *f, const struct run *r)
{
	export_each(r, export_emit_csv, f);
}
