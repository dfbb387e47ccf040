/* Part of the static build only, in place of core/http.c: the static
 * binary (the matrix's guests run it) has no libcurl, whose TLS and
 * Kerberos libraries Debian ships no static archives of.  Sending is for
 * the host's vmregress; this says so. */
#include <stdio.h>
#include <string.h>

#include "core/http.h"

enum http_outcome http_post(const struct http_post *p, struct http_answer *a)
{
	(void)p;
	memset(a, 0, sizeof(*a));
	snprintf(a->why, sizeof(a->why), "this static build of vmregress sends nothing over HTTP (it has no "
		 "libcurl); submit with the ordinary build");
	return HTTP_NO_LIBRARY;
}

void http_answer_free(struct http_answer *a)
{
	(void)a;
}
