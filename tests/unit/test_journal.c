/* The journal decides what cleanup undoes after a kill -9, so it must parse
 * exactly what it wrote and refuse anything else: a flipped byte, a foreign
 * path, a record for another owner.  A torn last line is a change that was
 * never made and is ignored. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/journal.h"
#include "sandbox/undo.h"
#include "t.h"

static const struct owner owner = { 1234, 987654 };

/* A journal text with header and the given records. */
static size_t build(char *buf, size_t len, const struct owner *o, const struct jrec *recs, int n)
{
	char text[128];
	int t = snprintf(text, sizeof(text), "vmregress-journal %d %d %llu", JOURNAL_VERSION, o->pid, o->start);
	size_t at = (size_t)snprintf(buf, len, "%s #%08x\n", text, journal_crc32(text, (size_t)t));
	for (int i = 0; i < n; i++)
		at += (size_t)journal_format(buf + at, len - at, &recs[i]);
	return at;
}

static int parse(const char *buf, size_t len, struct jrec *out, char *why)
{
	struct owner o = { 0 };
	return journal_parse(buf, len, "/var/lib/vmregress/swap", &o, out, JOURNAL_MAX_RECS, why, 160);
}

/* A kind of record a module above the core registers: the journal and
 * undo reach it through the table alone (as damonctl's "damon"). */
static int undone_id = -1;
static char undone_value[JOURNAL_VALUE_MAX];

static bool test_value_ok(const char *value)
{
	return !strncmp(value, "on:", 3);
}

static int test_undo(int id, const char *value)
{
	undone_id = id;
	snprintf(undone_value, sizeof(undone_value), "%s", value);
	return 0;
}

static void test_kinds(void)
{
	static const struct jrec_kind kind = {
		.name = "testkind", .id_max = 7, .value_ok = test_value_ok, .undo = test_undo,
		.what = "test thing", .done = "undone", .cannot = "cannot undo the test thing",
		.path_prefix = "/test/", .value_key = "state",
	};
	int t = journal_kind_register(&kind);
	CHECK(t >= JREC_KINDS && journal_kind((enum jrec_type)t) == &kind, "a module registers a kind: type %d", t);
	CHECK(journal_kind_register(&kind) < 0, "a name is registered once");
	CHECK(!journal_kind(JREC_CGROUP), "the core's own types are no registered kind");

	struct jrec recs[2] = {
		{ .type = JREC_CGROUP, .path = "/sys/fs/cgroup/memory/vmregress-1234-987654-0" },
		{ .type = (enum jrec_type)t, .id = 5, .value = "on:99" },
	}, out[JOURNAL_MAX_RECS] = { 0 };
	char buf[1024], why[160] = "";
	size_t len = build(buf, sizeof(buf), &owner, recs, 2);
	CHECK(strstr(buf, "\ntestkind 5 on:99 #") != NULL, "its record is written as NAME ID VALUE");
	int n = parse(buf, len, out, why);
	CHECK(n == 2 && out[1].type == (enum jrec_type)t && out[1].id == 5 && !strcmp(out[1].value, "on:99"),
	      "and read back as its kind (%s)", n < 0 ? why : "ok");

	static const char *const bad[] = { "testkind 8 on:1", "testkind 5 off:1", "otherkind 5 on:1" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char text[128];
		const char *w = "";
		struct jrec back = { 0 };
		int k = snprintf(text, sizeof(text), "%s #%08x", bad[i], journal_crc32(bad[i], strlen(bad[i])));
		CHECK(journal_parse_line(text, (size_t)k, &back, &w) < 0, "'%s' is refused (%s)", bad[i], w);
	}

	CHECK(n == 2 && undo_rec(&out[1], &owner) == 0 && undone_id == 5 && !strcmp(undone_value, "on:99"),
	      "undo puts it back through the kind's own undo");
}

/* A journal of one raw record line (TEXT, its checksum added) under a
 * header of version ver. */
