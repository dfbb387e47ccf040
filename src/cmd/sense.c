/* vmregress sense: read-only views of the kernel's VM, the user-space
 * successors of VM Regress's sense modules.  Parsing and wiring only: the
 * probes in src/probe/ read, report/sense.c formats. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/btf.h"
#include "probe/lru_gen.h"
#include "probe/meminfo.h"
#include "probe/pagemap.h"
#include "probe/swapinfo.h"
#include "probe/system.h"
#include "probe/thp.h"
#include "probe/vmalloc.h"
#include "probe/vmstat.h"
#include "probe/vmstat_counters.h"
#include "probe/zoneinfo.h"
#include "report/sense.h"

struct sense_opts {
	bool json;
	bool map;
	char *vma;
	struct strlist structs;
	uint64_t interval_ns;
	long count;
	char *fields;
	long top;
	char *root;
};

const struct opt sense_cmd_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct sense_opts, json),
	  .help = "print one JSON document instead of text", .flags = OPTF_NO_ECHO },
	{ .name = "map", .type = OPT_FLAG, .off = offsetof(struct sense_opts, map),
	  .help = "pagemap: print each VMA's encoded and plain present/swapped maps (see Maps)" },
	{ .name = "vma", .type = OPT_STR, .off = offsetof(struct sense_opts, vma), .metavar = "ADDR",
	  .help = "pagemap: only the VMA containing ADDR (hex, 0x optional)" },
	{ .name = "struct", .type = OPT_LIST, .off = offsetof(struct sense_opts, structs), .metavar = "NAME",
	  .help = "structsizes: the size of struct NAME instead of the default list (repeatable)" },
	{ .name = "interval", .type = OPT_TIME, .off = offsetof(struct sense_opts, interval_ns),
	  .def = "1s", .min = 1e6, .max = 86400e9, .metavar = "TIME",
	  .help = "vmstat: time between samples" },
	{ .name = "count", .type = OPT_INT, .off = offsetof(struct sense_opts, count), .def = "0",
	  .min = 0, .max = 1e9, .metavar = "N", .help = "vmstat: number of samples (0: until interrupted)" },
	{ .name = "fields", .type = OPT_STR, .off = offsetof(struct sense_opts, fields), .metavar = "LIST",
	  .help = "vmstat: comma-separated /proc/vmstat counters to show (nr_* are levels, the rest "
		  "changes per interval)" },
	{ .name = "top", .type = OPT_INT, .off = offsetof(struct sense_opts, top), .def = "10",
	  .min = 0, .max = 1e6, .metavar = "N", .help = "kvirtual: number of vmalloc callers to list" },
	{ .name = "root", .type = OPT_STR, .off = offsetof(struct sense_opts, root), .metavar = "DIR",
	  .help = "test: thp and lru_gen read this directory instead of the kernel's",
	  .flags = OPTF_HIDDEN | OPTF_NO_ECHO },
	OPT_END,
};

/* What follows the list of views in `help sense`. */
static const char sense_details_tail[] =
	"\n"
	"Maps (--map):\n"
	"  The encoded map is VM Regress's: one character per 4 pages.  Bit k (value\n"
	"  1<<k) is set when page k of the 4 is present, and bits 5 and 6 (0x60) are\n"
	"  always set so the character is printable: '`' none present, 'a' the first\n"
	"  only, 'c' the first two, 'o' all four.  The plain map has one character per\n"
	"  page: '#' present, 's' swapped, '.' neither.  Lines start with the address\n"
	"  of their first page.\n"
	"\n"
	"Exit codes: 2 bad arguments or no such process, 3 not possible here\n"
	"(privilege, no BTF, a kernel without the feature).";

/* The summary, usage and details of `sense` (main.c's command table), each
 * naming every view: written from sense_views[] before main runs. */
char sense_cmd_summary[256], sense_cmd_usage[256], sense_cmd_details[2048];


static int sense_zones(struct sense_opts *o, char **pos, int npos)
{
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (zoneinfo_read(&zi, NULL, err) < 0) {
		vmr_err("/proc/zoneinfo: %s", err);
		return VMR_EXIT_CANNOT;
	}
	if (o->json) {
		json_t *j = sense_zones_json(&zi);
		zoneinfo_free(&zi);
		return cmd_print_json(j);
	}
	sense_zones_text(&zi);
	zoneinfo_free(&zi);
	return VMR_EXIT_OK;
}

