/* The kernel's selftests, built from source: see selftests.h. */
#include "vm/selftests.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/cache.h"
#include "core/kversion.h"
#include "core/options.h"
#include "core/scratch.h"
#include "core/util.h"
#include "harness/suite.h"
#include "vm/spawn.h"

/* The suites whose tests are built, each into DIR/NAME. */
static const char *const selftests_suites[] = { "mm", "cgroup" };

static char *selftests_strndup(const char *p, size_t n)
{
	return xasprintf("%.*s", (int)n, p);
}

bool selftests_is_version(const char *source)
{
	return kversion_is_source(source);
}

char *selftests_dir(const char *source)
{
	char *sub;
	if (selftests_is_version(source)) {
		sub = xasprintf("selftests/%s", source);
	} else {
		/* a tree's tests: named after the tree's last component */
		const char *base = strrchr(source, '/');
		base = base && base[1] ? base + 1 : source;
		sub = xasprintf("selftests/tree-%s", base);
		for (char *p = sub + 15; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *p))
				*p = '_';
	}
	char *d = vmr_cache_dir(sub);
	free(sub);
	return d;
}

/* The registry's version of pkg ("6.12.117-1~deb12u1"), malloc'd, or NULL. */
static char *selftests_candidate(const char *pkg, const char *tmpdir)
{
	char *out = xasprintf("%s/apt-cache.out", tmpdir), *ver = NULL, *buf = NULL;
	char *argv[] = { "apt-cache", "show", "--no-all-versions", (char *)pkg, NULL };
	size_t len = 0;
	if (spawn_wait(argv, NULL, out, NULL) == 0 && vmr_read_file(out, &buf, &len) == 0) {
		char *v = strstr(buf, "\nVersion: ");
		if (v) {
			v += 10;
			ver = selftests_strndup(v, strcspn(v, "\n"));
		}
	}
	unlink(out);
	free(out);
	free(buf);
	return ver;
}

__attribute__((format(printf, 1, 2))) static void selftests_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "kselftest build: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Fetch linux-source-VERSION into work/ and unpack its tree to work/tree. */
static int selftests_fetch(const char *pkg, const char *version, const char *work, char **tree)
{
	char *log = xasprintf("%s/fetch.log", work);
	int r = -3;
	selftests_say("downloading %s", pkg);
	char *apt[] = { "apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", (char *)pkg, NULL };
	if (spawn_wait(apt, work, log, log) != 0) {
		vmr_err("kselftest build: apt-get download %s failed (see %s)", pkg, log);
		goto out;
	}
	char *deb = NULL;
	DIR *d = opendir(work);
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n > 4 && !strcmp(e->d_name + n - 4, ".deb") && !deb)
			deb = xasprintf("%s/%s", work, e->d_name);
	}
	if (d)
		closedir(d);
	char *pkgroot = xasprintf("%s/pkg", work);
	char *x[] = { "dpkg-deb", "-x", deb ? deb : "", pkgroot, NULL };
	if (!deb || spawn_wait(x, NULL, NULL, log) != 0) {
		vmr_err("kselftest build: cannot unpack %s with dpkg-deb (see %s)", pkg, log);
		free(deb);
		free(pkgroot);
		goto out;
	}
	unlink(deb);
	free(deb);
	selftests_say("unpacking %s", pkg);
	char *tarball = xasprintf("%s/usr/src/%s.tar.xz", pkgroot, pkg);
	/* the parts of the tree the headers and the tests need: not drivers,
	 * file systems, sound or the documentation */
	char *t[] = { "tar", "-xJf", tarball, "-C", (char *)work, "--exclude=*/drivers",
		      "--exclude=*/Documentation", "--exclude=*/sound", "--exclude=*/fs/*/*",
		      "--exclude=*/net/*/*", "--exclude=*/arch/arm*", "--exclude=*/arch/mips",
		      "--exclude=*/arch/powerpc", "--exclude=*/arch/s390", "--exclude=*/arch/sparc",
		      "--exclude=*/arch/riscv", "--exclude=*/arch/loongarch", NULL };
	int rc = spawn_wait(t, NULL, NULL, log);
	vmr_rm_rf(pkgroot);
	free(pkgroot);
	free(tarball);
	if (rc != 0) {
		vmr_err("kselftest build: cannot unpack the source tarball of %s (see %s)", pkg, log);
		goto out;
	}
	*tree = xasprintf("%s/%s", work, pkg);
	(void)version;
	r = 0;
out:
	free(log);
	return r;
}

