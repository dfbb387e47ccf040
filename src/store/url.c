/* A store location's secrets: masking the password of a PostgreSQL URL
 * (user:PASSWORD@, password=VALUE) for messages, and every spelling of it
 * that libpq may echo; see store.h. */
#include "store/store.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <ctype.h>
#include <errno.h>
#include <unistd.h>

#include "store/backend.h"
#include "core/util.h"

/* The '@' ending a URL's user information, or NULL.  As libpq reads it:
 * the first '@' before any '/', so "?" or "#" in a password still count. */
static const char *store_url_userinfo_end(const char *auth)
{
	const char *p = auth + strcspn(auth, "@/");
	return *p == '@' ? p : NULL;
}

static int store_hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Whether a query parameter's name is "password" once percent-decoded,
 * as libpq decodes it. */
static bool store_param_is_password(const char *key, size_t len)
{
	static const char want[] = "password";
	size_t n = 0;
	for (size_t i = 0; i < len; i++, n++) {
		int c = (unsigned char)key[i];
		if (c == '%' && i + 2 < len && store_hex(key[i + 1]) >= 0 && store_hex(key[i + 2]) >= 0) {
			c = store_hex(key[i + 1]) * 16 + store_hex(key[i + 2]);
			i += 2;
		}
		if (n >= sizeof(want) - 1 || c != want[n])
			return false;
	}
	return n == sizeof(want) - 1;
}

/* The query part with every password=VALUE's value masked.  Malloc'd. */
static char *store_mask_query(const char *q)
{
	size_t cap = strlen(q) + 1, len = 0;
	char *out = xmalloc(cap + 4 * (cap / 2 + 1));
	while (*q) {
		size_t seg = strcspn(q, "&"), key = strcspn(q, "=&");
		if (key < seg && store_param_is_password(q, key)) {
			memcpy(out + len, q, key + 1);
			len += key + 1;
			memcpy(out + len, "***", 3);
			len += 3;
		} else {
			memcpy(out + len, q, seg);
			len += seg;
		}
		q += seg;
		if (*q == '&')
			out[len++] = *q++;
	}
	out[len] = '\0';
	return out;
}

char *store_mask_url(const char *location)
{
	if (!location)
		return NULL;
	const char *sep = strstr(location, "://");
	if (!sep)
		return xstrdup(location);
	const char *auth = sep + 3;
	const char *at = store_url_userinfo_end(auth);
	const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	char *out = colon ? xasprintf("%.*s:***%s", (int)(colon - location), location, at) : xstrdup(location);
	/* password=... among the query parameters, after the first '?' that
	 * follows the (masked) user information */
	char *q = strchr(out + (sep - location) + 3, '?');
	if (!q)
		return out;
	char *query = store_mask_query(q + 1);
	char *masked = xasprintf("%.*s?%s", (int)(q - out), out, query);
	free(query);
	free(out);
	return masked;
}

/* s[0..len) percent-decoded where it can be, as libpq decodes it.  Malloc'd. */
static char *store_pct_decode(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && store_hex(s[i + 1]) >= 0 && store_hex(s[i + 2]) >= 0) {
			out[n++] = (char)(store_hex(s[i + 1]) * 16 + store_hex(s[i + 2]));
			i += 2;
		} else {
			out[n++] = s[i];
		}
	}
	out[n] = '\0';
	return out;
}

/* A password as written and as decoded, when it is not empty. */
static void store_secret_add(struct strlist *out, const char *s, size_t len)
{
	if (!len)
		return;
	char *raw = xasprintf("%.*s", (int)len, s), *dec = store_pct_decode(s, len);
	strlist_add(out, raw);
	if (*dec && strcmp(dec, raw))
		strlist_add(out, dec);
	free(raw);
	free(dec);
}

void store_url_secrets(const char *location, struct strlist *out)
{
	const char *sep = location ? strstr(location, "://") : NULL;
	if (!sep)
		return;
	const char *auth = sep + 3, *at = store_url_userinfo_end(auth);
	const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	if (colon)
		store_secret_add(out, colon + 1, (size_t)(at - colon - 1));
	const char *q = strchr(at ? at : auth, '?');
	for (q = q ? q + 1 : NULL; q && *q; q += *q == '&') {
		size_t seg = strcspn(q, "&"), key = strcspn(q, "=&");
		if (key < seg && store_param_is_password(q, key))
			store_secret_add(out, q + key + 1, seg - key - 1);
		q += seg;
	}
}

char *store_mask_secrets(const char *text, const struct strlist *secrets)
{
	char *out = xstrdup(text);
	/* the longest first: a decoded password may be part of the raw one */
	bool *done = xcalloc(secrets->n + 1, sizeof(*done));
	for (size_t k = 0; k < secrets->n; k++) {
		size_t best = secrets->n;
		for (size_t i = 0; i < secrets->n; i++)
			if (!done[i] && (best == secrets->n || strlen(secrets->v[i]) > strlen(secrets->v[best])))
				best = i;
		done[best] = true;
		char *quoted = xasprintf("\"%s\"", secrets->v[best]);
		/* one too short to be told from other words only where quoted */
		const char *s = strlen(secrets->v[best]) < 4 ? quoted : secrets->v[best];
		size_t len = strlen(s);
		for (char *p = strstr(out, s); p; p = strstr(p + (s == quoted ? 5 : 3), s)) {
			char *next = xasprintf("%.*s%s%s", (int)(p - out), out, s == quoted ? "\"***\"" : "***", p + len);
			p = next + (p - out);
			free(out);
			out = next;
		}
		free(quoted);
	}
	free(done);
	return out;
}
