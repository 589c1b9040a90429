# aflame-render: plain GNU make. `make` builds build/aflame-render,
# `make demo` installs what is missing and renders the sample,
# `make check` builds with -Werror and runs every test.
# Local overrides go in config.mak (not committed).

ifneq ($(SANITIZE),)
O ?= build-sanitize
# Sanitized builds (make check's second build, make fuzz) compile at -O1
# with line tables only: ASan's recommended level, reports still name file
# and line, and half the compile time of -O2 -g (the tests run as fast).
CFLAGS ?= -O1 -g1
endif
O ?= build
# The one place the version lives: --version, debian/changelog (a test checks).
VERSION := 0.1.0
# make check builds the normal and the sanitized binaries side by side
NPROC := $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
PKG_CONFIG ?= pkg-config
CC ?= cc
CFLAGS ?= -O2 -g
-include config.mak

DEPS := cairo pangocairo pangoft2 fontconfig zlib libdeflate libmicrohttpd
# only the cairo module (aflame-render-cairo.so, src/render/cairo_module.h) and the
# service's (aflame-render-serve.so, src/serve/serve.h) link these (src/core/module.h)
CAIRO_DEPS := cairo pangocairo pangoft2 fontconfig zlib
SERVE_DEPS := libmicrohttpd
MAIN_DEPS := zlib libdeflate
# What building and running need (make demo), and what the tests use (make check).
DEBIAN_PACKAGES := build-essential pkg-config libcairo2-dev libpango1.0-dev \
	libfontconfig-dev zlib1g-dev libdeflate-dev libiberty-dev libmicrohttpd-dev libyajl-dev
# debian.sh and completion.sh: the package tools, the font it links to, systemd-analyze;
# page.sh (and the browser suite's syntax check): node
TEST_PACKAGES := libxml2-utils chromium dmtracedump poppler-utils curl python3 nodejs \
	dpkg-dev debhelper lintian git fonts-dejavu-core bash-completion systemd valgrind golang-go

WARN := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2 -Wundef -Wpointer-arith -Wimplicit-fallthrough
# Warnings are errors in a git checkout (developers, CI), not in a release
# build with a compiler newer than ours; the same flags for make, make test
# and make check, so switching between them rebuilds nothing.
WERROR ?= $(if $(wildcard .git),1,0)
ifeq ($(WERROR),1)
WARN += -Werror
endif
ifneq ($(SANITIZE),)
SAN := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
# GCC links the sanitizer runtimes as shared libraries, whose globals the
# leak check scans at every exit (~50 ms a process here); linked into the
# program they cost half. Modules then link no runtime: the program's serves.
# Not position-independent: the runtime's 1.4 MB of data then needs no
# relocating at each start (350 page faults, a tenth of a small run).
ifeq ($(findstring clang,$(CC)),)
SAN_PROG := -static-libasan -static-libubsan -no-pie
SAN_MODULE :=
else
SAN_PROG :=
SAN_MODULE := $(SAN)
endif
endif

DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS) 2>/dev/null)
MAIN_DEPS_LIBS := $(shell $(PKG_CONFIG) --libs $(MAIN_DEPS) 2>/dev/null)
CAIRO_DEPS_LIBS := $(shell $(PKG_CONFIG) --libs $(CAIRO_DEPS) 2>/dev/null)
SERVE_LIBS := $(shell $(PKG_CONFIG) --libs $(SERVE_DEPS) 2>/dev/null)
ALL_CFLAGS := $(WARN) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(SAN) -pthread \
	-I src -I $(O)/gen $(DEPS_CFLAGS) $(CFLAGS)
ALL_LDFLAGS := -pthread $(LDFLAGS) -Wl,--as-needed
MODULE_LDFLAGS := $(SAN_MODULE) $(ALL_LDFLAGS)
# libiberty (static, Debian libiberty-dev): the C++ demangler of binutils
# yajl (static, Debian libyajl-dev's libyajl_s.a): the JSON readers' parser,
# linked in like libiberty so a run that reads no JSON loads no more
# libraries than before (core/module.h: start-up stays light)
YAJL_LIB ?= $(firstword $(wildcard $(addsuffix /libyajl_s.a,/usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null) /usr/lib /usr/local/lib)) -lyajl)
LIBS := $(MAIN_DEPS_LIBS) -liberty $(YAJL_LIB) -lm
CAIRO_LIBS := $(CAIRO_DEPS_LIBS) -lm
# Programs export their symbols: the cairo module takes diag, escape, layout,
# ... from the program that loads it.
PROG_LDFLAGS := $(SAN) $(SAN_PROG) $(ALL_LDFLAGS) -rdynamic
# The pinned font (fonts/README): found here when run from the tree, and in
# $(PREFIX)/share/aflame-render/fonts (beside ../bin) after make install.
FONT_DIR ?= $(abspath fonts)
FONT_FILES := fonts/DejaVuSans.ttf fonts/LICENSE-DejaVu fonts/README

