/* Fuzz the journal parser: cleanup acts on what it accepts, so it must never
 * crash or accept something it did not check. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/cgroup.h"
#include "sandbox/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct jrec recs[JOURNAL_MAX_RECS];
	struct owner o = { 0 };
	char why[160] = "";
	char *buf = malloc(size + 1);
	memcpy(buf, data, size);
	buf[size] = '\0';
	int n = journal_parse(buf, size, "/var/lib/vmregress/swap", &o, recs, JOURNAL_MAX_RECS, why, sizeof(why));
	for (int i = 0; i < n; i++) {
		char line[512];
		if (journal_format(line, sizeof(line), &recs[i]) < 0)
			abort();  /* an accepted record must be writable again */
	}
	struct cg_root r = { 0 };
	cgroup_parse_mountinfo(buf, size & 1, &r);
	free(buf);
	return 0;
}
