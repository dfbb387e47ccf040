#include "workload/tasks.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/util.h"

long tasks_cpus(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

/* One count at *s: a number, or "cpus" for tasks_cpus(). */
static long tasks_count(const char *s, char **end)
{
	if (!strncmp(s, "cpus", 4)) {
		*end = (char *)s + 4;
		return tasks_cpus();
	}
	return strtol(s, end, 10);
}

long tasks_single(const char *s, long max)
{
	char *end = NULL;
	long n = s && *s ? tasks_count(s, &end) : -1;
	if (!end || end == s || *end || n < 1)
		return -1;
	return n <= max ? n : strncmp(s, "cpus", 4) ? -1 : max;
}

static bool tasks_have(const long *counts, size_t n, long t)
{
	for (size_t i = 0; i < n; i++)
		if (counts[i] == t)
			return true;
	return false;
}

int tasks_parse(const char *s, long *counts, size_t *n, const char **why)
{
	*n = 0;
	while (s && *s) {
		char *end;
		long a = tasks_count(s, &end), b = a;
		if (end == s || a < 1) {
			*why = "is not a list of task counts like 1,2,4 or 1-8 or 1,cpus";
			return -1;
		}
		if (*end == '-') {
			s = end + 1;
			b = tasks_count(s, &end);
			if (end == s || b < a) {
				*why = "has a range that does not go up (write 1-8)";
				return -1;
			}
		}
		if (b > TASKS_MAX || *n + (size_t)(b - a + 1) > TASKS_MAX) {
			*why = "asks for more than 1024 tasks";
			return -1;
		}
		for (long t = a; t <= b; t++)
			if (!tasks_have(counts, *n, t))   /* 1,cpus on one CPU is one count */
				counts[(*n)++] = t;
		if (*end && *end != ',') {
			*why = "is not a list of task counts like 1,2,4 or 1-8 or 1,cpus";
			return -1;
		}
		s = *end ? end + 1 : end;
	}
	if (!*n) {
		*why = "is empty";
		return -1;
	}
	return 0;
}

struct tasks_arg {
	struct tasks_round *rd;
	void (*fn)(void *arg, long idx);
	void *arg;
	long idx;
};

static void tasks_one(struct tasks_arg *a)
{
	atomic_fetch_add(&a->rd->ready, 1);
	while (!atomic_load(&a->rd->go))
		;
	a->fn(a->arg, a->idx);
}

static void *tasks_thread(void *arg)
{
	tasks_one(arg);
	return NULL;
}

int tasks_run(struct tasks_round *rd, long T, bool threads, void (*fn)(void *arg, long idx), void *arg)
{
	pthread_t *th = xcalloc((size_t)T, sizeof(*th));
	pid_t *pids = xcalloc((size_t)T, sizeof(*pids));
	struct tasks_arg *args = xcalloc((size_t)T, sizeof(*args));
	long first = threads ? 1 : 0, started = first;
	int err = 0;
	atomic_store(&rd->ready, 0);
	atomic_store(&rd->go, 0);
	for (long i = 0; i < T; i++)
		args[i] = (struct tasks_arg){ rd, fn, arg, i };
	for (; started < T; started++) {
		if (threads) {
			if ((err = pthread_create(&th[started], NULL, tasks_thread, &args[started])))
				break;
		} else {
			pids[started] = fork();
			if (pids[started] == 0) {
				tasks_one(&args[started]);
				_exit(0);
			}
			if (pids[started] < 0) {
				err = errno;
				break;
			}
		}
	}
	while (atomic_load(&rd->ready) < started - first)
		;
	rd->go_ns = vmr_now_ns();
	atomic_store(&rd->go, 1);
	if (threads && started == T)
		fn(arg, 0);
	for (long i = first; i < started; i++) {
		if (threads)
			pthread_join(th[i], NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	free(th);
	free(pids);
	free(args);
	if (started < T)
		errno = err;
	return started == T ? 0 : -1;
}
