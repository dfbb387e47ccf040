/* What LAVA gave back for a job, read into a run: see lava.h. */
#include "vm/lava.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "core/util.h"
#include "core/yaml.h"
#include "vm/proto.h"
#include "workload/workload.h"

static char *lava_str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%.17g", json_real_value(v));
	return NULL;
}

static double lava_time(const char *s)
{
	struct tm tm = { 0 };
	const char *rest = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!rest)
		return 0;
	double frac = *rest == '.' ? strtod(rest, NULL) : 0;
	return (double)timegm(&tm) + frac;
}

/* One test case, from lava-run's log (definition, case) or LAVA's REST
 * results (suite, name; measurement and unit, the set in metadata). */
static void lava_add_case(struct lava_results *r, const json_t *m)
{
	const json_t *meta = json_object_get(m, "metadata");
	struct lava_case c = { 0 };
	c.suite = lava_str(m, json_object_get(m, "definition") ? "definition" : "suite");
	c.name = lava_str(m, json_object_get(m, "case") ? "case" : "name");
	c.result = lava_str(m, "result");
	c.set = lava_str(m, "set");
	if (!c.set && meta)
		c.set = lava_str(meta, "set");
	c.units = lava_str(m, json_object_get(m, "units") ? "units" : "unit");
	const json_t *extra = json_object_get(m, "extra");
	c.reference = lava_str(m, "reference");
	if (!c.reference)
		c.reference = lava_str(extra ? extra : meta, "reference");
	char *meas = lava_str(m, "measurement");
	c.measurement = NAN;
	if (meas && *meas) {
		char *end;
		c.measurement = strtod(meas, &end);
		c.has_measurement = !*end && isfinite(c.measurement);
	}
	free(meas);
	if (!c.name || !c.result) {
		free(c.suite), free(c.name), free(c.result), free(c.set), free(c.units), free(c.reference);
		return;
	}
	if (c.suite && !strcmp(c.suite, "lava") && !strcmp(c.name, "job")) {
		free(r->job_result);
		r->job_result = xstrdup(c.result);
	}
	if (!r->job_id)
		r->job_id = lava_str(m, "job");
	r->cases = xrealloc(r->cases, (r->ncases + 1) * sizeof(*r->cases));
	r->cases[r->ncases++] = c;
}

/* The kernel's release, from its banner on the console. */
static char *lava_kernel_banner(const char *msg)
{
	const char *p = msg ? strstr(msg, "Linux version ") : NULL;
	if (!p)
		return NULL;
	p += strlen("Linux version ");
	return strndup(p, strcspn(p, " "));
}

/* A line of lava-run's log: {dt, lvl, msg}. */
static void lava_log_line(struct lava_results *r, const json_t *line, char **kernel)
{
	const char *lvl = json_string_value(json_object_get(line, "lvl"));
	double t = lava_time(json_string_value(json_object_get(line, "dt")));
	if (t > 0 && (r->started == 0 || t < r->started))
		r->started = t;
	if (t > r->ended)
		r->ended = t;
	const char *msg = json_string_value(json_object_get(line, "msg"));
	if (lvl && !strcmp(lvl, "results") && json_is_object(json_object_get(line, "msg")))
		lava_add_case(r, json_object_get(line, "msg"));
	else if (lvl && !strcmp(lvl, "target") && msg) {
		if (!*kernel)
			*kernel = lava_kernel_banner(msg);
		/* the device's output, a line an entry: frames of lava attach */
		size_t n = strlen(msg);
		r->console = xrealloc(r->console, r->console_len + n + 2);
		memcpy(r->console + r->console_len, msg, n);
		r->console_len += n;
		r->console[r->console_len++] = '\n';
		r->console[r->console_len] = '\0';
	}
}

int lava_results_read(const char *text, size_t len, struct lava_results *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	char *kernel = NULL;
	size_t lines = 0;
	/* lava-run's log: one mapping a line (a "- " before it in a log file) */
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *s = p;
		if (n > 2 && s[0] == '-' && s[1] == ' ')
			s += 2, n -= 2;
		if (n && *s == '{') {
			char lwhy[128];
			json_t *j = yaml_to_json(s, n, lwhy, sizeof(lwhy));
			if (json_is_object(j) && json_object_get(j, "lvl")) {
				lava_log_line(out, j, &kernel);
				lines++;
			}
			json_decref(j);
		}
		p = nl ? nl + 1 : end;
	}
	if (!lines) {
		/* REST or lavacli results: a list of test cases */
		json_t *doc = yaml_to_json(text, len, why, whylen);
		if (!doc)
			return -1;
		json_t *list = json_is_array(doc) ? doc : json_object_get(doc, "results");
		size_t i;
		json_t *c;
		json_array_foreach(list, i, c)
			if (json_is_object(c))
				lava_add_case(out, c);
		bool is_list = json_is_array(list);
		json_decref(doc);
		if (!is_list) {
			snprintf(why, whylen, "neither lava-run's log nor a list of LAVA test cases");
			return -1;
		}
	}
	out->kernel = kernel;
	return 0;
}

