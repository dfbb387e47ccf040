/* vmregress kcidb submit FILE|- --url URL --token-file F: send a KCIDB
 * document (export/compare --format kcidb) to KernelCI's submission
 * service, as its REST client does: one HTTP POST of the JSON with a
 * bearer token, again after a back-off on 5xx answers and failed
 * connections (core/http.h).  The exit status says whether it was
 * accepted: 0 accepted, 1 refused, 3 not reached, 2 bad input.  The token
 * is read from a file (never the command line, which other users of the
 * machine can read) and is never printed. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/http.h"
#include "core/util.h"
#include "report/outcome_text.h"
#include "store/store.h"

struct kcidb_cmd {
	char *url, *token_file;
	uint64_t timeout_ns;
	long retries;
};

const struct opt kcidb_cmd_opts[] = {
	{ .name = "url", .type = OPT_STR, .off = offsetof(struct kcidb_cmd, url), .metavar = "URL",
	  .help = "the submission endpoint, e.g. https://db.kernelci.org/submit (required)" },
	{ .name = "token-file", .type = OPT_STR, .off = offsetof(struct kcidb_cmd, token_file), .metavar = "FILE",
	  .help = "a file holding the bearer token, one line (required)" },
	{ .name = "timeout", .type = OPT_TIME, .off = offsetof(struct kcidb_cmd, timeout_ns), .def = "60s",
	  .min = 1e8, .max = 3600e9, .metavar = "TIME", .help = "give up on an attempt after this long" },
	{ .name = "retries", .type = OPT_INT, .off = offsetof(struct kcidb_cmd, retries), .def = "4", .min = 0,
	  .max = 20, .metavar = "N", .help = "attempts after the first, on 5xx answers and failed connections" },
	OPT_END,
};

/* The token: the file's one line, without its newline.  NULL after an
 * error that names the file, never its contents. */
static char *kcidb_token(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int err = vmr_read_file_max(path, 16384, &buf, &len);
	if (err < 0) {
		vmr_err("kcidb: cannot read the token file %s: %s", path, strerror(-err));
		return NULL;
	}
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	const char *why = !len ? "it is empty" : strlen(buf) != len || strpbrk(buf, "\r\n") ? "it holds more than one line"
									      : NULL;
	if (why) {
		vmr_err("kcidb: the token file %s cannot be used: %s (it must hold the token on one line)", path, why);
		explicit_bzero(buf, len);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The document: a JSON object with a version.major, as KCIDB requires. */
static char *kcidb_document(const char *path, size_t *len)
{
	char *buf = NULL;
	const char *name = strcmp(path, "-") ? path : "standard input";
	int err = vmr_read_file_max(strcmp(path, "-") ? path : "/dev/stdin", (size_t)1 << 30, &buf, len);
	if (err < 0) {
		vmr_err("kcidb: cannot read %s: %s", name, strerror(-err));
		return NULL;
	}
	json_error_t jerr;
	json_t *doc = json_loadb(buf, *len, 0, &jerr);
	if (!doc || !json_is_integer(json_object_get(json_object_get(doc, "version"), "major"))) {
		if (doc)
			vmr_err("kcidb: %s is not a KCIDB document: it has no version.major (write one with "
				"`vmregress export RUN --format kcidb`)", name);
		else
			vmr_err("kcidb: %s is not JSON: %s at line %d", name, jerr.text, jerr.line);
		json_decref(doc);
		free(buf);
		return NULL;
	}
	json_decref(doc);
	return buf;
}

struct kcidb_retry_ctx {
	const char *url;
	int attempts;
};

static void kcidb_on_retry(void *ctx, int attempt, long status, const char *why, long wait_ms)
{
	const struct kcidb_retry_ctx *c = ctx;
	(void)status;
	vmr_warn("kcidb: %s from %s; trying again in %ld s (attempt %d of %d)", why, c->url, wait_ms / 1000,
		 attempt + 1, c->attempts);
}

/* The first line of the server's answer, the token masked should it be
 * echoed. */
static char *kcidb_answer_line(const char *body, const char *token)
{
	char *line = xstrdup(body ? body : "");
	line[strcspn(line, "\r\n")] = '\0';
	if (strlen(line) > 300)
		strcpy(line + 297, "...");
	struct strlist secrets = { 0 };
	strlist_add(&secrets, token);
	char *masked = store_mask_secrets(line, &secrets);
	strlist_free(&secrets);
	free(line);
	return masked;
}

static int kcidb_submit(const struct kcidb_cmd *o, const char *file)
{
	size_t len = 0;
	char *token = kcidb_token(o->token_file), *doc = token ? kcidb_document(file, &len) : NULL;
	char *url = store_mask_url(o->url);
	int rc = VMR_EXIT_USAGE;
	if (!doc)
		goto free_token;
	struct kcidb_retry_ctx ctx = { url, (int)o->retries + 1 };
	struct http_post p = { .url = o->url, .token = token, .content_type = "application/json", .body = doc,
			       .len = len, .timeout_ms = (long)(o->timeout_ns / 1000000), .retries = (int)o->retries,
			       .on_retry = kcidb_on_retry, .ctx = &ctx };
	struct http_answer a = { 0 };
	enum http_outcome out = http_post(&p, &a);
	char *answer = kcidb_answer_line(a.body, token);
	switch (out) {
	case HTTP_ACCEPTED:
		outcome_kcidb(stdout, file, len, url, a.status, a.attempts);
		rc = fflush(stdout) == EOF ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
		break;
	case HTTP_REFUSED:
		vmr_err("kcidb: %s refused the document: HTTP %ld%s%s (attempt %d)", url, a.status, *answer ? ": " : "",
			answer, a.attempts);
		rc = VMR_EXIT_FAIL;
		break;
	case HTTP_NO_LIBRARY:
		vmr_err("kcidb: %s", a.why);
		rc = VMR_EXIT_CANNOT;
		break;
	default:
		vmr_err("kcidb: cannot reach %s: %s (after %d attempts)", url, a.why, a.attempts);
		rc = VMR_EXIT_CANNOT;
	}
	free(answer);
	http_answer_free(&a);
	free(doc);
free_token:
	if (token)
		explicit_bzero(token, strlen(token));
	free(token);
	free(url);
	return rc;
}

int cmd_kcidb(int argc, char **argv)
{
	struct kcidb_cmd o = { 0 };
	OPT_DEFAULTS(kcidb_cmd_opts, &o);
	struct optset set = { kcidb_cmd_opts, &o, NULL };
	char **pos = NULL;
	int npos = 0, rc = VMR_EXIT_USAGE;
	int p = cmd_parse("kcidb", &set, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_opts;
	}
	if (npos != 2 || strcmp(pos[0], "submit"))
		vmr_err("kcidb: usage: vmregress %s", cmd_find("kcidb")->usage);
	else if (!o.url || !o.token_file)
		vmr_err("kcidb submit: needs --url and --token-file (see --help)");
	else
		rc = kcidb_submit(&o, pos[1]);
free_opts:
	opt_free(kcidb_cmd_opts, &o);
	free(pos);
	return rc;
}
