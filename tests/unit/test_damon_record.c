/* DAMON recording: which kdamond may be used without losing what someone
 * else set (sysfs trees written in a temporary directory, since the real
 * interface cannot be put in each state on one host), the journal record
 * that puts it back, and the trace built from DAMON's regions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "refs/record_damon.h"
#include "sandbox/damonctl.h"
#include "sandbox/journal.h"
#include "t.h"

static char root[256];

static void put(const char *rel, const char *value)
{
	char path[512], *dir;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	dir = xstrdup(path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	free(dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", value);
		fclose(f);
	}
}

static void fresh(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/kdamonds'", root, root);
	if (system(cmd) != 0)
		exit(1);
}

static int pick(struct damonctl *c, char *why)
{
	why[0] = '\0';
	return damonctl_pick(root, c, why, 512);
}

/* a kdamond: its state and, with ops, a context offering those operations */
static void kdamond(int i, const char *state, const char *ops)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "kdamonds/%d/state", i);
	put(rel, state);
	snprintf(rel, sizeof(rel), "kdamonds/%d/contexts/nr_contexts", i);
	put(rel, ops ? "1" : "0");
	if (ops) {
		snprintf(rel, sizeof(rel), "kdamonds/%d/contexts/0/avail_operations", i);
		put(rel, ops);
	}
}

static void test_pick(void)
{
	struct damonctl c;
	char why[512] = "";

	snprintf(root, sizeof(root), "/tmp/vmr-damon-test.%d", (int)getpid());
	fresh();
	rmdir(root);
	/* a kernel without the interface says so */
	CHECK(pick(&c, why) == -2 && strstr(why, "no DAMON sysfs interface"), "no DAMON: refused (%s)", why);

	fresh();
	put("kdamonds/nr_kdamonds", "0");
	CHECK(pick(&c, why) == 0 && c.added && c.kdamond == 0, "no kdamond: one is added as kdamond 0");

	/* a blank kdamond (off, no context) is used as it is: nothing to lose */
	put("kdamonds/nr_kdamonds", "2");
	kdamond(0, "off", "vaddr\nfvaddr\npaddr");
	kdamond(1, "off", NULL);
	CHECK(pick(&c, why) == 0 && !c.added && c.kdamond == 1, "a blank kdamond 1 is used, nothing added (%s)", why);

	/* configured and off: writing nr_kdamonds would wipe it */
	fresh();
	put("kdamonds/nr_kdamonds", "1");
	kdamond(0, "off", "vaddr\nfvaddr\npaddr");
	CHECK(pick(&c, why) == -2 && strstr(why, "configured and off"), "a configured kdamond is never dropped (%s)", why);

	/* one on: the kernel refuses every nr_kdamonds write (EBUSY) */
	kdamond(0, "on", "vaddr\nfvaddr\npaddr");
	CHECK(pick(&c, why) == -2 && strstr(why, "kdamond 0 is on"), "a running kdamond: refused (%s)", why);

	/* this host's case: paddr only, and kdamond 0 on */
	kdamond(0, "on", "paddr");
	CHECK(pick(&c, why) == -2 && strstr(why, "avail_operations: paddr") && strstr(why, "kdamond 0 is on"),
	      "paddr only: refused naming both reasons (%s)", why);

	/* "fvaddr" (fixed virtual addresses) is not "vaddr" */
	kdamond(0, "off", "fvaddr\npaddr");
	put("kdamonds/nr_kdamonds", "2");
	kdamond(1, "off", NULL);
	CHECK(pick(&c, why) == -2 && strstr(why, "no virtual addresses"), "fvaddr is not vaddr (%s)", why);

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "fixture tree removed");
}

/* The record type damonctl registered for its kind ("damon"). */
static enum jrec_type damon_type(void)
{
	for (int t = JREC_KINDS; journal_kind((enum jrec_type)t); t++)
		if (!strcmp(journal_kind((enum jrec_type)t)->name, "damon"))
			return (enum jrec_type)t;
	return JREC_KNOB;
}

static void test_journal(void)
{
	const enum jrec_type JREC_DAMON = damon_type();
	CHECK(JREC_DAMON >= JREC_KINDS, "damonctl registered its kind of journal record");
	struct jrec r = { .type = JREC_DAMON, .id = 2, .value = "added:4242" }, back = { .type = JREC_KNOB };
	char line[512];
	const char *why = "";
	int n = journal_format(line, sizeof(line), &r);
	if (n > 0)
		line[n - 1] = '\0';  /* the newline */
	CHECK(n > 0 && !strncmp(line, "damon 2 added:4242 #", 20), "a DAMON record is 'damon 2 added:4242' (%s)", line);
	CHECK(journal_parse_line(line, (size_t)n - 1, &back, &why) == 0 && back.type == JREC_DAMON && back.id == 2 &&
	      !strcmp(back.value, "added:4242"), "and parses back (%s)", why);

	static const char *const bad[] = { "damon 2 added:", "damon 2 added:0", "damon 2 taken:42", "damon 64 added:1",
					   "damon x blank:1", "damon 2 blank:12x" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char text[128];
		int t = snprintf(text, sizeof(text), "%s #%08x", bad[i], journal_crc32(bad[i], strlen(bad[i])));
		CHECK(journal_parse_line(text, (size_t)t, &back, &why) < 0, "'%s' is refused (%s)", bad[i], why);
	}
	CHECK(damonctl_value_ok("blank:7") && !damonctl_value_ok("blank:-7"), "blank:PID is a DAMON value");
}

static void test_build(void)
{
	/* interval 0: pages 100-103 hot (3 of 20 samples), 200-201 once, 300-309 never;
	 * interval 1: 102-105 twice */
	const struct refs_damon_region r[] = {
		{ 100, 104, 3, 0 }, { 200, 202, 1, 0 }, { 300, 310, 0, 0 }, { 102, 106, 2, 1 },
	};
	struct refs_header h = { .page_size = 4096, .flags = REFS_FLAG_SAMPLED };
	struct refs_out out = { 0 };
	snprintf(h.desc, sizeof(h.desc), "recorded test");
	int rc = refs_damon_build(r, ARRAY_SIZE(r), &h, &out);
	CHECK(rc == 0, "regions build a trace");
	if (rc)
		return;
	/* the region: 100-105 (ranks 0-5) and 200-201 (ranks 6-7); 300-309 never accessed */
	CHECK_EQ_U(out.h.pages, 8, "pages: the accessed ones only");
	CHECK_EQ_U(out.h.references, 4 * 3 + 2 * 1 + 4 * 2, "references: pages x nr_accesses");
	static const uint32_t want[] = {
		0, 1, 2, 3, 6, 7, /* k = 1: both regions of interval 0 */
		0, 1, 2, 3,       /* k = 2 */
		0, 1, 2, 3,       /* k = 3 */
		2, 3, 4, 5,       /* interval 1, k = 1 */
		2, 3, 4, 5,       /* k = 2 */
	};
	int same = out.h.references == ARRAY_SIZE(want);
	for (size_t i = 0; same && i < ARRAY_SIZE(want); i++)
		same = refs_at(out.body, i) == want[i];
	CHECK(same, "each interval: every page of a region once per access counted, in address order");
	refs_out_free(&out);

	const struct refs_damon_region idle[] = { { 1, 5, 0, 0 } };
	CHECK(refs_damon_build(idle, 1, &h, &out) == -1, "nothing accessed: no trace");
}

int main(void)
{
	test_pick();
	test_journal();
	test_build();
	T_DONE();
}
