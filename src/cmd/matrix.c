/* vmregress matrix: the same suite under several kernels, each booted in a
 * QEMU guest with a fixed memory size and its own swap.  Parsing and wiring
 * only; the parts live in src/vm/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/matrix_int.h"
#include "core/util.h"
#include "report/outcome_text.h"
#include "vm/matrix.h"
#include "vm/proto.h"

#define O(f) offsetof(struct matrix_opts, f)
const struct opt matrix_cmd_opts[] = {
	{ "kernel", OPT_LIST, O(kernels), NULL, 0, 0, NULL, "PATH|PACKAGE",
	  "a kernel image, or a Debian kernel package to download into the cache (repeatable)", 0, 0 },
	{ "append", OPT_LIST, O(appends), NULL, 0, 0, NULL, "ARGS",
	  "extra kernel command line; several make one guest per kernel and command line", 0, 0 },
	{ "suite", OPT_STR, O(suite), "quick", 0, 0, NULL, "SUITE", "suite name or file to run in each guest", 0, 0 },
	MATRIX_GUEST_OPTS(O)
	{ "iterations", OPT_INT, O(iterations), "0", 0, 1000, NULL, "N", "iterations per case (0: the suite's)", 0, 0 },
	{ "name", OPT_STR, O(name), NULL, 0, 0, NULL, "NAME", "matrix name, the tag of its runs (default: matrix-DATE)", 0, 0 },
	MATRIX_WATCH_OPTS(O)
	{ "log-dir", OPT_STR, O(log_dir), NULL, 0, 0, NULL, "DIR",
	  "where console logs and guest output are kept (default $XDG_DATA_HOME/vmregress/matrix/NAME)", 0, 0 },
	MATRIX_HOST_OPTS(O)
	{ "json", OPT_FLAG, O(json), NULL, 0, 0, NULL, NULL, "print the outcome as JSON", OPTF_NO_ECHO, 0 },
	{ "guest-cmd", OPT_STR, O(guest_cmd), NULL, 0, 0, NULL, "ARGS",
	  "test: vmregress arguments the guest runs instead of the suite", OPTF_HIDDEN, 0 },
	{ "guest-script", OPT_STR, O(guest_script), NULL, 0, 0, NULL, "FILE",
	  "test: a shell script the guest runs instead of the suite (vmregress is /vmregress)", OPTF_HIDDEN, 0 },
	{ "guest-file", OPT_LIST, O(guest_files), NULL, 0, 0, NULL, "FILE",
	  "test: a file put in the guest's / under its base name, for --guest-script (repeatable)", OPTF_HIDDEN, 0 },
	{ "guest-fault", OPT_ENUM, O(guest_fault), "none", 0, 0, "none|panic|hang|garbage", NULL,
	  "test: make the guest misbehave", OPTF_HIDDEN, 0 },
	{ "build-initramfs", OPT_STR, O(build_initramfs), NULL, 0, 0, NULL, "FILE",
	  "test: only write the initramfs for the first kernel (or none)", OPTF_HIDDEN, 0 },
	{ "guest-emit", OPT_STR, O(guest_emit), NULL, 0, 0, NULL, "FILE", "guest: frame FILE on stdout",
	  OPTF_HIDDEN, 0 },
	{ "guest-label", OPT_STR, O(guest_label), "stdout", 0, 0, NULL, "LABEL", "guest: the frame's label",
	  OPTF_HIDDEN, 0 },
	{ "guest-rc", OPT_INT, O(guest_rc), "0", -1, 255, NULL, "N", "guest: the frame's exit status",
	  OPTF_HIDDEN, 0 },
	{ "guest-done", OPT_FLAG, O(guest_done), NULL, 0, 0, NULL, NULL, "guest: print VMR-DONE", OPTF_HIDDEN, 0 },
	OPT_END
};
#undef O

/* ---- guest side: frame a file on the console ---- */

