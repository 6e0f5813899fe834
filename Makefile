# Entry points for people and CI. Each target installs what is missing, configures and builds.
#   make run    build and run Kiln's main job on its built-in default
#   make test   build and run every test
#   make build  configure and build only

BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)

.PHONY: setup build run test format clean

setup:
	./packaging/setup-debian.sh

build: setup
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD_DIR) --parallel $(JOBS)

run: build
	./$(BUILD_DIR)/bin/kiln info

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --parallel $(JOBS)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD_DIR)
