/* Fuzz the URL masking: whatever the input, it must not crash, and a
 * password that libpq would use (in user:PASSWORD@ or password=PASSWORD)
 * must never survive into the text vmregress prints: the URL as shown, nor
 * libpq's own message about a URL it cannot parse once masked as the store
 * masks it (store_url_secrets, store_mask_secrets). */
#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "store/store.h"

/* The password libpq reads from a URL, or NULL.  Malloc'd. */
static char *libpq_password(const char *url)
{
	char *err = NULL, *pw = NULL;
	PQconninfoOption *opts = PQconninfoParse(url, &err);
	PQfreemem(err);
	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && *o->val)
			pw = strdup(o->val);
	PQconninfoFree(opts);
	return pw;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1);
	memcpy(in, data, size);
	in[size] = '\0';
	char *masked = store_mask_url(in);
	if (!masked)
		abort();
	/* Only URLs: a file path is printed as it is. */
	if (!strncmp(in, "postgresql://", 13) || !strncmp(in, "postgres://", 11)) {
		char *pw = libpq_password(in);
		/* A password too short to be told from the rest of the text, one
		 * spelled differently (percent-encoded) in the URL, or one that
		 * also appears elsewhere in it, cannot be looked for. */
		const char *at = pw ? strstr(in, pw) : NULL;
		if (at && strlen(pw) >= 4 && !strchr(pw, '*') && !strchr(in, '%') && !strstr(at + 1, pw) &&
		    strstr(masked, pw))
			abort();
		free(pw);
	}
	free(masked);
	/* A password planted in a URL around the rest of the input (up to a
	 * NUL byte, the password; after it, the rest): libpq's parse error,
	 * masked, never shows it. */
	const char *rest = memchr(data, 0, size) ? in + strlen(in) + 1 : NULL;
	size_t pwlen = strlen(in);
	if (rest && pwlen >= 4 && pwlen < 64 && !strpbrk(in, "@/?&*\"%") && !strstr(rest, in)) {
		for (int form = 0; form < 2; form++) {
			char *url = form ? xasprintf("postgresql://h/db?x=1&password=%s&%s", in, rest)
					 : xasprintf("postgresql://u:%s@%s", in, rest);
			char *err = NULL;
			PQconninfoOption *opts = PQconninfoParse(url, &err);
			PQconninfoFree(opts);
			struct strlist secrets = { 0 };
			store_url_secrets(url, &secrets);
			char *shown = err ? store_mask_secrets(err, &secrets) : NULL;
			if (shown && strstr(shown, in))
				abort();
			free(shown);
			strlist_free(&secrets);
			PQfreemem(err);
			free(url);
		}
	}
	free(in);
	return 0;
}
