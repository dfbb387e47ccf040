/* The reference traces a run makes for its cases (refs-generate): one per
 * distinct argument string, made by this binary as a child, in a scratch
 * directory removed when the run ends. */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/run_traces.h"
#include "core/options.h"
#include "core/scratch.h"
#include "core/signals.h"
#include "core/util.h"
#include "harness/suite.h"
#include "sandbox/sandbox.h"

void runcmd_traces_free(struct runcmd_traces *t)
{
	scratch_remove(t->dir);
	free(t->dir);
	strlist_free(&t->args);
	strlist_free(&t->paths);
}

/* `vmregress refs generate ARGS -o path`, run as a child of this binary. */
static int runcmd_trace_generate(const char *args, const char *path)
{
	char *copy = xstrdup(args), *save = NULL;
	struct strlist av = { 0 };
	strlist_add(&av, "vmregress");
	strlist_add(&av, "refs");
	strlist_add(&av, "generate");
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		strlist_add(&av, w);
	strlist_add(&av, "-o");
	strlist_add(&av, path);
	char **argv = xcalloc(av.n + 1, sizeof(char *));
	memcpy(argv, av.v, av.n * sizeof(char *));
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		signals_default();
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (pid > 0)
		sandbox_signal_child(pid, true);  /* a signal kills it before its directory goes */
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid > 0)
		sandbox_signal_child(pid, false);
	free(argv);
	strlist_free(&av);
	free(copy);
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int runcmd_traces_make(struct suite *s, struct runcmd_traces *t)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];
		const char *args = c->set.refs_generate;
		if (!args)
			continue;
		size_t k = 0;
		while (k < t->args.n && strcmp(t->args.v[k], args))
			k++;
		if (k == t->args.n) {
			if (!t->dir && !(t->dir = scratch_make("traces"))) {
				vmr_errno("cannot make a directory for reference traces in %s", scratch_base());
				return -1;
			}
			char *path = xasprintf("%s/trace-%zu.refs", t->dir, k);
			int rc = runcmd_trace_generate(args, path);
			strlist_add(&t->args, args);
			strlist_add(&t->paths, path);
			free(path);
			if (rc < 0) {
				vmr_err("%s: refs-generate '%s': cannot generate the trace", c->name, args);
				return -1;
			}
		}
		char where[256];
		snprintf(where, sizeof(where), "%s: refs-generate", c->name);
		if (opt_set(opt_find(c->w->opts, "refs"), c->wopts, t->paths.v[k], where) < 0)
			return -1;
	}
	return 0;
}

