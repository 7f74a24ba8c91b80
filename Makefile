# weft - top-level build. `make help` lists the targets.
#
# One static library (build/libweft.a) from every non-CLI .c under common/
# trace/ models/ energy/ area/ estimate/ (layers: each folder README.md); CLIs are the files named weft-*.c, each a
# thin main linked into bin/ with cli/cli.o (the messages, exit statuses,
# --help and --version they share; it prints, so it is not in the library). Unit tests are tests/unit/test_*.c (cmocka),
# one binary each. Bundled workloads' PTX is embedded into the library.

CC      ?= cc
OPT     ?= -O2
WERROR  ?= -Werror
CFLAGS  ?= $(OPT) -g
# -ffp-contract=off: never let the compiler fuse a separate PTX mul and add
# (ptx-subset.md); -frounding-math: directed rounding through fenv is honoured.
# (WEFT_BASE_CFLAGS without the SAN=1 flags: the fuzz build adds its own.)
WEFT_BASE_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Wall -Wextra $(WERROR) \
	      -ffp-contract=off -frounding-math -MMD -MP -I.
WEFT_CFLAGS = $(WEFT_BASE_CFLAGS) $(SAN_FLAGS) $(SAN_WARN)
LDLIBS  = -lzstd -lgsl -lgslcblas -lpfm -linih -ljansson -lpthread -lm

# `make check SAN=1` (or any target with SAN=1): everything, the unit tests
# included, built with AddressSanitizer and UndefinedBehaviorSanitizer into
# its own trees build-san/ and bin-san/, and every test run with the
# sanitizers set to stop at the first finding (leaks included). The test
# scripts run the tools in $WEFT_BIN (exported below), so the same scripts
# test either build.
# With CC=clang the trees are build-san-clang/ and bin-san-clang/: clang's
# UBSan also reports arithmetic on a null pointer (NULL + 0), which gcc's
# does not.
SAN     ?=
ifeq ($(SAN),1)
SAN_CLANG := $(findstring clang,$(CC))
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# gcc 12's value ranges differ under the sanitizers' instrumentation and it
# warns of snprintf truncation the plain build (which keeps the warning) does
# not see; the plain build is where warnings are enforced.
SAN_WARN  = $(if $(SAN_CLANG),,-Wno-format-truncation)
BUILD   = build-san$(if $(SAN_CLANG),-clang)
BIN     = bin-san$(if $(SAN_CLANG),-clang)
export ASAN_OPTIONS = halt_on_error=1:abort_on_error=0:detect_leaks=1:exitcode=99
export UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1:exitcode=99
# tests/install.sh builds a program against the installed (sanitized) library
export WEFT_SAN_FLAGS = $(SAN_FLAGS)
else
SAN_FLAGS =
SAN_WARN  =
BUILD   = build
BIN     = bin
endif
export WEFT_BIN = $(BIN)
export WEFT_BUILD = $(BUILD)
MODULES = common trace models energy area estimate plot study

