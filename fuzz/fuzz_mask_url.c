/* Fuzz the URL masking: whatever the input, it must not crash, and a
 * password that libpq would use (in user:PASSWORD@ or password=PASSWORD)
 * must never survive into the text vmregress prints. */
#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
		if (at && strlen(pw) >= 4 && !strchr(pw, '*') && !strstr(at + 1, pw) && strstr(masked, pw))
			abort();
		free(pw);
	}
	free(masked);
	free(in);
	return 0;
}
