#include "sandbox/oomlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "core/util.h"

/* A busy host logs a lot while a long workload runs; what is beyond this
 * is not read (the kill that ended the workload is near the end anyway). */
#define OOMLOG_MAX_MSGS 50000
#define OOMLOG_MAX_LINES 200

void oomlog_open(struct oomlog *ol)
{
	ol->err = 0;
	ol->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ol->fd < 0) {
		ol->err = errno;
		return;
	}
	if (lseek(ol->fd, 0, SEEK_END) < 0) {
		ol->err = errno;
		close(ol->fd);
		ol->fd = -1;
	}
}

void oomlog_close(struct oomlog *ol)
{
	if (ol->fd >= 0)
		close(ol->fd);
	ol->fd = -1;
}

/* A record is "PRIO,SEQ,USEC,FLAGS;TEXT\n" and dictionary lines; TEXT has
 * its non-printable bytes as \xNN, so a message of several lines (the
 * memory.stat dump of older kernels) is split at \x0a here. */
static void oomlog_add_record(struct strlist *msgs, const char *rec, size_t len)
{
	const char *semi = memchr(rec, ';', len);
	if (!semi)
		return;
	const char *p = semi + 1, *end = memchr(p, '\n', len - (size_t)(p - rec));
	if (!end)
		end = rec + len;
	char *line = xmalloc((size_t)(end - p) + 1);
	size_t n = 0;
	for (; p < end; p++) {
		unsigned int c;
		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' && sscanf(p + 2, "%2x", &c) == 1) {
			p += 3;
			if (c == '\n') {
				line[n] = '\0';
				strlist_add(msgs, line);
				n = 0;
				continue;
			}
			line[n++] = (char)c;
			continue;
		}
		line[n++] = *p;
	}
	line[n] = '\0';
	strlist_add(msgs, line);
	free(line);
}

/* Every record since the open; -errno when the log could not be read. */
static int oomlog_read(struct oomlog *ol, struct strlist *msgs)
{
	char rec[16384];
	while (msgs->n < OOMLOG_MAX_MSGS) {
		ssize_t n = read(ol->fd, rec, sizeof(rec) - 1);
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;  /* EPIPE: records were overwritten before we read them */
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (n == 0)
			return 0;
		oomlog_add_record(msgs, rec, (size_t)n);
	}
	return 0;
}

/* "memory: usage 65536kB, limit 65536kB, failcnt 16677" */
static json_t *oomlog_counter(const char *msg, const char *prefix)
{
	unsigned long long usage, limit, failcnt;
	size_t pl = strlen(prefix);
	if (strncmp(msg, prefix, pl) ||
	    sscanf(msg + pl, " usage %llukB, limit %llukB, failcnt %llu", &usage, &limit, &failcnt) != 3)
		return NULL;
	return json_pack("{sI sI sI}", "usage_kb", (json_int_t)usage, "limit_kb", (json_int_t)limit,
			 "failcnt", (json_int_t)failcnt);
}

/* A frame of the call trace, " try_charge_memcg+0x439/0x700": its name, or
 * NULL for a frame the unwinder is unsure of ("? ...") and other lines. */
static bool oomlog_frame(const char *msg, char *name, size_t len)
{
	while (*msg == ' ')
		msg++;
	if (*msg == '?' || *msg == '<')
		return false;
	size_t w = strcspn(msg, "+ ");
	if (!w || w >= len || strncmp(msg + w, "+0x", 3))
		return false;
	memcpy(name, msg, w);
	name[w] = '\0';
	return true;
}

/* "a < b < c": the frames that asked for the charge, nearest first (those
 * after the last memcg charge function of the trace). */
static json_t *oomlog_charged_in(const json_t *trace)
{
	size_t n = json_array_size(trace), from = 0;
	for (size_t i = 0; i < n; i++)
		if (strstr(json_string_value(json_array_get(trace, i)), "charge"))
			from = i + 1;
	if (!from || from >= n)
		return NULL;
	char buf[256] = "";
	for (size_t i = from; i < n && i < from + 3; i++) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, "%s%s", i > from ? " < " : "",
			 json_string_value(json_array_get(trace, i)));
	}
	return json_string(buf);
}

struct oomlog_block {
	json_t *rep;
	bool in_trace, in_stat;
};

static void oomlog_block_line(struct oomlog_block *b, const char *msg)
{
	json_t *lines = json_object_get(b->rep, "lines");
	if (json_array_size(lines) < OOMLOG_MAX_LINES)
		json_array_append_new(lines, json_string(msg));
	static const char *const counters[] = { "memory:", "memory+swap:", "swap:", "kmem:" };
	for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
		json_t *c = oomlog_counter(msg, counters[i]);
		if (c) {
			char key[16];
			snprintf(key, sizeof(key), "%.*s", (int)strlen(counters[i]) - 1, counters[i]);
			json_object_set_new(b->rep, key, c);
			b->in_trace = false;
			return;
		}
	}
	char name[128], key[96];
	unsigned long long v;
	if (strstr(msg, "Call Trace:")) {
		b->in_trace = true;
	} else if (b->in_trace && oomlog_frame(msg, name, sizeof(name))) {
		json_array_append_new(json_object_get(b->rep, "trace"), json_string(name));
	} else if (!strncmp(msg, "Memory cgroup stats for ", 24)) {
		b->in_trace = false;
		b->in_stat = true;
	} else if (!strncmp(msg, "Tasks state", 11)) {
		b->in_stat = false;
	} else if (b->in_stat && sscanf(msg, "%95[a-z_0-9.] %llu", key, &v) == 2) {
		json_object_set_new(json_object_get(b->rep, "stat"), key, json_integer((json_int_t)v));
	}
}

