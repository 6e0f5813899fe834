#pragma once

#include <c10/util/intrusive_ptr.h>
#include <chrono>

namespace c10d {
class Backend;
class Store;
} // namespace c10d

namespace kiln::distributed {

// c10d's NCCL process group on the current CUDA device. A kiln::Error in a build without CUDA.
c10::intrusive_ptr<c10d::Backend> make_nccl_backend(const c10::intrusive_ptr<c10d::Store>& store,
                                                    int rank, int world_size,
                                                    std::chrono::milliseconds timeout);

// A process's exit status, given back as it is unless this process made an NCCL process group:
// then stdout and stderr are flushed and the process ends at once, without static destructors.
// NCCL's teardown at exit crashed every finished `kiln train` of a CUDA world of one on an H200
// (torch 2.11, NCCL 2.28: a segmentation fault after the run had written everything; not under
// a debugger), as it once did PyTorch's own (pytorch/pytorch#8352).
int end_process(int status);

} // namespace kiln::distributed
