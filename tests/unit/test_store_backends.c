/* One store test suite for every back end: the store at $VMR_TEST_STORE (a
 * PostgreSQL URL or a file; it must hold no runs), else a fresh SQLite file.
 * tests/cli/test_store_backends.sh runs it against a throwaway PostgreSQL
 * server too.  What goes in comes back whole, runs resolve the same way,
 * copies between stores keep a run whole and are idempotent by UUID, a run
 * is running while its writer is at it and not once the writer is gone
 * (closed, or killed with -9), a copy that is behind is brought up to date
 * in place and never by an older one, and processes copying into one store
 * at once each land whole, once. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "store/store.h"
#include "t.h"
#include "trun.h"

static char tmpdir[] = "/tmp/vmr-test-backends-XXXXXX";

static void make_result(struct result *r, double t)
{
	result_init(r, "null");
	result_metric(r, "time", "ns", BETTER_LOWER, COMBINE_AMEAN, t);
	result_metric(r, "rate", "ops/s", BETTER_HIGHER, COMBINE_HMEAN, 1e9 / t);
	struct hist *h = hist_new();
	hist_add(h, (uint64_t)t);
	result_hist(r, "latency", "ns", h);
	struct series *s = result_series(r, "pswpout", "pages");
	series_add(s, 0.0, 0);
	series_add(s, 1.0, t);
}

/* A run of cases a (niter iterations) and b (one skipped iteration). */
static int64_t store_one_run(struct store *st, const char *name, const char *host, int niter)
{
	int64_t run = -1, c1 = -1, c2 = -1;
	json_t *env = json_pack("{s{ss} ss s{si}}", "kernel", "release", "6.1.0-test", "hostname", host, "memory",
				"total_bytes", 1 << 30);
	json_t *opts = json_pack("{si}", "spin", 0);
	CHECK(store_run_begin(st, name, "quick", "[a]\nworkload=null\n", env, "t", &run) == 0, "%s: begins", name);
	CHECK(store_case_add(st, run, "a", "null", opts, &c1) == 0, "%s: case a added", name);
	CHECK(store_case_add(st, run, "b", "null", opts, &c2) == 0, "%s: case b added", name);
	for (int i = 0; i < niter; i++) {
		struct result r = { 0 };
		make_result(&r, 100 + i);
		CHECK(store_result_add(st, c1, i, &r) == 0, "%s: iteration %d stored", name, i);
		result_free(&r);
	}
	struct result skip = { 0 };
	result_init(&skip, "null");
	result_set_outcome(&skip, OUTCOME_SKIP, "not here");
	CHECK(store_result_add(st, c2, 0, &skip) == 0, "%s: a skipped iteration is stored", name);
	result_free(&skip);
	json_decref(env);
	json_decref(opts);
	return run;
}

static char *run_text(const struct run *r)
{
	json_t *j = json_pack("{ss ss ss ss? ss ss ss sf sb so ss}", "uuid", r->info.uuid, "name", r->info.name, "status",
			      r->info.status, "tag", r->info.tag, "kernel", r->info.kernel, "host", r->info.host, "suite",
			      r->info.suite, "started", r->info.started, "ended", r->info.ended > 0, "env",
			      json_incref(r->env), "suite_text", r->suite_text ? r->suite_text : "");
	json_t *cases = json_array();
	for (size_t i = 0; i < r->ncases; i++) {
		const struct run_case *c = &r->cases[i];
		json_t *its = json_array();
		for (size_t k = 0; k < c->niter; k++)
			json_array_append_new(its, json_pack("{si so}", "no", c->iter_no[k], "r", result_to_json(&c->iters[k])));
		json_array_append_new(cases, json_pack("{ss ss sO so}", "name", c->name, "workload", c->workload,
						       "options", c->options, "iters", its));
	}
	json_object_set_new(j, "cases", cases);
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(j);
	return s;
}

