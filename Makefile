# vmregress: one non-recursive Makefile.  Sources are found by wildcard so a
# new file under src/ needs no edit here.
PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKGS     = jansson gsl inih libbpf sqlite3 zlib libpq yaml-0.1
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

CFLAGS  ?= -O2 -g
# -ffp-contract=off: no fused multiply-add behind our back, so floating-point
# results (trace generation) are the same bits on every CPU.
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 -ffp-contract=off \
           -D_GNU_SOURCE -DVMR_VERSION='"$(VERSION)"' -Isrc \
           -DVMR_SUITE_DIR='"$(PREFIX)/share/vmregress/suites"' \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libpq is not linked: src/store/pqlib.c loads it when a PostgreSQL store is
# opened, so that commands which never open one do not pay for loading it
# and its Kerberos, LDAP and TLS libraries at every start.  Its headers are.
# GSL, libbpf and SQLite are not linked either, for the same reason: they
# are loaded on first use (src/core/lazylib.h).  Unit tests that call SQLite
# themselves link it (TESTLIBS).
LAZYPKGS = gsl libbpf sqlite3
LDLIBS  += $(shell pkg-config --libs $(filter-out libpq $(LAZYPKGS),$(PKGS)) 2>/dev/null) -lpthread -lm
TESTLIBS := $(shell pkg-config --libs sqlite3 2>/dev/null)
# fuzz/fuzz_mask_url.c asks libpq itself how it parses a URL: it links it.
PQLIBS  := $(shell pkg-config --libs libpq 2>/dev/null)

