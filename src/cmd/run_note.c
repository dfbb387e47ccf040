/* The note of a run stopped by a signal (run_int.h). */
#include "cmd/run_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/run_text.h"
#include "sandbox/sandbox.h"

static struct {
	char buf[2][4096];          /* the one published and the next */
	int cur;
	const char *db;
	char *base;
} run_note;

/* The newest complete run of the suite that is not one of rs's. */
static char *runcmd_note_base(struct run_state *rs)
{
	const char *suite = rs->vars[0].suite->name;
	struct run_info *runs = NULL;
	size_t n = 0;
	char *base = NULL;
	if (!suite || store_list(rs->st, &runs, &n) < 0)
		return NULL;
	for (size_t i = 0; i < n && !base; i++) {
		bool ours = false;
		for (size_t v = 0; v < rs->nvars; v++)
			ours |= runs[i].id == rs->vars[v].run_id;
		if (!ours && runs[i].suite && !strcmp(runs[i].suite, suite) && runs[i].status &&
		    !strcmp(runs[i].status, "complete"))
			base = xstrdup(runs[i].name);
	}
	run_info_free_array(runs, n);
	return base;
}

static void runcmd_note_stored(struct run_state *rs)
{
	const char **names = xcalloc(rs->nvars + 1, sizeof(char *));
	size_t *kept = xcalloc(rs->nvars + 1, sizeof(size_t));
	for (size_t v = 0; v < rs->nvars; v++) {
		names[v] = rs->vars[v].name;
		kept[v] = rs->vars[v].stored;
	}
	struct run_stop_note s = { .group = rs->group.uuid ? rs->group.name : NULL, .names = names, .kept = kept,
				   .n = rs->nvars, .base = run_note.base, .db = run_note.db };
	int next = !run_note.cur;
	run_text_stop_note(run_note.buf[next], sizeof(run_note.buf[next]), &s);
	sandbox_signal_note(run_note.buf[next]);
	run_note.cur = next;
	free(names);
	free(kept);
}

void runcmd_note_begin(struct run_state *rs, const char *db)
{
	run_note.db = db;
	free(run_note.base);
	run_note.base = rs->group.uuid ? NULL : runcmd_note_base(rs);
	rs->on_stored = runcmd_note_stored;
	runcmd_note_stored(rs);
}

void runcmd_note_end(void)
{
	sandbox_signal_note(NULL);
	free(run_note.base);
	run_note.base = NULL;
}
