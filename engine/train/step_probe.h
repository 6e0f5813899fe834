#pragma once

#include "core/stop_token.h"
#include "data/sample_source.h"

#include <ATen/core/Tensor.h>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kiln::train {

// Probes of what a training step of `model` costs on this machine's CPU: forward and backward
// passes of its backbone over random images, with no decoding, augmentation or optimizer step.
// First estimates, before a run has steps of its own to go by. A model name Kiln does not know
// is a kiln::Error.

// Images per second, each seen in `views` views (2 for pretraining's pairs, 1 for fine-tuning)
// at `image_size` px, timed after a warm-up step. Sides over kLargestTimedSide are timed at it
// and the speed scaled by the pixels: a probe must not take minutes, nor the memory of a step
// of huge views. 0 when `stop` ended it early.
inline constexpr int kLargestTimedSide = 512;
double probe_training_speed(const std::string& model, int image_size, int views,
                            StopToken stop = {});

// The memory one more sample adds to a step, in MiB: a sample seen in `views` (a task's
// training_views()), the growth of the most that LibTorch's CPU tensors held from a step of one
// sample to a step of three. The step's activations, kept for the backward pass, grow with the
// batch; the weights, their gradients and the optimizer's state do not. Views over 448 px a
// side are probed at 448 and at 224 and extrapolated to their pixels (extrapolated_mb). Only
// what the probing thread and its intra-op threads allocate counts. nullopt where another CPU
// allocator than LibTorch's own is in place, or `stop` ended it.
std::optional<double> probe_memory_per_sample_mb(const std::string& model,
                                                 const std::vector<data::ViewShape>& views,
                                                 StopToken stop = {});

// The memory one more image adds to an inference batch through `forward` (the model's, run
// here under no_grad) at `view`, in MiB, measured as probe_memory_per_sample_mb measures a
// training step's, large views extrapolated alike. nullopt where another CPU allocator than
// LibTorch's own is in place.
using InferenceForward = std::function<void(const at::Tensor& images)>;
std::optional<double> probe_inference_memory_per_sample_mb(const InferenceForward& forward,
                                                           const data::ViewShape& view);

// MiB at `pixels` from MiB measured at two smaller sizes: in proportion to the pixels (a CNN's
// activations), or, where the larger measure grew faster than its pixels (a ViT's attention,
// quadratic in its tokens), along a P + b P^2 through both, never below the proportion.
double extrapolated_mb(double small_mb, double small_pixels, double large_mb, double large_pixels,
                       double pixels);

} // namespace kiln::train
