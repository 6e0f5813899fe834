#pragma once

#include "config/task_names.h"
#include "core/stop_token.h"
#include "data/sample_source.h"
#include "train/optimizer.h"

#include <ATen/core/Tensor.h>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace torch::nn {
class Module;
}

namespace kiln::train {

// Probes of what a training step costs on this machine's CPU: forward and backward passes of a
// model made for the probe over random images, with no decoding, augmentation or optimizer
// step. First estimates, before a run has steps of its own to go by.

// What a memory probe steps: a model made for it as the run makes its own (a step of the run's
// model would move its running statistics and a method's center), and the loss of a batch given
// as its views (each [B, C, H, W]). Made from the number of channels of the views.
struct ProbedModel {
    std::shared_ptr<torch::nn::Module> module;
    std::function<at::Tensor(const std::vector<at::Tensor>& views)> loss;
    // After the backward pass, where a run updates the weights (its optimizer's step, a method's
    // EMA teacher): what those make for a moment is part of the step. May be empty.
    std::function<void()> update;
};
using MakeProbedModel = std::function<ProbedModel(int channels)>;
// `model`'s backbone alone, its features' mean square the loss: a fine-tuning task's head is
// small beside it (run_peak_per_probed covers it). A model name Kiln does not know is a
// kiln::Error when made.
MakeProbedModel probed_backbone(const std::string& model);
// What a run of `task` steps: pretraining's method whole, its heads and its teacher included
// (DINO's output_dim prototypes can outweigh its backbone), from method_args as the run gives
// them (dataset_size scales their defaults); a fine-tuning task's backbone. Its update is the
// run's `optimizer` step (and a method's own, an EMA teacher's).
MakeProbedModel probed_model(TaskKind task, const std::string& model, const std::string& method,
                             const nlohmann::json& method_args, std::int64_t dataset_size,
                             const OptimizerSettings& optimizer);

// What a training step takes beyond the weights, from a probe of its model.
struct ProbedStepMemory {
    // The memory one more sample adds, in MiB: the growth from a step of one sample to a step of
    // three of the most that LibTorch's CPU tensors held, or of what the forward pass left for
    // the backward pass where that grew more. The step's activations grow with the batch.
    double per_sample_mb = 0;
    // What a step holds whatever its batch, in MiB: the gradients, and the copies a model makes
    // of its weights for a step (DINO's normalised prototypes), a step's growth beyond its
    // samples'.
    double per_step_mb = 0;
    // The trained parameters, in MiB: an optimizer's state and a weight average copy them.
    double trained_parameters_mb = 0;
};

// How a speed probe times samples of a run's `views`: views over kLargestTimedSide a side are
// timed at it and the speed divided by their pixels' ratio (a probe must not take minutes, nor
// the memory of a step of huge views); the pixels of 4 samples of two 224 px views are stepped at
// once, at least 4 and at most 64 and `batch` (a run's per-step work, a method's heads and
// teacher, is shared by its batch).
inline constexpr int kLargestTimedSide = 512;
struct SpeedProbePlan {
    std::vector<data::ViewShape> timed_views;
    std::int64_t samples = 1;
    double pixels_per_timed = 1; // a run's sample's pixels over a timed sample's
};
SpeedProbePlan plan_speed_probe(const std::vector<data::ViewShape>& views, int batch);

// Samples per second of `make`'s model, each seen in `views` (a task's training_views()), timed
// after a warm-up step as plan_speed_probe says. 0 when `stop` ended it early.
double probe_training_speed(const MakeProbedModel& make, const std::vector<data::ViewShape>& views,
                            int batch, StopToken stop = {});

// A training step of `make`'s model with samples of `views` (a task's training_views()). Views
// over 448 px a side are probed at 448 and at 224 and the per-sample memory extrapolated to their
// pixels (extrapolated_mb). Only what the probing thread and its intra-op threads allocate
// counts. nullopt where another CPU allocator than LibTorch's own is in place, or `stop` ended
// it.
std::optional<ProbedStepMemory> probe_step_memory(const MakeProbedModel& make,
                                                  const std::vector<data::ViewShape>& views,
                                                  StopToken stop = {});

// The probes make their models with the process's random generator left as it was (a run in
// this process draws from it after a probe as if there had been none). A run waits here for a
// probe still making or stepping its model before it seeds the generator, which the probe would
// otherwise put back to what it was.
void wait_for_probes();

// The memory one more image adds to an inference batch through `forward` (the model's, run
// here under no_grad) at `view`, in MiB, measured as probe_step_memory measures a training
// step's, large views extrapolated alike. nullopt where another CPU allocator than
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
