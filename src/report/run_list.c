/* The table of `vmregress list`: see run_list.h. */
#include "report/run_list.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"

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
void run_list_text(const struct run_info *runs, size_t n)
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
