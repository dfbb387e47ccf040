/* The kernel's OOM report (sandbox/oomlog.h): read from a log captured on
 * a cgroup v1 host (6.18) where another sandbox's kill comes first, so the
 * report must be the one whose oom-kill line names our cgroup. */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sandbox/oomlog.h"
#include "fixture.h"
#include "t.h"

static json_t *parse_fixture(const char *name, const char *memcg)
{
	char *text = fixture_read("oomlog", name, NULL);
	struct strlist msgs = { 0 };
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		strlist_add(&msgs, l);
	json_t *rep = oomlog_parse((const char *const *)msgs.v, msgs.n, memcg);
	strlist_free(&msgs);
	free(text);
	return rep;
}

static long long get(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(b ? json_object_get(o, a) : o, b ? b : a);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

int main(void)
{
	json_t *r = parse_fixture("v1-anon-after-another.txt", "/vmregress-18708-1184370-0");
	CHECK(!json_object_get(r, "error"), "our cgroup's report is found");
	CHECK(strstr(json_string_value(json_object_get(r, "killed")), "process 18726 ") != NULL,
	      "it is our kill, not the other sandbox's before it");
	CHECK_EQ_U(get(r, "memory", "usage_kb"), 65536, "memory usage at the kill");
	CHECK_EQ_U(get(r, "memory+swap", "limit_kb"), 65536, "memory+swap limit at the kill");
	CHECK_EQ_U(get(r, "stat", "rss"), 66781184, "memory.stat lines at the kill");
	CHECK_EQ_U(get(r, "stat", "swapcached"), 0, "swapcached at the kill");
	CHECK_EQ_U(get(r, "kills", NULL), 1, "one kill in our cgroup");
	CHECK_STR(json_string_value(json_object_get(r, "charged_in")),
		  "do_anonymous_page < __handle_mm_fault < handle_mm_fault", "where the charge failed");
	CHECK(json_array_size(json_object_get(r, "lines")) == 82, "the report's lines, invoked to killed");
	char gist[400];
	oomlog_summary(r, gist, sizeof(gist));
	CHECK(strstr(gist, "memory+swap 65536 of 65536 kB") && strstr(gist, "inactive_anon 63.68M"),
	      "the summary names the counters (%s)", gist);
	json_decref(r);

	r = parse_fixture("v1-anon-after-another.txt", "/vmregress-11643-1078195-0");
	CHECK(strstr(json_string_value(json_object_get(r, "killed")), "process 11646 ") != NULL,
	      "the other cgroup's report is its own");
	json_decref(r);
	r = parse_fixture("v1-anon-after-another.txt", "/vmregress-18708-1184370");
	CHECK(json_object_get(r, "error") != NULL, "a cgroup name's prefix is not the cgroup");
	json_decref(r);

	/* The kill this module was written for: fault --level min in 64M with
	 * a swap file, the limit full of swap cache on the active list, the
	 * charge failing in swap-in readahead (captured on 6.18, cgroup v1). */
	r = parse_fixture("v1-swapin-readahead.txt", "/vmregress-21102-1256207-0");
	oomlog_summary(r, gist, sizeof(gist));
	CHECK_STR(gist, "memory 65536 of 65536 kB, memory+swap 65968 of 196608 kB, swapcached 63.45M, "
		  "active_anon 63.85M, inactive_anon 0, charged in __read_swap_cache_async < swap_cluster_readahead "
		  "< swapin_readahead", "the swap-in kill's gist");
	json_decref(r);

	/* /dev/kmsg hands out one record a read; a SEQPACKET socket does too.
	 * Older kernels print memory.stat as one record, \x0a between lines,
	 * and records may carry dictionary lines after the text. */
	static const char *const recs[] = {
		"6,100,1,-;x invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0\n",
		"4,101,2,-;Call Trace:\n SUBSYSTEM=x\n",
		"4,102,3,-; mem_cgroup_swapin_charge_folio+0x2c/0x90\n",
		"4,103,4,-; ? srso_alias_return_thunk+0x5/0xfbef5\n",
		"4,104,5,-; __read_swap_cache_async+0x1e8/0x2a0\n",
		"4,105,6,-; swap_cluster_readahead+0x16d/0x2f0\n",
		"4,106,7,-; swapin_readahead+0x7a/0x4f0\n",
		"4,107,8,-; do_swap_page+0x2a2/0x1c80\n",
		"6,108,9,-;memory: usage 65536kB, limit 65536kB, failcnt 4235\n",
		"6,109,10,-;swap: usage 444kB, limit 131072kB, failcnt 0\n",
		"6,110,11,-;Memory cgroup stats for /vmregress-1-2-0:\n",
		"6,111,12,-;anon 66523136\\x0aswapcached 66523136\\x0aactive_anon 66957312\\x0ainactive_anon 0\n",
		"6,112,13,-;oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/vmregress-1-2-0,task_memcg=/vmregress-1-2-0\n",
		"3,113,14,-;Memory cgroup out of memory: Killed process 7 (x) total-vm:89784kB\n",
	};
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0, sv) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(recs); i++)
			CHECK(write(sv[1], recs[i], strlen(recs[i])) == (ssize_t)strlen(recs[i]), "record %zu sent", i);
		struct oomlog sp = { .fd = sv[0] };
		r = oomlog_collect(&sp, "/sys/fs/cgroup/vmregress-1-2-0");
		oomlog_close(&sp);
		close(sv[1]);
		CHECK_STR(json_string_value(json_object_get(r, "source")), "/dev/kmsg", "records read (%s)",
			  json_string_value(json_object_get(r, "error")));
		CHECK_EQ_U(get(r, "swap", "usage_kb"), 444, "v2's swap line");
		CHECK_EQ_U(get(r, "stat", "swapcached"), 66523136, "a stat line inside one record");
		CHECK_EQ_U(get(r, "stat", "inactive_anon"), 0, "the last stat line of the record");
		CHECK_STR(json_string_value(json_object_get(r, "charged_in")),
			  "__read_swap_cache_async < swap_cluster_readahead < swapin_readahead",
			  "the swap-in path, the unsure frame left out");
		json_decref(r);
	} else {
		SKIP("no AF_UNIX SEQPACKET socket to stand in for /dev/kmsg");
	}

	struct oomlog ol = { .fd = -1, .err = 13 };
	r = oomlog_collect(&ol, "/sys/fs/cgroup/memory/vmregress-1-2-0");
	CHECK(strstr(json_string_value(json_object_get(r, "error")), "Permission denied") != NULL,
	      "an unreadable log is said so");
	json_decref(r);
	T_DONE();
}
