/* Kernel modules for guests: see modules.h. */
#include "vm/modules.h"

#include <dirent.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/spawn.h"

static void modules_normalise(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

static bool modules_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

/* Add each word of a list separated by any of seps, normalised, skipping
 * duplicates and softdep's "pre:"/"post:" markers. */
static void modules_add_words(struct strlist *deps, const char *s, size_t n, const char *seps, bool softdep)
{
	char *copy = strndup(s, n), *save = NULL;

	if (!copy)
		return;
	for (char *w = strtok_r(copy, seps, &save); w; w = strtok_r(NULL, seps, &save)) {
		if (softdep && !strcmp(w, "post:"))
			break;
		if (softdep && !strcmp(w, "pre:"))
			continue;
		modules_normalise(w);
		if (!modules_has(deps, w))
			strlist_add(deps, w);
	}
	free(copy);
}

static int modules_find_section(const unsigned char *elf, size_t len, const Elf64_Shdr **sec, const char **why)
{
	Elf64_Ehdr eh;

	if (len < sizeof(eh) || memcmp(elf, ELFMAG, SELFMAG) || elf[EI_CLASS] != ELFCLASS64 ||
	    elf[EI_DATA] != ELFDATA2LSB)
		return *why = "not a little-endian ELF64 file", -1;
	memcpy(&eh, elf, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
	    (len - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum || eh.e_shstrndx >= eh.e_shnum)
		return *why = "section headers outside the file", -1;
	if ((uintptr_t)(elf + eh.e_shoff) % _Alignof(Elf64_Shdr))
		return *why = "misaligned section headers", -1;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf + eh.e_shoff), *str = &sh[eh.e_shstrndx];
	if (str->sh_offset > len || str->sh_size > len - str->sh_offset)
		return *why = "section names outside the file", -1;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_name >= str->sh_size || str->sh_size - sh[i].sh_name < sizeof(".modinfo"))
			continue;
		if (memcmp(elf + str->sh_offset + sh[i].sh_name, ".modinfo", sizeof(".modinfo")))
			continue;
		if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
			return *why = ".modinfo outside the file", -1;
		*sec = &sh[i];
		return 0;
	}
	return *why = "no .modinfo section", -1;
}

int modules_modinfo_deps(const unsigned char *elf, size_t len, struct strlist *deps, const char **why)
{
	const Elf64_Shdr *sec;

	if (modules_find_section(elf, len, &sec, why) < 0)
		return -1;
	const char *p = (const char *)elf + sec->sh_offset, *end = p + sec->sh_size;
	while (p < end) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		size_t n = z ? (size_t)(z - p) : (size_t)(end - p);
		if (n > 8 && !memcmp(p, "depends=", 8))
			modules_add_words(deps, p + 8, n - 8, ",", false);
		else if (n > 8 && !memcmp(p, "softdep=", 8))
			modules_add_words(deps, p + 8, n - 8, " \t", true);
		p += n + 1;
	}
	return 0;
}

/* Every module file under the tree, by normalised name. */
struct modules_index {
	struct strlist names, paths;
};

static void modules_scan(const char *dir, struct modules_index *ix)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name), *ko;
		struct stat st = { 0 };
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			modules_scan(path, ix);
		} else if ((ko = strstr(e->d_name, ".ko")) &&
			   (!ko[3] || !strcmp(ko, ".ko.xz") || !strcmp(ko, ".ko.zst") || !strcmp(ko, ".ko.gz"))) {
			char *name = strndup(e->d_name, (size_t)(ko - e->d_name));
			modules_normalise(name);
			strlist_add(&ix->names, name);
			strlist_add(&ix->paths, path);
			free(name);
		}
		free(path);
	}
	if (d)
		closedir(d);
}

static const char *modules_lookup(const struct modules_index *ix, const char *name)
{
	for (size_t i = 0; i < ix->names.n; i++)
		if (!strcmp(ix->names.v[i], name))
			return ix->paths.v[i];
	return NULL;
}

static void modules_read_builtin(const char *moddir, struct strlist *builtin)
{
	char *path = xasprintf("%s/modules.builtin", moddir), *buf = NULL;

	if (vmr_read_file(path, &buf, NULL) == 0) {
		char *save = NULL;
		for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *base = strrchr(l, '/'), *ko;
			base = base ? base + 1 : l;
			if ((ko = strstr(base, ".ko")))
				*ko = '\0';
			modules_normalise(base);
			strlist_add(builtin, base);
		}
	}
	free(buf);
	free(path);
}

