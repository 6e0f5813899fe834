#pragma once

#include "runtime/step_timer.h"

#include <ATen/core/Tensor.h>
#include <memory>

namespace kiln::runtime {

// Makes CUDA device `index` this thread's current device, on which tensors, streams and NCCL
// work, and lets cuDNN pick the fastest convolution algorithms for the shapes it sees (the
// shapes of a run stay fixed). A kiln::Error when LibTorch has no CUDA.
void use_cuda_device(int index);

// Events recorded on the current CUDA stream of the current device, with timing: the GPU
// timeline of a step, read without synchronising. A kiln::Error when LibTorch has no CUDA.
std::shared_ptr<EventSource> cuda_events();

// `host` on `device` as `dtype`, laid out as `format`. To a GPU it is copied on a stream of its
// own, which the current stream waits for: the next batch's copy runs while the GPU still
// computes the step before it (a ResNet-50 SimCLR batch of 256 at 224 px is 308 MB,
// milliseconds a step).
at::Tensor copy_to_device(const at::Tensor& host, c10::Device device, c10::ScalarType dtype,
                          c10::MemoryFormat format = c10::MemoryFormat::Contiguous);

} // namespace kiln::runtime