void lava_results_free(struct lava_results *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		struct lava_case *c = &r->cases[i];
		free(c->suite), free(c->name), free(c->result), free(c->set), free(c->units), free(c->reference);
	}
	free(r->cases);
	free(r->job_id), free(r->device), free(r->device_type), free(r->job_result), free(r->kernel), free(r->console);
	memset(r, 0, sizeof(*r));
}

int lava_attached_json(const struct lava_results *r, char **json, size_t *len, char *why, size_t whylen)
{
	struct proto_result pr = { 0 };
	*json = NULL;
	*len = 0;
	if (!r->console)
		return 0;
	char pwhy[160] = "";
	int bad = proto_parse(r->console, r->console_len, &pr, pwhy, sizeof(pwhy));
	const struct proto_frame *fr = proto_find(&pr, LAVA_RUN_FRAME);
	int rc = 0;
	if (!fr) {
		if (bad < 0 && strstr(pwhy, LAVA_RUN_FRAME))
			rc = -1, snprintf(why, whylen, "the run's JSON in the log is broken: %s", pwhy);
		goto free_frames;
	}
	/* gunzip, growing the buffer; a document is at most the frames' cap */
	z_stream zs = { 0 };
	size_t cap = fr->len * 8 + 4096;
	char *out = xmalloc(cap + 1);
	int z = inflateInit2(&zs, 15 + 32) == Z_OK ? Z_OK : Z_MEM_ERROR;
	zs.next_in = (Bytef *)fr->data;
	zs.avail_in = (uInt)fr->len;
	while (z == Z_OK) {
		if (zs.total_out == cap) {
			if (cap >= PROTO_PAYLOAD_MAX) {
				z = Z_BUF_ERROR;
				break;
			}
			cap *= 2;
			out = xrealloc(out, cap + 1);
		}
		zs.next_out = (Bytef *)out + zs.total_out;
		zs.avail_out = (uInt)(cap - zs.total_out);
		z = inflate(&zs, Z_NO_FLUSH);
	}
	*len = zs.total_out;
	inflateEnd(&zs);
	if (z != Z_STREAM_END) {
		free(out);
		*len = 0;
		rc = -1;
		snprintf(why, whylen, "the run's JSON in the log does not unpack (zlib %d)", z);
		goto free_frames;
	}
	out[*len] = '\0';
	*json = out;
	rc = 1;
free_frames:
	proto_result_free(&pr);
	return rc;
}

/* The workload whose headline metrics the case's measurements are (they
 * are all a case reports), so that compare judges them as its own. */
static const struct workload *lava_workload_of(const char *const *metrics, size_t n)
{
	for (const struct workload *const *w = workloads; *w; w++) {
		size_t k = 0;
		while (k < n && workload_metric_headline((*w)->name, metrics[k]))
			k++;
		if (n && k == n)
			return *w;
	}
	return NULL;
}

