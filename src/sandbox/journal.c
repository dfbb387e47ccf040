#include "sandbox/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/owner.h"
#include "sandbox/knobs.h"

uint32_t journal_crc32(const void *buf, size_t len)
{
	return (uint32_t)crc32_z(0, buf, len);
}

static const char *const jrec_names[] = {
	[JREC_KNOB] = "knob", [JREC_SWAPFILE] = "swapfile", [JREC_SWAPON] = "swapon",
	[JREC_ZRAM] = "zram", [JREC_CGROUP] = "cgroup",
};

static const struct jrec_kind *journal_kinds[JOURNAL_MAX_KINDS];
static int journal_nkinds;

int journal_kind_register(const struct jrec_kind *k)
{
	if (journal_nkinds == JOURNAL_MAX_KINDS)
		return -1;
	for (int i = 0; i < journal_nkinds; i++)
		if (!strcmp(journal_kinds[i]->name, k->name))
			return -1;
	journal_kinds[journal_nkinds] = k;
	return JREC_KINDS + journal_nkinds++;
}

const struct jrec_kind *journal_kind(enum jrec_type t)
{
	int i = (int)t - JREC_KINDS;
	return i >= 0 && i < journal_nkinds ? journal_kinds[i] : NULL;
}

/* A word in a journal as written: printable, no spaces, not empty. */
static bool journal_word_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == '#')
			return false;
	return true;
}

/* Whether byte c is written as an escape: what would end or hide a word,
 * and the backslash that starts an escape. */
static bool journal_escaped(unsigned char c)
{
	return c <= ' ' || c > '~' || c == '#' || c == '\\';
}

/* A path or value as one word: the bytes journal_escaped names as "\ooo",
 * octal, as the kernel writes a path in /proc/swaps ("/var/state\040dir"). */
static const char *journal_escape(char *out, size_t len, const char *s)
{
	size_t at = 0;
	for (; *s && at + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (journal_escaped(c))
			at += (size_t)snprintf(out + at, len - at, "\\%03o", c);
		else
			out[at++] = (char)c;
	}
	out[at] = '\0';
	return out;
}

/* Undo journal_escape in place: 0, or -1 for a backslash not followed by
 * three octal digits, an escape of NUL or of a byte written as itself. */
static int journal_unescape(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		int c = 0;
		for (int i = 1; i <= 3; i++) {
			if (r[i] < '0' || r[i] > '7')
				return -1;
			c = c * 8 + (r[i] - '0');
		}
		if (c == 0 || c > 0xff || !journal_escaped((unsigned char)c))
			return -1;
		*w++ = (char)c;
		r += 3;
	}
	*w = '\0';
	return 0;
}

static int journal_text(char *buf, size_t len, const struct jrec *r)
{
	char path[JOURNAL_WORD_MAX], value[JOURNAL_WORD_MAX];
	journal_escape(path, sizeof(path), r->path);
	journal_escape(value, sizeof(value), r->value);
	switch (r->type) {
	case JREC_KNOB:
		return snprintf(buf, len, "knob %s %s", path, value);
	case JREC_ZRAM:
		return snprintf(buf, len, "zram %d %s", r->id, value);
	case JREC_SWAPFILE:
	case JREC_SWAPON:
	case JREC_CGROUP:
		return snprintf(buf, len, "%s %s", jrec_names[r->type], path);
	case JREC_KINDS:
		break;
	}
	const struct jrec_kind *k = journal_kind(r->type);
	return k ? snprintf(buf, len, "%s %d %s", k->name, r->id, value) : -1;
}

int journal_format(char *buf, size_t len, const struct jrec *r)
{
	char text[2 * JOURNAL_WORD_MAX + 32];
	int n = journal_text(text, sizeof(text), r);
	if (n < 0 || (size_t)n >= sizeof(text))
		return -1;
	int m = snprintf(buf, len, "%s #%08" PRIx32 "\n", text, journal_crc32(text, (size_t)n));
	return m < 0 || (size_t)m >= len ? -1 : m;
}

