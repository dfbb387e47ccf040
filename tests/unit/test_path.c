/* Which paths vmregress follows and writes (core/path.h, vmr_write_atomic):
 * a link is followed only from a directory no one else may write and only
 * to something that exists, link by link; a directory is trusted only when
 * its owner is the user (or root) and no one else may write it; an output
 * must be absent or a regular file, and is written whole, beside itself. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/util.h"
#include "t.h"

static char dir[64];

static char *at(const char *name)
{
	static char buf[4][160];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static int resolve(const char *name, char **target)
{
	struct stat st = { 0 };
	return path_resolve_last(at(name), target, &st);
}

static void test_trust(void)
{
	struct stat st = { .st_mode = S_IFDIR | 0755, .st_uid = 1000 };
	CHECK(path_dir_trust(&st, 1000) == PATH_TRUSTED, "one's own 0755 directory is trusted");
	st.st_uid = 0;
	CHECK(path_dir_trust(&st, 1000) == PATH_TRUSTED, "so is root's");
	st.st_uid = 1001;
	CHECK(path_dir_trust(&st, 1000) == PATH_WRONG_OWNER, "another user's is not");
	st = (struct stat){ .st_mode = S_IFDIR | 01777, .st_uid = 0 };
	CHECK(path_dir_trust(&st, 0) == PATH_OTHERS_WRITE, "a sticky world-writable one is not");
	st.st_mode = S_IFDIR | 0775;
	CHECK(path_dir_trust(&st, 0) == PATH_OTHERS_WRITE, "nor a group-writable one");
	st.st_mode = S_IFLNK | 0777;
	CHECK(path_dir_trust(&st, 0) == PATH_IS_SYMLINK, "a link is not a directory of its own");
	st.st_mode = S_IFREG | 0644;
	CHECK(path_dir_trust(&st, 0) == PATH_NOT_DIR, "nor is a file");
}

static void test_resolve(void)
{
	char *t = NULL;
	CHECK(resolve("absent", &t) == 1 && t && !strcmp(t, at("absent")), "absent: 1, the path itself");
	free(t);
	close(open(at("file"), O_CREAT | O_WRONLY, 0644));
	CHECK(resolve("file", &t) == 0 && !strcmp(t, at("file")), "a file: 0, itself");
	free(t);
	symlink("file", at("link"));
	char *real = realpath(at("file"), NULL);
	CHECK(resolve("link", &t) == 0 && real && !strcmp(t, real), "a link in one's own directory: what it names");
	free(t);
	symlink("nothing", at("dangling"));
	CHECK(resolve("dangling", &t) == -ELOOP, "a link to nothing: -ELOOP");
	free(t);
	mkdir(at("sticky"), 0755);
	chmod(at("sticky"), 01777);
	symlink(real, at("sticky/link"));
	CHECK(resolve("sticky/link", &t) == -ELOOP, "a link in a sticky world-writable directory: -ELOOP");
	free(t);
	symlink(at("sticky/link"), at("chain"));
	CHECK(resolve("chain", &t) == -ELOOP, "a link to a link in a sticky directory: -ELOOP");
	free(t);
	free(real);
}

static void test_write(void)
{
	CHECK(vmr_write_atomic(at("out"), "hello", 5, 0644) == 0, "an output is written");
	char *b = NULL;
	size_t n = 0;
	CHECK(vmr_read_file(at("out"), &b, &n) == 0 && n == 5 && !memcmp(b, "hello", 5), "whole");
	free(b);
	CHECK(vmr_write_atomic(at("out"), "again", 5, 0644) == 0, "and replaced");
	mkfifo(at("fifo"), 0644);
	CHECK(vmr_write_atomic(at("fifo"), "x", 1, 0644) == -EINVAL, "a FIFO: -EINVAL, without blocking");
	struct stat st = { 0 };
	CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode), "and it stays a FIFO");
	mkdir(at("d"), 0755);
	CHECK(vmr_write_atomic(at("d"), "x", 1, 0644) == -EISDIR, "a directory: -EISDIR");
	CHECK(vmr_write_atomic(at("sticky/link"), "x", 1, 0644) == -ELOOP, "a link not followed: -ELOOP");
	CHECK(vmr_write_atomic(at("nodir/x"), "x", 1, 0644) == -ENOENT, "a missing directory: -ENOENT");
	CHECK(!strcmp(path_strerror(EINVAL), "not a regular file: refused"), "path_strerror words the refusals");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vmr-test-path-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_trust();
	test_resolve();
	test_write();
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	T_DONE();
}
