#include "core/msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static const char *vmr_cmd_name = "vmregress";

static void vmr_vmsg(const char *prefix, const char *fmt, va_list ap, int errnum)
{
	fputs("vmregress: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
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
