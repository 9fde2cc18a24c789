# slicebench - plain make, objects in build/, dependencies from -MMD.
CC       ?= cc
SAN      ?=
VERSION  := 0.1.0
GIT_REV  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
PKGS     := hwloc jansson gsl zlib libtracefs libtraceevent libbpf
# CFLAGS is the user's (optimisation, debug info): `make CFLAGS=-O3` replaces
# it and nothing else.  SB_CFLAGS is the suite's own and always applies.
CFLAGS   ?= -O2 -g
# Key tables leave trailing fields (like .sub) zero, as fio's option tables do.
# -Wvla: an array sized by input belongs on the heap (a stack overflow is a
# crash, a failed malloc an error).
SB_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Wvla -Wno-missing-field-initializers -pthread -MMD -MP \
            $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
CPPFLAGS += -DSB_VERSION='"$(VERSION)"' -DSB_GIT_REV='"$(GIT_REV)"'
# Debian's libpfm4-dev ships no .pc file: plain -lpfm.
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpfm -lm -pthread

comma    := ,
ifneq ($(SAN),)
BUILD    := build/san-$(subst $(comma),-,$(SAN))
# After CFLAGS on the command line, so a sanitized tree keeps its -O1.
SAN_CFLAGS := -fsanitize=$(SAN) -fno-omit-frame-pointer -O1
SB_LDFLAGS := -fsanitize=$(SAN)
else
BUILD    := build
endif
# The folders are layers, lowest first (tests/t-layers.sh keeps each to
# including its own and lower ones): harness/lib/ helpers of both sides;
# harness/os/ the kernel and the machine (rseq, counters, tracing,
# topology, clocks); harness/core/ the workload contract and the thread
# loop; workloads/locks/ the lock algorithms; workloads/ the registry and
# the program workloads; harness/engine/ a run; harness/report/ the report
# verbs (compare, plot, validate); harness/cli/ the command line and the
# verbs that are not the run.
H := harness
HARNESS_SRC := $(filter-out $(H)/cli/main.c,$(wildcard $(H)/lib/*.c $(H)/os/*.c $(H)/core/*.c $(H)/engine/*.c $(H)/cli/*.c))
REPORT_SRC  := $(wildcard $(H)/report/*.c)
WL_SRC      := $(wildcard workloads/locks/*.c) $(filter-out workloads/fault.c,$(wildcard workloads/*.c))
LIB_OBJ     := $(patsubst %.c,$(BUILD)/%.o,$(HARNESS_SRC) $(REPORT_SRC) $(WL_SRC))
TEST_SRC    := $(wildcard tests/unit/*.c)
TEST_BIN    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRC))

.PHONY: all check check-quick check-all check-san deps clean kernel tsan-torture
all: $(BUILD)/slicebench $(BUILD)/libslicepreload.so

deps:
	@scripts/install-deps.sh build

# Compiling never installs anything: a missing package stops the build with
# the command that installs it (`make deps` as root).  `make check` and
# ./run.sh run that step themselves, before they build.
$(BUILD)/.deps-ok: scripts/install-deps.sh
	@scripts/install-deps.sh --check build || \
	  { echo "make: missing build packages: run 'make deps' as root" >&2; exit 2; }
	@mkdir -p $(@D) && touch $@

$(BUILD)/%.o: %.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(SB_CFLAGS) $(CFLAGS) $(SAN_CFLAGS) -c -o $@ $<

# The objects that print or record the revision are rebuilt when it
# changes: the stamp is rewritten only then, so results never carry a
# revision older than the code that produced them.
REV_STAMP := $(shell mkdir -p $(BUILD) && (echo '$(GIT_REV)' | cmp -s - $(BUILD)/.rev || \
	echo '$(GIT_REV)' >$(BUILD)/.rev) && echo $(BUILD)/.rev)
$(BUILD)/$(H)/cli/main.o $(BUILD)/$(H)/os/sysinfo.o: $(REV_STAMP)

# The flexguard lock's sched_switch program (workloads/locks/bpf/), built for the BPF
# target and embedded into fgload.o with .incbin; the asm/ headers of the
# host's multiarch directory serve the BPF target too.
BPF_OBJ := $(BUILD)/bpf/fgswitch.bpf.o
$(BPF_OBJ): workloads/locks/bpf/fgswitch.bpf.c workloads/locks/bpf/fgshared.h | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	clang -O2 -g -target bpf -Wall -Werror -I/usr/include/$(shell $(CC) -print-multiarch) \
	  -c -o $@ $<
$(BUILD)/workloads/locks/fgload.o: $(BPF_OBJ)
$(BUILD)/workloads/locks/fgload.o: CPPFLAGS += -DFG_BPF_OBJ='"$(BPF_OBJ)"'

$(BUILD)/slicebench: $(BUILD)/$(H)/cli/main.o $(LIB_OBJ)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The preload library (harness/preload/): position-independent copies of the rseq
# registration and the reasons, loaded into programs the suite never built.
PRELOAD_SRC := $(wildcard $(H)/preload/*.c) $(H)/os/slice.c $(H)/os/slicewhy.c
$(BUILD)/pic/%.o: %.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(SB_CFLAGS) -fPIC -fvisibility=hidden $(CFLAGS) -c -o $@ $<

$(BUILD)/libslicepreload.so: $(patsubst %.c,$(BUILD)/pic/%.o,$(PRELOAD_SRC))
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(shell pkg-config --libs jansson) -ldl -pthread

# A program for the library's tests, linked against libc alone as any
# program the library meets is (never run by tests/run.sh on its own).
PRELOAD_TEST_BIN := $(BUILD)/preload-tests/ptorture $(BUILD)/preload-tests/psemantics
$(BUILD)/preload-tests/%: tests/preload/%.c
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -o $@ $< -ldl -pthread

# The test build: the suite plus the fault workloads (workloads/fault.c),
# which never enter build/slicebench.
FAULT_OBJ := $(filter-out $(BUILD)/workloads/registry.o,$(LIB_OBJ)) \
             $(BUILD)/faults/registry.o $(BUILD)/faults/fault.o
$(BUILD)/faults/%.o: workloads/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DSB_FAULTS $(SB_CFLAGS) $(CFLAGS) $(SAN_CFLAGS) -c -o $@ $<

$(BUILD)/slicebench-faults: $(BUILD)/$(H)/cli/main.o $(FAULT_OBJ)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The torture again under ThreadSanitizer: a lock that lets two holders in
# shows up as a data race on the shared lines even when the count survives.
tsan-torture:
	$(MAKE) SAN=thread build/san-thread/tests/torture

# The test tiers (tests/select.sh says which script is in which):
#   check-quick  unit programs and the host scripts that need only the
#                build's packages and jq: no guest, no TSan tree
#   check        README's test command: every host script and the guest
#                checks on the default patched kernel (prepare.sh builds
#                it on a cold cache)
#   check-all    check, plus the kernel variants, the bare-metal package
#                and Debian's own kernel
#   check-san    the unit programs, parsers, compare, the fuzz corpus and
#                the torture on the ASan+UBSan tree, the torture on TSan
# Each installs its packages first, as a step of its own, then builds.
.PHONY: test-build
test-build: all $(TEST_BIN) $(PRELOAD_TEST_BIN) $(BUILD)/slicebench-faults
check:
	@scripts/install-deps.sh tests
	@$(MAKE) --no-print-directory test-build
	@BUILD=$(BUILD) SLICEBENCH_TIER=check tests/run.sh

check-quick:
	@scripts/install-deps.sh quick
	@$(MAKE) --no-print-directory test-build
	@BUILD=$(BUILD) SLICEBENCH_TIER=quick SLICEBENCH_TEST_JOBS=$${SLICEBENCH_TEST_JOBS:-2} tests/run.sh

check-all:
	@scripts/install-deps.sh all
	@$(MAKE) --no-print-directory test-build
	@BUILD=$(BUILD) SLICEBENCH_TIER=all tests/run.sh

check-san:
	@scripts/install-deps.sh tests
	@$(MAKE) --no-print-directory SAN=address,undefined test-build
	@$(MAKE) --no-print-directory tsan-torture >/dev/null
	@BUILD=build/san-address-undefined SLICEBENCH_TIER=san tests/run.sh

# libFuzzer targets (clang): the config and result loaders, from tests/fuzz/<name>/.
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?=
FUZZ_CFLAGS  := -g -O1 -std=gnu11 -pthread -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FUZZ_SRC     := $(HARNESS_SRC) $(REPORT_SRC) $(WL_SRC)
FUZZ_BIN     := build/fuzz/fuzz_config build/fuzz/fuzz_result
# The suite's objects are compiled once for both targets (fuzzer-no-link:
# the coverage without libFuzzer's main), in parallel under make -j.
FUZZ_OBJ     := $(patsubst %.c,build/fuzz/obj/%.o,$(FUZZ_SRC))
build/fuzz/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(@D)
	@clang $(CPPFLAGS) $(subst fuzzer$(comma),fuzzer-no-link$(comma),$(FUZZ_CFLAGS)) -MMD -MP -c -o $@ $<
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ) | build/.deps-ok
	@mkdir -p $(@D)
	clang $(CPPFLAGS) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

.PHONY: fuzz fuzz-smoke
fuzz: $(FUZZ_BIN)
	@for f in $^; do n=$${f##*/fuzz_}; mkdir -p build/fuzz/corpus-$$n; \
	  $$f -max_total_time=$(FUZZ_SECONDS) build/fuzz/corpus-$$n tests/fuzz/$$n || exit 1; done

# make check: a fixed number of executions from the seed corpus.
fuzz-smoke: $(FUZZ_BIN)
	@for f in $^; do n=$${f##*/fuzz_}; d=$$(mktemp -d); \
	  $$f -runs=$(or $(FUZZ_RUNS),3000) -seed=1 $$d tests/fuzz/$$n >$$d.log 2>&1; rc=$$?; \
	  if [ $$rc -eq 0 ]; then echo "ok fuzz: $$n, $$(grep -o 'Done [0-9]* runs' $$d.log)"; \
	  else echo "not ok fuzz: $$n (exit $$rc)"; tail -20 $$d.log | sed 's/^/# /'; fi; \
	  rm -rf $$d $$d.log; done

kernel:
	kernel/build.sh

# make reports: the comparisons, plots and replication report of the
# reference results, rebuilt under build/reports/ (FINDINGS links them
# there): nothing generated is committed, the results are stored as
# .json.gz and unpacked here first.
.PHONY: reports
reports: all
	@rm -rf build/reports && mkdir -p build/reports/boots build/reports/replicate-vm
	@cd results/reference && for f in *.json.gz boots/*.json.gz replicate-vm/*.json.gz; do \
	  gzip -cd "$$f" >"../../build/reports/$${f%.gz}" || exit 1; done
	@scripts/studies.sh --out $(CURDIR)/build/reports --reports-only
	@scripts/replicate.sh --results build/reports/replicate-vm --out build/reports/replicate-vm/replicate
	@scripts/dose-response.sh build/reports/dose-response-vm.json build/reports/dose-response.svg
	@echo "reports: build/reports/plots/*/index.html, build/reports/compare/, build/reports/replicate-vm/replicate/"

clean:
	rm -rf build

# make bench: harness/selfbench/bench.mk owns the targets that measure the harness.
-include $(H)/selfbench/bench.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