/* --- structsizes --- */

static int sense_structsizes(struct sense_opts *o, char **pos, int npos)
{
	char err[PROBE_ERR_MAX] = "";
	struct btf *btf = btf_load(NULL, err);
	if (!btf) {
		vmr_err("sense structsizes: %s", err);
		return VMR_EXIT_CANNOT;
	}
	bool named = o->structs.n > 0;
	size_t n = named ? o->structs.n : 0;
	if (!named)
		while (btf_vm_structs[n])
			n++;
	json_t *structs = json_object();
	int rc = VMR_EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		const char *name = named ? o->structs.v[i] : btf_vm_structs[i];
		uint64_t size;
		if (btf_struct_size(btf, name, &size, err) < 0) {
			if (named) {
				vmr_err("sense structsizes: --struct %s: %s", name, err);
				rc = VMR_EXIT_USAGE;
				goto unload;
			}
			json_object_set_new(structs, name, json_null());   /* older kernels: no folio */
			continue;
		}
		json_object_set_new(structs, name, json_integer((json_int_t)size));
	}
	if (o->json) {
		rc = cmd_print_json(json_pack("{s:O}", "structs", structs));
	} else {
		sense_structsizes_text(structs);
	}
unload:
	json_decref(structs);
	btf_unload(btf);
	return rc;
}

static int sense_kvirtual(struct sense_opts *o, char **pos, int npos)
{
	struct meminfo mi = { 0 };
	struct vmallocinfo vi = { 0 };
	char err[PROBE_ERR_MAX] = "", verr[PROBE_ERR_MAX];
	if (meminfo_read(&mi, NULL, err) < 0) {
		vmr_err("/proc/meminfo: %s", err);
		return VMR_EXIT_CANNOT;
	}
	bool have_vi = vmallocinfo_read(&vi, NULL, verr) == 0;
	if (!have_vi)
		vmr_warn("/proc/vmallocinfo: %s%s; showing the totals only", verr,
			 errno == EACCES ? " (needs root)" : "");
	int rc = VMR_EXIT_OK;
	if (o->json) {
		rc = cmd_print_json(sense_kvirtual_json(&mi, have_vi ? &vi : NULL, o->top));
	} else {
		sense_kvirtual_text(&mi, have_vi ? &vi : NULL, o->top);
	}
	if (have_vi)
		vmallocinfo_free(&vi);
	meminfo_free(&mi);
	return rc;
}

static int sense_parse_pid(const char *s, pid_t *pid)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v <= 0 || v > 0x7fffffff) {
		vmr_err("sense pagemap: '%s' is not a process id", s);
		return -1;
	}
	*pid = (pid_t)v;
	return 0;
}

static int sense_pagemap_errno_rc(int e)
{
	return e == ENOENT || e == ESRCH ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
}

static int sense_pagemap_scan(struct pagemap *pm, struct sense_vma *sv, bool map, char *err)
{
	uint64_t npages = (sv->v->end - sv->v->start) / pm->page_size;
	memset(&sv->c, 0, sizeof(sv->c));
	if (map)
		sv->state = xmalloc(npages + 1);
	if (pagemap_scan(pm, sv->v->start, sv->v->end, &sv->c, sv->state, err) < 0) {
		if (errno != ERANGE)
			return -1;
		/* pagemap covers the user half only: [vsyscall] is beyond it */
		if (sv->v->start >= 1ULL << 63)
			return 0;
		/* a user address past the end: the process has exited */
		snprintf(err, PROBE_ERR_MAX, "exited while its pagemap was read");
		errno = ESRCH;
		return -1;
	}
	if (sv->state)
		sv->state[npages] = '\0';
	sv->ok = true;
	return 0;
}

static int sense_pagemap_output(struct sense_opts *o, pid_t pid, struct sense_vma *svs, size_t n,
				const struct pagemap_counts *total, uint64_t ps)
{
	if (o->json)
		return cmd_print_json(sense_pagemap_json(pid, svs, n, total, ps));
	sense_pagemap_text(pid, svs, n, total, ps);
	return VMR_EXIT_OK;
}

