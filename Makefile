# hxsim top-level Makefile: a thin front end over CMake and the scripts in scripts/.
# Every target that needs tools first runs scripts/setup-deps.sh (a no-op when all is installed).
# Default target: help.

BUILD       ?= build
BUILD_TYPE  ?= Release
NPROC       := $(shell nproc 2>/dev/null || echo 2)
# Debian's python3, which has the python3-matplotlib that setup-deps.sh installs (a python3
# earlier on PATH, e.g. pyenv's, may lack it).
PYTHON      ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

.DEFAULT_GOAL := help
.PHONY: help deps configure build lint test test-long test-asan test-slurm run bench table2 synth formal clean format format-check tidy docs fuzz

help:
	@echo "hxsim make targets:"
	@echo "  make run        build hxsim, run the built-in default config; results in $(BUILD)/run/"
	@echo "  make test       lint the RTL, build, run every test but the long ones (ctest -LE long)"
	@echo "  make test-long  build, run the long tests (ctest -L long); labels: rtl unit system long"
	@echo "  make bench      mesh8x8_uniform at 7 loads and HammingMesh all-to-all, 3 runs each;"
	@echo "                  its speed against the Verilated plane alone: $(BUILD)/bench/ceiling.json;"
	@echo "                  allreduce bandwidth per algorithm and message size:"
	@echo "                  $(BUILD)/bench/{mesh8x8,global,collectives}.json;"
	@echo "                  job allocation (IV-B) and its timing: $(BUILD)/alloc/*.json, *.png"
	@echo "                  in-network allreduce on the DGX-2 (ring/pull/push, tables, waves):"
	@echo "                  $(BUILD)/bench/nvswitch.json, nvswitch_*.png"
	@echo "  make table2     HammingMesh Table II's global all-to-all and allreduce columns: flow model,"
	@echo "                  small and large cluster, beside the cycle model (cached runs) and the paper:"
	@echo "                  $(BUILD)/table2/table2.{json,md,png} (docs/table2.md)"
	@echo "  make build      configure (once) and build everything in $(BUILD)/"
	@echo "  make configure  run cmake into $(BUILD)/ (only if not yet configured)"
	@echo "  make lint       verilator --lint-only -Wall on every RTL top (scripts/lint.sh)"
	@echo "  make format     clang-format -i every C++ file (.clang-format); format-check: list the ones that differ"
	@echo "  make docs       regenerate docs/config-reference.md from the config schemas (hxsim config-reference)"
	@echo "  make tidy       clang-tidy with the checks of .clang-tidy on the project's C++, and format-check"
	@echo "  make synth      yosys synthesis estimates into $(BUILD)/synth/ (scripts/synth.sh)"
	@echo "  make fuzz       fuzz the config loaders for FUZZ_SECONDS (default 300) with libFuzzer, ASan and"
	@echo "                  UBSan, from a seed corpus of configs/; build-fuzz/ (docs/reliability.md)"
	@echo "  make test-asan  the test suite (but the long tests) under ASan and UBSan, in build-asan/"
	@echo "  make test-slurm hxsim sweep's Slurm backend on a one-node Slurm started here (root)"
	@echo "  make formal     prove the RTL's assertions (yosys + ABC; scripts/formal.py, docs/formal.md):"
	@echo "                  a table per property, $(BUILD)/formal/formal.json"
	@echo "  make deps       install missing Debian packages and the OSU018 Liberty file"
	@echo "  make clean      remove $(BUILD)/ except $(BUILD)/deps/"
	@echo "  make help       this list (the default target)"

deps:
	@bash scripts/setup-deps.sh

# Configure only when the build tree has not been generated yet: no $(BUILD)/CMakeCache.txt, or
# no $(BUILD)/Makefile because an earlier configure failed (e.g. a Verilator -Wall warning).
# Later CMakeLists.txt or RTL edits are picked up by `cmake --build` itself.
# The order-only `| deps` runs deps without forcing a reconfigure.
$(BUILD)/Makefile: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(FIRST_CONFIGURE)

configure: deps $(BUILD)/Makefile

# A build tree that `make run` configured has no tests (HX_BUILD_TESTS OFF): turn them on.
build: configure
	@if grep -q '^HX_BUILD_TESTS:BOOL=OFF' $(BUILD)/CMakeCache.txt; then \
	  echo "cmake -DHX_BUILD_TESTS=ON (the build tree of make run has no tests yet)"; \
	  cmake -S . -B $(BUILD) -DHX_BUILD_TESTS=ON; fi
	cmake --build $(BUILD) -j$(NPROC)

lint: deps
	bash scripts/lint.sh

# Tests carry one ctest label each: rtl, unit, system, or long (left out here; `make test-long`).
# `ctest --test-dir build -L rtl` runs one kind.
# The lint runs beside the build, its output shown when both are done: a first build's configure
# step runs Verilator and yosys on one core, so the lint's 25 s cost no time there.
test: deps
	@mkdir -p $(BUILD); bash scripts/lint.sh > $(BUILD)/lint.log 2>&1 & lint=$$!; \
	  $(MAKE) --no-print-directory build; built=$$?; \
	  wait $$lint; linted=$$?; cat $(BUILD)/lint.log; \
	  if [ $$linted -ne 0 ]; then echo "make test: the RTL lint failed (above)"; exit 1; fi; \
	  exit $$built
	ctest --test-dir $(BUILD) --output-on-failure -j$(NPROC) -LE long

test-long: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(NPROC) -L long