/* The first compiler error about NAME in the build log, as a reason. */
static char *selftests_error_of(const char *logbuf, const char *name)
{
	char *pat = xasprintf("%s.c:", name);
	const char *p = logbuf;
	char *why = NULL;
	while ((p = strstr(p, pat))) {
		if (p == logbuf || p[-1] == '\n' || p[-1] == '/') {
			const char *eol = p + strcspn(p, "\n");
			const char *err = strstr(p, "error:");
			if (err && err < eol) {
				err += 6;
				while (*err == ' ')
					err++;
				why = selftests_strndup(err, (size_t)(eol - err));
				break;
			}
		}
		p += strlen(pat);
	}
	free(pat);
	return why ? why : xstrdup("did not build (see build.log)");
}

/* Make one suite's tests into out/NAME; note what did not build. */
static void selftests_make(const char *tree, const char *suite, const char *out, const char *log,
			   json_t *built, json_t *not_built)
{
	char *dir = xasprintf("%s/tools/testing/selftests/%s", tree, suite);
	struct stat st = { 0 };
	if (!strcmp(suite, "mm") && stat(dir, &st) < 0) {
		/* before 6.3 the mm selftests were tools/testing/selftests/vm:
		 * built into DIR/mm all the same, so every version reads alike */
		free(dir);
		dir = xasprintf("%s/tools/testing/selftests/vm", tree);
	}
	char *dest = xasprintf("%s/%s", out, suite), *hdr = xasprintf("KHDR_INCLUDES=-isystem %s/usr/include", tree);
	char *output = xasprintf("OUTPUT=%s", dest), *jobs = xasprintf("-j%ld", sysconf(_SC_NPROCESSORS_ONLN));
	vmr_mkdir_p(dest, NULL);
	selftests_say("building the %s selftests", suite);
	char *mk[] = { "make", "-C", dir, hdr, output, "CC=gcc -static", "-k", jobs, NULL };
	spawn_wait(mk, NULL, log, log);  /* -k: what fails is read from the log */
	char *buf = NULL;
	size_t len = 0;
	vmr_read_file(log, &buf, &len);
	/* make's "*** [...: DEST/NAME] Error" names each test that failed */
	char *pat = xasprintf("%s/", dest);
	for (const char *p = buf; p && (p = strstr(p, "] Error"));) {
		const char *bol = p;
		while (bol > buf && bol[-1] != '\n')
			bol--;
		const char *n = strstr(bol, pat);
		if (n && n < p) {
			n += strlen(pat);
			char *name = selftests_strndup(n, (size_t)(p - n));
			char *key = strcmp(suite, "mm") ? xasprintf("%s/%s", suite, name) : xstrdup(name);
			char *why = selftests_error_of(buf, name);
			json_object_set_new(not_built, key, json_string(why));
			free(why);
			free(key);
			free(name);
		}
		p += 7;
	}
	free(pat);
	free(buf);
	DIR *d = opendir(dest);
	for (struct dirent *e; d && (e = readdir(d));) {
		char *path = xasprintf("%s/%s", dest, e->d_name);
		st = (struct stat){ 0 };
		if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111)) {
			char *key = strcmp(suite, "mm") ? xasprintf("%s/%s", suite, e->d_name) : xstrdup(e->d_name);
			json_array_append_new(built, json_string(key));
			free(key);
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(jobs);
	free(output);
	free(hdr);
	free(dest);
	free(dir);
}

static int selftests_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The built tests' names in order, so that build.json reads the same each time. */
static void selftests_sort(json_t *names)
{
	size_t n = json_array_size(names);
	const char **v = xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = json_string_value(json_array_get(names, i));
	qsort(v, n, sizeof(*v), selftests_cmp);
	json_t *sorted = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(sorted, json_string(v[i]));
	json_array_clear(names);
	json_array_extend(names, sorted);
	json_decref(sorted);
	free(v);
}

static json_t *selftests_cached(const char *dir, const char *version)
{
	char *bj = xasprintf("%s/build.json", dir);
	json_error_t e;
	json_t *j = json_load_file(bj, 0, &e);
	free(bj);
	const char *v = j ? json_string_value(json_object_get(j, "version")) : NULL;
	if (j && (!version || (v && !strcmp(v, version))))
		return j;
	json_decref(j);
	return NULL;
}