static int sense_pagemap_select(struct sense_opts *o, const struct maps *m, pid_t pid,
				size_t *first, size_t *n)
{
	*first = 0;
	*n = m->n;
	if (!o->vma)
		return 0;
	char *end;
	errno = 0;
	uint64_t addr = strtoull(o->vma, &end, 16);
	if (errno || *end || end == o->vma) {
		vmr_err("sense pagemap: --vma: '%s' is not a hexadecimal address", o->vma);
		return -1;
	}
	const struct maps_vma *v = maps_find(m, addr);
	if (!v) {
		vmr_err("sense pagemap: --vma %s: no VMA of process %d contains it", o->vma, (int)pid);
		return -1;
	}
	*first = (size_t)(v - m->vmas);
	*n = 1;
	return 0;
}

static int sense_pagemap(struct sense_opts *o, char **pos, int npos)
{
	struct maps m = { 0 };
	struct pagemap pm = { 0 };
	struct pagemap_counts total = { 0 };
	char err[PROBE_ERR_MAX] = "";
	size_t first, n;
	pid_t pid;
	int rc = VMR_EXIT_CANNOT;
	if (npos != 2) {
		vmr_err("sense pagemap: needs one process id (sense pagemap PID)");
		return VMR_EXIT_USAGE;
	}
	if (sense_parse_pid(pos[1], &pid) < 0)
		return VMR_EXIT_USAGE;
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		vmr_err("sense pagemap: no process %d", (int)pid);
		return VMR_EXIT_USAGE;
	}
	if (maps_read(&m, pid, err) < 0) {
		int e = errno;
		vmr_err("sense pagemap: /proc/%d/maps: %s%s", (int)pid, err,
			e == EACCES ? " (another user's process needs root)" : "");
		return sense_pagemap_errno_rc(e);
	}
	if (sense_pagemap_select(o, &m, pid, &first, &n) < 0) {
		rc = VMR_EXIT_USAGE;
		goto free_maps;
	}
	if (m.n == 0) {
		/* a kernel thread: no user memory, and no pagemap to open */
		rc = sense_pagemap_output(o, pid, NULL, 0, &total, vmr_page_size());
		goto free_maps;
	}
	if (pagemap_open(&pm, pid, true, err) < 0) {
		int e = errno;
		vmr_err("sense pagemap: %s%s", err, e == EACCES || e == EPERM ? " (needs root)" : "");
		rc = sense_pagemap_errno_rc(e);
		goto free_maps;
	}
	struct sense_vma *svs = xcalloc(n ? n : 1, sizeof(*svs));
	for (size_t i = 0; i < n; i++) {
		svs[i].v = &m.vmas[first + i];
		if (sense_pagemap_scan(&pm, &svs[i], o->map, err) < 0) {
			int e = errno;
			vmr_err("sense pagemap: process %d: %s", (int)pid, err);
			rc = sense_pagemap_errno_rc(e);
			goto free_vmas;
		}
		total.pfn_known |= svs[i].c.pfn_known;
		total.thp_known |= svs[i].c.thp_known;
	}
	total.thp_known = pm.kpf_fd >= 0;
	rc = sense_pagemap_output(o, pid, svs, n, &total, pm.page_size);
free_vmas:
	for (size_t i = 0; i < n; i++)
		free(svs[i].state);
	free(svs);
	pagemap_close(&pm);
free_maps:
	maps_free(&m);
	return rc;
}

static int sense_system(struct sense_opts *o, char **pos, int npos)
{
	json_t *j = system_fingerprint();
	if (o->json)
		return cmd_print_json(j);
	sense_flatten("", j);
	json_decref(j);
	return VMR_EXIT_OK;
}

/* --- vmstat --- */

static volatile sig_atomic_t sense_stop;

static void sense_on_signal(int sig)
{
	sense_stop = 1;
}

/* The counters to show: --fields (each must exist) or the defaults the
 * kernel has (VMSTAT_SENSE of probe/vmstat_counters.h). */
