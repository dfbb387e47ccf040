/* vmregress list: the stored runs, newest first. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

struct list_opts {
	char *db;
	char *host, *kernel;
	bool json;
};

const struct opt list_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct list_opts, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	{ .name = "host", .type = OPT_STR, .off = offsetof(struct list_opts, host), .metavar = "GLOB",
	  .help = "only runs of hosts whose name matches (fnmatch)" },
	{ .name = "kernel", .type = OPT_STR, .off = offsetof(struct list_opts, kernel), .metavar = "GLOB",
	  .help = "only runs under kernel releases that match (fnmatch)" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct list_opts, json), .help = "print JSON" },
	OPT_END,
};

static bool list_match(const char *glob, const char *value)
{
	return !glob || (value && fnmatch(glob, value, 0) == 0);
}

/* Keep the runs --host and --kernel select, in order. */
static void list_filter(const struct list_opts *o, struct run_info *runs, size_t *n)
{
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (list_match(o->host, runs[i].host) && list_match(o->kernel, runs[i].kernel))
			runs[kept++] = runs[i];
		else
			run_info_clear(&runs[i]);
	}
	*n = kept;
}

/* Characters (UTF-8 code points) of s: what a terminal gives it, near
 * enough for names. */
static int list_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* s, padded with spaces to width characters, then a space (none after the
 * last column). */
static void list_cell(const char *s, int width, bool last)
{
	fputs(s, stdout);
	if (!last)
		printf("%*s", width - list_width(s) + 1, "");
}

enum { LIST_COLS = 8 };

static void list_row(char *const cell[LIST_COLS], const int width[LIST_COLS])
{
	for (int c = 0; c < LIST_COLS; c++)
		list_cell(cell[c], width[c], c == LIST_COLS - 1);
	putchar('\n');
}

/* Columns as wide as their longest value (at least as wide as the
 * defaults), so that long names, such as a matrix's runs named after
 * kernels, keep the columns aligned. */
static void list_print(const struct run_info *runs, size_t n)
{
	static char *const head[LIST_COLS] = { "ID", "NAME", "KERNEL", "HOST", "SUITE", "GROUP", "STATUS", "WHEN" };
	int width[LIST_COLS] = { 5, 32, 22, 16, 12, 24, 11, 0 };
	char *(*cells)[LIST_COLS] = xcalloc(n ? n : 1, sizeof(*cells));
	for (size_t i = 0; i < n; i++) {
		char when[40] = "", group[160] = "-";
		const struct run_info *r = &runs[i];
		/* the group and this run's variant in it; * marks the base */
		if (r->group_uuid)
			snprintf(group, sizeof(group), "%s:%s%s", r->group_name ? r->group_name : r->group_uuid,
				 r->variant ? r->variant : "?", r->variant_index == 0 ? "*" : "");
		char *row[LIST_COLS] = { xasprintf("%lld", (long long)r->id), xstrdup(r->name),
					 xstrdup(r->kernel ? r->kernel : "-"), xstrdup(r->host ? r->host : "-"),
					 xstrdup(r->suite ? r->suite : "-"), xstrdup(group), xstrdup(run_info_state(r)),
					 xstrdup(store_format_time(when, sizeof(when), r->started)) };
		for (int c = 0; c < LIST_COLS; c++) {
			cells[i][c] = row[c];
			if (list_width(row[c]) > width[c])
				width[c] = list_width(row[c]);
		}
	}
	list_row(head, width);
	for (size_t i = 0; i < n; i++) {
		list_row(cells[i], width);
		for (int c = 0; c < LIST_COLS; c++)
			free(cells[i][c]);
	}
	free(cells);
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	struct optset set = { list_cmd_opts, &o, NULL };
	char **pos;
	int npos, rc = VMR_EXIT_USAGE;
	struct run_info *runs = NULL;
	size_t n = 0;
	int p = cmd_parse("list", &set, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_opts;
	}
	if (npos) {
		vmr_err("list: unexpected argument '%s'", pos[0]);
		goto free_opts;
	}
	char *path = cmd_db_path(o.db);
	struct store *st = NULL;
	/* A store that does not exist is an error naming it, as in show:
	 * an empty list would hide a mistyped --db. */
	if (store_open(&st, path, STORE_READ) < 0)
		goto close_store;
	rc = VMR_EXIT_CANNOT;
	if (store_list(st, &runs, &n) < 0)
		goto close_store;
	list_filter(&o, runs, &n);
	rc = VMR_EXIT_OK;
	if (o.json) {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, run_info_to_json(&runs[i]));
		rc = cmd_print_json(a);
	} else {
		list_print(runs, n);
	}
	run_info_free_array(runs, n);
close_store:
	store_close(st);
	free(path);
free_opts:
	opt_free(list_cmd_opts, &o);
	free(pos);
	return rc;
}
