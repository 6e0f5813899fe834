"""Where the installed torch wheel keeps what Kiln's build needs.

    python torch_paths.py cmake-prefix   Torch's CMake package (TorchConfig.cmake lies below it)
    python torch_paths.py cuda-root      the CUDA toolkit that came as wheels (bin/nvcc, include,
                                         lib), or nothing when torch is a CPU build or the
                                         toolkit is not there as wheels
    python torch_paths.py nccl-include   the folder holding nccl.h from the NCCL wheel, or nothing

Read without importing torch, which takes seconds and needs its CUDA libraries to load.
"""

import importlib.util
import pathlib
import sys


def package_dir(name):
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return pathlib.Path(list(spec.submodule_search_locations)[0])


def cuda_root():
    nvidia = package_dir("nvidia")
    if nvidia is None:
        return ""
    # CUDA 13 wheels share one prefix; older ones have a folder per component.
    for candidate in sorted(nvidia.glob("cu*"), reverse=True):
        if (candidate / "bin" / "nvcc").exists() and (candidate / "include" / "cuda_runtime.h").exists():
            return str(candidate)
    return ""


def nccl_include():
    nvidia = package_dir("nvidia")
    if nvidia is None:
        return ""
    for header in sorted(nvidia.glob("nccl*/include/nccl.h")):
        return str(header.parent)
    return ""


def main():
    torch = package_dir("torch")
    if torch is None:
        sys.exit("torch is not installed for " + sys.executable)
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "cmake-prefix":
        print(torch / "share" / "cmake")
    elif what == "cuda-root":
        print(cuda_root())
    elif what == "nccl-include":
        print(nccl_include())
    else:
        sys.exit("usage: torch_paths.py cmake-prefix|cuda-root|nccl-include")


if __name__ == "__main__":
    main()
