/* vmregress refs: generate, randomize, show and record page-reference
 * traces (the seed's generate_references.pl and randomize_references.pl). */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "refs/gen.h"
#include "refs/record.h"
#include "refs/record_damon.h"
#include "refs/stats.h"
#include "refs/trace.h"
#include "report/refs_text.h"
#include "sandbox/damonctl.h"
#include "sandbox/sandbox.h"

struct refs_cmd {
	long pages, references, seed, window, top, pid;
	int pattern, method;
	double alpha, hot_fraction, hot_probability, sigma, cycles, noise;
	char *phases, *output;
	uint64_t interval_ns, duration_ns;
	bool json;
};

#define O(f) offsetof(struct refs_cmd, f)
#define OPT_PAGES { .name = "pages", .type = OPT_INT, .off = O(pages), .min = 1, .max = 4294967296.0, \
	.metavar = "N", .help = "generate: the region's size in pages" }
#define OPT_REFERENCES { .name = "references", .type = OPT_INT, .off = O(references), .min = 1, \
	.max = 17179869184.0, .metavar = "M", .help = "generate: how many references" }
#define OPT_PATTERN { .name = "pattern", .type = OPT_ENUM, .off = O(pattern), .def = "random", \
	.choices = REFS_PATTERN_CHOICES, .help = "generate: the pattern (formulas below)" }
#define OPT_SEED { .name = "seed", .type = OPT_INT, .off = O(seed), .def = "1", .min = 0, \
	.max = 9.2e18, .metavar = "S", .help = "generate, randomize: the generator's seed" }
#define OPT_DBL(n, f, d, h) { .name = n, .type = OPT_DOUBLE, .off = O(f), .def = d, .metavar = "X", .help = h }
#define OPT_ALPHA OPT_DBL("alpha", alpha, "1", "zipf: the exponent")
#define OPT_HOTF OPT_DBL("hot-fraction", hot_fraction, "0.1", "hotcold: share of pages that are hot")
#define OPT_HOTP OPT_DBL("hot-probability", hot_probability, "0.9", "hotcold: share of references to hot pages")
#define OPT_SIGMA OPT_DBL("sigma", sigma, "0.05", "gauss: standard deviation, as a fraction of the pages")
#define OPT_CYCLES OPT_DBL("cycles", cycles, "4", "smooth_sin periods, gauss sweeps, sawtooth teeth")
#define OPT_NOISE OPT_DBL("noise", noise, "0.02", "smooth_sin, sawtooth: noise half-width, fraction of the pages")
#define OPT_PHASES { .name = "phases", .type = OPT_STR, .off = O(phases), .metavar = "P:SHARE,...", \
	.help = "phases: patterns and their shares, e.g. linear:1,zipf:2" }
#define OPT_OUTPUT { .name = "output", .type = OPT_STR, .off = O(output), .metavar = "FILE", \
	.help = "generate, randomize, record: the trace file to write", .short_name = 'o' }
#define OPT_JSON { .name = "json", .type = OPT_FLAG, .off = O(json), .help = "show: one JSON document", \
	.flags = OPTF_NO_ECHO }
#define OPT_WINDOW { .name = "window", .type = OPT_INT, .off = O(window), .def = "0", .min = 0, .max = 4e9, \
	.metavar = "N", .help = "show: working-set window in references (0: a hundredth of the trace)" }
#define OPT_TOP { .name = "top", .type = OPT_INT, .off = O(top), .def = "10", .min = 0, .max = 1000, \
	.metavar = "N", .help = "show: how many hottest pages to list" }
#define OPT_PID { .name = "pid", .type = OPT_INT, .off = O(pid), .min = 1, .max = 4194304, .metavar = "PID", \
	.help = "record: the process to sample" }
#define OPT_INTERVAL { .name = "interval", .type = OPT_TIME, .off = O(interval_ns), .def = "100ms", \
	.min = 1e6, .max = 3600e9, .metavar = "TIME", .help = "record: time between samples" }
