# SPDX-License-Identifier: MIT
# commroof: top-level build. Objects go out of tree into build/ (or $(BUILD)).
#
#   make            library, CLI, tracer (where CUDA headers exist)
#   make test       unit tests (cmocka), golden CLI tests, check scripts
#   make demo       the main job on the embedded default topology
#   make bench      performance of the tool itself (one core)
#   make SAN=1 ...  the same with AddressSanitizer + UndefinedBehaviorSanitizer
#   make tsan       the threaded test (test_reentrancy) under ThreadSanitizer
#                   (clang; skipped where its TSan runtime is missing)
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make uninstall PREFIX=/usr/local [DESTDIR=...]   (what install wrote)
#   make format-check
#
# Modules add files, not rules: every model/*.c, traces/reader/*.c, validate/*.c
# and plots/*.c goes into libcommroof; every cli/*.c into the commroof binary;
# every tests/unit/test_*.c becomes one test program. Parts with their own
# toolchain (the CUDA tracer, kernels/) bring a *.mk fragment included below.

SAN ?= 0
PREFIX ?= /usr/local
CC ?= cc
BUILD ?= build$(if $(filter 1,$(SAN)),-san,)$(if $(filter thread,$(SAN)),-tsan,)
CUDA_HOME ?= /usr/local/cuda

PKGS := libxml-2.0 jansson zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wconversion -Wformat=2 -Wvla -Wpointer-arith -Wcast-qual -Wundef \
        -Wnull-dereference -Werror
OPT := -O2 -g
ifeq ($(SAN),1)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
  SANLD := -fsanitize=address,undefined
endif
# clang warns of more than gcc (enum to int: -Wsign-conversion); this
# build looks for races, the gcc build keeps the warnings errors.
ifeq ($(SAN),thread)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=thread
  SANLD := -fsanitize=thread
  WARN += -Wno-error
endif
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -I. -Imodel -I$(BUILD)/gen
CFLAGS += -std=c11 $(WARN) $(OPT) -fPIC $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -lm
LDFLAGS += $(SANLD)

