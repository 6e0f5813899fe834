#pragma once

#include "core/stop_token.h"
#include "data/loader.h"
#include "methods/method.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/MemoryFormat.h>
#include <filesystem>
#include <memory>
#include <vector>

namespace torch::nn {
class Module;
}
namespace torch::serialize {
class InputArchive;
class OutputArchive;
} // namespace torch::serialize

namespace kiln::train {

// Where a task's batches go: the device, the dtype and the memory layout of images.
struct Placement {
    c10::Device device = c10::Device(c10::kCPU);
    c10::ScalarType dtype = c10::ScalarType::Float;
    c10::MemoryFormat memory_format = c10::MemoryFormat::Contiguous;
};

// What the training loop trains: the model, its data, its loss, what a checkpoint and an export
// hold. The loop, the strategy, the precision policy and the checkpoint format are shared by
// every task; self-supervised pretraining (PretrainingTask) is one task, the fine-tuning tasks
// are others.
class Task {
public:
    virtual ~Task() = default;

    // Everything that trains and is saved in a checkpoint.
    virtual torch::nn::Module& module() = 0;
    virtual std::int64_t dataset_size() const = 0;
    // This rank's training batches (options hold the per-rank batch size, rank and seed).
    virtual std::unique_ptr<data::Loader> make_loader(const data::LoaderOptions& options,
                                                      StopToken stop) = 0;
    virtual methods::OptimizerDefaults optimizer_defaults() const = 0;

    // Before each optimizer step, with the fraction of training done in [0, 1].
    virtual void set_progress(double progress) { (void)progress; }
    // The loss of one batch, computed where `placement` says (under the precision's autocast).
    virtual at::Tensor training_loss(const data::Batch& batch, const Placement& placement) = 0;
    // Between backward (with averaged, unscaled gradients) and the optimizer step.
    virtual void before_optimizer_step() {}
    // After every optimizer step that was taken.
    virtual void after_optimizer_step() {}

    // The model state a checkpoint holds, under its "model" entry.
    virtual void save(torch::serialize::OutputArchive& archive) = 0;
    virtual void load(torch::serialize::InputArchive& archive) = 0;
    // The weights a finished run exports (exported_models/exported_last.pt).
    virtual void export_model(const std::filesystem::path& file) = 0;
};

} // namespace kiln::train