# A folder a stage (src/README.md); each is a build unit, globbed:
# the program is core/, read/, render/ and cli/; render/cairo/ is the
# cairo module and serve/ the service's, opened on demand (core/module.h).
PROG_SRCS := $(wildcard src/core/*.c src/read/*.c src/render/*.c src/cli/*.c)
CAIRO_SRCS := $(wildcard src/render/cairo/*.c)
SERVE_SRCS := $(wildcard src/serve/*.c)
PROG_OBJS := $(PROG_SRCS:src/%.c=$(O)/obj/%.o)
CAIRO_OBJS := $(CAIRO_SRCS:src/%.c=$(O)/obj/%.o)
SERVE_OBJS := $(SERVE_SRCS:src/%.c=$(O)/obj/%.o)
MODULE_OBJS := $(CAIRO_OBJS) $(SERVE_OBJS)
OBJS := $(PROG_OBJS) $(MODULE_OBJS)
LIB_OBJS := $(filter-out $(O)/obj/cli/main.o,$(PROG_OBJS))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(O)/obj/unit/%.o)
BIN := $(O)/aflame-render
CAIRO_MODULE := $(O)/aflame-render-cairo.so
SERVE_MODULE := $(O)/aflame-render-serve.so
MODULES := $(CAIRO_MODULE) $(SERVE_MODULE)
# where make install puts the modules; module.c looks beside the program first.
# Built in, so a package builds and installs with the same PREFIX (PREFIX=/usr).
MODULE_DIR ?= $(PREFIX)/lib/aflame-render

.PHONY: all check demo deps test-deps bless bench clean lint install FORCE
all: $(BIN) $(MODULES)

# Rebuild everything when the flags change (e.g. `make check` adds -Werror).
$(O)/flags: FORCE | $(O)
	@echo '$(CC) $(ALL_CFLAGS) $(PROG_LDFLAGS) $(MODULE_LDFLAGS) $(MODULE_CFLAGS)' | cmp -s - $@ || \
	  echo '$(CC) $(ALL_CFLAGS) $(PROG_LDFLAGS) $(MODULE_LDFLAGS) $(MODULE_CFLAGS)' > $@
# the same for the modules' directory, which only module.o has built in
$(O)/module-dir: FORCE | $(O)
	@echo '$(MODULE_DIR)' | cmp -s - $@ || echo '$(MODULE_DIR)' > $@

$(O)/deps-ok: | $(O)
	@$(PKG_CONFIG) --exists $(DEPS) || { \
	  echo "aflame-render needs the development files of: $(DEPS)"; \
	  echo "run 'make demo' (installs them with apt-get) or: apt-get install $(DEBIAN_PACKAGES)"; \
	  exit 1; }
	@touch $@

$(O) $(O)/obj $(O)/obj/unit $(O)/gen $(O)/demo:
	@mkdir -p $@

# the page's script: its parts in this order, one closure (src/render/page/state.js)
PAGE_JS := $(addprefix src/render/page/,state.js frames.js unpack.js format.js label.js geometry.js controls.js draw.js tree.js \
	hover.js zoom.js chart.js search.js field.js transforms.js views.js menu.js table.js url.js events.js main.js)
$(O)/gen/svg_script.h: $(PAGE_JS) | $(O)/gen
	@echo "  GEN   $@"
	@{ echo '/* generated from the files of src/render/page/ (PAGE_JS in the Makefile): do not edit */'; \
	   echo 'static const char af_svg_script[] ='; \
	   cat $(PAGE_JS) | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/'; \
	   echo ';'; } > $@.tmp && mv $@.tmp $@