# Library sources: every .c below the module folders except CLI code. CLI
# code is a main named weft-*.c plus, for weft-trace, its subcommands in
# trace/cli/ (see trace/cli/cli.h: one file per subcommand, as git's builtin/).
# trace/cudart/ is not in it either: it is the CUDA runtime library
# (libcudart.so.13, below), which exports the CUDA names.
ALL_SRCS  = $(sort $(shell find $(MODULES) -name '*.c' -not -path 'trace/cli/*' -not -path 'trace/cudart/*'))
CLI_SRCS  = $(filter %/weft-estimate.c %/weft-config.c %/weft-energy.c %/weft-area.c %/weft-validate.c %/weft-plot.c %/weft-study.c,$(ALL_SRCS))
LIB_SRCS  = $(filter-out $(CLI_SRCS),$(ALL_SRCS))
TRACE_CLI_OBJS = $(patsubst %.c,$(BUILD)/%.o,$(wildcard trace/cli/*.c))
# What every CLI shares (cli/README.md): linked into each program, never
# into libweft.a (cli/ is not one of the MODULES).
CLI_OBJ   = $(BUILD)/cli/cli.o
PTX_FILES = $(wildcard trace/workloads/*.ptx)
CU_FILES  = $(wildcard trace/workloads/*.cu)
# Test kernels whose PTX `make ptx` regenerates too (tests/fixtures/emu/, spec/).
FIXTURE_CU = $(wildcard tests/fixtures/emu/*.cu tests/fixtures/spec/*.cu)
PTX_GEN   = $(patsubst trace/workloads/%.ptx,$(BUILD)/gen/ptx_%.c,$(PTX_FILES))

WL_NAMES  = $(patsubst trace/workloads/%.ptx,%,$(PTX_FILES))
LIB_OBJS  = $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS)) $(PTX_GEN:.c=.o) $(BUILD)/gen/registry.o
CLIS      = $(BIN)/weft-trace $(patsubst %.c,$(BIN)/%,$(notdir $(CLI_SRCS)))
TEST_SRCS = $(wildcard tests/unit/test_*.c)
TESTS     = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
# weft's CUDA runtime, libcudart.so.13 (its rules are below).
CUDART_SRCS = $(wildcard trace/cudart/*.c)
CUDART_LIB_SRCS = $(filter common/% trace/ptx/% trace/emu/% trace/format/% trace/fatbin/%,$(LIB_SRCS))
PIC       = $(BUILD)/pic
CUDART_OBJS = $(patsubst %.c,$(PIC)/%.o,$(CUDART_SRCS))
CUDART_SO = $(BIN)/cudart/libcudart.so.13
# Test-only programs the test scripts run (tests/tools/*.c).
TOOLS     = $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(wildcard tests/tools/*.c))

DEPS_PKGS = libzstd-dev libgsl-dev libcmocka-dev libpfm4-dev libinih-dev gnuplot-nox gcc libc6-dev \
	    help2man pkgconf clang libclang-rt-14-dev libjansson-dev parallel

.PHONY: FORCE all deps check layers unit cli-tests workload-tests config-tests configs-doc docs-samples docs-check validate validate-smoke bench demo ptx install clean help
.PHONY: cudart-tests cuda-corpus sample-ci-tests
.PHONY: uninstall install-test

all: $(BUILD)/libweft.a $(CLIS) $(CUDART_SO)

help:
	@echo "make deps     install missing Debian packages ($(DEPS_PKGS))"
	@echo "make          build build/libweft.a and bin/weft-*"
	@echo "make check    layer test, unit tests, CLI tests, SIGKILLed writers, corrupted traces,"
	@echo "              every workload at small size with --verify, the CUDA programs of"
	@echo "              tests/cuda/ on weft's libcudart.so.13,"
	@echo "              weft-validate at small size (out-of-band claims do not fail it), the fuzz"
	@echo "              regressions and FUZZ_CHECK_S seconds (default 30) of fuzzing per target"
	@echo "make check SAN=1  the same with ASan+UBSan (build-san/, bin-san/; CC=clang: *-san-clang/)"
	@echo "make validate published claims vs weft's models at default size (docs/validate.md)"
	@echo "make bench    emulation, trace size/decode, model replay, sweep-cost and -j 1 vs -j 2"
	@echo "              figures, replay peak memory"
	@echo "make demo     trace sgemm (verified), estimate it on a Fermi SM and the Tesla-like SM,"
	@echo "              and draw its CPI stacks (the figure's path is printed)"
	@echo "make configs-doc  regenerate docs/configs.md from weft-config keys"
	@echo "make docs-samples rerun the commands whose output README.md and docs/ show"
	@echo "make ptx      regenerate trace/workloads/*.ptx and tests/fixtures/emu/*.ptx from *.cu with nvcc (if installed)"
	@echo "make cuda-corpus  rebuild tests/cuda/bin/ (the CUDA programs make check runs) with nvcc"
	@echo "make fuzz     build the libFuzzer targets (clang, ASan, UBSan) into build-fuzz/ and run each"
	@echo "              FUZZ_S seconds (default 60); fuzz-regress replays the corpus and regressions,"
	@echo "              fuzz-merge keeps new inputs, fuzz-seeds remakes the seeds (tests/fuzz/README.md)"
	@echo "make test-slurm  (not in check) a private one-node Slurm (slurm-wlm, munge: make deps-slurm)"
	@echo "              runs a sharded sweep as an array job and a dependent merge job and compares"
	@echo "              the merged report with one process's (docs/scale-out.md)"
	@echo "make install  tools, data, configs, docs, man pages, library, headers, weft.pc,"
	@echo "              weft's libcudart.so.13 (in lib/weft/)"
	@echo "              under \$$(DESTDIR)\$$(PREFIX) (PREFIX=/usr/local); make uninstall removes them"

# Installs only what is missing; does nothing (and needs no network) when all is there.
# deps-slurm: the same for make test-slurm's packages, which are daemons (a
# workstation's systemd would start munge on install), so make deps leaves them out.
SLURM_PKGS = slurm-wlm munge
deps-slurm:
	@$(MAKE) --no-print-directory deps DEPS_PKGS="$(SLURM_PKGS)"

deps:
	@missing=""; for p in $(DEPS_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends $$missing; \
	else echo "make deps: all packages present"; fi

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -c $< -o $@

# Embed each workload's PTX as a C string (awk: present on every Debian).
$(BUILD)/gen/ptx_%.c: trace/workloads/%.ptx
	@mkdir -p $(dir $@)
	@awk -v name="$*" 'BEGIN { printf "/* generated from trace/workloads/%s.ptx */\nconst char weft_ptx_%s[] =\n", name, name } \
	  { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "\"%s\\n\"\n", $$0 } \
	  END { print ";" }' $< > $@.tmp && mv $@.tmp $@

# The workload table: every trace/workloads/NAME.ptx must come with a NAME.c
# that defines weft_workload_NAME (see trace/launch/workload.h). Rewritten only when
# the list of names changes.
$(BUILD)/gen/registry.c: FORCE
	@mkdir -p $(dir $@)
	@{ echo '/* generated by the Makefile from the trace/workloads PTX files */'; \
	  echo '#include "trace/launch/workload.h"'; \
	  for n in $(WL_NAMES); do echo "extern const struct weft_workload weft_workload_$$n;"; done; \
	  echo 'const struct weft_workload *const weft_workloads[] = {'; \
	  for n in $(WL_NAMES); do echo "	&weft_workload_$$n,"; done; \
	  echo '	NULL };'; } > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/gen/registry.o: $(BUILD)/gen/registry.c
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) -std=c11 -c $< -o $@

