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

} // namespace kiln::distributed
