# The two commands a new user needs: `make serve` and `make test`.
# Everything else is a step they call.

MODEL ?=
HOST ?= 127.0.0.1
PORT ?= 8080
JOBS ?= $(shell nproc)

RELEASE := build/release
ASAN := build/asan
DEFAULT_MODEL := build/default-model/ingot-default-qwen3.gguf

SECONDS ?= 60

.PHONY: deps build build-asan test test-release test-asan test-arm64 test-arm64-kernels serve bench flake fuzz fuzz-slow format default-model

deps:
	@scripts/install-deps

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

build-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)

test-release: build
	ctest --preset release -j $(JOBS)

test-asan: build-asan
	ctest --preset asan -j $(JOBS)

test: test-release test-asan test-arm64-kernels

# Cross-built for 64-bit ARM and run under qemu-user-static: the kernel
# tests, the golden parity tests and a chat request from the SDK.
test-arm64: build
	@scripts/test-arm64

# The kernel tests alone, cross-built and emulated: the part of
# test-arm64 that fits in `make test`.
test-arm64-kernels:
	@scripts/test-arm64 --kernels

default-model: build
	@scripts/make-default-model $(RELEASE) $(DEFAULT_MODEL)

serve: build
ifeq ($(MODEL),)
	@$(MAKE) --no-print-directory default-model
	$(RELEASE)/ingot serve --model $(DEFAULT_MODEL) --host $(HOST) --port $(PORT)
else
	$(RELEASE)/ingot serve --model $(MODEL) --host $(HOST) --port $(PORT)
endif

bench: build
	scripts/bench $(RELEASE)

# The e2e suite RUNS times (default 20) under two busy loops: 0 failures expected.
flake: build
	bench/flake.sh $(RUNS)

# Each fuzz target for SECONDS seconds (clang, libFuzzer, ASan and UBSan);
# `make test` replays the saved corpora.
fuzz: deps
	scripts/fuzz $(SECONDS)

# The same without sanitizers, where one input over a second fails.
fuzz-slow: deps
	scripts/fuzz --slow $(SECONDS)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i
