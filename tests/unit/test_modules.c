/* Module dependencies from .modinfo: Debian's kernel packages carry no
 * modules.dep, so the guest's insmod order rests on this parser. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "vm/modules.h"

/* A minimal relocatable ELF64 with a .modinfo section holding info
 * (len bytes, NUL-separated key=value strings) and a .shstrtab. */
static unsigned char *make_elf(const char *info, size_t len, size_t *out_len)
{
	static const char names[] = "\0.modinfo\0.shstrtab\0";
	size_t info_off = sizeof(Elf64_Ehdr), names_off = info_off + len;
	size_t sh_off = (names_off + sizeof(names) + 7) & ~(size_t)7;
	size_t total = sh_off + 3 * sizeof(Elf64_Shdr);
	unsigned char *buf = calloc(1, total);
	Elf64_Ehdr eh = { .e_type = ET_REL, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
			  .e_shoff = sh_off, .e_ehsize = sizeof(Elf64_Ehdr), .e_shentsize = sizeof(Elf64_Shdr),
			  .e_shnum = 3, .e_shstrndx = 2 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + info_off, info, len);
	memcpy(buf + names_off, names, sizeof(names));
	Elf64_Shdr sh[3] = {
		{ 0 },
		{ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_offset = info_off, .sh_size = len },
		{ .sh_name = 10, .sh_type = SHT_STRTAB, .sh_offset = names_off, .sh_size = sizeof(names) },
	};
	memcpy(buf + sh_off, sh, sizeof(sh));
	*out_len = total;
	return buf;
}

static char *joined(const struct strlist *l)
{
	static char buf[256];
	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		strcat(buf, i ? " " : "");
		strcat(buf, l->v[i]);
	}
	return buf;
}

static void check_deps(const char *name, const char *info, size_t len, const char *want)
{
	size_t n;
	unsigned char *elf = make_elf(info, len, &n);
	struct strlist deps = { 0 };
	const char *why = "";
	int r = modules_modinfo_deps(elf, n, &deps, &why);
	CHECK(r == 0, "%s: parses (%s)", name, why);
	CHECK_STR(joined(&deps), want, "%s: dependencies", name);
	strlist_free(&deps);
	free(elf);
}

#define INFO(s) s, sizeof(s) - 1

/* Refused, with a reason naming want. */
static void check_refused(const char *name, const unsigned char *elf, size_t n, const char *want)
{
	struct strlist deps = { 0 };
	const char *why = NULL;
	int r = modules_modinfo_deps(elf, n, &deps, &why);
	CHECK(r == -1 && why && strstr(why, want) && deps.n == 0, "%s is refused (%s)", name, why ? why : "");
	strlist_free(&deps);
}

int main(void)
{
	/* virtio_blk on 6.1: depends= names two modules */
	check_deps("depends list", INFO("license=GPL\0depends=virtio,virtio_ring\0name=virtio_blk\0"),
		   "virtio virtio_ring");
	check_deps("empty depends", INFO("depends=\0name=virtio\0"), "");
	/* zram names its compressor as a softdep; only pre: entries load first */
	check_deps("softdep pre and post", INFO("softdep=pre: crypto-lzo lz4 post: zsmalloc\0depends=zsmalloc\0"),
		   "crypto_lzo lz4 zsmalloc");
	check_deps("dashes normalised, duplicates once", INFO("depends=a-b,a_b,c\0"), "a_b c");
	/* the last string may lack its NUL when the section is cut */
	check_deps("unterminated last string", INFO("depends=x,y"), "x y");

	size_t n;
	unsigned char *elf = make_elf(INFO("depends=x\0"), &n);
	check_refused("a truncated file", elf, 10, "ELF64");
	elf[EI_CLASS] = ELFCLASS32;
	check_refused("ELF32", elf, n, "ELF64");
	elf[EI_CLASS] = ELFCLASS64;
	Elf64_Ehdr eh;
	memcpy(&eh, elf, sizeof(eh));
	eh.e_shnum = 60000;
	memcpy(elf, &eh, sizeof(eh));
	check_refused("section headers past the end", elf, n, "section headers outside");
	eh.e_shnum = 3;
	memcpy(elf, &eh, sizeof(eh));
	Elf64_Shdr sh;
	memcpy(&sh, elf + eh.e_shoff + sizeof(sh), sizeof(sh));
	Elf64_Xword good_size = sh.sh_size;
	sh.sh_size = (Elf64_Xword)-16;
	memcpy(elf + eh.e_shoff + sizeof(sh), &sh, sizeof(sh));
	check_refused("a .modinfo size past the end", elf, n, ".modinfo outside");
	sh.sh_size = good_size;
	sh.sh_name = 10;  /* now named .shstrtab: no .modinfo left */
	memcpy(elf + eh.e_shoff + sizeof(sh), &sh, sizeof(sh));
	check_refused("a file without .modinfo", elf, n, "no .modinfo section");
	free(elf);
	T_DONE();
}