static int matrix_guest_emit(const struct matrix_opts *o)
{
	char *buf = NULL;
	size_t len = 0;

	if (o->guest_emit && vmr_read_file(o->guest_emit, &buf, &len) < 0) {
		vmr_errno("cannot read %s", o->guest_emit);
		return VMR_EXIT_USAGE;
	}
	if (o->guest_emit && proto_emit(stdout, o->guest_label, (int)o->guest_rc, buf, len) < 0) {
		free(buf);
		vmr_err("cannot frame %s: bad label or write error", o->guest_emit);
		return VMR_EXIT_USAGE;
	}
	free(buf);
	if (o->guest_done && proto_emit_done(stdout) < 0) {
		vmr_errno("cannot write to standard output");
		return VMR_EXIT_CANNOT;
	}
	return VMR_EXIT_OK;
}

/* ---- host side: the report (the guests run in vm/matrix.c) ---- */

static json_t *matrix_guest_json(const struct matrix_ctx *c, const struct matrix_guest *g)
{
	const struct proto_frame *so = proto_find(&g->frames, "stdout");
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:f, s:s}", "label", g->label, "kernel", g->k->spec,
			      "version", g->k->version, "append", g->append ? g->append : "", "status", g->status,
			      "rc", g->rc, "elapsed_s", g->elapsed_s, "console_log", g->log_path);
	json_object_set_new(j, "reason", g->reason ? json_string(g->reason) : json_null());
	json_object_set_new(j, "run_id", g->run_id ? json_integer(g->run_id) : json_null());
	json_t *out = so ? json_loadb((const char *)so->data, so->len, 0, NULL) : NULL;
	if (!out && so)
		out = json_stringn((const char *)so->data, so->len);
	json_object_set_new(j, "output", out ? out : json_null());
	return j;
}

static void matrix_print_text(const struct matrix_ctx *c, struct matrix_guest *g, size_t n)
{
	struct outcome_guest *og = xcalloc(n ? n : 1, sizeof(*og));
	for (size_t i = 0; i < n; i++)
		og[i] = (struct outcome_guest){ .label = g[i].label, .status = g[i].status, .run_id = g[i].run_id,
						.elapsed_s = g[i].elapsed_s,
						.detail = g[i].reason ? g[i].reason : g[i].append };
	outcome_matrix(stdout, c->o->name, c->accel == GUEST_ACCEL_KVM, og, n, c->log_dir);
	free(og);
}

static int matrix_report(const struct matrix_ctx *c, struct matrix_guest *g, size_t n)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++)
		failed += strcmp(g[i].status, "complete") != 0 || g[i].rc != 0;
	if (c->o->json) {
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(arr, matrix_guest_json(c, &g[i]));
		json_t *j = json_pack("{s:s, s:s, s:b, s:s, s:o}", "name", c->o->name, "accel",
				      c->accel == GUEST_ACCEL_KVM ? "kvm" : "tcg", "emulated", c->accel != GUEST_ACCEL_KVM,
				      "log_dir", c->log_dir, "guests", arr);
		if (c->accel_why[0])
			json_object_set_new(j, "accel_reason", json_string(c->accel_why));
		if (cmd_print_json(j) != VMR_EXIT_OK)
			return VMR_EXIT_CANNOT;
	} else {
		matrix_print_text(c, g, n);
	}
	return failed ? VMR_EXIT_FAIL : VMR_EXIT_OK;
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_opts o = { 0 };
	struct optset set = { matrix_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos, r;
	bool help = false;

	OPT_DEFAULTS(matrix_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0) {
		r = VMR_EXIT_USAGE;
	} else if (help) {
		cmd_help(stdout, cmd_find("matrix"));
		r = VMR_EXIT_OK;
	} else if (npos > 0) {
		vmr_err("matrix: unexpected argument '%s' (kernels go with --kernel)", pos[0]);
		r = VMR_EXIT_USAGE;
	} else if (o.guest_emit || o.guest_done) {
		r = matrix_guest_emit(&o);
	} else if (!o.kernels.n && !o.build_initramfs) {
		vmr_err("matrix: no kernel given (--kernel PATH|PACKAGE)");
		r = VMR_EXIT_USAGE;
	} else {
		r = matrix_host(&o, matrix_report);
	}
	opt_free(matrix_cmd_opts, &o);
	free(pos);
	return r;
}
