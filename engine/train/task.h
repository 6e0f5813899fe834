#pragma once

#include "config/run_config.h"
#include "core/stop_token.h"
#include "data/loader.h"
#include "methods/method.h"
#include "train/events.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/MemoryFormat.h>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace torch::nn {
class Module;
}
namespace kiln::distributed {
class ProcessGroup;
}
namespace kiln::models {
class Archive;
}

namespace kiln::train {

// Where a task's batches go: the device, the dtype and the memory layout of images.
struct Placement {
    c10::Device device = c10::Device(c10::kCPU);
    c10::ScalarType dtype = c10::ScalarType::Float;
    c10::MemoryFormat memory_format = c10::MemoryFormat::Contiguous;
};

// How a validation pass runs on this rank: where, over which share of the validation split,
// and how counts are summed over the ranks of a distributed run.
struct ValidationContext {
    Placement placement;
    data::LoaderOptions loader; // this rank's share, in order, each sample once
    StopToken stop;
    std::function<void(at::Tensor&)> sum_over_ranks;
    bool reports = true; // this rank logs the metrics (the first rank of a distributed run)
};

// Metric values under the names every logger uses (val_loss, val_metric/...).
using MetricValues = std::vector<std::pair<std::string, double>>;

// Metrics computed after a validation pass (COCO mAP), and the curves they come with.
struct LaterMetrics {
    MetricValues values;
    PrecisionRecallCurves precision_recall;
};

// What one validation pass gives: the metrics known when it ends, and those still being
// computed from its outputs (COCO mAP, on its own thread while training goes on).
struct Validation {
    MetricValues values;
    std::future<LaterMetrics> later; // valid() only while metrics are pending
    ConfusionCounts confusion;
    PredictionPreviews previews; // on the reporting rank
    PrecisionRecallCurves precision_recall;
};

// What the training loop trains: the model, its data, its loss, its validation, what a
// checkpoint and an export hold. The loop, the strategy, the precision policy and the checkpoint
// format are shared by every task; self-supervised pretraining (PretrainingTask) is one task, the
// fine-tuning tasks are others.
class Task {
public:
    virtual ~Task() = default;

    // Everything that trains and is saved in a checkpoint.
    virtual torch::nn::Module& module() = 0;
    virtual std::int64_t dataset_size() const = 0;
    // A digest of the training images' names (data::NamesFingerprint), kept in checkpoints.
    virtual std::uint64_t dataset_fingerprint() const = 0;
    // The views one training sample is seen in (its loader's view_shapes()), from which a CPU
    // run's step memory is estimated before it starts.
    virtual std::vector<data::ViewShape> training_views() const = 0;
    // This rank's training batches (options hold the per-rank batch size, rank and seed).
    virtual std::unique_ptr<data::Loader> make_loader(const data::LoaderOptions& options,
                                                      StopToken stop) = 0;
    // The parameters that came pretrained (a fine-tuning task's backbone), by layer from the
    // input's end: they learn at optim_args.backbone_lr_factor of the rate, times layer_decay
    // for each layer below the last, and not at all during head warm-up.
    virtual std::vector<std::vector<at::Tensor>> backbone_layers() { return {}; }
    // In a distributed run: the ranks whose batches form the global batch.
    virtual void set_process_group(distributed::ProcessGroup* group) { (void)group; }

    // Before each optimizer step, with the fraction of training done in [0, 1].
    virtual void set_progress(double progress) { (void)progress; }
    // Before the loader starts `epoch` of the `epochs` the schedule has (so far, with max_time).
    virtual void start_epoch(std::int64_t epoch, std::int64_t epochs) {
        (void)epoch;
        (void)epochs;
    }
    // The loss of one batch, computed where `placement` says (under the precision's autocast).
    virtual at::Tensor training_loss(const data::Batch& batch, const Placement& placement) = 0;
    // Between backward (with averaged, unscaled gradients) and the optimizer step.
    virtual void before_optimizer_step() {}
    // After every optimizer step that was taken.
    virtual void after_optimizer_step() {}

    // Validation, for the tasks that have it: the metrics of the validation split, with the
    // module in eval mode and gradients off (the loop sees to both). Every rank runs it; the
    // metrics are those of the reporting rank.
    virtual bool validates() const { return false; }
    virtual Validation validate(const ValidationContext& context) {
        (void)context;
        return {};
    }
    // The metric that picks best.ckpt: `configured` (watch_metric), or the task's own choice
    // when the configured one is the default and does not fit the data (multilabel: mAP).
    virtual std::string watch_metric(const std::string& configured) const { return configured; }

    // The model state a checkpoint holds, under its "model" entry.
    virtual void save(models::Archive& archive) = 0;
    virtual void load(const models::Archive& archive) = 0;
    // The weights a run exports (exported_models/exported_last.pt, exported_best.pt).
    virtual void export_model(const std::filesystem::path& file) = 0;
    // Fills in what the task's data decided of settings left on auto (image_size=auto), so
    // that config.json and checkpoints hold what the run trained with.
    virtual void resolve_settings(TrainConfig& config) const { (void)config; }
};

// The task `config.task` names, set up from `config` (data scanned and checked, model built,
// starting weights loaded). Bad settings or data are kiln::Errors, before anything is written.
std::unique_ptr<Task> make_task(const TrainConfig& config);

} // namespace kiln::train