LIB_SRC := $(sort $(wildcard model/*.c traces/reader/*.c validate/*.c plots/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_SUPPORT := $(sort $(filter-out $(TEST_SRC),$(wildcard tests/unit/*.c)))
BENCH_SRC := $(sort $(wildcard tests/bench/bench_*.c))
EMBED_TOPO := $(sort $(wildcard topologies/*.xml))
EMBED_SUITE := $(sort $(wildcard suites/*.xml))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_SUPPORT_OBJ := $(TEST_SUPPORT:%.c=$(BUILD)/%.o)
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

# The installed API (make install; tests/check_install.sh holds the list to
# the library's exported symbols). Every other header of the library is
# internal: a *_priv.h, or one of INTERNAL_HEADERS (helpers shared across
# folders, and plots/, the charts and report behind the CLI); both declare
# their names under `#pragma GCC visibility push(hidden)`, so libcommroof.so
# does not export them. A new header goes into one of the two lists.
PUBLIC_HEADERS := $(addprefix model/,bound.h coll.h dtype.h flowsim.h gpu_catalog.h harness.h \
                    json_items.h mech.h nccl_import.h nic.h ops.h ops_json.h params.h pkb_logs.h rankset.h \
                    route.h scenario.h status.h suite.h topo.h topo_gen.h topo_metrics.h \
                    topo_xml.h units.h) \
                  $(addprefix traces/reader/,trace_reader.h trace_file.h trace_summary.h) \
                  $(addprefix validate/,validate.h roofline.h corpus.h calibrate_nccl.h)
INTERNAL_HEADERS := $(addprefix model/,fileio.h grow.h json_dump.h json_num.h maxflow.h sbuf.h stats.h xml_safe.h) \
                    $(addprefix plots/,chart.h plots.h report.h sources.h table.h)

# The library's version (the .pc file's, tools/commroof.pc.in) and its
# ABI's: libcommroof.so.$(VERSION) carries the SONAME libcommroof.so.$(SOVERSION),
# which programs linked with -lcommroof record; a release that breaks the
# ABI raises SOVERSION.
VERSION := 0.1.0
SOVERSION := 0
LIBA := $(BUILD)/libcommroof.a
OBJCOPY ?= objcopy
NM ?= nm
LIBSO := $(BUILD)/libcommroof.so
BIN := $(BUILD)/commroof

.PHONY: print-headers all test tsan demo bench install uninstall format format-check deps deps-check clean check-unit check-golden check-scripts
all: deps-check $(BIN) $(LIBSO)

# --- generated: shipped topologies and suites compiled into the library ---
$(BUILD)/tools/embed: tools/embed.c | $(BUILD)/tools
	$(CC) -std=c11 -O1 -o $@ $<
$(BUILD)/gen/embedded.c: $(BUILD)/tools/embed $(EMBED_TOPO) $(EMBED_SUITE) | $(BUILD)/gen
	$(BUILD)/tools/embed topo $(EMBED_TOPO) -- suite $(EMBED_SUITE) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/embedded.o: $(BUILD)/gen/embedded.c
	$(CC) $(CPPFLAGS) -std=c11 $(OPT) -fPIC -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIBA): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^
# The archive make install puts beside libcommroof.so: the library's
# objects linked into one, every global but the names the .so exports made
# local, so that a program linking it statically meets none of the
# internals' names (algo_*, ops_*, txml_*, and the cr_ names of the
# internal headers, cr_chart_*, cr_sbuf_* ..., which their visibility
# pragma hides in the .so). The list is read from the built .so (its
# version script, tools/libcommroof.map, and the pragmas decide it), so the
# two libraries' faces are one list; tests/check_install.sh compares them.
# The tests and the CLI link $(LIBA), which keeps everything.
LIBA_INSTALL := $(BUILD)/install/libcommroof.a
LIBSO_SYMS := $(BUILD)/install/libcommroof.syms
$(LIBSO_SYMS): $(LIBSO)
	@mkdir -p $(dir $@)
	$(NM) -D --defined-only $(LIBSO) | awk 'NF == 3 {print $$3}' | sort -u > $@.tmp
	@[ -s $@.tmp ] || { echo "$(LIBSO) exports nothing"; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@
$(LIBA_INSTALL): $(LIB_OBJ) $(LIBSO_SYMS)
	@mkdir -p $(dir $@)
	rm -f $@ $(BUILD)/install/commroof.o
	$(LD) -r -o $(BUILD)/install/commroof.o $(LIB_OBJ)
	$(OBJCOPY) --keep-global-symbols=$(LIBSO_SYMS) $(BUILD)/install/commroof.o
	ar rcs $@ $(BUILD)/install/commroof.o
# The SONAME's link beside it, so that a program built against the build
# tree's library runs there (LD_LIBRARY_PATH=$(BUILD)).
# Relinked when the Makefile changes (the SONAME is written here).
$(LIBSO): $(LIB_OBJ) tools/libcommroof.map Makefile
	$(CC) -shared $(LDFLAGS) -Wl,--version-script=tools/libcommroof.map \
	  -Wl,-soname,libcommroof.so.$(SOVERSION) -o $@ $(LIB_OBJ) $(LDLIBS)
	ln -sf libcommroof.so $(BUILD)/libcommroof.so.$(SOVERSION)
$(BIN): $(CLI_OBJ) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS)

# -MMD: a test program rebuilds when what it includes changes (a fuzz
# harness it replays, tests/unit/*.h), not only its own source.
$(BUILD)/tests/%: tests/unit/%.c $(TEST_SUPPORT_OBJ) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -Wno-missing-prototypes -MMD -MP -o $@ $< $(TEST_SUPPORT_OBJ) $(LIBA) $(LDFLAGS) $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/bench/%: tests/bench/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes -MMD -MP -o $@ $< $(LIBA) $(LDFLAGS) $(LDLIBS)

$(BUILD)/gen $(BUILD)/tools:
	mkdir -p $@

# --- optional parts with their own toolchains ---
-include $(sort $(wildcard traces/tracer/*.mk kernels/*.mk))

# --- dependencies: install what is missing (as root) or say how ---
deps:
	@tools/deps.sh
# A plain make: say which packages are missing (and the apt-get line) before
# the compiler fails on a header; installs nothing.
deps-check:
	@tools/deps.sh --check

# --- tests ---
test: deps
	@$(MAKE) --no-print-directory all $(TEST_BIN)
	@$(MAKE) --no-print-directory check-unit check-golden check-scripts

check-unit: $(TEST_BIN)
	@fail=0; for t in $(TEST_BIN); do echo "== $$t"; $$t || fail=1; done; \
	  if [ $$fail -ne 0 ]; then echo "unit tests: FAILED"; exit 1; fi; echo "unit tests: OK"

check-golden: $(BIN)
	@tests/golden/run.sh $(BIN)

# Scripted checks (tests/check_*.sh) get the binary and the build folder.
check-scripts: $(BIN) $(BENCH_BIN)
	@fail=0; for s in $(sort $(wildcard tests/check_*.sh)); do echo "== $$s"; \
	  BUILD=$(BUILD) $$s $(BIN) || fail=1; done; \
	  if [ $$fail -ne 0 ]; then echo "check scripts: FAILED"; exit 1; fi; echo "check scripts: OK"

# ThreadSanitizer sees the races that test_reentrancy's digests may not
# (its own build folder, build-tsan, and clang: gcc's TSan runtime is
# another package). Not part of make test (the library built again); CI
# runs it. Skipped where a TSan program does not link or run (some
# kernels' address-space layouts stop older TSan runtimes at start).
TSAN_CC ?= clang
tsan:
	@probe=$$(mktemp); \
	  if ! echo 'int main(void){return 0;}' | $(TSAN_CC) -fsanitize=thread -x c -o $$probe - 2>/dev/null || \
	     ! $$probe >/dev/null 2>&1; then rm -f $$probe; \
	  echo "tsan: skipped ($(TSAN_CC) -fsanitize=thread does not link or run here)"; exit 0; fi; \
	  rm -f $$probe; \
	  $(MAKE) --no-print-directory SAN=thread CC=$(TSAN_CC) build-tsan/tests/test_reentrancy && \
	  TSAN_OPTIONS="halt_on_error=1 $$TSAN_OPTIONS" build-tsan/tests/test_reentrancy

demo: deps
	@$(MAKE) --no-print-directory all
	@tools/demo.sh $(BIN)

# Each tests/bench/bench_*.c prints its own table (one core, wall time, peak memory).
bench: all $(BENCH_BIN)
	@for b in $(BENCH_BIN); do $$b || exit 1; done

# What make install writes under $(DESTDIR)$(PREFIX), and make uninstall
# removes: these files, the library's two links, and the folders of our own
# (include/commroof, share/commroof); bin, lib, include and share are
# shared with other packages and stay.
INST = $(DESTDIR)$(PREFIX)
INST_TOPO := $(notdir $(sort $(wildcard topologies/*.xml topologies/*.dtd)))
INST_HEADERS := $(notdir $(PUBLIC_HEADERS)) commroof_nvtx.h
INST_LIBS := libcommroof.a libcommroof.so.$(VERSION) libcommroof.so.$(SOVERSION) libcommroof.so \
             libcommroof_trace.so

install: all $(LIBA_INSTALL)
	install -d $(INST)/bin $(INST)/lib $(INST)/include/commroof $(INST)/lib/pkgconfig \
	  $(INST)/share/commroof/topologies $(INST)/share/commroof/python
	install -m 755 $(BIN) $(INST)/bin/commroof
	install -m 644 $(LIBA_INSTALL) $(INST)/lib/
	install -m 644 $(LIBSO) $(INST)/lib/libcommroof.so.$(VERSION)
	ln -sf libcommroof.so.$(VERSION) $(INST)/lib/libcommroof.so.$(SOVERSION)
	ln -sf libcommroof.so.$(SOVERSION) $(INST)/lib/libcommroof.so
	install -m 644 $(PUBLIC_HEADERS) traces/annotate/commroof_nvtx.h $(INST)/include/commroof/
	install -m 644 $(addprefix topologies/,$(INST_TOPO)) $(INST)/share/commroof/topologies/
	install -m 644 traces/annotate/commroof_nvtx.py $(INST)/share/commroof/python/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBS@|$(PKG_LIBS)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  tools/commroof.pc.in > $(INST)/lib/pkgconfig/commroof.pc
	if [ -f $(BUILD)/libcommroof_trace.so ]; then \
	  install -m 755 $(BUILD)/libcommroof_trace.so $(INST)/lib/; fi

# Removes what install wrote (the same PREFIX and DESTDIR), and nothing else:
# a file of another package in our folders keeps them. The module's
# bytecode is ours too: Python writes __pycache__/commroof_nvtx.*.pyc
# beside it the first time a program imports it from there (README's
# sys.path line), which kept share/commroof after uninstall (QA audit).
uninstall:
	rm -f $(INST)/bin/commroof $(addprefix $(INST)/lib/,$(INST_LIBS)) \
	  $(INST)/lib/pkgconfig/commroof.pc $(addprefix $(INST)/include/commroof/,$(INST_HEADERS)) \
	  $(addprefix $(INST)/share/commroof/topologies/,$(INST_TOPO)) \
	  $(INST)/share/commroof/python/commroof_nvtx.py \
	  $(INST)/share/commroof/python/__pycache__/commroof_nvtx.*.pyc
	for d in $(INST)/include/commroof $(INST)/share/commroof/topologies \
	  $(INST)/share/commroof/python/__pycache__ $(INST)/share/commroof/python $(INST)/share/commroof; do \
	  [ ! -d "$$d" ] || rmdir "$$d" 2>/dev/null || echo "uninstall: $$d kept: it holds other files"; \
	done

# For tests/check_install.sh: the two header lists, one line each.
print-headers:
	@echo $(PUBLIC_HEADERS)
	@echo $(INTERNAL_HEADERS)

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' '*.cu' 2>/dev/null)
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: OK"

clean:
	rm -rf build build-san build-tsan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