static int sense_vmstat_fields(struct sense_opts *o, const struct vmstat *s, struct sense_fields *f)
{
	if (o->fields) {
		char *copy = xstrdup(o->fields), *save = NULL;
		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (vmstat_index(s, t) < 0) {
				vmr_err("sense vmstat: --fields: no counter '%s' in /proc/vmstat", t);
				free(copy);
				return -1;
			}
			strlist_add(&f->names, t);
		}
		free(copy);
		if (!f->names.n) {
			vmr_err("sense vmstat: --fields: '%s' names no counter", o->fields);
			return -1;
		}
	} else {
		for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++)
			if ((vmstat_counters[i].uses & VMSTAT_SENSE) && vmstat_index(s, vmstat_counters[i].name) >= 0)
				strlist_add(&f->names, vmstat_counters[i].name);
	}
	f->idx = xcalloc(f->names.n, sizeof(*f->idx));
	for (size_t i = 0; i < f->names.n; i++)
		f->idx[i] = -1;
	return 0;
}

static void sense_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);   /* a signal cuts it short: sense_stop says why */
}

static int sense_vmstat_loop(struct sense_opts *o, struct vmstat *a, struct vmstat *b,
			     struct sense_fields *f, json_t *samples)
{
	char err[PROBE_ERR_MAX] = "";
	uint64_t t0 = vmr_now_ns();
	for (long n = 0; !sense_stop && (o->count == 0 || n < o->count); n++) {
		sense_sleep_ns(o->interval_ns);
		if (sense_stop)
			break;
		if (vmstat_read(b, NULL, err) < 0) {
			vmr_err("/proc/vmstat: %s", err);
			return VMR_EXIT_CANNOT;
		}
		sense_vmstat_row((double)(vmr_now_ns() - t0) / 1e9, a, b, f, samples);
		struct vmstat t = *a;
		*a = *b;
		*b = t;
	}
	return VMR_EXIT_OK;
}

static int sense_vmstat(struct sense_opts *o, char **pos, int npos)
{
	struct vmstat a = { 0 }, b = { 0 };
	struct sense_fields f = { 0 };
	struct sigaction sa = { .sa_handler = sense_on_signal }, old_int, old_term;
	char err[PROBE_ERR_MAX] = "";
	int rc = VMR_EXIT_CANNOT;
	json_t *samples = o->json ? json_array() : NULL;
	vmstat_init(&a);
	vmstat_init(&b);
	if (vmstat_read(&a, NULL, err) < 0) {
		vmr_err("/proc/vmstat: %s", err);
		goto free_snapshots;
	}
	if (sense_vmstat_fields(o, &a, &f) < 0) {
		rc = VMR_EXIT_USAGE;
		goto free_snapshots;
	}
	if (!o->json)
		sense_vmstat_header(&f);
	/* Ctrl-C ends sampling; with --json the samples so far are printed. */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = sense_vmstat_loop(o, &a, &b, &f, samples);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc == VMR_EXIT_OK && samples) {
		rc = cmd_print_json(samples);
		samples = NULL;
	}
free_snapshots:
	json_decref(samples);
	strlist_free(&f.names);
	free(f.idx);
	vmstat_free(&a);
	vmstat_free(&b);
	return rc;
}

static int sense_thp(struct sense_opts *o, char **pos, int npos)
{
	struct thp t = { 0 };
	char err[PROBE_ERR_MAX] = "";
	const char *root = o->root ? o->root : THP_ROOT;
	if (thp_read(&t, root, err) < 0) {
		vmr_err("sense thp: %s%s", err,
			errno == ENOENT ? " (this kernel has no transparent huge pages)" : "");
		return VMR_EXIT_CANNOT;
	}
	if (o->json) {
		json_t *j = thp_json(&t, true);
		thp_free(&t);
		return cmd_print_json(j);
	}
	sense_thp_text(&t, root);
	thp_free(&t);
	return VMR_EXIT_OK;
}

static int sense_swap(struct sense_opts *o, char **pos, int npos)
{
	struct swapinfo s = { 0 };
	swapinfo_read(&s);
	if (o->json) {
		json_t *j = swapinfo_json(&s);
		swapinfo_free(&s);
		return cmd_print_json(j);
	}
	sense_swap_text(&s);
	swapinfo_free(&s);
	return VMR_EXIT_OK;
}

/* --- lru_gen --- */

static int sense_lru_gen(struct sense_opts *o, char **pos, int npos)
{
	struct lru_gen g = { 0 };
	char err[PROBE_ERR_MAX] = "";
	const char *root = o->root ? o->root : LRU_GEN_ROOT;
	if (lru_gen_read(&g, root, err) < 0) {
		if (errno == ENOENT)
			vmr_err("sense lru_gen: not in this kernel (no %s: built without CONFIG_LRU_GEN, or "
				"older than 6.1)", root);
		else
			vmr_err("sense lru_gen: %s/enabled: %s", root, err);
		return VMR_EXIT_CANNOT;
	}
	if (o->json)
		return cmd_print_json(lru_gen_json(&g));
	sense_lru_gen_text(&g, root);
	return VMR_EXIT_OK;
}

