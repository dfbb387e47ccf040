/* Fuzz bringing a guest's results file home: the matrix stores the SQLite
 * file a guest sends over its console into the host's store, and a guest
 * may send anything.  Any bytes must be refused with a message or imported
 * as a whole run that the host can read back and summarise.  The files
 * live in a private temporary directory, removed at exit or, after a
 * crash, by the next run. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "report/run_json.h"
#include "store/store.h"
#include "stats/summary.h"
#include "vm/import.h"

#define GUEST_DB_PREFIX "vmr-fuzz-guest-db-"

static char *dir, *guest, *host_path;
static struct store *host;

/* The guest file and what SQLite and the store keep beside it. */
static void guest_db_remove(void)
{
	static const char *const tails[] = { "", "-wal", "-shm", "-journal", "-lock" };
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		char *p = xasprintf("%s%s", guest, tails[i]);
		unlink(p);
		free(p);
	}
}

static void guest_db_atexit(void)
{
	store_close(host);
	guest_db_remove();
	static const char *const tails[] = { "", "-wal", "-shm", "-lock" };
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		char *p = xasprintf("%s%s", host_path, tails[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/* The directories of runs that died by a crash or a timeout, which exit
 * without atexit: named vmr-fuzz-guest-db-PID-XXXXXX, removed when PID is
 * gone. */
static void guest_db_reap(void)
{
	DIR *d = opendir("/tmp");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		int pid;
		if (sscanf(e->d_name, GUEST_DB_PREFIX "%d-", &pid) != 1 || pid <= 0 ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		char *old = xasprintf("/tmp/%s", e->d_name);
		DIR *od = opendir(old);
		for (struct dirent *f; od && (f = readdir(od));) {
			char *p = xasprintf("%s/%s", old, f->d_name);
			if (f->d_name[0] != '.')
				unlink(p);
			free(p);
		}
		if (od)
			closedir(od);
		rmdir(old);
		free(old);
	}
	if (d)
		closedir(d);
}

static void guest_db_setup(void)
{
	/* Every refused file prints its one error line: keep the log small.
	 * Only our stream moves; libFuzzer's and the sanitizers' reports still
	 * go to descriptor 2. */
	FILE *null = fopen("/dev/null", "w");
	if (null)
		stderr = null;
	guest_db_reap();
	dir = xasprintf("/tmp/" GUEST_DB_PREFIX "%d-XXXXXX", (int)getpid());
	if (!mkdtemp(dir))
		abort();
	guest = xasprintf("%s/guest.db", dir);
	host_path = xasprintf("%s/host.db", dir);
	atexit(guest_db_atexit);
	if (store_open(&host, host_path, true) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!host)
		guest_db_setup();
	guest_db_remove();
	FILE *f = fopen(guest, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	json_t *facts = json_pack("{s:s}", "kernel_release", "6.1.0-fuzz");
	int64_t id;
	int rc = import_guest_run(host, guest, "guest", "fuzz", NULL, facts, &id);
	json_decref(facts);
	if (rc < 0)
		return 0;
	struct run *r;
	if (store_load_run(host, id, &r) < 0)
		abort();  /* what was stored must read back */
	struct case_summary *s = summary_build(r);
	json_decref(run_summary_json(r, s, true));
	summary_free(s, r->ncases);
	run_free(r);
	if (store_delete_run(host, id) < 0)
		abort();
	return 0;
}
