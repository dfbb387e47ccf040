/* Framing results on the serial console: see proto.h. */
#include "vm/proto.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/base64.h"
#include "core/util.h"

uint32_t proto_crc32(uint32_t crc, const void *buf, size_t len)
{
	return (uint32_t)crc32_z(crc, buf, len);
}

static bool proto_label_ok(const char *label)
{
	size_t n = strlen(label);
	if (n == 0 || n > PROTO_LABEL_MAX)
		return false;
	for (const char *p = label; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return false;
	return true;
}

int proto_emit(FILE *f, const char *label, int rc, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t crc = proto_crc32(0, data, len);
	char line[PROTO_LINE_CHARS + 1];

	if (!proto_label_ok(label) || len > PROTO_PAYLOAD_MAX) {
		errno = EINVAL;
		return -1;
	}
	fprintf(f, "VMR-BEGIN %d %s %d %zu %08" PRIx32 "\n", PROTO_VERSION, label, rc, len, crc);
	for (size_t off = 0; off < len; off += PROTO_LINE_CHARS / 4 * 3) {
		size_t n = len - off < PROTO_LINE_CHARS / 4 * 3 ? len - off : PROTO_LINE_CHARS / 4 * 3;
		base64_encode(p + off, n, line);
		fprintf(f, "VMR-D %s\n", line);
	}
	fprintf(f, "VMR-END %08" PRIx32 "\n", crc);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}

int proto_emit_done(FILE *f)
{
	fputs("VMR-DONE\n", f);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}

/* A frame being read: its header, and base64 text gathered so far. */
struct proto_open {
	struct proto_frame fr;
	uint32_t crc;
	char *b64;
	size_t b64_len, b64_cap;
	bool active;
};

static int proto_fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static int proto_header(const char *line, size_t n, struct proto_open *o, char *why, size_t whylen)
{
	char buf[160], label[64];
	int ver, rc, end = 0;
	unsigned long long len;
	unsigned int crc;

	if (n >= sizeof(buf))
		return proto_fail(why, whylen, "frame header too long");
	memcpy(buf, line, n);
	buf[n] = '\0';
	if (sscanf(buf, "VMR-BEGIN %d %63s %d %llu %8x%n", &ver, label, &rc, &len, &crc, &end) != 5 ||
	    buf[end] != '\0' || n < 8 || strspn(buf + n - 8, "0123456789abcdef") != 8)
		return proto_fail(why, whylen, "malformed frame header '%.60s'", buf);
	if (ver != PROTO_VERSION)
		return proto_fail(why, whylen, "frame version %d, expected %d", ver, PROTO_VERSION);
	if (!proto_label_ok(label))
		return proto_fail(why, whylen, "bad frame label '%.40s'", label);
	if (len > PROTO_PAYLOAD_MAX)
		return proto_fail(why, whylen, "frame '%s' announces %llu bytes, too large", label, len);
	memset(&o->fr, 0, sizeof(o->fr));
	strcpy(o->fr.label, label);
	o->fr.rc = rc;
	o->fr.len = len;
	o->crc = crc;
	o->b64_len = 0;
	o->active = true;
	return 0;
}

static int proto_data(const char *line, size_t n, struct proto_open *o, char *why, size_t whylen)
{
	size_t want = (o->fr.len + 2) / 3 * 4;

	if (n > PROTO_LINE_CHARS || o->b64_len + n > want)
		return proto_fail(why, whylen, "frame '%s': more data than announced", o->fr.label);
	if (n == 0)
		return 0;  /* an empty data line adds nothing, and there may be no buffer yet */
	if (o->b64_len + n > o->b64_cap) {
		o->b64_cap = want;
		o->b64 = xrealloc(o->b64, o->b64_cap + 1);
	}
	memcpy(o->b64 + o->b64_len, line, n);
	o->b64_len += n;
	return 0;
}

static int proto_close(const char *line, size_t n, struct proto_open *o, struct proto_result *res,
		       char *why, size_t whylen)
{
	const char *label = o->fr.label;
	char buf[17];
	unsigned int crc;
	long got;

	o->active = false;
	if (n == 16) {
		memcpy(buf, line, n);
		buf[n] = '\0';
	}
	if (n != 16 || strspn(buf + 8, "0123456789abcdef") != 8 || sscanf(buf, "VMR-END %8x", &crc) != 1)
		return proto_fail(why, whylen, "frame '%s': malformed end line", label);
	if (crc != o->crc)
		return proto_fail(why, whylen, "frame '%s': end line does not match its header", label);
	if (o->b64_len != (o->fr.len + 2) / 3 * 4)
		return proto_fail(why, whylen, "frame '%s': %zu of %zu base64 characters arrived", label,
				  o->b64_len, (o->fr.len + 2) / 3 * 4);
	unsigned char *data = xmalloc(o->b64_len / 4 * 3 + 1);
	got = base64_decode(o->b64 ? o->b64 : "", o->b64_len, data);
	if (got < 0 || (size_t)got != o->fr.len) {
		free(data);
		return proto_fail(why, whylen, "frame '%s': bad base64 data", label);
	}
	data[got] = '\0';
	if (proto_crc32(0, data, o->fr.len) != o->crc) {
		free(data);
		return proto_fail(why, whylen, "frame '%s': crc mismatch", label);
	}
	o->fr.data = data;
	res->frames = xrealloc(res->frames, (res->n + 1) * sizeof(*res->frames));
	res->frames[res->n++] = o->fr;
	return 0;
}

static int proto_line(const char *line, size_t n, struct proto_open *o, struct proto_result *res,
		      char *why, size_t whylen)
{
	if (n >= 10 && !memcmp(line, "VMR-BEGIN ", 10)) {
		if (o->active)
			return proto_fail(why, whylen, "frame '%s' cut short by another frame", o->fr.label);
		return proto_header(line, n, o, why, whylen);
	}
	if (n >= 6 && !memcmp(line, "VMR-D ", 6)) {
		if (!o->active)
			return proto_fail(why, whylen, "frame data outside a frame");
		return proto_data(line + 6, n - 6, o, why, whylen);
	}
	if (n >= 7 && !memcmp(line, "VMR-END", 7)) {
		if (!o->active)
			return proto_fail(why, whylen, "frame end outside a frame");
		return proto_close(line, n, o, res, why, whylen);
	}
	if (n == 8 && !memcmp(line, "VMR-DONE", 8)) {
		if (o->active)
			return proto_fail(why, whylen, "frame '%s' not ended before VMR-DONE", o->fr.label);
		res->done = true;
	}
	return 0;
}

int proto_parse(const char *log, size_t len, struct proto_result *res, char *why, size_t whylen)
{
	struct proto_open o = { .active = false };
	const char *p = log, *end = log + len;
	int r = 0;

	memset(res, 0, sizeof(*res));
	why[0] = '\0';
	while (p < end && r == 0 && !res->done) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;  /* a partial last line is not a line yet */
		size_t n = (size_t)(nl - p);
		while (n && p[n - 1] == '\r')
			n--;
		/* terminal escapes or a message without a newline may come first */
		const char *at = memmem(p, n, "VMR-", 4);
		if (at)
			r = proto_line(at, n - (size_t)(at - p), &o, res, why, whylen);
		p = nl + 1;
	}
	if (r == 0 && o.active)
		r = proto_fail(why, whylen, "frame '%s' truncated: the output ended inside it", o.fr.label);
	free(o.b64);
	return r;
}

void proto_result_free(struct proto_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		free(res->frames[i].data);
	free(res->frames);
	memset(res, 0, sizeof(*res));
}

const struct proto_frame *proto_find(const struct proto_result *res, const char *label)
{
	for (size_t i = res->n; i-- > 0;)
		if (!strcmp(res->frames[i].label, label))
			return &res->frames[i];
	return NULL;
}
