#include "core/signals.h"

#include "core/util.h"

static const int signals_classic[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ,
	SIGVTALRM, SIGPROF, SIGSTKFLT, SIGIO, SIGPWR, SIGSYS, SIGTRAP, SIGABRT,
};

size_t signals_fatal(int *sigs)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(signals_classic); i++)
		sigs[n++] = signals_classic[i];
	/* SIGRTMIN leaves out the ones the C library keeps for itself */
	for (int s = SIGRTMIN; s <= SIGRTMAX && n < SIGNALS_MAX; s++)
		sigs[n++] = s;
	return n;
}

void signals_fatal_set(sigset_t *set)
{
	int sigs[SIGNALS_MAX] = { 0 };
	size_t n = signals_fatal(sigs);
	sigemptyset(set);
	for (size_t i = 0; i < n; i++)
		sigaddset(set, sigs[i]);
}

void signals_default(void)
{
	int sigs[SIGNALS_MAX] = { 0 };
	size_t n = signals_fatal(sigs);
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigemptyset(&dfl.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaction(sigs[i], &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	sigset_t none = { 0 };
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
