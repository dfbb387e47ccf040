/* Messages for people on standard error: "vmregress: <message>", what
 * failed first and then why; the one way code reports errors and warnings. */
#ifndef VMR_MSG_H
#define VMR_MSG_H

#include <stdarg.h>

/* "vmregress: <message>\n" on stderr.  Messages are lowercase, no full stop,
 * what failed first and then why.  Returns -1, so that an error path reads
 * `return vmr_err(...);`. */
int vmr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like vmr_err, with ": strerror(errno)" appended.  Returns -1. */
int vmr_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The command the user ran ("test", "run"), set by main.c before the
 * command starts; "vmregress" until then.  Messages that code below cmd/
 * prints about the user's input begin with it. */
void vmr_set_command(const char *name);
/* vmr_err and vmr_errno about a workload's options: "vmregress: COMMAND
 * WORKLOAD: <message>", the same under test and run.  Return -1. */
int vmr_wl_err(const char *workload, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vmr_wl_errno(const char *workload, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "vmregress: warning: <message>" */
void vmr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