static size_t build_raw(char *buf, size_t len, int ver, const char *rec)
{
	char text[128];
	int t = snprintf(text, sizeof(text), "vmregress-journal %d %d %llu", ver, owner.pid, owner.start);
	size_t at = (size_t)snprintf(buf, len, "%s #%08x\n", text, journal_crc32(text, (size_t)t));
	if (rec)
		at += (size_t)snprintf(buf + at, len - at, "%s #%08x\n", rec, journal_crc32(rec, strlen(rec)));
	return at;
}

/* A state directory whose path holds a space (or '#', or a backslash): the
 * path is one word, escaped as /proc/swaps escapes it, and reads back
 * whole; a journal of version 1 is read as it was written. */
static void test_escapes(void)
{
	static const char dir[] = "/var/lib/vm state#\\x/swap";
	struct jrec recs[2] = { { .type = JREC_SWAPFILE }, { .type = JREC_SWAPON } }, out[JOURNAL_MAX_RECS] = { 0 };
	snprintf(recs[0].path, sizeof(recs[0].path), "%s/vmregress-1234-987654-0.swap", dir);
	snprintf(recs[1].path, sizeof(recs[1].path), "%s", recs[0].path);
	char buf[2048], why[160] = "";
	size_t len = build(buf, sizeof(buf), &owner, recs, 2);
	CHECK(strstr(buf, "\nswapfile /var/lib/vm\\040state\\043\\134x/swap/vmregress-1234-987654-0.swap #"),
	      "a space, '#' and '\\' in a path are written as octal escapes");
	struct owner o = { 0 };
	int n = journal_parse(buf, len, dir, &o, out, JOURNAL_MAX_RECS, why, sizeof(why));
	CHECK(n == 2 && !strcmp(out[0].path, recs[0].path) && !strcmp(out[1].path, recs[0].path),
	      "and read back whole, in its state directory (%s)", n < 0 ? why : out[0].path);

	/* version 1: every word as written, a backslash included */
	len = build_raw(buf, sizeof(buf), 1, "swapfile /var/lib/a\\040b/swap/vmregress-1234-987654-0.swap");
	n = journal_parse(buf, len, "/var/lib/a\\040b/swap", &o, out, JOURNAL_MAX_RECS, why, sizeof(why));
	CHECK(n == 1 && !strcmp(out[0].path, "/var/lib/a\\040b/swap/vmregress-1234-987654-0.swap"),
	      "a journal of version 1 is read word for word (%s)", n < 0 ? why : out[0].path);
	len = build_raw(buf, sizeof(buf), 1, "swapfile /var/lib/a b/swap/vmregress-1234-987654-0.swap");
	n = journal_parse(buf, len, "/var/lib/a b/swap", &o, out, JOURNAL_MAX_RECS, why, sizeof(why));
	CHECK(n == 1 && !strcmp(out[0].path, "/var/lib/a b/swap/vmregress-1234-987654-0.swap"),
	      "a path with a space, as version 1 wrote it, is the rest of its line (%s)", n < 0 ? why : out[0].path);
	len = build_raw(buf, sizeof(buf), JOURNAL_VERSION, "swapfile /var/lib/a b/swap/vmregress-1234-987654-0.swap");
	CHECK(journal_parse(buf, len, "/var/lib/a b/swap", &o, out, JOURNAL_MAX_RECS, why, sizeof(why)) < 0,
	      "but not from version 2 on, where it is escaped (%s)", why);
	len = build_raw(buf, sizeof(buf), 1, "knob vm.swappiness 60");
	CHECK(journal_parse(buf, len, NULL, &o, out, JOURNAL_MAX_RECS, why, sizeof(why)) == 1 &&
	      !strcmp(out[0].value, "60"), "and its knobs too (%s)", why);

	static const char *const bad[] = {
		"swapfile /var/lib/a\\04/swap/vmregress-1234-987654-0.swap",     /* two digits */
		"swapfile /var/lib/a\\089/swap/vmregress-1234-987654-0.swap",    /* not octal */
		"swapfile /var/lib/a\\000b/swap/vmregress-1234-987654-0.swap",   /* NUL */
		"swapfile /var/lib/\\141b/swap/vmregress-1234-987654-0.swap",    /* 'a', never escaped */
		"knob vm.swappiness 60\\",                                       /* cut short */
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		len = build_raw(buf, sizeof(buf), JOURNAL_VERSION, bad[i]);
		CHECK(journal_parse(buf, len, NULL, &o, out, JOURNAL_MAX_RECS, why, sizeof(why)) < 0,
		      "a bad escape is refused: '%s' (%s)", bad[i], why);
	}
	len = build_raw(buf, sizeof(buf), JOURNAL_VERSION + 1, NULL);
	CHECK(journal_parse(buf, len, NULL, &o, out, JOURNAL_MAX_RECS, why, sizeof(why)) < 0 && strstr(why, "version"),
	      "a later version is refused: %s", why);
}

