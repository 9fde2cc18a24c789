# harness/selfbench/bench.mk - `make bench`: what the harness itself costs.
# Included by the top Makefile, so CC, SB_CFLAGS, CFLAGS, LDLIBS, BUILD and LIB_OBJ are
# the suite's own.  BENCH_MODE=smoke is the seconds-long run of make check.
# BENCH_RUNS=N runs the bench N separate times and reports the spread of
# the harness/bare ratios across them.  BENCH_ONLY=hvb,... runs only the
# sections named (harness/selfbench/bench.sh --only).
BENCH_MODE ?= full
BENCH_OUT  ?= results/bench
BENCH_RUNS ?= 1
BENCH_ONLY ?=
BENCH_SOLO := $(BUILD)/selfbench/bare $(BUILD)/selfbench/sleepcost $(BUILD)/selfbench/switchcost
BENCH_LIB  := $(BUILD)/selfbench/ratio $(BUILD)/selfbench/writecost $(BUILD)/selfbench/driftcheck

.PHONY: bench bench-bin
bench-bin: $(BUILD)/slicebench $(BENCH_SOLO) $(BENCH_LIB)

bench: bench-bin
	@BUILD=$(BUILD) $(H)/selfbench/bench.sh --mode $(BENCH_MODE) --out-dir $(BENCH_OUT) --runs $(BENCH_RUNS) --only "$(BENCH_ONLY)"

# bare and sleepcost use the lock headers; their out-of-line slow paths
# reach the harness's slice calls (policy.h), which an optimizer at -O1
# (the sanitizer builds) does not drop: they link the harness's objects.
$(BENCH_SOLO): $(BUILD)/selfbench/%: $(BUILD)/$(H)/selfbench/%.o $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ratio and writecost reuse the harness's statistics and result writer;
# driftcheck runs the harness's runner.
$(BENCH_LIB): $(BUILD)/selfbench/%: $(BUILD)/$(H)/selfbench/%.o $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# make bench-tiers: each test tier's wall time, BENCH_RUNS separate runs
# (3 unless given) of check-quick, check and check-san (TIERS= to choose).
.PHONY: bench-tiers
bench-tiers:
	@$(H)/selfbench/tiers.sh --runs $(if $(filter 1,$(BENCH_RUNS)),3,$(BENCH_RUNS)) $(if $(TIERS),--tiers "$(TIERS)")
