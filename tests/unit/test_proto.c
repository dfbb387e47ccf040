/* The serial-console protocol: frames must survive kernel noise and carriage
 * returns, and every kind of damage must be caught, never decoded wrongly. */
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "t.h"
#include "vm/proto.h"

/* Encode frames into a memory buffer as the guest would print them. */
static char *emit(const char *label, int rc, const void *data, size_t len, int done, size_t *outlen)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, outlen);
	proto_emit(f, label, rc, data, len);
	if (done)
		proto_emit_done(f);
	fclose(f);
	return buf;
}

static int parse(const char *log, struct proto_result *res, char *why)
{
	return proto_parse(log, strlen(log), res, why, 200);
}

static void test_crc_b64(void)
{
	char out[16];
	unsigned char back[16];

	CHECK_EQ_U(proto_crc32(0, "123456789", 9), 0xcbf43926u, "crc32 check value of '123456789'");
	CHECK_EQ_U(proto_crc32(proto_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u, "crc32 continues");
	base64_encode((const unsigned char *)"foob", 4, out);
	CHECK_STR(out, "Zm9vYg==", "base64 of 'foob' (RFC 4648)");
	CHECK(base64_decode("Zm9vYmE=", 8, back) == 5 && !memcmp(back, "fooba", 5), "base64 decodes with one pad");
	CHECK(base64_decode("Zm9v", 3, back) == -1, "base64 of a length not a multiple of 4 is refused");
	CHECK(base64_decode("Zm=v", 4, back) == -1, "padding inside a quantum is refused");
	CHECK(base64_decode("Zm9*", 4, back) == -1, "a character outside the alphabet is refused");
	CHECK(base64_decode("Zg==Zg==", 8, back) == -1, "padding before the end is refused");
}

static void test_roundtrip(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 56, 57, 58, 4096, 100003 };
	unsigned char *data = malloc(100003);
	for (size_t i = 0; i < 100003; i++)
		data[i] = (unsigned char)(i * 131 + (i >> 7));
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t len;
		char why[200] = "";
		struct proto_result res = { 0 };
		char *log = emit("db", 3, data, sizes[k], 1, &len);
		int r = proto_parse(log, len, &res, why, sizeof(why));
		const struct proto_frame *f = proto_find(&res, "db");
		CHECK(r == 0 && res.done && f && f->rc == 3 && f->len == sizes[k] && !memcmp(f->data, data, sizes[k]),
		      "a %zu-byte payload comes back intact", sizes[k]);
		proto_result_free(&res);
		free(log);
	}
	free(data);
}

static void test_noise(void)
{
	const char *log =
		"[    0.000000] Linux version 6.1.0\r\n"
		"garbage \x01\x02\xff line\r\n"
		"\033c\033[?7l\033[2JVMR-BEGIN 1 env 0 5 3610a686\r\n"
		"[    1.234] random: crng init done\r\n"
		"VMR-D aGVsbG8=\r\n"
		"VMR-END 3610a686\r\n"
		"VMR-BEGIN 1 result 1 2 79dcdd47\n"
		"VMR-D b2s=\n"
		"VMR-END 79dcdd47\n"
		"VMR-DONE\r\n"
		"[    2.0] reboot: Power down\r\n";
	struct proto_result res = { 0 };
	char why[200] = "";
	int r = parse(log, &res, why);
	const struct proto_frame *env = proto_find(&res, "env"), *result = proto_find(&res, "result");
	CHECK(r == 0 && res.done && res.n == 2, "two frames among kernel messages, terminal escapes and CRLF (%s)", why);
	CHECK(env && env->len == 5 && !memcmp(env->data, "hello", 5), "first frame's payload");
	CHECK(result && result->rc == 1 && !strcmp((char *)result->data, "ok"), "second frame's rc and payload");
	CHECK(proto_find(&res, "db") == NULL, "no frame of a label that was not sent");
	proto_result_free(&res);

	/* an empty data line before the first data (found by fuzzing:
	 * appending nothing to a buffer not yet allocated) */
	r = parse("VMR-BEGIN 1 env 0 5 3610a686\nVMR-D \nVMR-D aGVsbG8=\nVMR-END 3610a686\nVMR-DONE\n", &res, why);
	env = proto_find(&res, "env");
	CHECK(r == 0 && env && env->len == 5 && !memcmp(env->data, "hello", 5), "an empty data line adds nothing (%s)",
	      r ? why : "ok");
	proto_result_free(&res);
}

