/* Structure sizes from BTF. */
#include "fixture.h"
#include "probe/btf.h"
#include "t.h"

int main(void)
{
	char err[PROBE_ERR_MAX] = "";
	uint64_t size;
	struct btf *b = btf_load_mem("not BTF at all", 14, err);
	CHECK(b == NULL && err[0], "garbage is not BTF (%s)", err);
	b = btf_load("tests/fixtures/zoneinfo/bad-empty.txt", err);
	CHECK(b == NULL && strstr(err, "no BTF"), "an empty file is not BTF (%s)", err);
	b = btf_load(NULL, err);
	if (!b) {
		SKIP("no kernel BTF: %s", err);
		T_DONE();
	}
	CHECK(btf_struct_size(b, "page", &size, err) == 0, "struct page is there");
	/* 64 bytes on 64-bit kernels of the last decade; 32-bit differs */
	if (sizeof(long) == 8)
		CHECK_EQ_U(size, 64, "struct page is 64 bytes");
	CHECK(btf_struct_size(b, "list_head", &size, err) == 0 && size == 2 * sizeof(void *), "list_head is two pointers");
	CHECK(btf_struct_size(b, "no_such_struct_xyz", &size, err) == -1, "a missing struct is -1");
	CHECK_STR(err, "no struct no_such_struct_xyz in BTF", "and says so");
	for (const char *const *n = btf_vm_structs; *n; n++)
		if (!strcmp(*n, "task_struct"))
			CHECK(btf_struct_size(b, *n, &size, err) == 0 && size > 1000, "task_struct is big");
	btf_unload(b);
	T_DONE();
}