$(BUILD)/libweft.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/weft-trace: $(TRACE_CLI_OBJS) $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/weft-energy: $(BUILD)/energy/weft-energy.o $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/weft-area: $(BUILD)/area/weft-area.o $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/weft-plot: $(BUILD)/plot/weft-plot.o $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/weft-study: $(BUILD)/study/weft-study.o $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/%: $(BUILD)/estimate/%.o $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# ---- libcudart.so.13: weft's CUDA runtime (trace/cudart/, docs/cuda-programs.md)
# A shared library with the CUDA runtime's soname and symbol version, linked
# from trace/cudart/ and the library code it runs on (common, trace/ptx,
# trace/emu, trace/format, trace/fatbin), all compiled position-independent
# into $(BUILD)/pic/. Only the CUDA names are exported (the version script);
# the rest is hidden. `weft-trace exec` finds it in $(BIN)/cudart/ (installed:
# $(libdir)/weft/). Under SAN=1 it needs the sanitizers' runtime as a shared
# library (gcc links libasan.so; clang needs -shared-libasan), which the
# tests preload into the uninstrumented CUDA programs.

$(PIC)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(PIC)/libweft-pic.a: $(patsubst %.c,$(PIC)/%.o,$(CUDART_LIB_SRCS))
	@rm -f $@
	ar rcs $@ $^
