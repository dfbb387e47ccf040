/* The initramfs writer: the kernel's unpacker is strict about newc headers
 * and 4-byte alignment, and the init script must hand arguments to
 * vmregress exactly as given. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "t.h"
#include "vm/initramfs.h"

struct entry {
	char name[64];
	unsigned mode, size, rmaj, rmin;
	const char *data;
};

static unsigned hex8(const char *p)
{
	char b[9];
	memcpy(b, p, 8);
	b[8] = '\0';
	return (unsigned)strtoul(b, NULL, 16);
}

/* Read back entries as the kernel would; -1 on any format error. */
static int read_back(const char *buf, size_t len, struct entry *e, int max)
{
	size_t off = 0;
	int n = 0;

	while (off + 110 <= len && n < max) {
		if (memcmp(buf + off, "070701", 6) || off % 4)
			return -1;
		const char *h = buf + off + 6;
		unsigned namesize = hex8(h + 11 * 8);
		e[n].mode = hex8(h + 8);
		e[n].size = hex8(h + 6 * 8);
		e[n].rmaj = hex8(h + 9 * 8);
		e[n].rmin = hex8(h + 10 * 8);
		if (namesize == 0 || namesize > sizeof(e[n].name) || off + 110 + namesize > len ||
		    buf[off + 110 + namesize - 1])
			return -1;
		memcpy(e[n].name, buf + off + 110, namesize);
		off = (off + 110 + namesize + 3) & ~(size_t)3;
		e[n].data = buf + off;
		off = (off + e[n].size + 3) & ~(size_t)3;
		if (off > len)
			return -1;
		if (!strcmp(e[n++].name, "TRAILER!!!"))
			return off == len ? n : -1;
	}
	return -1;
}

static void test_cpio(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct cpio c = { 0 };
	struct entry e[8] = { 0 };

	cpio_begin(&c, f);
	cpio_dir(&c, "bin", 0755);
	cpio_file(&c, "bin/x", 0750, "abcde", 5);   /* 5: data needs padding */
	cpio_symlink(&c, "bin/sh", "busybox");
	cpio_chardev(&c, "dev/console", 0600, 5, 1);
	cpio_file(&c, "empty", 0644, "", 0);
	CHECK(cpio_end(&c) == 0, "the archive is written");
	fclose(f);
	int n = read_back(buf, len, e, 8);
	CHECK(n == 6, "six entries read back with aligned headers and data (got %d)", n);
	if (n == 6) {
		CHECK(S_ISDIR(e[0].mode) && (e[0].mode & 07777) == 0755, "a directory with its mode");
		CHECK(S_ISREG(e[1].mode) && e[1].size == 5 && !memcmp(e[1].data, "abcde", 5), "a file with its data");
		CHECK(S_ISLNK(e[2].mode) && e[2].size == 7 && !memcmp(e[2].data, "busybox", 7), "a symlink with its target");
		CHECK(S_ISCHR(e[3].mode) && e[3].rmaj == 5 && e[3].rmin == 1, "dev/console is char 5,1");
		CHECK(S_ISREG(e[4].mode) && e[4].size == 0, "an empty file");
	}
	CHECK(len % 4 == 0, "the archive ends aligned");
	free(buf);
}

/* The script's command line, run through sh with /vmregress replaced by
 * printf, must give back each argument unchanged. */
static void test_script_quoting(void)
{
	const char *args[] = { "run", "it's", "a b", "$HOME", "`x`", "\"q\"", NULL };
	struct guest_plan plan = { .cmd = args, .swap = GUEST_SWAP_NONE };
	char *script = initramfs_init_script(&plan);
	char *line = strstr(script, "\n/vmregress ");
	CHECK(line != NULL, "the script runs /vmregress");
	if (!line) {
		free(script);
		return;
	}
	line += 11;
	char *end = strstr(line, " > /tmp/out");
	CHECK(end != NULL, "its output goes to /tmp/out");
	char *cmd = NULL;
	size_t cl = 0;
	FILE *f = open_memstream(&cmd, &cl);
	fprintf(f, "printf '[%%s]' %.*s", (int)(end - line), line);
	fclose(f);
	FILE *p = popen(cmd, "r");
	char out[256] = "";
	size_t got = p ? fread(out, 1, sizeof(out) - 1, p) : 0;
	out[got] = '\0';
	if (p)
		pclose(p);
	CHECK_STR(out, "[run][it's][a b][$HOME][`x`][\"q\"]", "arguments reach vmregress unchanged");
	CHECK(strstr(script, "poweroff -f") != NULL, "the guest powers off at the end");
	CHECK(strstr(script, "--guest-done") != NULL, "the guest says VMR-DONE");
	CHECK(strstr(script, "mke2fs") && strstr(script, "VMREGRESS_STATE_DIR"), "the disk holds the sandbox state");
	CHECK(strstr(script, "+memory") != NULL, "the memory controller is delegated");
	CHECK(strstr(script, "zram0") == NULL, "no zram swap unless asked");
	free(cmd);
	free(script);

	plan.swap = GUEST_SWAP_ZRAM;
	plan.swap_bytes = 64 << 20;
	script = initramfs_init_script(&plan);
	CHECK(strstr(script, "echo 67108864 > /sys/block/zram0/disksize") != NULL, "zram swap of the asked size");
	free(script);
	plan.fault = "hang";
	script = initramfs_init_script(&plan);
	char *hang = strstr(script, "while :; do sleep 60; done"), *run = strstr(script, "\n/vmregress ");
	CHECK(hang && run && hang < run, "a hang fault comes before the command");
	free(script);
}

int main(void)
{
	test_cpio();
	test_script_quoting();
	T_DONE();
}