/* Split "TEXT #crc" and check the checksum; *tlen is the text's length. */
static int journal_check_crc(const char *line, size_t len, size_t *tlen, const char **why)
{
	if (len < 11 || line[len - 10] != ' ' || line[len - 9] != '#') {
		*why = "no checksum";
		return -1;
	}
	uint32_t want = 0;
	for (size_t i = len - 8; i < len; i++) {
		char c = line[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (v < 0) {
			*why = "no checksum";
			return -1;
		}
		want = want << 4 | (uint32_t)v;
	}
	*tlen = len - 10;
	if (journal_crc32(line, *tlen) != want) {
		*why = "bad checksum";
		return -1;
	}
	return 0;
}

/* Whether name is a registered kind's, with its type into *t. */
static bool journal_kind_named(const char *name, enum jrec_type *t)
{
	for (int i = 0; i < journal_nkinds; i++)
		if (!strcmp(journal_kinds[i]->name, name)) {
			*t = (enum jrec_type)(JREC_KINDS + i);
			return true;
		}
	return false;
}

/* Copy the next space-separated word of [*p, end) into out: as written in
 * a journal of version 1, unescaped from version 2 on. */
static int journal_word(const char **p, const char *end, int ver, char *out, size_t len)
{
	char word[JOURNAL_WORD_MAX];
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	const char *w = s;
	while (s < end && *s != ' ')
		s++;
	size_t n = (size_t)(s - w);
	if (n == 0 || n >= sizeof(word))
		return -1;
	memcpy(word, w, n);
	word[n] = '\0';
	*p = s;
	if (!journal_word_ok(word) || (ver >= 2 && journal_unescape(word) < 0) || strlen(word) >= len)
		return -1;
	strcpy(out, word);
	return 0;
}

/* "added", "reused" or "reused:ALGO" (the algorithm to put back). */
static bool journal_zram_mode_ok(const char *v)
{
	if (!strcmp(v, "added") || !strcmp(v, "reused"))
		return true;
	if (strncmp(v, "reused:", 7) || !v[7] || strlen(v + 7) >= 32)
		return false;
	for (const char *p = v + 7; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return false;
	return true;
}

/* Whether a record of this kind holds a path alone. */
static bool journal_path_kind(const char *kind)
{
	for (size_t i = JREC_SWAPFILE; i <= JREC_CGROUP; i++)
		if (!strcmp(kind, jrec_names[i]))
			return true;
	return false;
}

/* The rest of [*p, end) after its leading spaces into out: the path of a
 * record of version 1, which was written as it was, spaces and all (a
 * state directory with a space in its path wrote such a journal). */
static int journal_rest(const char **p, const char *end, char *out, size_t len)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	size_t n = (size_t)(end - s);
	if (n == 0 || n >= len)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (s[i] < ' ' || s[i] > '~' || s[i] == '#')
			return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	*p = end;
	return 0;
}

/* One record of a journal of version ver (the header's). */
static int journal_parse_record(const char *line, size_t len, int ver, struct jrec *r, const char **why)
{
	size_t tlen;
	if (memchr(line, '\0', len)) {
		*why = "contains a NUL byte";
		return -1;
	}
	if (journal_check_crc(line, len, &tlen, why) < 0)
		return -1;
	const char *p = line, *end = line + tlen;
	char kind[16], arg[JOURNAL_PATH_MAX];
	memset(r, 0, sizeof(*r));
	if (journal_word(&p, end, ver, kind, sizeof(kind)) < 0) {
		*why = "no record type";
		return -1;
	}
	*why = "malformed record";
	if (ver == 1 && journal_path_kind(kind)) {
		if (journal_rest(&p, end, arg, sizeof(arg)) < 0)
			return -1;
	} else if (journal_word(&p, end, ver, arg, sizeof(arg)) < 0)
		return -1;
	if (!strcmp(kind, "knob")) {
		r->type = JREC_KNOB;
		if (!knob_find(arg)) {
			*why = "knob not on the allow-list";
			return -1;
		}
		strcpy(r->path, arg);
		if (journal_word(&p, end, ver, r->value, sizeof(r->value)) < 0)
			return -1;
	} else if (!strcmp(kind, "zram")) {
		const char *q = arg;
		unsigned long long id;
		r->type = JREC_ZRAM;
		if (owner_number(&q, &id) < 0 || *q || id > 9999)
			return -1;
		r->id = (int)id;
		if (journal_word(&p, end, ver, r->value, sizeof(r->value)) < 0 || !journal_zram_mode_ok(r->value))
			return -1;
	} else if (journal_kind_named(kind, &r->type)) {
		const struct jrec_kind *k = journal_kind(r->type);
		const char *q = arg;
		unsigned long long id;
		if (owner_number(&q, &id) < 0 || *q || id > (unsigned long long)k->id_max)
			return -1;
		r->id = (int)id;
		if (journal_word(&p, end, ver, r->value, sizeof(r->value)) < 0 || !k->value_ok(r->value))
			return -1;
	} else {
		size_t i;
		for (i = JREC_SWAPFILE; i <= JREC_CGROUP; i++)
			if (!strcmp(kind, jrec_names[i]))
				break;
		if (i > JREC_CGROUP) {
			*why = "unknown record type";
			return -1;
		}
		r->type = (enum jrec_type)i;
		if (arg[0] != '/' || strstr(arg, "/../") || strstr(arg, "/./") || strstr(arg, "//")) {
			*why = "path is not absolute and plain";
			return -1;
		}
		strcpy(r->path, arg);
	}
	while (p < end && *p == ' ')
		p++;
	if (p != end) {
		*why = "trailing words";
		return -1;
	}
	return 0;
}

int journal_parse_line(const char *line, size_t len, struct jrec *r, const char **why)
{
	return journal_parse_record(line, len, JOURNAL_VERSION, r, why);
}

static int journal_parse_header(const char *line, size_t len, struct owner *o, int *version, const char **why)
{
	size_t tlen;
	if (journal_check_crc(line, len, &tlen, why) < 0)
		return -1;
	char text[128];
	if (tlen >= sizeof(text)) {
		*why = "not a vmregress journal";
		return -1;
	}
	memcpy(text, line, tlen);
	text[tlen] = '\0';
	int ver, pid, n = 0;
	unsigned long long start;
	if (sscanf(text, JOURNAL_MAGIC " %d %d %llu%n", &ver, &pid, &start, &n) != 3 ||
	    (size_t)n != tlen || pid <= 0) {
		*why = "not a vmregress journal";
		return -1;
	}
	if (ver < 1 || ver > JOURNAL_VERSION) {
		*why = "journal version unknown to this vmregress";
		return -1;
	}
	*version = ver;
	o->pid = pid;
	o->start = start;
	return 0;
}

/* The base name of a path and its directory, without changing the path. */
static const char *journal_base(const char *path, char *dir, size_t dlen)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	if (n >= dlen)
		n = dlen - 1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return slash ? slash + 1 : path;
}