/* Copy or decompress src to dst. */
static int modules_unpack(const char *src, const char *dst)
{
	size_t n = strlen(src);
	const char *tool = !strcmp(src + n - 3, ".xz") ? "xz" : !strcmp(src + n - 4, ".zst") ? "zstd"
			 : !strcmp(src + n - 3, ".gz") ? "gzip" : "cat";
	char *argv[] = { (char *)tool, "-dc", (char *)src, NULL };

	if (!strcmp(tool, "cat"))
		argv[1] = "--", argv[2] = (char *)src;
	int rc = spawn_wait(argv, NULL, dst, NULL);
	if (rc != 0) {
		vmr_err("module %s: %s failed (exit %d)", src, tool, rc);
		return -1;
	}
	return 0;
}

struct modules_walk {
	const char *outdir;
	struct modules_index ix;
	struct strlist builtin_all, visiting;
	struct vm_modules *m;
};

static int modules_visit(struct modules_walk *w, const char *name, bool optional, const char *needed_by);

static int modules_visit_deps(struct modules_walk *w, const char *name, const char *ko)
{
	char *buf = NULL;
	size_t len;
	const char *why;
	struct strlist deps = { 0 };
	int r = 0;

	if (vmr_read_file(ko, &buf, &len) < 0) {
		vmr_errno("cannot read module %s", ko);
		return -1;
	}
	if (modules_modinfo_deps((unsigned char *)buf, len, &deps, &why) < 0) {
		vmr_err("module %s: %s", ko, why);
		r = -1;
	}
	/* softdeps are wishes: a kernel may lack them */
	for (size_t i = 0; i < deps.n && r == 0; i++)
		r = modules_visit(w, deps.v[i], false, name);
	strlist_free(&deps);
	free(buf);
	return r;
}

static int modules_visit(struct modules_walk *w, const char *name, bool optional, const char *needed_by)
{
	struct vm_modules *m = w->m;
	const char *src;

	if (modules_has(&m->order, name) || modules_has(&m->builtin, name) || modules_has(&m->missing, name) ||
	    modules_has(&w->visiting, name))
		return 0;
	if (modules_has(&w->builtin_all, name)) {
		strlist_add(&m->builtin, name);
		return 0;
	}
	if (!(src = modules_lookup(&w->ix, name))) {
		if (optional || needed_by) {
			/* a dependency named by softdep may be an alias: not fatal */
			strlist_add(&m->missing, name);
			return 0;
		}
		vmr_err("module %s: not in this kernel (neither built in nor a module)", name);
		return -1;
	}
	char *dst = xasprintf("%s/%s.ko", w->outdir, name);
	int r = modules_unpack(src, dst);
	strlist_add(&w->visiting, name);
	if (r == 0)
		r = modules_visit_deps(w, name, dst);
	if (r == 0) {
		strlist_add(&m->order, name);
		strlist_add(&m->files, dst);
	}
	free(dst);
	return r;
}

int modules_resolve(const char *moddir, const struct vm_module_want *want, size_t nwant,
		    const char *outdir, struct vm_modules *m)
{
	struct modules_walk w = { .outdir = outdir, .m = m };
	char *kdir = xasprintf("%s/kernel", moddir);
	int r = 0;

	memset(m, 0, sizeof(*m));
	modules_scan(kdir, &w.ix);
	modules_read_builtin(moddir, &w.builtin_all);
	for (size_t i = 0; i < nwant && r == 0; i++) {
		char *name = xstrdup(want[i].name);
		modules_normalise(name);
		r = modules_visit(&w, name, want[i].optional, NULL);
		free(name);
	}
	strlist_free(&w.ix.names);
	strlist_free(&w.ix.paths);
	strlist_free(&w.builtin_all);
	strlist_free(&w.visiting);
	free(kdir);
	return r;
}

void modules_free(struct vm_modules *m)
{
	strlist_free(&m->order);
	strlist_free(&m->files);
	strlist_free(&m->builtin);
	strlist_free(&m->missing);
}