$(CUDART_SO): $(CUDART_OBJS) $(PIC)/libweft-pic.a trace/cudart/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(if $(SAN_CLANG),-shared-libasan) -shared -Wl,-soname,libcudart.so.13 \
	  -Wl,--version-script=trace/cudart/libcudart.map -Wl,--no-undefined \
	  -o $@ $(CUDART_OBJS) $(PIC)/libweft-pic.a -lzstd -lpthread -lm

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libweft.a -lcmocka $(LDLIBS)
# The one unit test of the CLIs' shared module, which is not in the library.
$(BUILD)/tests/test_cli: tests/unit/test_cli.c $(CLI_OBJ) $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -o $@ $< $(CLI_OBJ) $(BUILD)/libweft.a -lcmocka $(LDLIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libweft.a $(LDLIBS)

# The fuzz step runs in the plain `make check` only: its targets are built
# with clang's ASan and UBSan already, so SAN=1 runs would repeat it.
check: deps all $(TESTS)
	@$(MAKE) --no-print-directory layers filecycles symbols unit cli-tests sample-ci-tests memory-tests kill-tests corrupt-tests config-tests workload-tests parallel-tests cudart-tests validate-smoke docs-check install-test $(if $(SAN),,fuzz-check)

# Includes point down the layers each folder's README names (docs in
# tests/layers.sh).
layers:
	@sh tests/layers.sh

# No group of the library's files calls each other in a loop (nm of the
# objects; docs in tests/filecycles.sh).
.PHONY: filecycles
filecycles: all
	@sh tests/filecycles.sh $(BUILD)

# Every name libweft.a exports starts with weft_ (tests/symbols.sh).
.PHONY: symbols
symbols: all
	@sh tests/symbols.sh $(BUILD)/libweft.a

unit: $(TESTS)
	@fail=0; for t in $(TESTS); do echo "== $$t"; $$t || fail=1; done; \
	if [ $$fail != 0 ]; then echo "unit tests: FAILED"; exit 1; fi

cli-tests: all $(TOOLS)
	@sh tests/cli/run.sh
	@sh tests/cli/validate.sh
	@sh tests/cli/matrix.sh
	@sh tests/cli/hostile.sh
	@sh tests/cli/maven.sh
	@sh tests/cli/shard.sh
	@sh tests/cli/tables.sh
	@sh tests/cli/plot.sh
	@sh tests/cli/study.sh
	@sh tests/cli/overlay.sh

# Sampled estimates' 95% intervals hold the full replay in >= 95% of 40
# seeded trials per case (binomial reasoning in the script).
sample-ci-tests: all
	@sh tests/sample_ci.sh

workload-tests: all
	@sh tests/workloads.sh small

# Every model family replays a trace of 1278 launches under an address-space
# limit a trace-length-proportional model would exceed (tests/memlimit.sh;
# skipped under SAN=1).
.PHONY: memory-tests
memory-tests: all $(TOOLS)
	@sh tests/memlimit.sh

# -j 1 and -j 3 give the same trace bytes and the same reports on every
# workload at small size (tests/parallel.sh).
.PHONY: parallel-tests
parallel-tests: all
	@sh tests/parallel.sh small

# The CUDA programs of tests/cuda/ on weft's libcudart.so.13 through
# `weft-trace exec`: the committed binaries (no nvcc needed), and, where
# nvcc is installed, the same programs built afresh (tests/cuda/run.sh).
NVCC ?= $(shell command -v nvcc 2>/dev/null || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
cudart-tests: all $(TOOLS)
	@sh tests/cuda/run.sh
	@if [ -n "$(NVCC)" ]; then \
	  echo "== nvcc found ($(NVCC)): the corpus built afresh into $(BUILD)/cuda"; \
	  NVCC=$(NVCC) sh tests/cuda/build.sh $(CURDIR)/$(BUILD)/cuda >/dev/null || exit 1; \
	  for f in $(BUILD)/cuda/*; do cmp -s $$f tests/cuda/bin/$${f##*/} || \
	    echo "note: tests/cuda/bin/$${f##*/} differs from nvcc's build (a source changed, or another nvcc): make cuda-corpus"; done; \
	  sh tests/cuda/run.sh $(BUILD)/cuda --corpus-only; \
	else echo "cudart-tests: nvcc not installed; the committed tests/cuda/bin/ only"; fi

# Rebuilds the committed corpus binaries tests/cuda/bin/ with nvcc.
cuda-corpus:
	@NVCC=$(NVCC) sh tests/cuda/build.sh

# No partial files: trace and report writers killed by SIGKILL at random
# points leave nothing or a complete file (tests/killtest.sh).
.PHONY: kill-tests
kill-tests: all
	@sh tests/killtest.sh

# Single-byte flips and truncations of a small trace, as they are (refused
# with the offset, or read as the original), with the checksums recomputed
# and inside the compressed content (refused or read); never a crash, hang
# or internal error (tests/corrupt_sweep.sh).
.PHONY: corrupt-tests
corrupt-tests: all $(TOOLS)
	@sh tests/corrupt_sweep.sh

# weft-config: its subcommands, formats and errors (tests/cli/config.sh).
config-tests: all
	@sh tests/cli/config.sh

# docs/configs.md is generated from `weft-config keys` (tests/gen_configs_md.sh);
# the README and docs/ sample outputs from the commands they show
# (tests/docs_samples.sh). docs-check (make check) fails when either is stale.
configs-doc: all
	@sh tests/gen_configs_md.sh docs/configs.md && echo "wrote docs/configs.md"

docs-samples: all
	@sh tests/docs_samples.sh

docs-check: all
	@tmp=$$(mktemp "$${TMPDIR:-/tmp}/weft-configs-md.XXXXXX") || exit 3; \
	sh tests/gen_configs_md.sh "$$tmp" || { rm -f "$$tmp"; exit 3; }; \
	if ! cmp -s "$$tmp" docs/configs.md; then \
	  diff -u docs/configs.md "$$tmp" | head -n 20; rm -f "$$tmp"; \
	  echo "docs-check: docs/configs.md is stale (a model's schema changed); run \`make configs-doc\` and commit it"; exit 1; \
	fi; rm -f "$$tmp"; echo "docs-check: docs/configs.md is current"
	@sh tests/docs_samples.sh --check

# The published claims against weft's models (docs/validate.md). Claims out
# of their band are reported, not failures: the smoke test in `make check`
# fails only when weft-validate itself cannot run (exit 2 or 3).
validate: deps all
	$(BIN)/weft-validate --size default

validate-smoke: all
	@echo "== weft-validate --size small (smoke test; out-of-band claims do not fail it)"
	@$(BIN)/weft-validate --size small

# The Slurm recipe of docs/scale-out.md end to end on this machine: a
# private single-node Slurm (its own munged, slurm.conf, ports 16817/16818,
# all in a temporary directory), an array job of 3 shards, a dependent
# merge job, the merged report against one process's (tests/slurm.sh).
.PHONY: deps-slurm test-slurm
test-slurm: deps-slurm all
	@sh tests/slurm.sh

bench: deps all $(TOOLS)
	@sh tests/bench.sh
	@echo
	@sh tests/bench_simt.sh
	@echo
	@sh tests/bench_sweep.sh
	@echo
	@sh tests/bench_fabric.sh
	@echo
	@sh tests/bench_vt.sh
	@echo
	@sh tests/bench_overlay.sh
	@echo
	@sh tests/bench_memory.sh
	@echo
	@sh tests/bench_parallel.sh
	@echo
	@sh tests/bench_sample.sh

# The pipeline end to end: emulate one bundled workload (checked against its
# CPU reference) into a trace, then estimate that trace on one Fermi SM and
# on the Tesla-like SM side by side (docs/estimate.md), and draw the CPI
# stacks of that table from its JSON (docs/plot.md; needs gnuplot).
demo: deps all
	@mkdir -p $(BUILD)/demo
	$(BIN)/weft-trace run sgemm --size default --verify -o $(BUILD)/demo/sgemm.wtr
	@echo
	$(BIN)/weft-estimate $(BUILD)/demo/sgemm.wtr -c configs/fermi-sm.ini -c configs/tesla-sm.ini
	@echo
	$(BIN)/weft-estimate $(BUILD)/demo/sgemm.wtr -c configs/fermi-sm.ini -c configs/tesla-sm.ini \
	  --format json -o $(BUILD)/demo/sgemm.json
	$(BIN)/weft-plot cpi $(BUILD)/demo/sgemm.json -o $(BUILD)/demo/sgemm-cpi.png
	@echo "figure: $(BUILD)/demo/sgemm-cpi.png (the CPI stacks of the table above)"

ptx:
	@if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then \
	  NVCC=$$(command -v nvcc || echo /usr/local/cuda/bin/nvcc); \
	  for cu in $(CU_FILES) $(FIXTURE_CU); do echo "nvcc -ptx $$cu"; \
	    $$NVCC -ptx -O3 -arch=sm_75 $$cu -o $${cu%.cu}.ptx || exit 1; done; \
	else echo "make ptx: nvcc not installed; keeping the committed PTX"; fi

# ---- install / uninstall (README "Install") ----------------------------------
# Tools find $(datadir)/data as <executable>/../share/weft/data
# (models/config.h weft_data_dir), so PREFIX is not compiled in and a
# DESTDIR-staged tree can be moved. Man pages come from each tool's --help
# through help2man; without help2man the install warns and skips them.
PREFIX     ?= /usr/local
DESTDIR    ?=
bindir      = $(PREFIX)/bin
libdir      = $(PREFIX)/lib
includedir  = $(PREFIX)/include
datadir     = $(PREFIX)/share/weft
docdir      = $(PREFIX)/share/doc/weft
man1dir     = $(PREFIX)/share/man/man1
pkgconfigdir = $(libdir)/pkgconfig
VERSION     = $(shell sed -n 's/^\#define WEFT_VERSION "\(.*\)"/\1/p' common/version.h)
# The library's headers: every .h of the library folders but the CLI's and
# the CUDA runtime's (its interface is CUDA's own).
PUB_HDRS    = $(sort $(shell find $(MODULES) -name '*.h' -not -path 'trace/cli/*' -not -path 'trace/cudart/*'))
INSTALL_TREES = data configs recipes
HELP2MAN   ?= help2man

$(BUILD)/weft.pc: weft.pc.in common/version.h FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

install: all $(BUILD)/weft.pc
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir) $(DESTDIR)$(pkgconfigdir) \
	  $(DESTDIR)$(datadir) $(DESTDIR)$(docdir) $(DESTDIR)$(includedir)/weft
	install -m 755 $(CLIS) $(DESTDIR)$(bindir)
	install -m 644 $(BUILD)/libweft.a $(DESTDIR)$(libdir)
	install -d $(DESTDIR)$(libdir)/weft
	install -m 755 $(CUDART_SO) $(DESTDIR)$(libdir)/weft/libcudart.so.13
	install -m 644 $(BUILD)/weft.pc $(DESTDIR)$(pkgconfigdir)
	@for h in $(PUB_HDRS); do install -D -m 644 $$h $(DESTDIR)$(includedir)/weft/$$h || exit 1; done
	@echo "installed $(words $(PUB_HDRS)) headers under $(DESTDIR)$(includedir)/weft"
	@for t in $(INSTALL_TREES); do \
	  find $$t -type f | while read f; do install -D -m 644 "$$f" "$(DESTDIR)$(datadir)/$$f" || exit 1; done || exit 1; \
	done; echo "installed $(INSTALL_TREES) under $(DESTDIR)$(datadir)"
	@install -m 644 README.md $(DESTDIR)$(docdir)/README.md || exit 1; \
	find docs -type f | while read f; do install -D -m 644 "$$f" "$(DESTDIR)$(docdir)/$$f" || exit 1; done || exit 1; \
	echo "installed README.md and docs/ under $(DESTDIR)$(docdir)"
	@if command -v $(HELP2MAN) >/dev/null 2>&1; then \
	  install -d $(DESTDIR)$(man1dir) $(BUILD)/man || exit 1; \
	  for t in $(CLIS); do n=$$(basename $$t); \
	    $(HELP2MAN) --no-info --no-discard-stderr --version-string='$(VERSION)' \
	      --source='weft $(VERSION)' --output=$(BUILD)/man/$$n.1 ./$$t || exit 1; \
	    install -m 644 $(BUILD)/man/$$n.1 $(DESTDIR)$(man1dir)/$$n.1 || exit 1; \
	  done; echo "installed man pages under $(DESTDIR)$(man1dir)"; \
	else echo "make install: WARNING: help2man not found (HELP2MAN=$(HELP2MAN)) (make deps installs it); no man pages installed" >&2; fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(bindir)/,$(notdir $(CLIS)))
	rm -f $(addprefix $(DESTDIR)$(man1dir)/,$(addsuffix .1,$(notdir $(CLIS))))
	rm -f $(DESTDIR)$(libdir)/libweft.a $(DESTDIR)$(pkgconfigdir)/weft.pc
	rm -rf $(DESTDIR)$(libdir)/weft
	rm -rf $(DESTDIR)$(includedir)/weft $(DESTDIR)$(datadir) $(DESTDIR)$(docdir)