#define OPT_DURATION { .name = "duration", .type = OPT_TIME, .off = O(duration_ns), .def = "30s", \
	.min = 1e6, .max = 86400e9, .metavar = "TIME", .help = "record: how long to record" }
#define OPT_METHOD { .name = "method", .type = OPT_ENUM, .off = O(method), .def = "auto", \
	.choices = REFS_REC_METHODS, .help = "record: how to see accesses: idle page tracking, soft-dirty bits, " \
		"the process's page faults (a software perf event), or DAMON's regions (a kdamond for the recording, " \
		"put back after); auto: the first of the first three that works here" }

static const struct opt generate_opts[] = {
	OPT_PAGES, OPT_REFERENCES, OPT_PATTERN, OPT_SEED, OPT_ALPHA, OPT_HOTF, OPT_HOTP, OPT_SIGMA,
	OPT_CYCLES, OPT_NOISE, OPT_PHASES, OPT_OUTPUT, OPT_END,
};
static const struct opt randomize_opts[] = { OPT_SEED, OPT_OUTPUT, OPT_END };
static const struct opt show_opts[] = { OPT_JSON, OPT_WINDOW, OPT_TOP, OPT_END };
static const struct opt record_opts[] = { OPT_PID, OPT_INTERVAL, OPT_DURATION, OPT_METHOD, OPT_OUTPUT, OPT_END };

const struct opt refs_cmd_opts[] = {
	OPT_PAGES, OPT_REFERENCES, OPT_PATTERN, OPT_SEED, OPT_ALPHA, OPT_HOTF, OPT_HOTP, OPT_SIGMA,
	OPT_CYCLES, OPT_NOISE, OPT_PHASES, OPT_OUTPUT, OPT_JSON, OPT_WINDOW, OPT_TOP, OPT_PID,
	OPT_INTERVAL, OPT_DURATION, OPT_METHOD, OPT_END,
};

const char refs_cmd_details[] =
	"Subcommands:\n"
	"  generate --pages N --references M --pattern P [--seed S] -o FILE\n"
	"  randomize IN -o OUT [--seed S]   same references, shuffled (Fisher-Yates)\n"
	"  show FILE [--json]               pages, distinct pages, working set, reuse distances, hottest pages\n"
	"  record --pid PID [--interval 100ms] [--duration 30s] -o FILE   sample a process's references\n"
	"\n"
	"Patterns, for reference i of M over N pages (u uniform in [0,1) from xoshiro256**\n"
	"seeded by splitmix64; round(x) = floor(x + 0.5); reflect folds x into [0, N-1]):\n"
	"  linear      page = i mod N\n"
	"  random      page = floor(N * u)  (a 32-bit multiply-shift)\n"
	"  smooth_sin  page = reflect(round(c + (2u-1) * noise * N)),\n"
	"              c = (N-1)/2 * (1 + sin(2 pi cycles i / M))\n"
	"  zipf        page = k - 1, P(k) ~ k^-alpha for k in 1..N (rejection-inversion)\n"
	"  hotcold     H = max(1, round(hot_fraction N)); with probability hot_probability\n"
	"              page = floor(H u), else page = H + floor((N-H) u)\n"
	"  gauss       page = round(c + sigma N z) mod N, z ~ Normal(0,1), c = N frac(cycles i / M)\n"
	"  sawtooth    page = reflect(round(N frac(cycles i / M) + (2u-1) noise N))\n"
	"  phases      --phases linear:1,zipf:2: each pattern for its share of the references\n"
	"The same seed gives a byte-identical trace on every machine.";

static const struct cmd *refs_self(void)
{
	return cmd_find("refs");
}

static int refs_parse_args(const struct opt *opts, struct refs_cmd *o, int argc, char **argv,
			   char **pos, int *npos)
{
	OPT_DEFAULTS(opts, o);
	struct optset set = { opts, o, NULL };
	bool help = false;
	if (opt_parse(&set, 1, argc, argv, pos, npos, &help) < 0)
		return VMR_EXIT_USAGE;
	if (help) {
		cmd_help(stdout, refs_self());
		return -1;
	}
	return VMR_EXIT_OK;
}

