/* Base64: see base64.h. */
#include "core/base64.h"

#include <stdint.h>
#include <string.h>

static const char base64_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_encode(const unsigned char *in, size_t len, char *out)
{
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		*out++ = base64_chars[v >> 18 & 63];
		*out++ = base64_chars[v >> 12 & 63];
		*out++ = base64_chars[v >> 6 & 63];
		*out++ = base64_chars[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < len ? (uint32_t)in[i + 1] << 8 : 0);
		*out++ = base64_chars[v >> 18 & 63];
		*out++ = base64_chars[v >> 12 & 63];
		*out++ = i + 1 < len ? base64_chars[v >> 6 & 63] : '=';
		*out++ = '=';
	}
	*out = '\0';
}

static int base64_value(char c)
{
	const char *p = c ? strchr(base64_chars, c) : NULL;
	return p ? (int)(p - base64_chars) : -1;
}

long base64_decode(const char *in, size_t n, unsigned char *out)
{
	size_t o = 0;

	if (n % 4)
		return -1;
	for (size_t i = 0; i < n; i += 4) {
		int v[4], pad = 0;
		for (int k = 0; k < 4; k++) {
			if (in[i + k] == '=' && i + 4 == n && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			if (pad || (v[k] = base64_value(in[i + k])) < 0)
				return -1;
		}
		uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
		/* Bits past the end must be zero: one payload, one encoding. */
		if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))
			return -1;
		out[o++] = w >> 16 & 0xff;
		if (pad < 2)
			out[o++] = w >> 8 & 0xff;
		if (pad < 1)
			out[o++] = w & 0xff;
	}
	return (long)o;
}