static void test_round_trip(struct store *st, int64_t run)
{
	struct run *r = NULL;
	CHECK(store_load_run(st, run, &r) == 0, "run loads");
	if (!r)
		return;
	CHECK_STR(r->info.status, "incomplete", "an unfinished run is incomplete");
	CHECK_STR(r->info.kernel, "6.1.0-test", "kernel taken from the environment");
	CHECK_STR(r->info.host, "alpha", "host taken from the environment");
	CHECK_STR(r->info.tag, "t", "tag kept");
	CHECK(r->info.uuid && strlen(r->info.uuid) == 36 && r->info.uuid[14] == '4', "a version 4 UUID");
	CHECK_STR(r->suite_text, "[a]\nworkload=null\n", "suite text kept");
	CHECK(json_integer_value(json_object_get(json_object_get(r->env, "memory"), "total_bytes")) == 1 << 30,
	      "environment kept");
	CHECK(r->ncases == 2 && !strcmp(r->cases[0].name, "a") && !strcmp(r->cases[1].name, "b"), "cases in order");
	CHECK_EQ_U(r->cases[0].niter, 3, "three iterations of a");
	CHECK(r->cases[0].iter_no[2] == 2, "iteration numbers kept");
	const struct result *it = &r->cases[0].iters[2];
	CHECK(result_find_metric(it, "time") && result_find_metric(it, "time")->value == 102, "metric value kept");
	CHECK(result_find_metric(it, "rate") && result_find_metric(it, "rate")->better == BETTER_HIGHER,
	      "metric direction kept");
	CHECK(it->nhists == 1 && it->hists[0].h->count == 1 && it->hists[0].h->max == 102, "histogram kept");
	CHECK(it->nseries == 1 && it->series[0].n == 2 && it->series[0].v[1] == 102, "series kept");
	CHECK(r->cases[1].niter == 1 && r->cases[1].iters[0].outcome == OUTCOME_SKIP &&
	      !strcmp(r->cases[1].iters[0].reason, "not here"), "outcome and reason kept");
	run_free(r);
}

/* The run read with its metrics alone, its info on demand and a case's
 * detail when asked: each iteration as the whole run's, on either back
 * end (tests/unit/test_store_parts.c compares whole comparisons on
 * SQLite). */
static void test_parts(struct store *st, int64_t run)
{
	struct run *w = NULL, *p = NULL;
	CHECK(store_load_run(st, run, &w) == 0 && store_load_run_parts(st, run, RESULT_METRICS, &p) == 0,
	      "run loads whole and in parts");
	if (!w || !p) {
		run_free(w);
		run_free(p);
		return;
	}
	struct run_case *c = &p->cases[0];
	const struct result *it = &c->iters[2];
	CHECK(c->niter == 3 && it->nmetrics == 2 && result_find_metric(it, "time")->value == 102 && !it->info &&
		      !it->nhists && !it->nseries,
	      "in parts: the metrics, no info, no detail");
	CHECK(json_equal(run_iter_info(p, c, 2), w->cases[0].iters[2].info) && c->iters[2].options,
	      "an iteration's info read on demand");
	for (size_t i = 0; i < c->niter; i++)
		run_iter_info(p, c, i);
	size_t detail = 0;
	CHECK(t_case_each_same(st, p, c, &w->cases[0], &detail) && detail == c->niter,
	      "a case read one iteration at a time: each one's detail and outcome the whole run's");
	CHECK(!c->iters[2].nhists && !c->iters[2].nseries && c->iters[2].nmetrics == 2, "and none of it held");
	struct result one = { 0 };
	CHECK(store_iter_read(st, c, 2, RESULT_HISTS | RESULT_SERIES, &one) == 0 && one.nhists == 1 &&
		      one.hists[0].h->max == 102 && one.nseries == 1 && one.series[0].v[1] == 102 && !one.ntables &&
		      result_find_metric(&one, "time") && result_find_metric(&one, "time")->value == 102,
	      "one iteration read alone: its head and the parts asked for");
	result_free(&one);
	fprintf(stderr, "(expected error follows)\n");
	CHECK(store_iter_read(st, c, 3, RESULT_MAPS, &one) < 0 && !one.nmetrics, "no iteration beyond the case's");
	CHECK(p->cases[1].iters[0].outcome == OUTCOME_SKIP && !strcmp(p->cases[1].iters[0].reason, "not here"),
	      "in parts: outcome and reason");
	run_free(w);
	run_free(p);
}

