#include "core/msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static const char *vmr_cmd_name = "vmregress";

char *vmr_escape_controls(const char *text)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(text);
	char *out = xmalloc(4 * n + 1), *o = out;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		const char *named = *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r" : NULL;
		if (named) {
			memcpy(o, named, 2);
			o += 2;
		} else if (*p < 0x20 || *p == 0x7f) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		} else {
			*o++ = (char)*p;
		}
	}
	*o = '\0';
	return out;
}

/* A message is one line: whatever of the user's input it echoes (a value
 * with a newline in it, a file name with an escape sequence) is escaped
 * here, once for every message. */
static void vmr_vmsg(const char *prefix, const char *fmt, va_list ap, int errnum)
{
	char *text = NULL, *shown;
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	shown = vmr_escape_controls(text ? text : fmt);
	fputs("vmregress: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	fputs(shown, stderr);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	free(shown);
	free(text);
}

int vmr_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg(NULL, fmt, ap, 0);
	va_end(ap);
	return -1;
}

int vmr_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg(NULL, fmt, ap, e);
	va_end(ap);
	errno = e;
	return -1;
}

void vmr_set_command(const char *name)
{
	vmr_cmd_name = name;
}

static int vmr_wl_vmsg(const char *workload, const char *fmt, va_list ap, int errnum)
{
	char *prefix = xasprintf("%s %s: ", vmr_cmd_name, workload);
	vmr_vmsg(prefix, fmt, ap, errnum);
	free(prefix);
	if (errnum)
		errno = errnum;
	return -1;
}

int vmr_wl_err(const char *workload, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vmr_wl_vmsg(workload, fmt, ap, 0);
	va_end(ap);
	return r;
}

int vmr_wl_errno(const char *workload, const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	int r = vmr_wl_vmsg(workload, fmt, ap, e);
	va_end(ap);
	return r;
}

void vmr_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg("warning: ", fmt, ap, 0);
	va_end(ap);
}
