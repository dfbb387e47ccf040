/* A bisection's step is stored with its facts (env "bisect"), which
 * bisect show and the next bisect run read back: one step of bisect run
 * over a kernel that does not exist (no guest boots: the step is a skip,
 * stored as a failed run of the group), then the store read back.  The
 * marks were once written through a store opened only to read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/util.h"
#include "store/store.h"
#include "vm/bisect.h"
#include "vm/initramfs.h"
#include "vm/series.h"
#include "t.h"

/* The step's run: the group's one run, loaded, or NULL. */
static struct run *load_step_run(const char *db)
{
	struct store *st = NULL;
	struct run_info *runs = NULL;
	struct run *r = NULL;
	size_t n = 0;

	if (store_open(&st, db, STORE_READ) < 0)
		return NULL;
	if (store_list(st, &runs, &n) == 0 && n == 1)
		store_load_run(st, runs[0].id, &r);
	CHECK_EQ_U(n, 1, "the step stored one run");
	run_info_free_array(runs, n);
	store_close(st);
	return r;
}

static void check_step(const char *dir)
{
	char *db = xasprintf("%s/results.db", dir), *suite = xasprintf("%s/one.ini", dir);
	char *logs = xasprintf("%s/logs", dir), *text = xasprintf("%s/no-such-bzImage -- vmr.pos=3\n", dir);
	char *series = xasprintf("%s%s", text, text);  /* series_parse wants a good and a bad line */
	const char ini[] = "[global]\niterations = 1\n\n[idle]\nworkload = null\n";
	FILE *f = fopen(suite, "w");
	struct kernel_series s = { 0 };
	struct bisect_result res = { 0 };
	char uuid[40];

	CHECK(f && fputs(ini, f) >= 0 && fclose(f) == 0, "the suite is written");
	CHECK(series_parse("series", series, strlen(series), &s) == 0, "the candidate parses");
	store_uuid(uuid, sizeof(uuid));
	res.group_uuid = xstrdup(uuid);
	res.name = xstrdup("marked");
	res.alpha = 0.05;
	struct bisect_opts o = {
		.m = { .suite = suite, .name = xstrdup("marked"), .log_dir = logs, .db = db,
		       .static_bin = "/proc/self/exe", .iterations = 1, .json = true },
		.case_name = "idle", .metric = "ops", .alpha = 0.05, .budget_ns = 60 * 1000000000ull,
		.references = 2, .batch = 1, .max_iterations = 1, .git = true,
	};
	fflush(stdout);
	int r = bisect_host_step(&o, &s, &res, 2);
	CHECK_EQ_U(r, 0, "the step ends (a kernel that cannot be found is a skip)");
	CHECK(res.nsteps == 1 && res.steps[0].skip, "the step is a skip");
	struct run *run = load_step_run(db);
	const json_t *fx = run ? json_object_get(run->env, "bisect") : NULL;
	CHECK(json_is_object(fx), "the step's run carries its facts");
	CHECK_STR(json_string_value(json_object_get(fx, "role")), "step", "as a step");
	CHECK_STR(json_string_value(json_object_get(fx, "name")), "marked", "of its bisection");
	CHECK_EQ_U(json_integer_value(json_object_get(fx, "candidate")), 3, "its candidate");
	const char *skip = json_string_value(json_object_get(fx, "skip"));
	CHECK(skip && strstr(skip, "did not boot"), "why it was skipped (%s)", skip ? skip : "none");
	CHECK_STR(run ? run->info.status : NULL, "failed", "the run is a failed one");
	run_free(run);
	bisect_result_free(&res);
	series_free(&s);
	free(o.m.name);
	free(series);
	free(text);
	free(logs);
	free(suite);
	free(db);
}

int main(void)
{
	char dir[] = "/tmp/vmr-bisect-mark-XXXXXX";
	char *busybox = initramfs_find_busybox();

	if (!busybox) {
		SKIP_WHY("a bisect step's facts are stored", "no static busybox (Debian's busybox-static)");
		T_DONE();
	}
	free(busybox);
	if (!mkdtemp(dir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	check_step(dir);
	vmr_rm_rf(dir);
	T_DONE();
}