/* --- the command --- */

static const struct {
	const char *name;
	int (*fn)(struct sense_opts *o, char **pos, int npos);
	int npos;               /* words including the view's name */
	const char *args;       /* after the name in the usage */
	const char *help;       /* its lines in `help sense` */
} sense_views[] = {
	{ "zones", sense_zones, 1, "", "nodes and zones from /proc/zoneinfo: sizes and watermarks in pages" },
	{ "structsizes", sense_structsizes, 1, "", "sizes of the kernel's VM structures from BTF (/sys/kernel/btf/vmlinux)" },
	{ "kvirtual", sense_kvirtual, 1, "", "the vmalloc address space; areas and top callers need root" },
	{ "pagemap", sense_pagemap, 0, " PID",  /* checks its own PID argument */
	  "every VMA of a process with its present/swapped/file/exclusive/\n"
	  "               soft-dirty/THP page counts (other users' processes and THP need root)" },
	{ "system", sense_system, 1, "", "the environment fingerprint stored with every run" },
	{ "vmstat", sense_vmstat, 1, "", "/proc/vmstat per interval, like vmstat 1" },
	{ "thp", sense_thp, 1, "", "THP settings, khugepaged, and per multi-size THP size its\n"
	  "               enabled/shmem_enabled and every counter under stats/" },
	{ "swap", sense_swap, 1, "", "swap devices, readahead, swap cache, zero-page swap, zswap, zram" },
	{ "lru_gen", sense_lru_gen, 1, "", "the multi-generational LRU's settings (exits 3 without it)" },
};

/* The views' names joined by sep, each with its arguments when args. */
static char *sense_view_list(char *buf, size_t len, const char *sep, bool args)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sense_views) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s", i ? sep : "", sense_views[i].name,
					args ? sense_views[i].args : "");
	return buf;
}

__attribute__((constructor)) static void sense_cmd_texts(void)
{
	char list[200];
	snprintf(sense_cmd_summary, sizeof(sense_cmd_summary), "read-only views of the kernel's VM (%s)",
		 sense_view_list(list, sizeof(list), ", ", false));
	snprintf(sense_cmd_usage, sizeof(sense_cmd_usage), "sense %s [options]",
		 sense_view_list(list, sizeof(list), "|", true));
	size_t off = (size_t)snprintf(sense_cmd_details, sizeof(sense_cmd_details), "Views:\n");
	for (size_t i = 0; i < ARRAY_SIZE(sense_views) && off < sizeof(sense_cmd_details); i++) {
		char head[32];
		snprintf(head, sizeof(head), "%s%s", sense_views[i].name, sense_views[i].args);
		off += (size_t)snprintf(sense_cmd_details + off, sizeof(sense_cmd_details) - off, "  %-12s %s\n", head,
					sense_views[i].help);
	}
	if (off < sizeof(sense_cmd_details))
		snprintf(sense_cmd_details + off, sizeof(sense_cmd_details) - off, "%s", sense_details_tail);
}

int cmd_sense(int argc, char **argv)
{
	struct sense_opts o = { 0 };
	struct optset set = { sense_cmd_opts, &o, "Options" };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	char list[200];
	OPT_DEFAULTS(sense_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("sense"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos == 0) {
		vmr_err("sense: which view? %s", sense_view_list(list, sizeof(list), "|", true));
		goto free_opts;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sense_views); i++) {
		if (strcmp(pos[0], sense_views[i].name))
			continue;
		if (sense_views[i].npos && npos != sense_views[i].npos)
			vmr_err("sense %s: unexpected argument '%s'", pos[0], pos[1]);
		else
			rc = sense_views[i].fn(&o, pos, npos);
		goto free_opts;
	}
	vmr_err("sense: unknown view '%s' (%s)", pos[0], sense_view_list(list, sizeof(list), "|", false));
free_opts:
	opt_free(sense_cmd_opts, &o);
	free(pos);
	return rc;
}