static void test_resolve(struct store *st, int64_t first, int64_t second)
{
	int64_t id = 0;
	char buf[32];
	struct run *r = NULL;
	CHECK(store_resolve(st, "last", &id) == 0 && id == second, "last is the newest run");
	snprintf(buf, sizeof(buf), "%lld", (long long)first);
	CHECK(store_resolve(st, buf, &id) == 0 && id == first, "an id resolves");
	CHECK(store_resolve(st, "one", &id) == 0 && id == first, "a unique name resolves");
	if (store_load_run(st, first, &r) == 0) {
		CHECK(store_resolve(st, r->info.uuid, &id) == 0 && id == first, "a UUID resolves");
		CHECK(store_find_uuid(st, r->info.uuid, &id) == 1 && id == first, "a run is found by UUID");
		run_free(r);
	}
	CHECK(store_find_uuid(st, "00000000-0000-4000-8000-000000000000", &id) == 0, "an unknown UUID is not found");
	fprintf(stderr, "(expected errors follow)\n");
	CHECK(store_resolve(st, "nope", &id) < 0, "an unknown name does not resolve");
	CHECK(store_resolve(st, "99999", &id) < 0, "an unknown id does not resolve");
	CHECK(store_resolve_quiet(st, "nope", &id) < 0, "quiet resolve fails too");
	struct run_info *runs;
	size_t n;
	CHECK(store_list(st, &runs, &n) == 0 && n == 2 && runs[0].id == second && runs[1].id == first,
	      "list is newest first");
	CHECK(n == 2 && runs[1].niterations == 4 && runs[1].ncases == 2, "list counts cases and iterations");
	CHECK(n == 2 && !strcmp(runs[0].host, "beta") && !strcmp(runs[1].host, "alpha"), "list shows each run's host");
	run_info_free_array(runs, n);
}

/* Copy a run out to a fresh SQLite file and back: whole, and once. */
static void test_copy(struct store *st, int64_t run)
{
	char *path = xasprintf("%s/copy.db", tmpdir);
	struct store *other = NULL;
	struct run *a = NULL, *b = NULL;
	int64_t id, id2;
	CHECK(store_open(&other, path, true) == 0, "a second store opens");
	if (!other)
		goto free_path;
	CHECK(store_copy_run(st, run, other, &id) == 0, "a run is copied out");
	CHECK(store_copy_run(st, run, other, &id2) == 1 && id2 == id, "copying it again stores nothing");
	struct run_info *runs;
	size_t n;
	CHECK(store_list(other, &runs, &n) == 0 && n == 1, "the copy is one run");
	run_info_free_array(runs, n);
	CHECK(store_load_run(st, run, &a) == 0 && store_load_run(other, id, &b) == 0, "both load");
	if (a && b) {
		char *ta = run_text(a), *tb = run_text(b);
		CHECK(ta && tb && !strcmp(ta, tb), "the copy equals the original");
		free(ta);
		free(tb);
	}
	CHECK(store_copy_run(other, id, st, &id2) == 1 && id2 == run, "copying it back stores nothing");
	CHECK(store_delete_run(st, run) == 0, "the original is deleted");
	CHECK(store_copy_run(other, id, st, &id2) == 0, "and copied back");
	run_free(b);
	b = NULL;
	CHECK(store_load_run(st, id2, &b) == 0, "the copy back loads");
	if (a && b) {
		char *ta = run_text(a), *tb = run_text(b);
		CHECK(ta && tb && !strcmp(ta, tb), "the copy back equals the original");
		free(ta);
		free(tb);
	}
	run_free(a);
	run_free(b);
	store_close(other);
free_path:
	free(path);
}

/* VMREGRESS_HOST stands in for the host name, so one machine can play
 * several in the fleet tests. */
static void test_host_override(struct store *st)
{
	setenv("VMREGRESS_HOST", "gamma", 1);
	int64_t run = store_one_run(st, "three", "alpha", 1);
	unsetenv("VMREGRESS_HOST");
	struct run *r = NULL;
	CHECK(store_load_run(st, run, &r) == 0, "the run loads");
	if (r) {
		CHECK_STR(r->info.host, "gamma", "VMREGRESS_HOST names the host");
		CHECK_STR(json_string_value(json_object_get(r->env, "hostname")), "gamma",
			  "and the environment's host name");
	}
	run_free(r);
	CHECK(store_delete_run(st, run) == 0, "run deleted");
	int64_t id;
	fprintf(stderr, "(expected errors follow)\n");
	CHECK(store_resolve(st, "three", &id) < 0, "a deleted run is gone");
	CHECK(store_delete_run(st, run) < 0, "deleting it again fails");
}

static struct run_info *find_info(struct run_info *runs, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].id == id)
			return &runs[i];
	return NULL;
}

