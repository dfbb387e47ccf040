/* The loader of libraries loaded on first use (core/lazylib.h), on real
 * libraries: zlib, which every build has, stands in for GSL and the rest. */
#include <string.h>
#include <zlib.h>

#include "core/lazylib.h"
#include "t.h"

struct ztable {
	__typeof__(zlibVersion) *zlibVersion;
	__typeof__(crc32) *crc32;
};

static const struct lazylib_fn z_fns[] = { LAZYLIB_FN(ztable, zlibVersion) LAZYLIB_FN(ztable, crc32) };
static const struct lazylib_fn z_bad_fns[] = {
	LAZYLIB_FN(ztable, zlibVersion) { "vmr_no_such_function", offsetof(struct ztable, crc32) },
};

int main(void)
{
	struct ztable z = { 0 }, zbad = { 0 }, znone = { 0 };
	struct lazylib ok_lib = { .soname = "libz.so.1", .package = "zlib1g", .needed_by = "a test needs",
				  .fns = z_fns, .nfns = 2, .table = &z, .table_size = sizeof(z) };
	struct lazylib bad_lib = { .soname = "libz.so.1", .package = "zlib1g", .needed_by = "a test needs",
				   .fns = z_bad_fns, .nfns = 2, .table = &zbad, .table_size = sizeof(zbad) };
	struct lazylib none_lib = { .soname = "libvmr-no-such.so.0", .package = "vmr-none",
				    .needed_by = "a test needs", .fns = z_fns, .nfns = 2,
				    .table = &znone, .table_size = sizeof(znone) };
	const char *why = NULL;

	CHECK(lazylib_load(&ok_lib, &why) == 0, "a library with every function loads");
	CHECK(z.zlibVersion && !strcmp(z.zlibVersion(), zlibVersion()), "its table calls the library");
	CHECK(z.crc32 && z.crc32(0, (const Bytef *)"a", 1) == crc32(0, (const Bytef *)"a", 1),
	      "every entry is filled");
	CHECK(lazylib_load(&ok_lib, &why) == 0, "loading again answers the same");

	CHECK(lazylib_load(&bad_lib, &why) == -1, "a library lacking one function is refused");
	CHECK_STR(why, "libz.so.1 has no vmr_no_such_function: too old, or not libz.so.1 (install the zlib1g package)",
		  "the missing function is named");
	CHECK(!zbad.zlibVersion && !zbad.crc32, "a refused library leaves its table empty, not half filled");

	CHECK(lazylib_load(&none_lib, &why) == -1, "a missing library is refused");
	CHECK(!strncmp(why, "cannot load libvmr-no-such.so.0, which a test needs (", 52) &&
	      strstr(why, "); install the vmr-none package"), "the error names the library, the need and the package");
	CHECK(lazylib_load(&none_lib, &why) == -1, "and stays refused");
	T_DONE();
}