# `make run` builds only the simulator, not the whole test suite; a first configure leaves out the
# tests and the RTL models only they use (HX_BUILD_TESTS, CMakeLists.txt).
run: FIRST_CONFIGURE = -DHX_BUILD_TESTS=OFF
run: configure
	cmake --build $(BUILD) -j$(NPROC) --target hxsim
	$(BUILD)/hxsim run --out $(BUILD)/run/results.json
	@$(BUILD)/hxsim plot $(BUILD)/run/results.json | sed 's/^/plot     /' || echo "(no plot: $(BUILD)/hxsim plot needs python3-matplotlib)"

# build, not configure: the ceiling (tb/plane_ceiling) needs the test build's 8x8 plane.
bench: build
	$(PYTHON) scripts/bench_ceiling.py --hxsim $(BUILD)/hxsim --ceiling $(BUILD)/tb/plane_ceiling --out $(BUILD)/bench/ceiling.json
	$(PYTHON) scripts/bench.py --hxsim $(BUILD)/hxsim --out $(BUILD)/bench/mesh8x8.json
	$(PYTHON) scripts/bench_global.py --hxsim $(BUILD)/hxsim --out $(BUILD)/bench/global.json
	$(PYTHON) scripts/bench_collectives.py --hxsim $(BUILD)/hxsim --out $(BUILD)/bench/collectives.json
	$(PYTHON) scripts/alloc_experiments.py --hxsim $(BUILD)/hxsim --outdir $(BUILD)/alloc
	$(PYTHON) scripts/bench_nvswitch.py --hxsim $(BUILD)/hxsim --out $(BUILD)/bench/nvswitch.json
	$(PYTHON) scripts/themis_sweep.py --hxsim $(BUILD)/hxsim --out $(BUILD)/bench/themis.json
	$(PYTHON) scripts/bench_ranks.py --hxsim $(BUILD)/hxsim --set collective.message=256KiB --out $(BUILD)/bench/ranks.json

table2: configure
	cmake --build $(BUILD) -j$(NPROC) --target hxsim
	$(PYTHON) scripts/table2.py --hxsim $(BUILD)/hxsim --out $(BUILD)/table2/table2.json --cycle

synth: deps
	bash scripts/synth.sh

# Proofs of the RTL's assertions on parameter-reduced instances (docs/formal.md). Needs only yosys,
# whose Debian package also ships yosys-abc.
formal: deps
	$(PYTHON) scripts/formal.py --out $(BUILD)/formal

# The project's own C++ (generated and Verilated code excluded), for clang-format and clang-tidy.
CXX_FILES = $(shell git ls-files '*.cpp' '*.h')
CXX_SOURCES = $(shell git ls-files 'systemc/*.cpp' 'tb/*.cpp')

format:
	@bash scripts/setup-deps.sh --dev
	clang-format -i $(CXX_FILES)

format-check:
	@bash scripts/setup-deps.sh --dev
	@bad=$$(for f in $(CXX_FILES); do clang-format --dry-run -Werror $$f >/dev/null 2>&1 || echo $$f; done); \
	if [ -n "$$bad" ]; then echo "format-check: these files differ from .clang-format (make format):"; echo "$$bad"; exit 1; fi

# clang-tidy reads the compile commands of the build tree (CMAKE_EXPORT_COMPILE_COMMANDS).
tidy: configure format-check
	@bash scripts/setup-deps.sh --dev
	clang-tidy -p $(BUILD) --quiet $(CXX_SOURCES)

# The generated config reference: every key of every model, from the schemas.
docs: configure
	cmake --build $(BUILD) -j$(NPROC) --target hxsim
	$(BUILD)/hxsim config-reference > docs/config-reference.md.tmp && mv docs/config-reference.md.tmp docs/config-reference.md

# The config loaders under libFuzzer (tests/fuzz/, docs/reliability.md): a clang build tree of its
# own, a seed corpus from configs/, then FUZZ_SECONDS of fuzzing. What breaks a loader lands in
# $(FUZZ_BUILD)/findings/ (the run fails); copy it to tests/fuzz/regressions/ with the fix.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 300
fuzz:
	@bash scripts/setup-deps.sh --fuzz
	@test -f $(FUZZ_BUILD)/CMakeCache.txt || cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DHX_FUZZ=ON -DHX_BUILD_TESTS=OFF
	cmake --build $(FUZZ_BUILD) -j$(NPROC) --target config_fuzz
	$(PYTHON) scripts/fuzz_seeds.py $(FUZZ_BUILD)/seeds
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/findings
	$(FUZZ_BUILD)/config_fuzz -fork=1 -ignore_timeouts=1 -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	  -dict=$(FUZZ_BUILD)/seeds.dict -artifact_prefix=$(FUZZ_BUILD)/findings/ $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds

# The test suite under ASan and UBSan (docs/reliability.md): a build tree of its own, the project's
# own C++ instrumented (HX_SANITIZE), every test but the long ones. A leak, an invalid access or
# undefined behaviour fails the test that ran into it.
ASAN_BUILD ?= build-asan
test-asan: deps
	@test -f $(ASAN_BUILD)/CMakeCache.txt || cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHX_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j$(NPROC)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(NPROC) -LE long

# hxsim sweep's Slurm backend on a one-node Slurm started and stopped here (scripts/test_slurm.sh;
# root only, else it says it is skipped).
test-slurm: configure
	cmake --build $(BUILD) -j$(NPROC) --target hxsim
	bash scripts/test_slurm.sh $(BUILD)/hxsim

# Keep $(BUILD)/deps: it holds the extracted Liberty file.
clean:
	@if [ -d $(BUILD) ]; then find $(BUILD) -mindepth 1 -maxdepth 1 ! -name deps -exec rm -rf {} +; fi
