/* DAMON's sysfs interface, read-only. */
#include "probe/damon.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* One value file under dir into out ("" when it cannot be read). */
static void damon_value(const char *dir, const char *name, char *out, size_t outlen)
{
	struct sysfs_value v = { .name = "" };
	char *path = xasprintf("%s/%s", dir, name), *buf = NULL, err[PROBE_ERR_MAX] = "";
	size_t len;
	out[0] = '\0';
	if (vmr_read_file(path, &buf, &len) == 0 && sysfs_value_parse(&v, buf, len, err) == 0)
		snprintf(out, outlen, "%s", v.value);
	free(buf);
	free(path);
}

static uint64_t damon_u64(const char *dir, const char *name)
{
	char v[SYSFS_VALUE_MAX];
	damon_value(dir, name, v, sizeof(v));
	return strtoull(v, NULL, 10);
}

static void damon_kdamond_read(struct damon_kdamond *k, const char *kdir)
{
	char *ctx = xasprintf("%s/contexts/0", kdir), *iv = xasprintf("%s/monitoring_attrs/intervals", ctx);
	char *schemes = xasprintf("%s/schemes", ctx);
	memset(k, 0, sizeof(*k));
	damon_value(kdir, "state", k->state, sizeof(k->state));
	damon_value(ctx, "operations", k->operations, sizeof(k->operations));
	k->sample_us = damon_u64(iv, "sample_us");
	k->aggr_us = damon_u64(iv, "aggr_us");
	uint64_t n = damon_u64(schemes, "nr_schemes");
	for (uint64_t i = 0; i < n && k->nactions < DAMON_MAX_SCHEMES; i++) {
		char *sd = xasprintf("%s/%" PRIu64, schemes, i);
		damon_value(sd, "action", k->actions[k->nactions], sizeof(k->actions[0]));
		k->nactions += k->actions[k->nactions][0] != '\0';
		free(sd);
	}
	free(schemes);
	free(iv);
	free(ctx);
}

int damon_read(struct damon_state *d, const char *root, char *err)
{
	char *kd = xasprintf("%s/kdamonds", root ? root : DAMON_ADMIN), *path = xasprintf("%s/nr_kdamonds", kd);
	uint64_t n;
	int r = -1;
	memset(d, 0, sizeof(*d));
	if (vmr_read_u64(path, &n) < 0) {
		int e = errno;
		probe_err(err, 0, "cannot read %s: %s", path, strerror(e));
		errno = e;
		goto out;
	}
	d->nkdamonds = (size_t)n;
	for (size_t i = 0; i < d->nkdamonds && i < DAMON_MAX_KDAMONDS; i++) {
		char *kdir = xasprintf("%s/%zu", kd, i);
		damon_kdamond_read(&d->k[d->nread++], kdir);
		free(kdir);
	}
	r = 0;
out:
	free(path);
	free(kd);
	return r;
}

size_t damon_running(const struct damon_state *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nread; i++)
		n += !strcmp(d->k[i].state, "on");
	return n;
}

json_t *damon_json(const struct damon_state *d)
{
	json_t *ks = json_array();
	for (size_t i = 0; i < d->nread; i++) {
		const struct damon_kdamond *k = &d->k[i];
		json_t *acts = json_array();
		for (size_t a = 0; a < k->nactions; a++)
			json_array_append_new(acts, json_string(k->actions[a]));
		json_array_append_new(ks, json_pack("{s:s, s:s, s:o, s:I, s:I}", "state", k->state,
						    "operations", k->operations, "schemes", acts,
						    "sample_us", (json_int_t)k->sample_us, "aggr_us", (json_int_t)k->aggr_us));
	}
	return json_pack("{s:I, s:o}", "nr_kdamonds", (json_int_t)d->nkdamonds, "kdamonds", ks);
}