json_t *selftests_build(const char *source, bool force, int *exit_code)
{
	bool deb = selftests_is_version(source);
	char *dir = selftests_dir(source), *pkg = deb ? xasprintf("linux-source-%s", source) : NULL;
	char *work = NULL, *tree = NULL, *version = NULL;
	json_t *j = NULL;
	struct stat st = { 0 };
	int lockfd = -1;
	bool drop_dir = false;  /* a version not packaged: leave no cache directory for it */
	*exit_code = 3;
	char *mkfile = deb ? NULL : xasprintf("%s/tools/testing/selftests/mm/Makefile", source);
	char *vmfile = deb ? NULL : xasprintf("%s/tools/testing/selftests/vm/Makefile", source);
	bool tree_ok = deb || (stat(source, &st) == 0 && S_ISDIR(st.st_mode) &&
			       (access(mkfile, R_OK) == 0 || access(vmfile, R_OK) == 0));
	free(mkfile);
	free(vmfile);
	if (!tree_ok) {
		vmr_err("--source: '%s' is neither a Debian linux-source version (6.12, 6.1) nor a kernel "
			"source tree (no tools/testing/selftests/mm/Makefile, nor vm/ before 6.3)", source);
		*exit_code = 2;
		goto out;
	}
	if (vmr_mkdir_p(dir, NULL) < 0) {
		vmr_errno("cannot create the selftests cache %s", dir);
		goto out;
	}
	/* one build of a source at a time: a second waits, then finds it built */
	char *lockpath = xasprintf("%s/.lock", dir);
	lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(lockpath);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0) {
		vmr_errno("cannot lock the selftests cache %s", dir);
		goto out;
	}
	work = xasprintf("%s/.work-%d", dir, (int)getpid());
	vmr_rm_rf(work);
	if (vmr_mkdir_p(work, NULL) < 0) {
		vmr_errno("cannot create %s", work);
		goto out;
	}
	if (deb) {
		version = selftests_candidate(pkg, work);
		if (!force && (j = selftests_cached(dir, version)))
			goto out;  /* the same version is built (or the registry is out of reach) */
		if (!version) {
			vmr_err("--source %s: Debian's registry has no %s (apt-get update? only 6.1 and 6.12 "
				"are packaged)", source, pkg);
			*exit_code = 2;
			drop_dir = true;
			goto out;
		}
		if (selftests_fetch(pkg, version, work, &tree) < 0)
			goto out;
	} else {
		if (!force && (j = selftests_cached(dir, NULL)))
			goto out;
		tree = xstrdup(source);
	}
	time_t t0 = time(NULL);
	char *log = xasprintf("%s/build.log", dir);
	char *hdrs[] = { "make", "-C", tree, "headers", NULL };
	selftests_say("installing the headers of %s", deb ? pkg : source);
	if (spawn_wait(hdrs, NULL, log, log) != 0) {
		vmr_err("kselftest build: `make headers` failed in %s (see %s)", tree, log);
		free(log);
		goto out;
	}
	json_t *built = json_array(), *not_built = json_object();
	for (size_t i = 0; i < sizeof(selftests_suites) / sizeof(selftests_suites[0]); i++) {
		char *slog = xasprintf("%s/build-%s.log", dir, selftests_suites[i]);
		selftests_make(tree, selftests_suites[i], dir, slog, built, not_built);
		free(slog);
	}
	free(log);
	selftests_sort(built);
	j = json_pack("{s:s, s:s?, s:s?, s:o, s:o, s:I, s:b}", "source", source, "package", pkg,
		      "version", version, "built", built, "not_built", not_built,
		      "seconds", (json_int_t)(time(NULL) - t0), "static", 1);
	char *bj = xasprintf("%s/build.json", dir);
	char *text = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (!text || vmr_write_atomic(bj, text, strlen(text), 0644) < 0) {
		vmr_errno("cannot write %s", bj);
		json_decref(j);
		j = NULL;
	}
	free(text);
	free(bj);
out:
	if (work)
		vmr_rm_rf(work);  /* the tree, when it was unpacked: the tests are kept */
	if (j)
		*exit_code = 0;
	if (drop_dir) {
		char *lock = xasprintf("%s/.lock", dir);
		unlink(lock);
		free(lock);
		rmdir(dir);  /* only when empty */
	}
	if (lockfd >= 0)
		close(lockfd);
	free(work);
	free(tree);
	free(version);
	free(pkg);
	free(dir);
	return j;
}

/* Add one source's test (or build.json) to extra, when the cache has it. */
static void selftests_guest_file(const char *source, const char *rel, struct strlist *extra)
{
	char *dir = selftests_dir(source), *host = xasprintf("%s/%s", dir, rel);
	char *entry = xasprintf("%s=" SELFTESTS_GUEST_DIR "/%s/%s", host, source, rel);
	if (access(host, R_OK) == 0 && !strlist_has(extra, entry))
		strlist_add(extra, entry);
	free(entry);
	free(host);
	free(dir);
}

/* The source versions Debian packages (linux-source-6.1, -6.12), from the
 * package lists apt already holds (apt-cache search reads them, asking no
 * registry), added to names. */
