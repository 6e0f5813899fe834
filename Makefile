# Entry points for people and CI. Each target installs what is missing, configures and builds.
#   make run    build, then the demo: with a display, Kiln Studio on its demo project (File >
#               Open Demo Project); without one (or DEMO=cli), Kiln's versions and hardware, a
#               Fashion-MNIST subset imported as images, and a few minutes of SimCLR pretraining
#               on the CPU
#   make test   build and run every test, and each fuzzer for a few seconds
#   make fuzz   build the fuzzers (clang) and run each for FUZZ_SECONDS
#   make build  configure and build only
#   make package  build, then the Debian packages kiln and kiln-studio in $(BUILD_DIR)/packages

BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
KILN = ./$(BUILD_DIR)/bin/kiln
FASHION_MNIST ?= /usr/share/datasets/fashion-mnist
DEMO_DIR ?= $(BUILD_DIR)/demo
DEMO_IMAGES ?= 10000
# The Python environment whose torch wheel provides LibTorch (made by the setup script).
KILN_VENV ?= $(shell ./packaging/setup-debian.sh --venv-path)

.PHONY: setup build run run-studio run-cli test fuzz package format clean

setup:
	KILN_VENV=$(KILN_VENV) ./packaging/setup-debian.sh

build: setup
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
		-DKILN_PYTHON=$(KILN_VENV)/bin/python
	cmake --build $(BUILD_DIR) --parallel $(JOBS)

# With a display (DISPLAY or WAYLAND_DISPLAY), Kiln Studio on its demo project; without one,
# or with DEMO=cli, the command-line demo.
DEMO ?= $(if $(DISPLAY)$(WAYLAND_DISPLAY),studio,cli)

run: run-$(DEMO)

run-studio: build
	./$(BUILD_DIR)/bin/kiln-studio --demo

run-cli: build
	$(KILN) info
	@test -d $(DEMO_DIR)/fashion-mnist || $(KILN) import-idx \
		--images $(FASHION_MNIST)/train-images-idx3-ubyte.gz \
		--labels $(FASHION_MNIST)/train-labels-idx1-ubyte.gz \
		--out $(DEMO_DIR)/fashion-mnist --limit $(DEMO_IMAGES)
	$(KILN) train out=$(DEMO_DIR)/run data=$(DEMO_DIR)/fashion-mnist model=smallcnn_v2 \
		method=simclr epochs=15 batch_size=128 overwrite=true

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --parallel $(JOBS)
	$(MAKE) fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS)

# The libFuzzer targets (tests/fuzz: the COCO parsers and the torch.save reader), a clang build
# of their own, each run for FUZZ_SECONDS; `make test` runs them briefly.
FUZZ_SECONDS ?= 600
TEST_FUZZ_SECONDS ?= 20
FUZZ_CXX ?= clang++-14
fuzz: setup
	CXX=$(FUZZ_CXX) cmake -S tests/fuzz -B $(BUILD_DIR)/fuzz -G Ninja \
		-DKILN_PYTHON=$(KILN_VENV)/bin/python
	cmake --build $(BUILD_DIR)/fuzz --parallel $(JOBS)
	tests/fuzz/run.sh $(BUILD_DIR)/fuzz $(FUZZ_SECONDS)

package: build
	cmake --build $(BUILD_DIR) --target package

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD_DIR)