static int refs_need_output(const struct refs_cmd *o, const char *sub)
{
	if (!o->output || !*o->output) {
		vmr_err("refs %s: needs -o FILE", sub);
		return -1;
	}
	return 0;
}

static int refs_generate_cmd(struct refs_cmd *o, int npos)
{
	char err[256] = "";
	if (npos) {
		vmr_err("refs generate: takes no file argument (use -o FILE)");
		return VMR_EXIT_USAGE;
	}
	if (!o->pages || !o->references) {
		vmr_err("refs generate: needs --pages N and --references M");
		return VMR_EXIT_USAGE;
	}
	if (refs_need_output(o, "generate") < 0)
		return VMR_EXIT_USAGE;
	struct refs_params p = { .alpha = o->alpha, .hot_fraction = o->hot_fraction,
				 .hot_probability = o->hot_probability, .sigma = o->sigma, .cycles = o->cycles,
				 .noise = o->noise, .phases = o->phases };
	if (refs_gen_check(o->pattern, &p, err, sizeof(err)) < 0) {
		vmr_err("%s", err);
		return VMR_EXIT_USAGE;
	}
	struct refs_header h = { .page_size = (uint32_t)vmr_page_size(), .pages = (uint64_t)o->pages,
				 .references = (uint64_t)o->references, .seed = (uint64_t)o->seed };
	refs_gen_describe(o->pattern, &p, h.desc, sizeof(h.desc));
	struct refs_out out = { 0 };
	if (refs_out_init(&out, &h) < 0)
		return VMR_EXIT_CANNOT;
	refs_generate(out.body, h.pages, h.references, o->pattern, &p, h.seed);
	int rc = refs_out_write(&out, o->output) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	refs_out_free(&out);
	return rc;
}

static int refs_randomize_cmd(struct refs_cmd *o, char **pos, int npos)
{
	if (npos != 1) {
		vmr_err("refs randomize: needs one input trace (refs randomize IN -o OUT)");
		return VMR_EXIT_USAGE;
	}
	if (refs_need_output(o, "randomize") < 0)
		return VMR_EXIT_USAGE;
	struct refs_trace t = { 0 };
	if (refs_open(&t, pos[0]) < 0)
		return VMR_EXIT_USAGE;
	struct refs_header h = t.h;
	h.flags |= REFS_FLAG_RANDOMIZED;
	h.seed = (uint64_t)o->seed;
	size_t dl = strlen(h.desc);
	snprintf(h.desc + dl, sizeof(h.desc) - dl, "%srandomized seed=%ld", dl ? " " : "", o->seed);
	struct refs_out out = { 0 };
	int rc = VMR_EXIT_CANNOT;
	if (refs_out_init(&out, &h) < 0)
		goto close_trace;
	memcpy(out.body, t.refs, h.references * 4);
	refs_shuffle(out.body, h.references, h.seed);
	rc = refs_out_write(&out, o->output) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	refs_out_free(&out);
close_trace:
	refs_close(&t);
	return rc;
}

static int refs_show_cmd(struct refs_cmd *o, char **pos, int npos)
{
	if (npos != 1) {
		vmr_err("refs show: needs one trace file");
		return VMR_EXIT_USAGE;
	}
	struct refs_trace t = { 0 };
	if (refs_open(&t, pos[0]) < 0)
		return VMR_EXIT_USAGE;
	struct refs_stats st = { 0 };
	int rc = VMR_EXIT_CANNOT;
	if (refs_stats_compute(t.refs, t.h.references, t.h.pages, (uint64_t)o->window, (size_t)o->top, &st) < 0)
		goto close_trace;
	if (o->json) {
		rc = cmd_print_json(refs_show_json(&t, &st));
	} else {
		refs_show_text(stdout, &t, &st);
		rc = VMR_EXIT_OK;
	}
	refs_stats_free(&st);
close_trace:
	refs_close(&t);
	return rc;
}

