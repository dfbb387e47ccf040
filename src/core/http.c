#include "core/http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/curllib.h"
#include "core/util.h"

#define HTTP_BODY_MAX 4096
#define HTTP_WAIT_MAX_MS 30000

struct http_sink {
	char *buf;
	size_t len;
};

/* Keep the start of the answer (a server's error message), drop the rest. */
static size_t http_sink_write(char *data, size_t size, size_t n, void *ctx)
{
	struct http_sink *s = ctx;
	size_t got = size * n, room = HTTP_BODY_MAX - s->len;
	size_t take = got < room ? got : room;
	if (take) {
		s->buf = xrealloc(s->buf, s->len + take + 1);
		memcpy(s->buf + s->len, data, take);
		s->len += take;
		s->buf[s->len] = '\0';
	}
	return got;
}

/* One attempt: 0 with a->status set on an answer, -1 with a->why on none. */
static int http_attempt(CURL *c, const struct http_post *p, struct http_answer *a)
{
	struct http_sink sink = { NULL, 0 };
	char err[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, http_sink_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
	CURLcode rc = curl_easy_perform(c);
	free(a->body);
	a->body = sink.buf;
	a->attempts++;
	if (rc != CURLE_OK) {
		a->status = 0;
		snprintf(a->why, sizeof(a->why), "%s", err[0] ? err : curl_easy_strerror(rc));
		return -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &a->status);
	snprintf(a->why, sizeof(a->why), "HTTP %ld", a->status);
	return 0;
}

static void http_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0)
		;
}

static struct curl_slist *http_headers(const struct http_post *p)
{
	struct curl_slist *h = NULL;
	char *ct = xasprintf("Content-Type: %s", p->content_type ? p->content_type : "application/json");
	h = curl_slist_append(h, ct);
	free(ct);
	if (p->token) {
		size_t len = strlen(p->token) + 32;
		char *auth = xmalloc(len);
		snprintf(auth, len, "Authorization: Bearer %s", p->token);
		h = curl_slist_append(h, auth);  /* curl copies it */
		explicit_bzero(auth, len);
		free(auth);
	}
	return h;
}

enum http_outcome http_post(const struct http_post *p, struct http_answer *a)
{
	const char *why = NULL;
	memset(a, 0, sizeof(*a));
	if (lazylib_load(&curllib_lib, &why) < 0) {
		snprintf(a->why, sizeof(a->why), "%s", why);
		return HTTP_NO_LIBRARY;
	}
	CURL *c = curl_easy_init();
	if (!c) {
		snprintf(a->why, sizeof(a->why), "libcurl could not start a transfer");
		return HTTP_UNREACHABLE;
	}
	struct curl_slist *headers = http_headers(p);
	curl_easy_setopt(c, CURLOPT_URL, p->url);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, p->body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)p->len);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, p->timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "vmregress/" VMR_VERSION);
	enum http_outcome out = HTTP_UNREACHABLE;
	long wait_ms = 1000;
	for (int attempt = 0;; attempt++) {
		bool answered = http_attempt(c, p, a) == 0;
		if (answered && a->status >= 200 && a->status < 300) {
			out = HTTP_ACCEPTED;
			break;
		}
		bool again = !answered || a->status >= 500;
		if (!again || attempt >= p->retries) {
			out = answered ? HTTP_REFUSED : HTTP_UNREACHABLE;
			break;
		}
		if (p->on_retry)
			p->on_retry(p->ctx, attempt + 1, a->status, a->why, wait_ms);
		http_sleep_ms(wait_ms);
		wait_ms = wait_ms * 2 > HTTP_WAIT_MAX_MS ? HTTP_WAIT_MAX_MS : wait_ms * 2;
	}
	curl_slist_free_all(headers);
	curl_easy_cleanup(c);
	return out;
}

void http_answer_free(struct http_answer *a)
{
	free(a->body);
	a->body = NULL;
}