/* True when an "oom-kill:" line names memcg as the cgroup out of memory. */
static bool oomlog_names(const char *msg, const char *memcg)
{
	const char *p = strstr(msg, "oom_memcg=");
	if (!p)
		return false;
	p += strlen("oom_memcg=");
	size_t w = strcspn(p, ",");
	return w == strlen(memcg) && !strncmp(p, memcg, w);
}

static json_t *oomlog_new_block(const char *invoked)
{
	return json_pack("{ss s[] s{} s[s]}", "invoked", invoked, "trace", "stat", "lines", invoked);
}

json_t *oomlog_parse(const char *const *msgs, size_t n, const char *memcg)
{
	struct oomlog_block b = { 0 };
	json_t *ours = NULL;
	long kills = 0;
	bool want_killed = false;
	for (size_t i = 0; i < n; i++) {
		const char *m = msgs[i];
		if (strstr(m, " invoked oom-killer: ")) {
			json_decref(b.rep);
			b = (struct oomlog_block){ .rep = oomlog_new_block(m) };
		} else if (!strncmp(m, "oom-kill:", 9)) {
			if (b.rep && oomlog_names(m, memcg)) {
				kills++;
				if (!ours) {
					json_object_set_new(b.rep, "oom_kill", json_string(m));
					json_array_append_new(json_object_get(b.rep, "lines"), json_string(m));
					ours = b.rep;
					b.rep = NULL;
					want_killed = true;
				}
			}
			json_decref(b.rep);
			b.rep = NULL;
		} else if (want_killed && strstr(m, "Killed process")) {
			json_object_set_new(ours, "killed", json_string(m));
			json_array_append_new(json_object_get(ours, "lines"), json_string(m));
			want_killed = false;
		} else if (b.rep) {
			oomlog_block_line(&b, m);
		}
	}
	json_decref(b.rep);
	if (!ours)
		return json_pack("{ss}", "error", "no OOM report naming the sandbox's cgroup in the kernel log");
	json_t *at = oomlog_charged_in(json_object_get(ours, "trace"));
	if (at)
		json_object_set_new(ours, "charged_in", at);
	json_object_set_new(ours, "kills", json_integer(kills));
	return ours;
}

json_t *oomlog_collect(struct oomlog *ol, const char *cgroup_path)
{
	struct strlist msgs = { 0 };
	int e = ol->fd < 0 ? -(ol->err ? ol->err : EBADF) : oomlog_read(ol, &msgs);
	json_t *rep;
	if (e < 0) {
		char *why = xasprintf("cannot read /dev/kmsg: %s", strerror(-e));
		rep = json_pack("{ss}", "error", why);
		free(why);
	} else {
		const char *base = strrchr(cgroup_path, '/');
		char *memcg = xasprintf("/%s", base ? base + 1 : cgroup_path);
		rep = oomlog_parse((const char *const *)msgs.v, msgs.n, memcg);
		if (!json_object_get(rep, "error"))
			json_object_set_new(rep, "source", json_string("/dev/kmsg"));
		free(memcg);
	}
	strlist_free(&msgs);
	return rep;
}

static void oomlog_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void oomlog_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t l = strlen(buf);
	if (l >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + l, len - l, fmt, ap);
	va_end(ap);
}

static long long oomlog_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

void oomlog_summary(const json_t *rep, char *buf, size_t len)
{
	static const char *const counters[] = { "memory", "memory+swap", "swap" };
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
		const json_t *c = json_object_get(rep, counters[i]);
		if (c)
			oomlog_append(buf, len, "%s%s %lld of %lld kB", buf[0] ? ", " : "", counters[i],
				      oomlog_int(c, "usage_kb"), oomlog_int(c, "limit_kb"));
	}
	/* what reclaim had to work with: an empty inactive list beside a full
	 * active one, much of it swap cache, is the signature of the stale
	 * statistics described in docs/sandbox.md */
	static const char *const stats[] = { "swapcached", "active_anon", "inactive_anon" };
	for (size_t i = 0; i < ARRAY_SIZE(stats); i++) {
		long long v = oomlog_int(json_object_get(rep, "stat"), stats[i]);
		char s[32];
		if (v >= 0)
			oomlog_append(buf, len, "%s%s %s", buf[0] ? ", " : "", stats[i],
				      units_format_size(s, sizeof(s), (uint64_t)v));
	}
	const char *at = json_string_value(json_object_get(rep, "charged_in"));
	if (at)
		oomlog_append(buf, len, "%scharged in %s", buf[0] ? ", " : "", at);
}