/* A record's paths must be ones vmregress makes for this owner. */
static const char *journal_check_rec(const struct jrec *r, const struct owner *o, const char *swapdir,
				     const struct jrec *recs, size_t n)
{
	char dir[JOURNAL_PATH_MAX];
	struct owner ro = { 0 };
	int seq;
	const char *base = journal_base(r->path, dir, sizeof(dir));
	switch (r->type) {
	case JREC_KNOB:
	case JREC_ZRAM:
		return NULL;
	case JREC_CGROUP:
		if (owner_name_parse(base, NULL, &ro, &seq) < 0 || ro.pid != o->pid || ro.start != o->start)
			return "cgroup not named for this journal's owner";
		return NULL;
	case JREC_SWAPFILE:
		if (owner_name_parse(base, ".swap", &ro, &seq) < 0 || ro.pid != o->pid || ro.start != o->start)
			return "swap file not named for this journal's owner";
		if (swapdir && strcmp(dir, swapdir))
			return "swap file outside the state directory";
		return NULL;
	case JREC_SWAPON:
		if (!strncmp(r->path, "/dev/zram", 9)) {
			const char *q = r->path + 9;
			unsigned long long id;
			if (owner_number(&q, &id) == 0 && !*q)
				return NULL;
		}
		for (size_t i = 0; i < n; i++)
			if (recs[i].type == JREC_SWAPFILE && !strcmp(recs[i].path, r->path))
				return NULL;
		return "swapon of a device this journal did not create";
	case JREC_KINDS:
		break;
	}
	return journal_kind(r->type) ? NULL : "unknown record type";
}

int journal_parse(const char *buf, size_t len, const char *swapdir, struct owner *owner,
		  struct jrec *recs, size_t max, char *why, size_t whylen)
{
	size_t n = 0, lineno = 0;
	int ver = 0;
	const char *p = buf, *end = buf + len;
	const char *reason;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;  /* a write cut short: its change was never made */
		size_t llen = (size_t)(nl - p);
		lineno++;
		if (lineno == 1) {
			if (journal_parse_header(p, llen, owner, &ver, &reason) < 0)
				goto bad;
		} else {
			if (n >= max) {
				reason = "too many records";
				goto bad;
			}
			if (journal_parse_record(p, llen, ver, &recs[n], &reason) < 0)
				goto bad;
			if ((reason = journal_check_rec(&recs[n], owner, swapdir, recs, n)))
				goto bad;
			n++;
		}
		p = nl + 1;
	}
	if (lineno == 0) {
		snprintf(why, whylen, "no header line");
		return -1;
	}
	return (int)n;
bad:
	snprintf(why, whylen, "line %zu: %s", lineno, reason);
	return -1;
}

static int journal_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

int journal_create(const char *path, const struct owner *o)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	char text[128], line[160];
	int n = snprintf(text, sizeof(text), JOURNAL_MAGIC " %d %d %llu", JOURNAL_VERSION, o->pid, o->start);
	int m = snprintf(line, sizeof(line), "%s #%08" PRIx32 "\n", text, journal_crc32(text, (size_t)n));
	int e = journal_write_all(fd, line, (size_t)m);
	if (e < 0) {
		close(fd);
		unlink(path);
		return e;
	}
	return fd;
}

int journal_append(int fd, const struct jrec *r)
{
	char line[2 * JOURNAL_WORD_MAX + 48];
	int n = journal_format(line, sizeof(line), r);
	if (n < 0)
		return -ENAMETOOLONG;
	return journal_write_all(fd, line, (size_t)n);
}
