/* What several commands share: finding a command in main.c's table and
 * printing its help, parsing their arguments, opening the store at the
 * run they name, and writing a JSON document to standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

const struct cmd *cmd_find(const char *name)
{
	for (const struct cmd *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void cmd_help(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: vmregress %s\n\n%s\n", c->usage, c->summary);
	if (c->details)
		fprintf(f, "\n%s\n", c->details);
	if (c->opts && c->opts->name) {
		fputs("\nOptions:\n", f);
		opt_help(f, c->opts);
	}
}

int cmd_print_json(json_t *j)
{
	int r = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(j);
	if (r < 0 || fputc('\n', stdout) == EOF || fflush(stdout) == EOF) {
		vmr_errno("cannot write JSON to standard output");
		return VMR_EXIT_CANNOT;
	}
	return VMR_EXIT_OK;
}

int cmd_parse(const char *name, struct optset *sets, size_t nsets, int argc, char **argv, char ***pos,
	      int *npos)
{
	bool help = false;
	*pos = xcalloc((size_t)argc + 1, sizeof(char *));
	if (opt_parse(sets, nsets, argc - 1, argv + 1, *pos, npos, &help) < 0)
		return -1;
	if (help) {
		cmd_help(stdout, cmd_find(name));
		return 1;
	}
	return 0;
}

bool cmd_parse_run(const char *name, struct optset *set, int argc, char **argv, char ***pos, int *rc)
{
	int npos, p = cmd_parse(name, set, 1, argc, argv, pos, &npos);
	*rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
	if (p)
		return false;
	if (npos != 1) {
		vmr_err("%s: %s (usage: vmregress %s)", name, npos ? "too many arguments" : "which run?",
			cmd_find(name)->usage);
		return false;
	}
	return true;
}

char *cmd_db_path(const char *db)
{
	return db ? xstrdup(db) : store_default_path();
}

int cmd_open_run(const char *db, const char *spec, struct store **st, int64_t *id)
{
	char *path = cmd_db_path(db);
	*st = NULL;
	int r = store_open(st, path, false) < 0 || store_resolve(*st, spec, id) < 0 ? -1 : 0;
	free(path);
	return r;
}

/* The UUIDs of runs by id, from one listing of the store. */
static int cmd_group_uuids(struct store *st, const int64_t *ids, size_t n, struct strlist *out)
{
	struct run_info *runs;
	size_t nruns;
	if (store_list(st, &runs, &nruns) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nruns; k++)
			if (runs[k].id == ids[i])
				strlist_add(out, runs[k].uuid);
	run_info_free_array(runs, nruns);
	return 0;
}

/* Whether there is a store at location to look runs up in: a URL always
 * may hold them, a file only when it exists (opening it says what is wrong
 * with it). */
static bool cmd_store_present(const char *location)
{
	if (strstr(location, "://"))
		return true;
	if (!strncmp(location, "sqlite:", 7))
		location += 7;
	return access(location, F_OK) == 0;
}

int cmd_resolve_runs(const char *db, char *const *specs, size_t n, struct strlist *out)
{
	char *path = cmd_db_path(db);
	struct store *st = NULL;
	int rc = 0;
	*out = (struct strlist){ 0 };
	for (size_t i = 0; i < n && !rc; i++) {
		struct stat sb = { 0 };
		int64_t id, *ids = NULL;
		size_t nids = 0;
		/* a file of a run, or no store to look in: runsrc's to read or
		 * to report */
		if ((stat(specs[i], &sb) == 0 && S_ISREG(sb.st_mode)) || !cmd_store_present(path)) {
			strlist_add(out, specs[i]);
			continue;
		}
		if (!st && store_open(&st, path, false) < 0) {
			rc = -1;
			break;
		}
		if (store_resolve_quiet(st, specs[i], &id) == 0)
			strlist_add(out, specs[i]);
		else if ((rc = store_resolve_group_quiet(st, specs[i], &ids, &nids)) == 0)
			rc = cmd_group_uuids(st, ids, nids, out);
		else if (rc == -2 || !strcmp(specs[i], "last-group"))
			rc = store_resolve_group(st, specs[i], &ids, &nids);  /* says why */
		else {
			rc = 0;
			strlist_add(out, specs[i]);  /* runsrc says what is wrong with it */
		}
		free(ids);
	}
	store_close(st);
	free(path);
	if (rc < 0)
		strlist_free(out);
	return rc < 0 ? -1 : 0;
}