/* running as list and load_run tell it through another handle. */
static int is_running(struct store *st, int64_t id)
{
	struct run_info *runs;
	size_t n;
	struct run *r = NULL;
	int listed = -1, loaded = -2;
	if (store_list(st, &runs, &n) == 0) {
		struct run_info *ri = find_info(runs, n, id);
		listed = ri ? ri->running : -1;
		run_info_free_array(runs, n);
	}
	if (store_load_run(st, id, &r) == 0)
		loaded = r->info.running;
	run_free(r);
	return listed == loaded ? listed : -1;
}

/* A writer in a child that is killed with -9 between iterations. */
static pid_t killable_writer(const char *location, int64_t *run)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct store *w = NULL;
		int64_t id = -1, c;
		struct result r = { 0 };
		make_result(&r, 5);
		if (store_open(&w, location, true) == 0 && store_run_begin(w, "killed", "quick", NULL, NULL, NULL, &id) == 0 &&
		    store_case_add(w, id, "a", "null", NULL, &c) == 0)
			store_result_add(w, c, 0, &r);
		if (write(fds[1], &id, sizeof(id)) != sizeof(id))
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	bool got = pid > 0 && read(fds[0], run, sizeof(*run)) == sizeof(*run) && *run > 0;
	close(fds[0]);
	if (!got && pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* A run is running while its writer is at it, then complete; or, when its
 * writer ends without ending it (closed, or killed with -9), interrupted:
 * incomplete and no longer running. */
static void test_running(const char *location, struct store *st)
{
	struct store *w = NULL;
	int64_t run = -1, run2 = -1, c;
	CHECK(store_open(&w, location, true) == 0, "a second writer opens the store");
	if (!w)
		return;
	CHECK(store_run_begin(w, "live", "quick", NULL, NULL, NULL, &run) == 0, "a run begins");
	CHECK(is_running(st, run) == 1, "a run being written is running");
	CHECK(store_run_end(w, run, "complete") == 0 && is_running(st, run) == 0, "an ended run is not running");
	CHECK(store_run_begin(w, "closed", "quick", NULL, NULL, NULL, &run2) == 0 &&
	      store_case_add(w, run2, "a", "null", NULL, &c) == 0, "another run begins");
	CHECK(is_running(st, run2) == 1, "it is running");
	store_close(w);
	CHECK(is_running(st, run2) == 0, "a run whose writer closed the store is not running");
	CHECK(store_delete_run(st, run) == 0 && store_delete_run(st, run2) == 0, "both deleted");

	int64_t killed = -1;
	pid_t pid = killable_writer(location, &killed);
	CHECK(pid > 0, "a writer in a child process began a run");
	if (pid <= 0)
		return;
	CHECK(is_running(st, killed) == 1, "the child's run is running");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* A server notices a dead client when its socket closes: soon, not at
	 * once (and list and load may see it at either side of that moment). */
	int r = 1;
	for (int i = 0; i < 500 && (r = is_running(st, killed)) != 0; i++)
		usleep(10000);
	CHECK(r == 0, "after kill -9 the run is not running");
	struct run *k = NULL;
	CHECK(store_load_run(st, killed, &k) == 0 && !strcmp(k->info.status, "incomplete") && k->info.ended == 0 &&
	      k->info.niterations == 1, "it is incomplete, with its iteration kept");
	run_free(k);
	CHECK(store_delete_run(st, killed) == 0, "the killed run is deleted");
}

static bool same_run(struct store *a, int64_t ida, struct store *b, int64_t idb)
{
	struct run *ra = NULL, *rb = NULL;
	bool same = false;
	if (store_load_run(a, ida, &ra) == 0 && store_load_run(b, idb, &rb) == 0) {
		char *ta = run_text(ra), *tb = run_text(rb);
		same = ta && tb && !strcmp(ta, tb);
		free(ta);
		free(tb);
	}
	run_free(ra);
	run_free(rb);
	return same;
}

static size_t count_uuid(struct store *st, const char *uuid, size_t *niter)
{
	struct run_info *runs;
	size_t n, found = 0;
	*niter = 0;
	if (store_list(st, &runs, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(runs[i].uuid, uuid)) {
			found++;
			*niter += runs[i].niterations;
		}
	run_info_free_array(runs, n);
	return found;
}

/* A copy made while a run was still being written is brought up to date
 * by a later copy, in place and once; an older copy never replaces a newer
 * one. */
static void test_update(struct store *st)
{
	char *spath = xasprintf("%s/origin.db", tmpdir), *opath = xasprintf("%s/stale.db", tmpdir);
	struct store *src = NULL, *stale = NULL;
	int64_t run = -1, c = -1, to = -1, to2 = -1, sid = -1;
	size_t niter;
	CHECK(store_open(&src, spath, true) == 0 && store_open(&stale, opath, true) == 0, "origin and stale stores open");
	if (!src || !stale)
		goto close;
	CHECK(store_run_begin(src, "growing", "quick", NULL, NULL, "t", &run) == 0 &&
	      store_case_add(src, run, "a", "null", NULL, &c) == 0, "a run begins at its origin");
	struct result r = { 0 };
	make_result(&r, 10);
	CHECK(store_result_add(src, c, 0, &r) == 0, "its first iteration");
	result_free(&r);
	CHECK(store_copy_run(src, run, st, &to) == 0, "copied while being written");
	CHECK(store_copy_run(src, run, stale, &sid) == 0, "and into a second store");
	for (int i = 1; i < 3; i++) {
		make_result(&r, 10 + i);
		CHECK(store_result_add(src, c, i, &r) == 0, "iteration %d at the origin", i);
		result_free(&r);
	}
	CHECK(store_copy_run(src, run, st, &to2) == 2 && to2 == to, "a copy with more iterations updates, in place");
	CHECK(same_run(src, run, st, to), "the copy equals the origin");
	CHECK(store_run_end(src, run, "complete") == 0, "the run ends at its origin");
	CHECK(store_copy_run(src, run, st, &to2) == 2 && to2 == to, "the ended run updates the copy");
	CHECK(same_run(src, run, st, to), "the copy equals the ended run");
	struct run *sr = NULL;
	if (store_load_run(src, run, &sr) == 0) {
		CHECK(count_uuid(st, sr->info.uuid, &niter) == 1 && niter == 3, "once, with 3 iterations, no duplicates");
		struct run *cr = NULL;
		CHECK(store_load_run(st, to, &cr) == 0 && !strcmp(cr->info.status, "complete") && cr->info.ended > 0,
		      "the copy is complete, with its end time");
		run_free(cr);
	}
	CHECK(store_copy_run(src, run, st, &to2) == 1 && to2 == to, "copying it again writes nothing");
	CHECK(store_copy_run(stale, sid, st, &to2) == 1, "an older copy does not replace a newer");
	CHECK(same_run(src, run, st, to), "the copy still equals the ended run");
	CHECK(store_copy_run(st, to, stale, &to2) == 2 && to2 == sid, "the older copy is brought up to date");
	CHECK(same_run(src, run, stale, sid), "and equals the ended run");
	if (sr)
		CHECK(count_uuid(stale, sr->info.uuid, &niter) == 1 && niter == 3, "once there too");
	CHECK(store_delete_run(st, to) == 0, "the copy is deleted");
	run_free(sr);
close:
	store_close(stale);
	store_close(src);
	free(spath);
	free(opath);
}

#define NWRITERS 8
#define NRUNS 50

/* One writer: its own SQLite file of NRUNS small runs, each copied into
 * the shared store in its own transaction. */
static int writer(const char *location, int w)
{
	char *path = xasprintf("%s/writer-%d.db", tmpdir, w);
	struct store *src = NULL, *dst = NULL;
	int bad = 0;
	if (store_open(&src, path, true) < 0 || store_open(&dst, location, true) < 0)
		return 1;
	json_t *env = json_pack("{ss}", "hostname", "writer");
	for (int i = 0; i < NRUNS && !bad; i++) {
		char name[32];
		int64_t run, c, to;
		struct result r = { 0 };
		snprintf(name, sizeof(name), "w%d-%d", w, i);
		make_result(&r, 100 + i);
		bad = store_run_begin(src, name, "quick", NULL, env, "writers", &run) < 0 ||
		      store_case_add(src, run, "a", "null", NULL, &c) < 0 || store_result_add(src, c, 0, &r) < 0 ||
		      store_run_end(src, run, "complete") < 0 || store_copy_run(src, run, dst, &to) != 0;
		result_free(&r);
	}
	json_decref(env);
	store_close(dst);
	store_close(src);
	free(path);
	return bad;
}

static void test_concurrent_writers(const char *location, struct store *st)
{
	pid_t pids[NWRITERS];
	int failed = 0;
	uint64_t t0 = vmr_now_ns();
	for (int w = 0; w < NWRITERS; w++) {
		pids[w] = fork();
		if (pids[w] == 0)
			_exit(writer(location, w));
	}
	for (int w = 0; w < NWRITERS; w++) {
		int status;
		if (pids[w] < 0 || waitpid(pids[w], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	fprintf(stderr, "%d writers x %d runs: %.2fs\n", NWRITERS, NRUNS, (double)(vmr_now_ns() - t0) / 1e9);
	CHECK(failed == 0, "%d writers each copied %d runs", NWRITERS, NRUNS);
	struct run_info *runs;
	size_t n, mine = 0, whole = 0, twice = 0;
	CHECK(store_list(st, &runs, &n) == 0, "the store lists");
	for (size_t i = 0; i < n; i++) {
		if (!runs[i].tag || strcmp(runs[i].tag, "writers"))
			continue;
		mine++;
		whole += runs[i].ncases == 1 && runs[i].niterations == 1 && !strcmp(runs[i].status, "complete");
		for (size_t k = 0; k < i; k++)
			twice += !strcmp(runs[i].uuid, runs[k].uuid) || !strcmp(runs[i].name, runs[k].name);
	}
	CHECK_EQ_U(mine, NWRITERS * NRUNS, "every run arrived");
	CHECK_EQ_U(whole, NWRITERS * NRUNS, "every run arrived whole");
	CHECK_EQ_U(twice, 0, "every run arrived once");
	run_info_free_array(runs, n);
}

/* A case of more iterations than a back end reads at a time while it
 * hands them on one by one (PostgreSQL's batches): each read once, in
 * order. */
static void test_each_batches(struct store *st)
{
	int64_t id = store_one_run(st, "many", "gamma", 9);
	struct run *w = NULL, *p = NULL;
	CHECK(store_run_end(st, id, "complete") == 0 && store_load_run(st, id, &w) == 0 &&
		      store_load_run_parts(st, id, RESULT_METRICS, &p) == 0,
	      "a run of 9 iterations loads whole and in parts");
	size_t detail = 0;
	if (w && p)
		CHECK(t_case_each_same(st, p, &p->cases[0], &w->cases[0], &detail) && detail == 9 &&
			      t_case_each_same(st, p, &p->cases[1], &w->cases[1], NULL),
		      "its cases read one iteration at a time, each once and in order");
	run_free(w);
	run_free(p);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	const char *env = getenv("VMR_TEST_STORE");
	char *location = env && *env ? xstrdup(env) : xasprintf("%s/results.db", tmpdir);
	struct store *st = NULL;
	CHECK(store_open(&st, location, true) == 0, "store opens");
	if (!st)
		T_DONE();
	printf("# back end: %s\n", store_backend_name(st));
	int64_t first = store_one_run(st, "one", "alpha", 3);
	int64_t second = store_one_run(st, "two", "beta", 1);
	struct result dup = { 0 };
	make_result(&dup, 1);
	struct run *r = NULL;
	fprintf(stderr, "(expected error follows)\n");
	if (store_load_run(st, first, &r) == 0)
		CHECK(store_result_add(st, r->cases[0].id, 0, &dup) < 0, "an iteration cannot be stored twice");
	run_free(r);
	result_free(&dup);
	CHECK(store_run_end(st, second, "complete") == 0, "run ends");
	test_round_trip(st, first);
	test_parts(st, first);
	test_resolve(st, first, second);
	store_close(st);

	CHECK(store_open(&st, location, false) == 0, "store reopens");
	if (!st)
		T_DONE();
	r = NULL;
	CHECK(store_load_run(st, second, &r) == 0 && !strcmp(r->info.status, "complete") && r->info.ended > 0,
	      "complete status and end time kept");
	run_free(r);
	test_copy(st, first);
	test_running(location, st);
	test_update(st);
	test_host_override(st);
	test_concurrent_writers(location, st);
	test_each_batches(st);
	store_close(st);
	if (!strstr(location, "://")) {
		char *lock = xasprintf("%s-lock", location);
		CHECK(access(lock, F_OK) < 0, "the writers' lock file is gone once no store is open");
		free(lock);
	}

	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	free(location);
	T_DONE();
}
