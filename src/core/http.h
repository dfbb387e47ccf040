/* One HTTP POST of a document, as a submission to a results service wants
 * it: a bearer token, a timeout per attempt, and attempts again after a
 * back-off (1 s, 2 s, 4 s ... up to 30 s) when the server answers 5xx or
 * cannot be reached (a refused or dropped connection, a timeout); a 4xx
 * answer is final.  libcurl (core/curllib.h) does the HTTP.  The token goes
 * only into the Authorization header: nothing here prints, logs or keeps
 * it (libcurl's verbose mode stays off). */
#ifndef VMR_CORE_HTTP_H
#define VMR_CORE_HTTP_H

#include <stddef.h>

struct http_post {
	const char *url;
	const char *token;        /* the bearer token, or NULL for none */
	const char *content_type; /* "application/json" */
	const char *body;
	size_t len;
	long timeout_ms;          /* per attempt */
	int retries;              /* attempts after the first */
	/* called before each wait for another attempt (may be NULL): what
	 * went wrong, and how long the wait is */
	void (*on_retry)(void *ctx, int attempt, long status, const char *why, long wait_ms);
	void *ctx;
};

enum http_outcome {
	HTTP_ACCEPTED,            /* a 2xx answer */
	HTTP_REFUSED,             /* a 4xx answer, or 5xx on the last attempt */
	HTTP_UNREACHABLE,         /* no answer on the last attempt */
	HTTP_NO_LIBRARY,          /* libcurl cannot be loaded (why says so) */
};

struct http_answer {
	long status;              /* HTTP status of the last answer; 0 when none */
	int attempts;
	char *body;               /* the last answer's body (at most 4 KiB), malloc'd; may be NULL */
	char why[512];            /* for people: libcurl's error, or "HTTP 500" */
};

enum http_outcome http_post(const struct http_post *p, struct http_answer *a);
void http_answer_free(struct http_answer *a);

#endif
