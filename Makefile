# A thin wrapper over CMake presets. Each target first installs the Debian packages it needs if any is missing.
#   make run      build, then open the desktop application on the bundled default scenario (without a display:
#                 say how to run it headless and print parasight-cli's summary instead)
#   make test     build and run every test suite (ctest), parasight-calibrate's with Debian's python3-torch
#   make asan     the test suites under AddressSanitizer + UndefinedBehaviorSanitizer
#   make test-slurm  the Slurm job-array example (packaging/slurm) end to end: a one-node Slurm cluster started
#                 on this machine runs a sweep as a 3-shard array and merges it (as root)
#   make fuzz     short libFuzzer runs of the loader, the simulator, in-memory edits and the peers' importers (FUZZ_SECONDS each, default 60; FUZZ_SEED,
#                 default 0 = random)
#   make bench    the simulation and GUI-responsiveness benchmarks, and the budget cases' instruction counts under
#                 callgrind (figures for docs/performance.md; BENCH_QUICK=1 skips the every-device count)
#   make validation  re-run the published-number checks and rewrite docs/validation.md
#   make package  a .deb via CPack
#   make screenshots  the README's pictures, rendered offscreen by parasight --screenshot

PRESET ?= release
BUILD_DIR := build/$(PRESET)
CLI := $(BUILD_DIR)/app/cli/parasight-cli
GUI := $(BUILD_DIR)/app/gui/parasight
# The home whose results database the Sweeps and History pictures show (a sweep and two runs made for them).
SHOT_HOME := $(CURDIR)/$(BUILD_DIR)/screenshot-home
SHOT_ENV := env -u XDG_DATA_HOME -u XDG_CONFIG_HOME HOME=$(SHOT_HOME)
DEFAULT_SCENARIO := presets/scenarios/default.yaml
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 0
JOBS ?= $(shell nproc)

# The last line serves the packaging tests and `make package`: the validators of the desktop file and the AppStream
# metainfo, and what CPack's DEB generator runs (dpkg-shlibdeps from dpkg-dev, file).
BUILD_PACKAGES := cmake ninja-build g++ pkg-config libyaml-cpp-dev libsqlite3-dev \
                  qt6-base-dev qt6-charts-dev qt6-svg-dev locales-all fonts-dejavu-core \
                  desktop-file-utils appstream dpkg-dev file
FUZZ_PACKAGES := clang libclang-rt-14-dev
# What the test suites need beyond the build: PyTorch for parasight-calibrate's test (tests/calibrate), the same
# Debian package CI uses.
TEST_PACKAGES := python3-torch
# The one-node Slurm cluster of `make test-slurm`: its two daemons, sbatch and squeue, munge, and the sqlite3 shell.
SLURM_PACKAGES := slurmctld slurmd slurm-client munge sqlite3
# The instruction counts of `make bench` (tests/bench/callgrind_counts.sh).
BENCH_PACKAGES := valgrind

.PHONY: all deps fuzz-deps build run test asan test-slurm fuzz bench validation package screenshots clean

all: build

# Installs what is missing: as root directly, otherwise it prints the exact command to run.
define install_missing
	@missing=""; for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "Missing Debian packages:$$missing"; echo "Run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES))

fuzz-deps: deps
	$(call install_missing,$(FUZZ_PACKAGES))

build: deps
	cmake --preset $(PRESET)
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] || [ -n "$$QT_QPA_PLATFORM" ]; then \
	  $(GUI); \
	else \
	  echo "No display: the window cannot open here. Headless, render it with"; \
	  echo "  $(GUI) --screenshot OUT.png [--tab NAME] [FILE]"; \
	  echo "or run it under Xvfb (xvfb-run $(GUI)). The default scenario's summary meanwhile:"; \
	  $(CLI) simulate $(DEFAULT_SCENARIO); \
	fi

test: build
	$(call install_missing,$(TEST_PACKAGES))
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

asan:
	$(MAKE) test PRESET=asan

test-slurm: build
	$(call install_missing,$(SLURM_PACKAGES))
	tests/slurm/run-slurm-test.sh $(CLI)