/* DAMON's regions, as the recorder takes them. */
static int refs_damon_next(void *ctx, struct refs_damon_sample **v, size_t *n)
{
	struct damonctl_region *dr;
	if (damonctl_session_regions(ctx, &dr, n) < 0) {
		if (errno == ESRCH)
			return 1;  /* the process exited, and its kdamond stopped */
		vmr_errno("refs record: cannot read DAMON's regions");
		return -2;
	}
	*v = xcalloc(*n ? *n : 1, sizeof(**v));
	for (size_t i = 0; i < *n; i++)
		(*v)[i] = (struct refs_damon_sample){ dr[i].start, dr[i].end, dr[i].nr_accesses };
	free(dr);
	return 0;
}

/* A kdamond for the recording's length, put back after (and on a signal). */
static int refs_record_damon_cmd(const struct refs_record_cfg *cfg, struct refs_out *out)
{
	struct damonctl_session *s;
	if (kill(cfg->pid, 0) < 0 && errno == ESRCH) {
		vmr_err("refs record: --pid %d: no such process", (int)cfg->pid);
		return -1;
	}
	sandbox_install_signal_handlers();
	if (damonctl_session_open(cfg->pid, cfg->interval_ns / 1000, &s) < 0)
		return -2;
	struct refs_damon_source src = { refs_damon_next, s };
	int r = refs_record_damon(cfg, &src, out);
	damonctl_session_close(s);
	return r;
}

static int refs_record_cmd(struct refs_cmd *o, int npos)
{
	if (npos) {
		vmr_err("refs record: takes no file argument (use -o FILE)");
		return VMR_EXIT_USAGE;
	}
	if (!o->pid) {
		vmr_err("refs record: needs --pid PID");
		return VMR_EXIT_USAGE;
	}
	if (refs_need_output(o, "record") < 0)
		return VMR_EXIT_USAGE;
	struct refs_record_cfg cfg = { .pid = (pid_t)o->pid, .interval_ns = o->interval_ns,
				       .duration_ns = o->duration_ns, .method = o->method };
	struct refs_out out = { 0 };
	int r = cfg.method == REFS_REC_DAMON ? refs_record_damon_cmd(&cfg, &out) : refs_record(&cfg, &out);
	if (r < 0)
		return r == -1 ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
	r = refs_out_write(&out, o->output) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	refs_out_free(&out);
	return r;
}

static const struct {
	const char *name;
	const struct opt *opts;
} refs_subs[] = {
	{ "generate", generate_opts },
	{ "randomize", randomize_opts },
	{ "show", show_opts },
	{ "record", record_opts },
};

int cmd_refs(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cmd_help(argc < 2 ? stderr : stdout, refs_self());
		return argc < 2 ? VMR_EXIT_USAGE : VMR_EXIT_OK;
	}
	size_t s;
	for (s = 0; s < ARRAY_SIZE(refs_subs); s++)
		if (!strcmp(argv[1], refs_subs[s].name))
			break;
	if (s == ARRAY_SIZE(refs_subs)) {
		vmr_err("refs: unknown subcommand '%s' (generate, randomize, show or record)", argv[1]);
		return VMR_EXIT_USAGE;
	}
	struct refs_cmd o = { 0 };
	char **pos = xcalloc((size_t)argc, sizeof(*pos));
	int npos, rc = refs_parse_args(refs_subs[s].opts, &o, argc - 2, argv + 2, pos, &npos);
	if (rc)
		goto free_opts;
	switch (s) {
	case 0: rc = refs_generate_cmd(&o, npos); break;
	case 1: rc = refs_randomize_cmd(&o, pos, npos); break;
	case 2: rc = refs_show_cmd(&o, pos, npos); break;
	default: rc = refs_record_cmd(&o, npos); break;
	}
free_opts:
	if (rc < 0)
		rc = VMR_EXIT_OK;
	opt_free(refs_subs[s].opts, &o);
	free(pos);
	return rc;
}
