/* Fuzz bringing a guest's results file home: the matrix stores the SQLite
 * file a guest sends over its console into the host's store, and a guest
 * may send anything.  Any bytes must be refused with a message or imported
 * as a whole run that the host can read back and summarise.  The files
 * live in a private temporary directory, removed at exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "store/store.h"
#include "store/summary.h"
#include "vm/import.h"

static char dir[] = "/tmp/vmr-fuzz-guest-db-XXXXXX";
static char *guest, *host_path;
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

static void guest_db_setup(void)
{
	/* Every refused file prints its one error line: keep the log small.
	 * Only our stream moves; libFuzzer's and the sanitizers' reports still
	 * go to descriptor 2. */
	FILE *null = fopen("/dev/null", "w");
	if (null)
		stderr = null;
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
	json_decref(summary_to_json(r, true));
	run_free(r);
	if (store_delete_run(host, id) < 0)
		abort();
	return 0;
}