fuzz: fuzz-deps
	cmake --preset fuzz
	cmake --build build/fuzz -j $(JOBS)
	tests/fuzz/run-fuzz.sh build/fuzz/tests/fuzz/fuzz_scenario_loader $(FUZZ_SECONDS) $(FUZZ_SEED)
	tests/fuzz/run-fuzz.sh build/fuzz/tests/fuzz/fuzz_simulate $(FUZZ_SECONDS) $(FUZZ_SEED)
	tests/fuzz/run-fuzz.sh build/fuzz/tests/fuzz/fuzz_scenario_edits $(FUZZ_SECONDS) $(FUZZ_SEED)
	tests/fuzz/run-fuzz.sh build/fuzz/tests/fuzz/fuzz_peer_import $(FUZZ_SECONDS) $(FUZZ_SEED)

# Regenerates docs/validation.md from tests/validation/cases.yaml (CTest checks it is current and within bounds).
validation: build
	$(BUILD_DIR)/tests/validation/validate_published tests/validation/cases.yaml --write docs/validation.md

bench: build
	$(call install_missing,$(BENCH_PACKAGES))
	$(BUILD_DIR)/tests/bench/bench_simulation
	tests/bench/callgrind_counts.sh $(CLI)
	$(BUILD_DIR)/tests/bench/bench_sweep
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/bench_gui_responsiveness
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/bench_timeline
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/bench_topology
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/bench_oracle
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/bench_sweep_explorer
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/bench_run_comparison

screenshots: build
	$(GUI) --screenshot docs/images/topology.png --tab topology --size 1200x760 --palette light
	$(GUI) --screenshot docs/images/strategy-dark.png --tab strategy --size 1200x760 --palette dark
	$(GUI) --screenshot docs/images/breakdown.png --tab breakdown --size 1200x760 --palette light
	$(GUI) --screenshot docs/images/memory-dark.png --tab memory --size 1200x760 --palette dark
	$(GUI) --screenshot docs/images/timeline.png --tab timeline --size 1200x600 --palette light presets/scenarios/pipeline-1f1b.yaml
	$(GUI) --screenshot docs/images/whatif.png --tab whatif --size 1200x760 --palette light \
		presets/scenarios/bert-large-dp8.yaml
	$(GUI) --screenshot docs/images/oracle.png --tab oracle --size 1400x900 --palette light \
		presets/scenarios/resnet50-abci.yaml
	rm -rf $(SHOT_HOME)
	$(SHOT_ENV) $(CLI) sweep presets/scenarios/default.yaml --axis parallelism.dp=auto \
		--axis parallelism.tp=1,2,4,8 --axis parallelism.pp=4,8,16,32 --axis training.micro_batch=1,2 > /dev/null
	$(SHOT_ENV) $(CLI) simulate presets/scenarios/default.yaml --db $(SHOT_HOME)/.local/share/parasight/results.db > /dev/null
	$(SHOT_ENV) $(CLI) simulate presets/scenarios/pipeline-1f1b.yaml --db $(SHOT_HOME)/.local/share/parasight/results.db \
		> /dev/null
	$(SHOT_ENV) $(GUI) --screenshot docs/images/sweeps.png --tab sweeps --size 1400x1000 --palette light
	sed -e 's/^  pp: 16 .*/  pp: 4/' -e 's/^  dp: 8 .*/  dp: 32/' presets/scenarios/default.yaml > $(SHOT_HOME)/pp4.yaml
	$(SHOT_ENV) $(CLI) simulate $(SHOT_HOME)/pp4.yaml --db $(SHOT_HOME)/.local/share/parasight/results.db > /dev/null
	$(SHOT_ENV) $(GUI) --screenshot docs/images/history-dark.png --tab history --size 1400x760 --palette dark
	$(SHOT_ENV) $(GUI) --screenshot docs/images/compare.png --compare run:33,run:35 --size 1400x900 --palette light
	$(SHOT_ENV) $(GUI) --screenshot docs/images/sweeps-running-dark.png --size 1400x1000 --palette dark \
		--sweep-axis parallelism.dp=auto --sweep-axis parallelism.tp=1,2,4,8 --sweep-axis parallelism.pp=2,4,8,16,32 \
		--sweep-axis training.micro_batch=1,2,4 --sweep-axis training.global_batch=1536,3072

package: build
	cd $(BUILD_DIR) && cpack -G DEB

clean:
	rm -rf build