# Installs into a temporary prefix and runs the README tour from there.
install-test: all
	@sh tests/install.sh

# ---- fuzzing (tests/fuzz/README.md) -----------------------------------------
# A second build of the library with clang, AddressSanitizer, UBSan and
# libFuzzer's coverage, in its own folder (the gcc build above is untouched),
# with -DWEFT_FUZZ_NO_CRC so that every trace checksum passes and mutated
# bytes reach the decoders behind them (trace/format/trace_format.h
# wt_crc_ok). build/libweft.a never gets that flag.
FUZZ_CC      ?= clang
FUZZ_BUILD    = build-fuzz
FUZZ_S       ?= 60
FUZZ_CHECK_S ?= 30
FUZZ_TARGETS ?= fuzz_config fuzz_spec fuzz_ptx fuzz_trace fuzz_calib fuzz_merge fuzz_plotjson fuzz_fatbin fuzz_recipe
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS   = -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) -DWEFT_FUZZ_NO_CRC
FUZZ_LIB_OBJS = $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(LIB_SRCS)) \
		$(patsubst $(BUILD)/gen/%.c,$(FUZZ_BUILD)/gen/%.o,$(PTX_GEN)) $(FUZZ_BUILD)/gen/registry.o
FUZZ_BINS     = $(addprefix $(FUZZ_BUILD)/,$(FUZZ_TARGETS))
# kept between builds (make would delete them as intermediates)
.SECONDARY: $(patsubst %,$(FUZZ_BUILD)/tests/fuzz/%.o,$(FUZZ_TARGETS))

