// c10d declares its NCCL process group only where the build says it has one.
#ifdef KILN_WITH_CUDA
#ifndef USE_C10D_NCCL
#define USE_C10D_NCCL
#endif
#endif

#include "distributed/nccl_backend.h"

#include "core/error.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#ifdef KILN_WITH_CUDA
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#else
#include <torch/csrc/distributed/c10d/Backend.hpp>
#endif

namespace kiln::distributed {
namespace {

std::atomic<bool> nccl_used{false};

} // namespace

c10::intrusive_ptr<c10d::Backend> make_nccl_backend(const c10::intrusive_ptr<c10d::Store>& store,
                                                    int rank, int world_size,
                                                    std::chrono::milliseconds timeout) {
#ifdef KILN_WITH_CUDA
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeout;
    nccl_used = true;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world_size, options);
#else
    (void)store, (void)rank, (void)world_size, (void)timeout;
    throw Error("this build of Kiln has no CUDA, so no NCCL: build it against a CUDA LibTorch");
#endif
}

int end_process(int status) {
    if (nccl_used) {
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        std::_Exit(status);
    }
    return status;
}

} // namespace kiln::distributed