int main(void)
{
	test_kinds();
	test_escapes();
	struct jrec recs[5] = {
		{ .type = JREC_KNOB, .path = "vm.swappiness", .value = "60" },
		{ .type = JREC_SWAPFILE, .path = "/var/lib/vmregress/swap/vmregress-1234-987654-0.swap" },
		{ .type = JREC_SWAPON, .path = "/var/lib/vmregress/swap/vmregress-1234-987654-0.swap" },
		{ .type = JREC_ZRAM, .id = 3, .value = "added" },
		{ .type = JREC_CGROUP, .path = "/sys/fs/cgroup/memory/vmregress-1234-987654-0" },
	};
	struct jrec out[JOURNAL_MAX_RECS] = { 0 };
	char buf[4096], why[160] = "";
	size_t len = build(buf, sizeof(buf), &owner, recs, 5);

	/* what was written reads back the same */
	int n = parse(buf, len, out, why);
	CHECK_EQ_U(n, 5, "a journal of 5 records parses (%s)", n < 0 ? why : "ok");
	CHECK(n == 5 && out[0].type == JREC_KNOB && !strcmp(out[0].path, "vm.swappiness") && !strcmp(out[0].value, "60"),
	      "knob record round-trips");
	CHECK(n == 5 && out[3].type == JREC_ZRAM && out[3].id == 3 && !strcmp(out[3].value, "added"),
	      "zram record round-trips");
	CHECK(n == 5 && !strcmp(out[4].path, recs[4].path), "cgroup record round-trips");

	/* a torn last line (no newline) is a change never made */
	n = parse(buf, len - 3, out, why);
	CHECK_EQ_U(n, 4, "a torn last record is ignored");

	/* every single flipped byte in a record is caught by its checksum */
	int caught = 0, total = 0;
	char *first_rec = strchr(buf, '\n') + 1;
	for (char *p = first_rec; p < buf + len; p++) {
		if (*p == '\n')
			continue;
		char saved = *p;
		*p ^= 0x01;
		total++;
		caught += parse(buf, len, out, why) < 0;
		*p = saved;
	}
	CHECK(caught == total, "every flipped byte is refused (%d of %d)", caught, total);
	buf[5] ^= 1;
	CHECK(parse(buf, len, out, why) < 0 && strstr(why, "line 1"), "a damaged header is refused: %s", why);
	buf[5] ^= 1;

	/* records that name things vmregress would not have made */
	struct jrec bad[] = {
		{ .type = JREC_CGROUP, .path = "/sys/fs/cgroup/memory/user.slice" },
		{ .type = JREC_CGROUP, .path = "/sys/fs/cgroup/memory/vmregress-999-987654-0" },
		{ .type = JREC_SWAPFILE, .path = "/etc/vmregress-1234-987654-0.swap" },
		{ .type = JREC_SWAPON, .path = "/dev/sda1" },
		{ .type = JREC_CGROUP, .path = "/sys/fs/cgroup/memory/../vmregress-1234-987654-0" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		len = build(buf, sizeof(buf), &owner, &bad[i], 1);
		CHECK(parse(buf, len, out, why) < 0, "foreign record '%s' refused: %s", bad[i].path, why);
	}

	/* a knob not on the allow-list, even with a good checksum */
	char text[] = "knob kernel.core_pattern |/bin/sh";
	char line[256];
	len = build(buf, sizeof(buf), &owner, NULL, 0);
	snprintf(line, sizeof(line), "%s #%08x\n", text, journal_crc32(text, strlen(text)));
	memcpy(buf + len, line, strlen(line) + 1);
	CHECK(parse(buf, len + strlen(line), out, why) < 0 && strstr(why, "allow-list"), "unknown knob refused: %s", why);

	/* a reused zram device names the algorithm to put back, a plain word */
	struct jrec z = { .type = JREC_ZRAM, .id = 0, .value = "reused:lzo-rle" };
	len = build(buf, sizeof(buf), &owner, &z, 1);
	CHECK(parse(buf, len, out, why) == 1 && !strcmp(out[0].value, "reused:lzo-rle"), "zram reused:ALGO parses");
	snprintf(z.value, sizeof(z.value), "reused:../../x");
	len = build(buf, sizeof(buf), &owner, &z, 1);
	CHECK(parse(buf, len, out, why) < 0, "zram reused: with a path refused: %s", why);
	snprintf(z.value, sizeof(z.value), "stolen");
	len = build(buf, sizeof(buf), &owner, &z, 1);
	CHECK(parse(buf, len, out, why) < 0, "zram with an unknown mode refused: %s", why);

	/* not a journal at all */
	CHECK(parse("hello\n", 6, out, why) < 0, "random text refused: %s", why);
	CHECK(parse("", 0, out, why) < 0, "empty file refused: %s", why);

	/* names */
	struct owner o = { 0 };
	int seq;
	char name[96];
	owner_name(name, sizeof(name), &owner, 7);
	CHECK_STR(name, "vmregress-1234-987654-7", "names carry owner and sequence");
	CHECK(owner_name_parse("vmregress-1234-987654-7.swap", ".swap", &o, &seq) == 0 && o.pid == 1234 &&
	      o.start == 987654 && seq == 7, "a swap file name parses");
	CHECK(owner_name_parse("vmregress-1234-987654-7.swap", NULL, &o, &seq) < 0, "suffix must match");
	CHECK(owner_name_parse("vmregress-test-1234", NULL, &o, &seq) < 0, "other names are not ours");
	CHECK(owner_name_parse("vmregress-0-1-1", NULL, &o, &seq) < 0, "pid 0 is not an owner");

	/* the owner check: this process is alive, a made-up start time is not */
	struct owner me = { 0 };
	CHECK(owner_self(&me) == 0 && owner_alive(&me), "this process is alive");
	me.start += 1;
	CHECK(!owner_alive(&me), "same pid, other start time: not the owner");
	CHECK_EQ_U(journal_crc32("123456789", 9), 0xcbf43926u, "CRC-32 check value");

	/* on disk: created exclusively, appended, read back whole */
	char dir[] = "/tmp/vmr-journal-XXXXXX";
	CHECK(mkdtemp(dir) != NULL, "temp dir");
	char *path = xasprintf("%s/j.journal", dir), *lnk = xasprintf("%s/l.journal", dir);
	int fd = journal_create(path, &owner);
	CHECK(fd >= 0, "journal_create makes a new file");
	for (int i = 0; i < 5 && fd >= 0; i++)
		CHECK(journal_append(fd, &recs[i]) == 0, "append record %d", i);
	if (fd >= 0)
		close(fd);
	CHECK(journal_create(path, &owner) == -EEXIST, "an existing journal is never reopened");
	CHECK(symlink(path, lnk) == 0 && journal_create(lnk, &owner) < 0, "a symlink is never followed");
	char *disk = NULL;
	size_t dlen = 0;
	CHECK(vmr_read_file(path, &disk, &dlen) == 0, "journal reads back");
	n = disk ? parse(disk, dlen, out, why) : -1;
	CHECK_EQ_U(n, 5, "what was appended parses (%s)", n < 0 ? why : "ok");
	free(disk);
	unlink(lnk);
	unlink(path);
	rmdir(dir);
	free(path);
	free(lnk);
	T_DONE();
}