# src/static/ is only for the static build (below).
SRC      := $(filter-out src/static/%,$(sort $(wildcard src/*.c src/*/*.c)))
# Unit tests and fuzz targets link the library: everything but the command
# line (main.c and the command files, which call into main.c).
LIBSRC   := $(filter-out src/main.c src/cmd/%,$(SRC))
OBJ      := $(SRC:src/%.c=build/obj/%.o)
LIBOBJ   := $(LIBSRC:src/%.c=build/obj/%.o)
ASANOBJ  := $(SRC:src/%.c=build/asan/%.o)
ASANLIB  := $(LIBSRC:src/%.c=build/asan/%.o)
UNIT     := $(sort $(wildcard tests/unit/test_*.c))
UNITBIN  := $(UNIT:tests/unit/%.c=build/unit/%)
UNITASAN := $(UNIT:tests/unit/%.c=build/unit-asan/%)
FUZZ     := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZBIN  := $(FUZZ:fuzz/%.c=build/fuzz/%)
FUZZLIB  := $(LIBSRC:src/%.c=build/fuzzobj/%.o)
# clang, unlike gcc, warns about positional initializers that leave trailing
# fields to their zero default, which the metric tables do on purpose (only
# the headline metrics name .headline).
FUZZFLAGS = $(filter-out -Wformat=2,$(CFLAGS)) -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	    -fno-sanitize-recover=undefined -Wno-missing-field-initializers
HELPERS  := $(patsubst tests/helpers/%.c,build/helpers/%,$(wildcard tests/helpers/*.c))
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The test builds (ASan, unit tests, helpers) fill every automatic variable
# with a pattern before its first use, so that a read of one never set gives
# the same wrong value on every machine (a pointer that faults, a bool that
# UBSan rejects) instead of whatever the stack held.  The plain build stays
# without it: valgrind's memcheck (tests/memcheck) runs over that one and
# must see such bytes as undefined.
INITFLAGS := -ftrivial-auto-var-init=pattern
# The unit tests link the library compiled with the pattern, apart from the
# plain build's objects.
PATLIB   := $(LIBSRC:src/%.c=build/pattern/%.o)

# Quiet by default, as the kernel's build is: one line per step
# ("  CC      build/obj/core/util.o"), compiler warnings and errors in full.
# V=1 prints every command line instead.  Sub-makes run with -s when quiet,
# which drops only their "is up to date" lines (the steps' lines are not
# echoed commands).
V ?= 0
ifeq ($(V),1)
Q    :=
say   =
else
Q    := @
say   = @printf '  %-7s %s\n' '$(1)' '$(2)';
MAKEFLAGS += --no-print-directory
endif

# As many jobs as cores unless -j was given: the build is most of a clean
# `make check`'s first minutes.
# (Sub-makes inherit the job server.)
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif

.PHONY: all deps run check check-fast unit cli asan fuzz fuzz-smoke bench install clean man
# The static copy is what `vmregress matrix` boots its guests with, so that
# the matrix works straight after `make`.
all: vmregress build/vmregress-static

vmregress: $(OBJ)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The matrix's guests run this copy: no shared libraries exist inside them.
# Debian ships static archives of every library we use but libpq's (which
# needs Kerberos and LDAP archives it lacks), so it is the whole program
# less the PostgreSQL store, linked with -static.  SQLite's archive refers to
# dlopen, which a static program cannot use in a guest: a copy of it has the
# reference renamed to src/static/nodl.c's, which fails as dlopen would
# there, so the link neither pulls in glibc's nor warns about it.
STATICPKGS := $(shell pkg-config --static --libs $(filter-out libpq,$(PKGS)) 2>/dev/null)
# The PostgreSQL store's files (store/pg.c, store/pg_*.c) are built for it
# with -DVMR_NO_PG, and libpq's loader (store/pqlib.c) is left out.  So are
# the loader of the libraries loaded on first use and their tables: for it
# src/static/libs.c fills the tables from the linked libraries.
PGSRC     := $(wildcard src/store/pg.c src/store/pg_*.c)
LAZYOBJ   := build/obj/core/lazylib.o build/obj/stats/gsllib.o build/obj/probe/bpflib.o \
	     build/obj/store/sqlitelib.o
# So is HTTP (core/http.c, libcurl's loader): Debian has no static archives
# of libcurl's TLS and Kerberos libraries either; src/static/nohttp.c says so
# to `kcidb submit` in a guest.
HTTPOBJ   := build/obj/core/http.o build/obj/core/curllib.o
STATICOBJ := $(filter-out $(PGSRC:src/%.c=build/obj/%.o) build/obj/store/pqlib.o $(LAZYOBJ) $(HTTPOBJ),$(OBJ)) \
	     $(PGSRC:src/%.c=build/static/%.o) build/static/nodl.o build/static/libs.o build/static/nohttp.o
build/static/store/%.o: src/store/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) -DVMR_NO_PG -c -o $@ $<

build/static/nodl.o: src/static/nodl.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) -c -o $@ $<

build/static/nohttp.o: src/static/nohttp.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) -c -o $@ $<

build/static/libs.o: src/static/libs.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

SQLITE_A := $(shell $(CC) -print-file-name=libsqlite3.a)
build/static/libsqlite3.a: $(SQLITE_A)
	@mkdir -p $(dir $@)
	$(call say,OBJCOPY,$@)objcopy --redefine-sym dlopen=vmr_static_dlopen $< $@

build/vmregress-static: $(STATICOBJ) build/static/libsqlite3.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -static -o $@ $(STATICOBJ) \
	  $(patsubst -lsqlite3,build/static/libsqlite3.a,$(STATICPKGS)) -lpthread -lm

build/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

build/asan/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(SANFLAGS) $(INITFLAGS) -O1 -MMD -MP -c -o $@ $<

build/vmregress-asan: $(ASANOBJ)
	$(call say,LD,$@)$(CC) $(CFLAGS) $(SANFLAGS) $(INITFLAGS) -o $@ $^ $(LDLIBS)

build/pattern/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(INITFLAGS) -MMD -MP -c -o $@ $<

# The objects are the binaries' prerequisites outright: ones that only a
# pattern rule names are intermediates, which make skips while a binary exists.
$(UNITBIN): $(PATLIB)
build/unit/%: tests/unit/%.c $(PATLIB) tests/unit/t.h
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(CFLAGS) $(INITFLAGS) -Itests/unit -o $@ $< $(PATLIB) $(LDLIBS) $(TESTLIBS)

build/unit-asan/%: tests/unit/%.c $(ASANLIB) tests/unit/t.h
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(CFLAGS) $(SANFLAGS) $(INITFLAGS) -Itests/unit -o $@ $< $(ASANLIB) $(LDLIBS) $(TESTLIBS)

# Small programs the command-line tests run (a process with a known
# memory layout, for example).
build/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(CFLAGS) $(INITFLAGS) -o $@ $<

# This one also runs in matrix guests, whose initramfs has no C library.
build/helpers/touch_region: tests/helpers/touch_region.c
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(CFLAGS) $(INITFLAGS) -static -o $@ $<

# Benchmarks of vmregress's own code link the library like the unit tests.
build/bench/%: bench/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)$(CC) $(CFLAGS) -o $@ $< $(LIBOBJ) $(LDLIBS)

# Fuzz targets link the library, compiled once by clang with coverage
# instrumentation, and libFuzzer.
build/fuzzobj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)clang $(FUZZFLAGS) -MMD -MP -c -o $@ $<

# Only pattern rules name these objects: keep them, or make deletes them
# as intermediates after every link and compiles them all again next time.
.SECONDARY: $(FUZZLIB)

# Every target (phony: fuzz/ is also the sources' directory).
fuzz: $(FUZZBIN)

build/fuzz/%: fuzz/%.c $(FUZZLIB)
	@mkdir -p $(dir $@)
	$(call say,CCLD,$@)clang $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZLIB) $(LDLIBS) $(PQLIBS)

deps:
	@scripts/deps

run: deps
	@$(MAKE) --no-print-directory $(if $(Q),-s) vmregress
	./vmregress run quick

# The README's test command: unit tests, command-line tests against the real
# binary, valgrind's memcheck over it, then the tests again under ASan+UBSan,
# and a short run of every fuzz target.
check: deps
	@$(MAKE) --no-print-directory $(if $(Q),-s) vmregress build/vmregress-static build/vmregress-asan $(UNITBIN) $(UNITASAN) $(FUZZBIN) $(HELPERS)
	@tests/run-all

check-fast: vmregress build/vmregress-static $(UNITBIN) $(HELPERS)
	@VMR_NO_ASAN=1 VMR_NO_FUZZ=1 VMR_NO_MEMCHECK=1 tests/run-all

bench: vmregress
	@bench/run-all

# Man pages (vmregress(1), vmregress-CMD(1), vmregress-suite(5)) and bash
# completion are written by the binary from its own tables.
man: build/man/stamp build/vmregress.bash
build/man/stamp: vmregress
	@mkdir -p build/man
	$(call say,GEN,build/man/)./vmregress help --man-dir build/man && touch $@
build/vmregress.bash: vmregress
	@mkdir -p build
	$(call say,GEN,$@)./vmregress help --completion bash > $@

install: vmregress build/vmregress-static build/man/stamp build/vmregress.bash
	$(Q)install -d $(DESTDIR)$(PREFIX)/libexec/vmregress $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/vmregress/suites $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	$(call say,INSTALL,$(DESTDIR)$(PREFIX)/libexec/vmregress/vmregress-static)install -m 0755 build/vmregress-static $(DESTDIR)$(PREFIX)/libexec/vmregress/vmregress-static
	$(call say,INSTALL,$(DESTDIR)$(PREFIX)/bin/vmregress)install -m 0755 vmregress $(DESTDIR)$(PREFIX)/bin/vmregress
	$(if $(wildcard suites/*.ini),$(call say,INSTALL,$(DESTDIR)$(PREFIX)/share/vmregress/suites/)install -m 0644 $(wildcard suites/*.ini) $(DESTDIR)$(PREFIX)/share/vmregress/suites/)
	$(call say,INSTALL,$(DESTDIR)$(PREFIX)/share/man/)install -m 0644 build/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/ && \
	  install -m 0644 build/man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	$(call say,INSTALL,$(DESTDIR)$(PREFIX)/share/bash-completion/completions/vmregress)install -m 0644 build/vmregress.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vmregress

clean:
	$(call say,CLEAN,build vmregress)rm -rf build vmregress

-include $(OBJ:.o=.d) $(ASANOBJ:.o=.d) $(PATLIB:.o=.d) $(FUZZLIB:.o=.d) build/static/libs.d
