/* Shell completion, written from the same tables as the parser: the command
 * table (names, and the sub-commands its usage lines name), each command's
 * option table (names, enum choices, which take a value), the workloads and
 * their options, the sandbox's and tracing's options, the knob allow-list
 * and the built-in suites.  `vmregress help --completion bash` prints it;
 * `make install` installs it where bash-completion looks. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "harness/suite.h"
#include "harness/trace_hook.h"
#include "sandbox/knobs.h"
#include "sandbox/sandbox.h"
#include "workload/workload.h"

/* The words of a command's usage that are sub-commands: the lowercase first
 * word of each '|'-separated alternative ("sense zones|structsizes|pagemap
 * PID" gives zones, structsizes, pagemap; "sandbox status | sandbox exec"
 * gives status, exec).  Placeholders (WORKLOAD, RUN) are upper case. */
static void completion_subcommands(FILE *f, const struct cmd *c)
{
	const char *p = c->usage;
	size_t nl = strlen(c->name);
	if (!strncmp(p, c->name, nl) && p[nl] == ' ')
		p += nl + 1;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, c->name, nl) && p[nl] == ' ')
			p += nl + 1;
		size_t wl = strcspn(p, " |[");
		bool word = wl > 0 && islower((unsigned char)p[0]);
		for (size_t i = 0; word && i < wl; i++)
			word = islower((unsigned char)p[i]) || p[i] == '-' || p[i] == '_';
		if (word)
			fprintf(f, " %.*s", (int)wl, p);
		const char *bar = strchr(p, '|');
		if (!bar)
			break;
		p = bar + 1;
	}
}

/* The option words of a table, space-separated. */
static void completion_opts(FILE *f, const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->name; o++) {
		if (o->flags & OPTF_HIDDEN)
			continue;
		fprintf(f, " --%s", o->name);
		if (o->short_name)
			fprintf(f, " -%c", o->short_name);
	}
}

/* Case arms "KEY:--opt) ..." for what follows an option that takes a value:
 * its choices, a knob, a file, or nothing to offer. */
static void completion_values(FILE *f, const char *key, const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->name; o++) {
		if (o->type == OPT_FLAG || (o->flags & OPTF_HIDDEN))
			continue;
		fprintf(f, "\t%s:--%s", key, o->name);
		if (o->short_name)
			fprintf(f, "|%s:-%c", key, o->short_name);
		fputs(")\n\t\t", f);
		if (o->type == OPT_ENUM && o->choices) {
			fputs("_vmregress_words \"", f);
			for (const char *c = o->choices; *c; c++)
				fputc(*c == '|' ? ' ' : *c, f);
			fputs("\"", f);
		} else if (!strcmp(o->name, "set")) {
			fputs("_vmregress_knobs", f);
		} else if (o->metavar && (strstr(o->metavar, "PATH") || strstr(o->metavar, "FILE") ||
					  strstr(o->metavar, "DIR"))) {
			fputs("_vmregress_files", f);
		} else {
			fputs("COMPREPLY=()", f);
		}
		fputs("; return ;;\n", f);
	}
}

void cmd_completion_bash(FILE *f)
{
	fputs("# bash completion for vmregress, written by `vmregress help --completion bash`\n"
	      "_vmregress_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")); }\n"
	      "_vmregress_files() { COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null; }\n"
	      "_vmregress_knobs() {\n\tCOMPREPLY=($(compgen -W \"", f);
	for (const struct knob *k = knobs; k->name; k++)
		fprintf(f, "%s%s=", k == knobs ? "" : " ", k->name);
	fputs("\" -- \"$cur\"))\n\tcompopt -o nospace 2>/dev/null\n}\n", f);

	fputs("_vmregress() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]} sub=${COMP_WORDS[2]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\t_vmregress_words \"help --help --version", f);
	for (const struct cmd *c = commands; c->name; c++)
		fprintf(f, " %s", c->name);
	fputs("\"\n\t\treturn\n\tfi\n", f);

	/* what follows an option that takes a value */
	fputs("\tlocal key=$cmd\n\t[ \"$cmd\" = test ] && key=test-$sub\n\tcase \"$key:$prev\" in\n", f);
	for (const struct cmd *c = commands; c->name; c++) {
		if (!strcmp(c->name, "test"))
			continue;
		completion_values(f, c->name, c->opts);
		if (!strcmp(c->name, "sandbox"))
			completion_values(f, c->name, sandbox_opts);
	}
	for (size_t i = 0; workloads[i]; i++) {
		char key[64];
		snprintf(key, sizeof(key), "test-%s", workloads[i]->name);
		completion_values(f, key, workloads[i]->opts);
		completion_values(f, key, sandbox_opts);
		completion_values(f, key, trace_opts);
		completion_values(f, key, test_cmd_opts);
	}
	fputs("\tesac\n", f);

	/* the first word after the command: a sub-command, workload or suite */
	fputs("\tif [ \"$COMP_CWORD\" -eq 2 ] && [ \"${cur#-}\" = \"$cur\" ]; then\n\t\tcase $cmd in\n", f);
	fputs("\t\ttest) _vmregress_words \"", f);
	for (size_t i = 0; workloads[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", workloads[i]->name);
	fputs("\" ;;\n\t\trun) _vmregress_files; COMPREPLY+=($(compgen -W \"", f);
	char **names = NULL;
	size_t n = suite_builtins(&names);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", names[i]);
	suite_builtins_free(names, n);
	fputs("\" -- \"$cur\")) ;;\n\t\thelp) _vmregress_words \"", f);
	for (const struct cmd *c = commands; c->name; c++)
		fprintf(f, "%s%s", c == commands ? "" : " ", c->name);
	fputs("\" ;;\n", f);
	for (const struct cmd *c = commands; c->name; c++) {
		char buf[512] = "";
		FILE *m = fmemopen(buf, sizeof(buf) - 1, "w");
		if (!m)
			continue;
		completion_subcommands(m, c);
		fclose(m);
		if (buf[0])
			fprintf(f, "\t\t%s) _vmregress_words \"%s\" ;;\n", c->name, buf + 1);
	}
	fputs("\t\tesac\n\t\t[ ${#COMPREPLY[@]} -gt 0 ] && return\n\tfi\n", f);

	/* otherwise: the command's options */
	fputs("\tcase $key in\n", f);
	for (const struct cmd *c = commands; c->name; c++) {
		if (!strcmp(c->name, "test"))
			continue;
		fprintf(f, "\t%s) _vmregress_words \"--help", c->name);
		completion_opts(f, c->opts);
		if (!strcmp(c->name, "sandbox"))
			completion_opts(f, sandbox_opts);
		fputs("\" ;;\n", f);
	}
	for (size_t i = 0; workloads[i]; i++) {
		fprintf(f, "\ttest-%s) _vmregress_words \"--help", workloads[i]->name);
		completion_opts(f, workloads[i]->opts);
		completion_opts(f, sandbox_opts);
		completion_opts(f, trace_opts);
		completion_opts(f, test_cmd_opts);
		fputs("\" ;;\n", f);
	}
	fputs("\ttest-*) _vmregress_words \"--help --list\" ;;\n\tesac\n}\ncomplete -F _vmregress vmregress\n", f);
}