/* Each case is a damaged log that must be refused with a reason. */
static void test_damage(void)
{
	static const struct { const char *log, *name, *why; } cases[] = {
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVsbG8=\n", "truncated after data", "truncated" },
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVsbG8=\nVMR-END 3610a6", "cut inside the end line", "truncated" },
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVsbG9=\nVMR-END 3610a686\nVMR-DONE\n", "one flipped base64 bit", "crc|base64" },
		{ "VMR-BEGIN 1 env 0 5 3610a687\nVMR-D aGVsbG8=\nVMR-END 3610a687\nVMR-DONE\n", "wrong crc", "crc mismatch" },
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVsbG8=\nVMR-END 3610a687\n", "end crc differs from header", "does not match" },
		{ "VMR-BEGIN 1 env 0 6 3610a686\nVMR-D aGVsbG8=\nVMR-END 3610a686\n", "length larger than the data", "base64" },
		{ "VMR-BEGIN 1 env 0 2 3610a686\nVMR-D aGVsbG8=\nVMR-END 3610a686\n", "more data than announced", "more data" },
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVs\nVMR-BEGIN 1 x 0 0 00000000\n", "frame cut by another", "cut short" },
		{ "VMR-BEGIN 2 env 0 5 3610a686\n", "unknown version", "version" },
		{ "VMR-BEGIN 1 Env! 0 5 3610a686\n", "bad label", "label" },
		{ "VMR-BEGIN 1 env 0 99999999999 3610a686\n", "absurd length", "too large" },
		{ "VMR-BEGIN 1 env 0 5 3610a68\n", "short crc", "malformed" },
		{ "VMR-BEGIN 1 env 0 5 3610a686 x\n", "trailing words", "malformed" },
		{ "VMR-D aGVsbG8=\n", "data outside a frame", "outside" },
		{ "VMR-END 3610a686\n", "end outside a frame", "outside" },
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVsbG8=\nVMR-DONE\n", "done inside a frame", "not ended" },
		{ "VMR-BEGIN 1 env 0 5 3610a686\nVMR-D aGVsbG8=\nVMR-END x610a686\n", "bad end line", "malformed end" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proto_result res = { 0 };
		char why[200] = "";
		int r = parse(cases[i].log, &res, why);
		CHECK(r == -1 && res.n == 0, "refused: %s (%s)", cases[i].name, why);
		{
			int matched = 0;
			char pat[64];
			const char *p = cases[i].why;
			while (*p) {
				size_t n = strcspn(p, "|");
				snprintf(pat, sizeof(pat), "%.*s", (int)n, p);
				matched |= strstr(why, pat) != NULL;
				p += n + (p[n] == '|');
			}
			CHECK(matched, "reason for %s names '%s'", cases[i].name, cases[i].why);
		}
		proto_result_free(&res);
	}
}

static void test_no_done(void)
{
	size_t len;
	struct proto_result res = { 0 };
	char why[200] = "";
	char *log = emit("result", 0, "x", 1, 0, &len);
	int r = proto_parse(log, len, &res, why, sizeof(why));
	CHECK(r == 0 && !res.done && res.n == 1, "an intact frame without VMR-DONE is kept, done stays false");
	proto_result_free(&res);
	free(log);
	r = parse("just a kernel panic\nKernel panic - not syncing\n", &res, why);
	CHECK(r == 0 && !res.done && res.n == 0, "a log with no frames parses to nothing, not done");
	proto_result_free(&res);
	FILE *f = fopen("/dev/null", "w");
	CHECK(proto_emit(f, "Bad Label", 0, "x", 1) == -1, "emit refuses a label the parser would refuse");
	fclose(f);
}

int main(void)
{
	test_crc_b64();
	test_roundtrip();
	test_noise();
	test_damage();
	test_no_done();
	T_DONE();
}