.PHONY: fuzz-build fuzz fuzz-regress fuzz-merge fuzz-check fuzz-seeds

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WEFT_BASE_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_BUILD)/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -c $< -o $@
$(FUZZ_BUILD)/gen/registry.o: $(BUILD)/gen/registry.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WEFT_BASE_CFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/libweft.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libweft.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_BUILD)/libweft.a $(LDLIBS)
# the seed tool runs on the normal build (tests/fuzz/trace_rawzstd.c)
$(FUZZ_BUILD)/trace_rawzstd: tests/fuzz/trace_rawzstd.c $(BUILD)/libweft.a
	@mkdir -p $(dir $@)
	$(CC) $(WEFT_CFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libweft.a $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

# Runs each target FUZZ_S seconds on a scratch corpus (build-fuzz/work/),
# reading the committed corpus and regressions without changing them.
fuzz: deps fuzz-build
	@sh tests/fuzz/run.sh fuzz $(FUZZ_S) $(FUZZ_TARGETS)

# Every committed corpus input and regression, once; fails on any crash.
fuzz-regress: fuzz-build
	@sh tests/fuzz/run.sh regress 0 $(FUZZ_TARGETS)

# Adds to tests/fuzz/corpus/ the scratch inputs that reach new coverage.
fuzz-merge: fuzz-build
	@sh tests/fuzz/run.sh merge 0 $(FUZZ_TARGETS)

# make check: the regressions and corpus, then FUZZ_CHECK_S seconds of
# fuzzing per target from a fresh scratch corpus.
fuzz-check: fuzz-build
	@sh tests/fuzz/run.sh regress 0 $(FUZZ_TARGETS)
	@sh tests/fuzz/run.sh check $(FUZZ_CHECK_S) $(FUZZ_TARGETS)

# Rebuilds the committed seed corpus from configs/, specs, PTX and small
# traces (tests/fuzz/make_seeds.sh).
fuzz-seeds: all $(FUZZ_BUILD)/trace_rawzstd $(BUILD)/tests/tools/fatbin_patch
	@sh tests/fuzz/make_seeds.sh

clean:
	rm -rf $(BUILD) $(BIN) build-san bin-san build-san-clang bin-san-clang $(FUZZ_BUILD)

-include $(shell find $(BUILD) $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
