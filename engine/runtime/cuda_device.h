#pragma once

#include "runtime/step_timer.h"

#include <memory>

namespace kiln::runtime {

// Makes CUDA device `index` this thread's current device, on which tensors, streams and NCCL
// work, and lets cuDNN pick the fastest convolution algorithms for the shapes it sees (the
// shapes of a run stay fixed). A kiln::Error when LibTorch has no CUDA.
void use_cuda_device(int index);

// Events recorded on the current CUDA stream of the current device, with timing: the GPU
// timeline of a step, read without synchronising. A kiln::Error when LibTorch has no CUDA.
std::shared_ptr<EventSource> cuda_events();

} // namespace kiln::runtime