$(O)/obj/%.o: src/%.c $(O)/flags $(O)/deps-ok | $(O)/obj $(O)/gen/svg_script.h
	@echo "  CC    $<"
	@mkdir -p $(@D)
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/obj/render/cairo/fonts.o: ALL_CFLAGS += -DAF_FONT_DIR='"$(FONT_DIR)"'
$(O)/obj/core/module.o: ALL_CFLAGS += -DAF_MODULE_DIR='"$(MODULE_DIR)"'
$(O)/obj/core/module.o: $(O)/module-dir
# module code: position-independent, and nothing exported but its entry
MODULE_CFLAGS := -fPIC -fvisibility=hidden
$(MODULE_OBJS): ALL_CFLAGS += $(MODULE_CFLAGS)
# options.o is rebuilt when the Makefile (VERSION) changes
$(O)/obj/cli/options.o: ALL_CFLAGS += -DAF_VERSION='"$(VERSION)"'
$(O)/obj/cli/options.o: Makefile

$(O)/obj/unit/%.o: tests/unit/%.c $(O)/flags | $(O)/obj/unit
	@echo "  CC    $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BIN): $(PROG_OBJS)
	@echo "  LINK  $@"
	@$(CC) $(PROG_LDFLAGS) -o $@ $(PROG_OBJS) $(LIBS)

$(CAIRO_MODULE): $(CAIRO_OBJS)
	@echo "  LINK  $@"
	@$(CC) $(MODULE_LDFLAGS) -shared -o $@ $(CAIRO_OBJS) $(CAIRO_LIBS)

$(SERVE_MODULE): $(SERVE_OBJS)
	@echo "  LINK  $@"
	@$(CC) $(MODULE_LDFLAGS) -shared -o $@ $(SERVE_OBJS) $(SERVE_LIBS)

# Fuzzing: each target in tests/fuzz/ links with replay.c into an ordinary
# program that `make check` runs over the saved corpus and crash inputs;
# `make fuzz` builds the same targets with clang's libFuzzer (and sanitizers).
FUZZ_TARGETS := art folded atrace diff perfetto simpleperf perfdata pprof perfscript chrome cpuprofile
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(O)/fuzz-replay-%)
$(O)/obj/fuzz:
	@mkdir -p $@
# keep the objects (make would delete them as intermediate, and rebuild them every run)
.SECONDARY: $(FUZZ_TARGETS:%=$(O)/obj/fuzz/fuzz_%.o) $(O)/obj/fuzz/replay.o
$(O)/obj/fuzz/%.o: tests/fuzz/%.c tests/fuzz/fuzz.h $(O)/flags | $(O)/obj/fuzz
	@echo "  CC    $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
$(O)/fuzz-replay-%: $(O)/obj/fuzz/fuzz_%.o $(O)/obj/fuzz/replay.o $(LIB_OBJS) | $(MODULES)
	@echo "  LINK  $@"
	@$(CC) $(PROG_LDFLAGS) -o $@ $^ $(LIBS)
