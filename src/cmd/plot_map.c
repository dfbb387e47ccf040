/* vmregress plot-map PID|RUN:CASE -o FILE.png: one present/swapped map as
 * an image (PNG, as in the report, or SVG).  For a live process the map is read from /proc/PID/pagemap over
 * its VMAs (or the one VMA holding --vma ADDR); for a stored run it is one
 * of the maps a case's result holds. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "core/path.h"
#include "core/util.h"
#include "probe/pagemap.h"
#include "report/plot.h"
#include "report/runsrc.h"

/* Beyond this many pages (256 GiB of 4K pages) a whole process is not worth
 * drawing page by page: pick a VMA. */
#define PLOT_MAP_MAX_PAGES (1ULL << 26)

struct plot_map_cmd {
	char *out, *db, *map, *vma, *title;
	long iteration;
	int format;
	bool json;
};

enum { PLOT_MAP_AUTO, PLOT_MAP_PNG, PLOT_MAP_SVG };

const struct opt plot_map_cmd_opts[] = {
	{ .name = "output", .type = OPT_STR, .off = offsetof(struct plot_map_cmd, out), .metavar = "FILE",
	  .help = "where to write the image ('-' for standard output)", .short_name = 'o' },
	{ .name = "format", .type = OPT_ENUM, .off = offsetof(struct plot_map_cmd, format), .def = "auto",
	  .choices = "auto|png|svg", .metavar = "FORMAT",
	  .help = "png or svg; auto: svg when FILE ends in .svg, else png" },
	{ .name = "map", .type = OPT_STR, .off = offsetof(struct plot_map_cmd, map), .metavar = "NAME",
	  .help = "RUN:CASE: which map of the result (default the last, e.g. after the last pass)" },
	{ .name = "iteration", .type = OPT_INT, .off = offsetof(struct plot_map_cmd, iteration), .def = "0",
	  .min = 0, .max = 1e9, .metavar = "N",
	  .help = "RUN:CASE: which iteration, from 1 (default the first that has maps)" },
	{ .name = "vma", .type = OPT_STR, .off = offsetof(struct plot_map_cmd, vma), .metavar = "ADDR",
	  .help = "PID: only the VMA containing ADDR (hex)" },
	{ .name = "title", .type = OPT_STR, .off = offsetof(struct plot_map_cmd, title), .metavar = "TEXT",
	  .help = "the graph's title" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct plot_map_cmd, json), .flags = OPTF_NO_ECHO,
	  .help = "print what was drawn as JSON (page counts)" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct plot_map_cmd, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	OPT_END,
};

struct page_map {
	char *pages;
	size_t n;
	char *title;
};

