/* opt_defaults zeroes the object itself: an options struct that starts as
 * stack garbage (the way `sandbox --help` once freed a wild pointer and
 * `test` once ran perf on every case) comes out holding the defaults and
 * zeroes, never the garbage. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/options.h"
#include "t.h"

struct o {
	char *path;          /* OPT_STR with a default: freed when set */
	char *other;         /* OPT_STR without a default */
	struct strlist set;  /* OPT_LIST: appended to */
	bool flag;           /* no default: must read false */
	long n;
};

static const struct opt tab[] = {
	{ .name = "path", .type = OPT_STR, .off = offsetof(struct o, path), .def = "file", .help = "a" },
	{ .name = "other", .type = OPT_STR, .off = offsetof(struct o, other), .help = "b" },
	{ .name = "set", .type = OPT_LIST, .off = offsetof(struct o, set), .help = "c" },
	{ .name = "flag", .type = OPT_FLAG, .off = offsetof(struct o, flag), .help = "d" },
	{ .name = "n", .type = OPT_INT, .off = offsetof(struct o, n), .def = "7", .help = "e" },
	OPT_END,
};

/* A table bound to a struct smaller than its offsets. */
static int defaults_abort(size_t size)
{
	pid_t pid = fork();
	if (pid == 0) {
		char buf[sizeof(struct o)];
		opt_defaults(tab, buf, size);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

int main(void)
{
	struct o v = { 0 };
	memset(&v, 0xa5, sizeof(v));  /* what an uninitialised stack may hold */
	OPT_DEFAULTS(tab, &v);
	CHECK_STR(v.path, "file", "a string default over garbage is set, not freed");
	CHECK(v.other == NULL, "a string without a default starts NULL");
	CHECK(v.set.n == 0 && v.set.v == NULL, "a list starts empty");
	CHECK(v.flag == false, "a flag without a default starts false");
	CHECK(v.n == 7, "a number default is set");
	opt_free(tab, &v);

	void *heap = malloc(sizeof(struct o));
	memset(heap, 0x5a, sizeof(struct o));
	opt_defaults(tab, heap, sizeof(struct o));
	struct o *h = heap;
	CHECK(h->other == NULL && h->set.n == 0 && !h->flag && h->n == 7, "a heap block of the given size is zeroed");
	opt_free(tab, heap);
	free(heap);

	CHECK(defaults_abort(sizeof(void *)), "a size smaller than the table's offsets aborts");
	CHECK(!defaults_abort(sizeof(struct o)), "the struct's own size does not");
	T_DONE();
}