$(O)/fuzz-%: $(O)/obj/fuzz/fuzz_%.o $(LIB_OBJS) | $(MODULES)
	@echo "  LINK  $@"
	@$(CC) $(PROG_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

.PHONY: fuzz
fuzz:
	@$(MAKE) --no-print-directory O=build-fuzz CC=clang SANITIZE=fuzzer-no-link,address,undefined \
	  $(FUZZ_TARGETS:%=build-fuzz/fuzz-%)
	@echo "run e.g.: LSAN_OPTIONS=suppressions=tests/lsan.supp build-fuzz/fuzz-art -dict=tests/fuzz/dict/art.dict build-fuzz/corpus-art tests/fuzz/corpus/art"

$(O)/unit-tests: $(UNIT_OBJS) $(LIB_OBJS) | $(MODULES)
	@echo "  LINK  $@"
	@$(CC) $(PROG_LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(LIBS)

# pixel comparison of PNGs for tests/suites/png.sh
$(O)/pngdiff: tests/tools/pngdiff.c $(O)/flags $(O)/deps-ok | $(O)
	@echo "  CC    $<"
	@$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(CAIRO_LIBS)

# SHA-256 against its test vectors, for tests/suites/serve.sh
$(O)/serve-sha256-test: tests/serve/test_sha256.c $(O)/obj/serve/sha256.o $(O)/flags | $(O)
	@echo "  CC    $<"
	@$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(O)/obj/serve/sha256.o

-include $(OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(FUZZ_TARGETS:%=$(O)/obj/fuzz/fuzz_%.d)

# ---- user commands ----

# Install what is missing with apt-get (sudo when not root): APT_PACKAGES.
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q $$missing; \
	fi
endef

# what building and running need
deps:
	$(call apt_install,$(DEBIAN_PACKAGES))

# and what the tests use
test-deps: deps
	$(call apt_install,$(TEST_PACKAGES))

demo: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory demo-render

.PHONY: demo-render
demo-render: $(BIN) $(MODULES) | $(O)/demo
	$(BIN) -t main tests/data/art/yamp-legacy.trace -o $(O)/demo/main.svg
	$(BIN) tests/data/art/yamp-legacy.trace -o $(O)/demo/all-threads.svg 2>/dev/null
	$(BIN) -t main tests/data/art/yamp-legacy.trace -o $(O)/demo/main.png 2>/dev/null
	$(BIN) -t main tests/data/art/yamp-legacy.trace -o $(O)/demo/profile.html 2>/dev/null
	$(BIN) --flamechart -t main tests/data/art/yamp-legacy.trace -o $(O)/demo/timeline.svg 2>/dev/null
	$(BIN) --per-thread $(O)/demo/threads --format png tests/data/art/yamp-legacy.trace 2>/dev/null
	@echo "open $(O)/demo/main.svg (interactive), main.png, profile.html, timeline.svg and threads/index.html"

TEST_BINS = $(BIN) $(MODULES) $(O)/unit-tests $(O)/pngdiff $(FUZZ_REPLAYS) $(O)/serve-sha256-test
SANITIZED := O=build-sanitize SANITIZE=address,undefined

# `make test`: the inner loop, the fast tier (tests/run.sh --fast) on the
# normal build, two suites at a time. `make check`: the full gate: every
# suite (browser, serve with its load test, dmtracedump, conformance) on the
# normal build and the fast tier again under AddressSanitizer +
# UndefinedBehaviorSanitizer with leak detection (build-sanitize/), in one
# queue (tests/run.sh --sanitized); both builds share the cores.
.PHONY: test test-bins check-sanitized check-bins check-bins-plain check-bins-sanitized
test: $(TEST_BINS)
	@AFLAME=$(BIN) UNIT=$(O)/unit-tests O=$(O) bash tests/run.sh --fast -j 2

check: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) check-bins
	@AFLAME=$(BIN) UNIT=$(O)/unit-tests O=$(O) bash tests/run.sh -j 2 --sanitized build-sanitize

# test-bins: what the suites run, in $(O) (a name, so that a sub-make
# with another O builds its own)
test-bins: $(TEST_BINS)
check-bins: check-bins-plain check-bins-sanitized
check-bins-plain:
	@$(MAKE) --no-print-directory test-bins
check-bins-sanitized:
	@$(MAKE) --no-print-directory $(SANITIZED) test-bins

# the fast tier under the sanitizers alone
check-sanitized:
	@$(MAKE) --no-print-directory -j$(NPROC) check-bins-sanitized
	@bash tests/run.sh -j 2 --sanitized build-sanitize --no-plain

bless:
	@$(MAKE) --no-print-directory $(BIN) $(MODULES) $(O)/pngdiff
	@AFLAME_BLESS=1 AFLAME=$(BIN) UNIT=: O=$(O) bash tests/run.sh --bless-only

install: $(BIN) $(MODULES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/aflame-render/fonts $(DESTDIR)$(MODULE_DIR) \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/aflame-render
	install -m 644 $(MODULES) $(DESTDIR)$(MODULE_DIR)
	install -m 644 $(FONT_FILES) $(DESTDIR)$(PREFIX)/share/aflame-render/fonts
	install -m 644 docs/aflame-render.1 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 contrib/aflame-render.bash-completion \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/aflame-render

# Benchmarks: generators in bench/ make large deterministic inputs (cached in
# $(O)/bench/data); bench/run.sh prints time, memory and throughput.
BENCH_GENS := $(O)/bench/gen_art $(O)/bench/gen_folded $(O)/bench/gen_atrace $(O)/bench/gen_perfetto $(O)/bench/gen_perfdata $(O)/bench/gen_pprof $(O)/bench/gen_chrome
$(O)/bench:
	@mkdir -p $@
$(O)/bench/%: bench/%.c bench/gen.h | $(O)/bench
	@echo "  CC    $<"
	@$(CC) -O2 -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -o $@ $<

bench: $(BIN) $(MODULES) $(BENCH_GENS)
	@O=$(O) bash bench/run.sh

lint:
	cppcheck --quiet --enable=warning,performance,portability --error-exitcode=1 \
	  --suppress=missingIncludeSystem -I src src

clean:
	rm -rf $(O)