static bool plot_map_is_pid(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int plot_map_vmas(const struct plot_map_cmd *o, const struct maps *m, pid_t pid, size_t *first,
			 size_t *n)
{
	*first = 0;
	*n = m->n;
	if (!o->vma)
		return 0;
	char *end;
	errno = 0;
	uint64_t addr = strtoull(o->vma, &end, 16);
	const struct maps_vma *v = errno || *end || end == o->vma ? NULL : maps_find(m, addr);
	if (!v) {
		vmr_err("plot-map: --vma %s: no VMA of process %d contains it", o->vma, (int)pid);
		return -1;
	}
	*first = (size_t)(v - m->vmas);
	*n = 1;
	return 0;
}

/* Append each VMA's page states; VMAs pagemap does not cover are skipped. */
static int plot_map_scan(struct pagemap *pm, const struct maps *m, size_t first, size_t n, pid_t pid,
			 struct page_map *out)
{
	char err[PROBE_ERR_MAX] = "";
	uint64_t total = 0;
	for (size_t i = first; i < first + n; i++)
		total += (m->vmas[i].end - m->vmas[i].start) / pm->page_size;
	if (total > PLOT_MAP_MAX_PAGES) {
		vmr_err("plot-map: process %d maps %llu pages, too many to draw (pick one with --vma ADDR)", (int)pid,
			(unsigned long long)total);
		return VMR_EXIT_USAGE;
	}
	out->pages = xmalloc(total + 1);
	for (size_t i = first; i < first + n; i++) {
		struct pagemap_counts c = { 0 };
		if (pagemap_scan(pm, m->vmas[i].start, m->vmas[i].end, &c, out->pages + out->n, err) < 0) {
			if (errno == ERANGE)
				continue;
			vmr_err("plot-map: process %d: %s", (int)pid, err);
			return errno == ENOENT || errno == ESRCH ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
		}
		out->n += (m->vmas[i].end - m->vmas[i].start) / pm->page_size;
	}
	out->pages[out->n] = '\0';
	return VMR_EXIT_OK;
}

static int plot_map_from_pid(const struct plot_map_cmd *o, const char *spec, struct page_map *out)
{
	char *end, err[PROBE_ERR_MAX] = "";
	long v = strtol(spec, &end, 10);
	pid_t pid = (pid_t)v;
	if (v <= 0 || v > 0x7fffffff || (kill(pid, 0) < 0 && errno == ESRCH)) {
		vmr_err("plot-map: no process %s", spec);
		return VMR_EXIT_USAGE;
	}
	struct maps m = { 0 };
	struct pagemap pm = { 0 };
	size_t first, n;
	if (maps_read(&m, pid, err) < 0) {
		vmr_err("plot-map: /proc/%d/maps: %s", (int)pid, err);
		return errno == ENOENT ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
	}
	int rc = VMR_EXIT_USAGE;
	if (plot_map_vmas(o, &m, pid, &first, &n) < 0)
		goto free_maps;
	if (pagemap_open(&pm, pid, false, err) < 0) {
		vmr_err("plot-map: %s", err);
		rc = VMR_EXIT_CANNOT;
		goto free_maps;
	}
	rc = plot_map_scan(&pm, &m, first, n, pid, out);
	out->title = o->vma ? xasprintf("process %d, VMA at %s", (int)pid, o->vma)
			    : xasprintf("process %d, all VMAs", (int)pid);
	pagemap_close(&pm);
free_maps:
	maps_free(&m);
	return rc;
}

/* Iteration i of case c into *res: the one held (a run read from a file
 * comes whole), else read alone from the store with its maps.  0, or -1
 * after a message. */
static int plot_map_iter(struct run_set *set, const struct run_case *c, size_t i, struct result *res)
{
	if (!set->from_store[0]) {
		*res = c->iters[i];
		return 0;
	}
	return store_iter_read(set->st, c, i, RESULT_MAPS, res);
}

/* The iteration --iteration names, else the first that has maps, into
 * *res (held when *read): 1 when there is one, 0 when none, -1 after a
 * message.  Of a run in the store each iteration looked at is read alone,
 * so no more than one iteration's maps are held. */
static int plot_map_result(const struct plot_map_cmd *o, struct run_set *set, const struct run_case *c,
			   struct result *res, bool *read)
{
	*read = set->from_store[0];
	if (o->iteration > 0) {
		if ((size_t)o->iteration > c->niter)
			return 0;
		return plot_map_iter(set, c, (size_t)o->iteration - 1, res) < 0 ? -1 : 1;
	}
	for (size_t i = 0; i < c->niter; i++) {
		if (plot_map_iter(set, c, i, res) < 0)
			return -1;
		if (res->nmaps)
			return 1;
		if (*read)
			result_free(res);
	}
	return 0;
}

static int plot_map_from_run(const struct plot_map_cmd *o, const char *spec, struct page_map *out)
{
	char *runspec = xstrdup(spec), *colon = strrchr(runspec, ':');
	int rc = VMR_EXIT_USAGE;
	struct run_set set = { 0 };
	struct result res = { 0 };
	bool read = false;
	if (!colon || colon == runspec || !colon[1]) {
		vmr_err("plot-map: '%s' is neither a process id nor RUN:CASE", spec);
		goto free_spec;
	}
	*colon = '\0';
	const char *case_name = colon + 1;
	/* the run's cases and iterations, with each one's metrics alone: the
	 * maps of the one drawn are read when it is found */
	if (runsrc_load_parts(o->db, &runspec, 1, RESULT_METRICS, &set) < 0)
		goto free_spec;
	const struct run *r = set.runs[0];
	const struct run_case *c = NULL;
	for (size_t i = 0; i < r->ncases && !c; i++)
		if (!strcmp(r->cases[i].name, case_name))
			c = &r->cases[i];
	int found = c ? plot_map_result(o, &set, c, &res, &read) : 0;
	if (found < 0)
		goto free_set;  /* a damaged result: as when the run would not load */
	const struct map *m = found && res.nmaps && !o->map ? &res.maps[res.nmaps - 1] : NULL;
	for (size_t i = 0; o->map && found && i < res.nmaps; i++)
		if (!strcmp(res.maps[i].name, o->map))
			m = &res.maps[i];
	if (!c)
		vmr_err("plot-map: run %s has no case '%s'", runspec, case_name);
	else if (!found)
		vmr_err("plot-map: case '%s' has no %s", case_name, o->iteration ? "such iteration" : "maps");
	else if (!m)
		vmr_err("plot-map: case '%s' has no map%s%s%s", case_name, o->map ? " '" : "", o->map ? o->map : "",
			o->map ? "'" : "");
	else {
		out->n = strlen(m->pages);
		out->pages = xstrdup(m->pages);
		out->title = xasprintf("%s %s: %s", runspec, case_name, m->name);
		rc = VMR_EXIT_OK;
	}
	if (found && read)
		result_free(&res);
free_set:
	runsrc_free(&set);
free_spec:
	free(runspec);
	return rc;
}

static enum plot_format plot_map_format(const struct plot_map_cmd *o)
{
	size_t n = strlen(o->out);
	if (o->format == PLOT_MAP_AUTO)
		return n >= 4 && !strcasecmp(o->out + n - 4, ".svg") ? PLOT_SVG : PLOT_PNG;
	return o->format == PLOT_MAP_SVG ? PLOT_SVG : PLOT_PNG;
}

static int plot_map_write(const struct plot_map_cmd *o, const struct page_map *pm, struct plot_image *img)
{
	char *script = plot_map_script(pm->pages, pm->n, o->title ? o->title : pm->title, 720, 560,
				       plot_map_format(o));
	char *why;
	int rc = VMR_EXIT_OK;
	if (plot_render(script, img, &why) < 0) {
		vmr_err("plot-map: %s", why);
		free(why);
		free(script);
		return VMR_EXIT_CANNOT;
	}
	if (!strcmp(o->out, "-")) {
		fwrite(img->data, 1, img->len, stdout);
	} else {
		int e = vmr_write_atomic(o->out, img->data, img->len, 0644);
		if (e < 0) {
			vmr_err("plot-map: cannot write %s: %s", o->out, path_strerror(-e));
			rc = VMR_EXIT_CANNOT;
		}
	}
	free(script);
	return rc;
}

static int plot_map_report(const struct plot_map_cmd *o, const struct page_map *pm, const struct plot_image *img)
{
	size_t present = 0, swapped = 0;
	for (size_t i = 0; i < pm->n; i++) {
		present += pm->pages[i] == '#';
		swapped += pm->pages[i] == 's';
	}
	if (o->json)
		return cmd_print_json(json_pack("{ss ss ss sI sI sI sI sI}", "output", o->out, "format",
						img->format == PLOT_PNG ? "png" : "svg", "title", pm->title, "width",
						(json_int_t)img->width, "height", (json_int_t)img->height, "pages",
						(json_int_t)pm->n, "present", (json_int_t)present, "swapped",
						(json_int_t)swapped));
	if (strcmp(o->out, "-"))
		printf("%s: %zu pages, %zu present, %zu swapped (%ux%u %s)\n", o->out, pm->n, present, swapped,
		       img->width, img->height, img->format == PLOT_PNG ? "PNG" : "SVG");
	return VMR_EXIT_OK;
}

int cmd_plot_map(int argc, char **argv)
{
	struct plot_map_cmd o = { 0 };
	struct optset set = { plot_map_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	struct page_map pm = { 0 };
	struct plot_image img = { 0 };
	OPT_DEFAULTS(plot_map_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("plot-map"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos != 1 || !o.out) {
		vmr_err("plot-map: %s (usage: vmregress plot-map PID|RUN:CASE -o FILE.png)",
			npos != 1 ? "needs one process id or RUN:CASE" : "needs -o FILE.png");
		goto free_opts;
	}
	if (!plot_available()) {
		vmr_err("plot-map: gnuplot not found (install gnuplot-nox)");
		rc = VMR_EXIT_CANNOT;
		goto free_opts;
	}
	rc = plot_map_is_pid(pos[0]) ? plot_map_from_pid(&o, pos[0], &pm) : plot_map_from_run(&o, pos[0], &pm);
	if (rc == VMR_EXIT_OK)
		rc = plot_map_write(&o, &pm, &img);
	if (rc == VMR_EXIT_OK && (o.json || strcmp(o.out, "-")))
		rc = plot_map_report(&o, &pm, &img);
	plot_image_free(&img);
	free(pm.pages);
	free(pm.title);
free_opts:
	opt_free(plot_map_cmd_opts, &o);
	free(pos);
	return rc;
}