static void selftests_debian_versions(struct strlist *names)
{
	char *tmpl = xasprintf("%s/vmregress-apt-XXXXXX", scratch_base());
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		free(tmpl);
		return;
	}
	close(fd);
	char *argv[] = { "apt-cache", "search", "--names-only", "^linux-source-[0-9.]+$", NULL };
	char *buf = NULL;
	size_t len = 0;
	if (spawn_wait(argv, NULL, tmpl, NULL) == 0 && vmr_read_file(tmpl, &buf, &len) == 0)
		for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (strncmp(l, "linux-source-", 13))
				continue;
			char *v = selftests_strndup(l + 13, strcspn(l + 13, " "));
			if (kversion_is_source(v) && !strlist_has(names, v))
				strlist_add(names, v);
			free(v);
		}
	unlink(tmpl);
	free(tmpl);
	free(buf);
}

/* The versions built in the cache, added to names. */
static void selftests_cached_versions(struct strlist *names)
{
	char *dir = vmr_cache_dir("selftests");
	kversion_built_in(dir, names);
	free(dir);
}

char *selftests_match(const char *kernel, char **note)
{
	struct strlist names = { 0 };
	selftests_debian_versions(&names);
	selftests_cached_versions(&names);
	enum kversion_match how = KVERSION_OWN;
	long i = kversion_nearest(kernel, (const char *const *)names.v, names.n, &how);
	char *v = NULL;
	if (i >= 0) {
		v = xstrdup(names.v[i]);
		*note = kversion_match_text(v, kernel, how, "Debian's linux-source");
		int rc = 0;
		json_t *j = selftests_build(v, false, &rc);  /* a moment when the cache holds it */
		if (!j) {
			vmr_warn("kernel %s: the selftests of %s could not be built: its guest runs none", kernel, v);
			free(v);
			free(*note);
			v = *note = NULL;
		}
		json_decref(j);
	}
	strlist_free(&names);
	return v;
}

void selftests_guest_files(const char *suite_file, const char *kernel, struct strlist *extra,
			   char **matched, char **note)
{
	struct suite s = { 0 };
	if (suite_load(&s, suite_file) < 0)
		return;
	for (size_t i = 0; i < s.ncases; i++) {
		const struct suite_case *c = &s.cases[i];
		if (strcmp(c->w->name, "kselftest"))
			continue;
		json_t *o = opt_echo(c->w->opts, c->wopts);
		const char *source = json_string_value(json_object_get(o, "source"));
		const char *tests = json_string_value(json_object_get(o, "tests"));
		if (source && !strcmp(source, SELFTESTS_MATCHED) && kernel) {
			if (!*matched)
				*matched = selftests_match(kernel, note);
			source = *matched;
		}
		if (source && tests && selftests_is_version(source)) {
			selftests_guest_file(source, "build.json", extra);
			char *list = xstrdup(tests);
			for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				t += strspn(t, " ");
				t[strcspn(t, " ")] = '\0';
				char *rel = strncmp(t, "cgroup/", 7) ? xasprintf("mm/%s", t) : xstrdup(t);
				selftests_guest_file(source, rel, extra);
				free(rel);
			}
			free(list);
		}
		json_decref(o);
	}
	suite_free(&s);
}

/* Tests that map hugetlb pages: with no pool they skip or fail. */
static const char *const selftests_hugetlb_users[] = {
	"cow", "gup_longterm", "uffd-unit-tests", "map_hugetlb", "hugepage-mmap", "hugepage-shm",
	"hugepage-mremap", "hugepage-vmemmap", "hugetlb-madvise", "hugetlb_fault_after_madv", "hugetlb_dio",
	"hugetlb-read-hwpoison", "hugetlb_madv_vs_map",
};

static bool selftests_uses_hugetlb(const char *tests)
{
	bool any = false;
	char *list = xstrdup(tests);
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t && !any; t = strtok_r(NULL, ",", &save)) {
		t += strspn(t, " ");
		t[strcspn(t, " ")] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(selftests_hugetlb_users); i++)
			any |= !strcmp(t, selftests_hugetlb_users[i]);
	}
	free(list);
	return any;
}

unsigned selftests_hugetlb_pool(const char *suite_file, uint64_t mem_bytes)
{
	struct suite s = { 0 };
	bool want = false;
	if (suite_load(&s, suite_file) < 0)
		return 0;
	for (size_t i = 0; i < s.ncases; i++) {
		const struct suite_case *c = &s.cases[i];
		if (strcmp(c->w->name, "kselftest"))
			continue;
		json_t *o = opt_echo(c->w->opts, c->wopts);
		const char *tests = json_string_value(json_object_get(o, "tests"));
		want |= json_is_true(json_object_get(o, "guest")) && tests && selftests_uses_hugetlb(tests);
		json_decref(o);
	}
	suite_free(&s);
	uint64_t pages = mem_bytes / 4 / SELFTESTS_HUGEPAGE;
	return want ? (unsigned)(pages < SELFTESTS_POOL_MAX ? pages : SELFTESTS_POOL_MAX) : 0;
}