static const struct metric_def *lava_metric_def(const struct workload *w, const char *name)
{
	for (const struct metric_def *d = w ? w->metrics : NULL; d && d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static enum outcome lava_outcome(const char *result)
{
	return !strcmp(result, "pass") ? OUTCOME_PASS : !strcmp(result, "skip") ? OUTCOME_SKIP : OUTCOME_FAIL;
}

/* A case's metric, "CASE.METRIC" with a measurement: the metric's name. */
static const char *lava_metric_of(const struct lava_case *c, const char *cname)
{
	size_t n = strlen(cname);
	if (!c->has_measurement || strncmp(c->name, cname, n) || c->name[n] != '.')
		return NULL;
	return c->name + n + 1;
}

static void lava_fill_case(struct run_case *rc, const struct lava_results *r, const struct lava_case *head)
{
	const char *metrics[64];
	size_t nm = 0;
	for (size_t i = 0; i < r->ncases && nm < 64; i++) {
		const char *m = lava_metric_of(&r->cases[i], head->name);
		if (m && !strcmp(r->cases[i].suite ? r->cases[i].suite : "", head->suite ? head->suite : ""))
			metrics[nm++] = m;
	}
	const struct workload *w = lava_workload_of(metrics, nm);
	rc->name = xstrdup(head->name);
	rc->workload = xstrdup(w ? w->name : "lava");
	rc->options = json_pack("{ss}", "lava_suite", head->suite ? head->suite : "");
	rc->iters = xcalloc(1, sizeof(*rc->iters));
	rc->iter_no = xcalloc(1, sizeof(int));
	rc->niter = 1;
	struct result *res = &rc->iters[0];
	result_init(res, rc->workload);
	enum outcome o = lava_outcome(head->result);
	if (o != OUTCOME_PASS)
		result_set_outcome(res, o, "LAVA reported %s", head->result);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct lava_case *c = &r->cases[i];
		const char *m = lava_metric_of(c, head->name);
		if (!m || strcmp(c->suite ? c->suite : "", head->suite ? head->suite : ""))
			continue;
		const struct metric_def *d = lava_metric_def(w, m);
		if (d)
			result_metric_def(res, d, c->measurement);
		else
			result_metric(res, m, c->units ? c->units : "", BETTER_NONE, COMBINE_AMEAN, c->measurement);
	}
}

/* A UUID for a run the device did not name: made from the job, so that
 * importing the same job again finds it. */
static char *lava_job_uuid(const struct lava_results *r)
{
	uint64_t h[2] = { 1469598103934665603ull, 1099511628211ull };
	char *key = xasprintf("%s|%s|%.0f", r->job_id ? r->job_id : "", r->device ? r->device : "", r->started);
	for (const char *p = key; *p; p++) {
		h[0] = (h[0] ^ (unsigned char)*p) * 1099511628211ull;
		h[1] = (h[1] ^ (unsigned char)*p) * 1469598103934665603ull + 7;
	}
	free(key);
	return xasprintf("%08x-%04x-5%03x-%04x-%012llx", (unsigned)(h[0] >> 32), (unsigned)(h[0] >> 16) & 0xffff,
			 (unsigned)h[0] & 0xfff, 0x8000 | ((unsigned)(h[1] >> 48) & 0x3fff),
			 (unsigned long long)(h[1] & 0xffffffffffffull));
}

struct run *lava_results_run(const struct lava_results *r, const char *name)
{
	size_t ncase = 0;
	const char *uuid = NULL, *suite = NULL;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct lava_case *c = &r->cases[i];
		if (c->suite && !strcmp(c->suite, "lava"))
			continue;
		if (!strcmp(c->name, "vmregress-run") && c->reference && !strncmp(c->reference, "urn:uuid:", 9))
			uuid = c->reference + 9;
		else if (!c->has_measurement)
			ncase++, suite = c->suite;
	}
	if (!ncase)
		return NULL;
	struct run *run = xcalloc(1, sizeof(*run));
	run->cases = xcalloc(ncase, sizeof(*run->cases));
	for (size_t i = 0; i < r->ncases; i++) {
		const struct lava_case *c = &r->cases[i];
		if ((c->suite && !strcmp(c->suite, "lava")) || c->has_measurement || !strcmp(c->name, "vmregress-run"))
			continue;
		lava_fill_case(&run->cases[run->ncases++], r, c);
	}
	struct run_info *ri = &run->info;
	ri->uuid = uuid ? xstrdup(uuid) : lava_job_uuid(r);
	ri->suite = xasprintf("lava:%s", suite ? suite : "vmregress");
	ri->status = xstrdup("complete");
	ri->kernel = r->kernel ? xstrdup(r->kernel) : NULL;
	ri->host = xstrdup(r->device ? r->device : "lava");
	ri->started = r->started;
	ri->ended = r->ended;
	ri->ncases = ri->niterations = run->ncases;
	run->env = json_pack("{s{ss*} ss* s{}}", "kernel", "release", r->kernel, "hostname", r->device, "lava");
	lava_results_tag(run, r, name, "measurements");
	return run;
}

void lava_results_tag(struct run *run, const struct lava_results *r, const char *name, const char *from)
{
	free(run->info.name);
	run->info.name = xstrdup(name);
	if (!run->info.tag)
		run->info.tag = xstrdup("lava");
	if (!json_is_object(run->env)) {
		json_decref(run->env);
		run->env = json_object();
	}
	json_t *l = json_object_get(run->env, "lava");
	if (!json_is_object(l)) {
		l = json_object();
		json_object_set_new(run->env, "lava", l);
	}
	/* what the device recorded stands; the import knows the rest */
	const char *keys[] = { "job_id", "device", "device_type" }, *vals[] = { r->job_id, r->device, r->device_type };
	for (size_t i = 0; i < 3; i++)
		if (vals[i] && !json_string_length(json_object_get(l, keys[i])))
			json_object_set_new(l, keys[i], json_string(vals[i]));
	if (r->job_result)
		json_object_set_new(l, "job_result", json_string(r->job_result));
	json_object_set_new(l, "from", json_string(from));
}
