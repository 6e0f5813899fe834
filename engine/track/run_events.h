#pragma once

#include "config/run_config.h"
#include "system/bottleneck_advisor.h"
#include "system/nvml.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The events of a training run, as the trainer reports them and the trackers, the CLI and
// Studio consume them. Defined here, below train, so that track never includes the trainer.
namespace kiln::track {

// A class's value of a validation metric: "val_metric_per_class/<metric>/<class>". The class's
// name is kept whole, slashes included: what follows the metric's name is the class (Studio's
// table reads it so; MLflow's keys, which are paths, make its slashes "_").
inline constexpr std::string_view kPerClassMetricPrefix = "val_metric_per_class/";
inline std::string per_class_metric(const std::string& metric, const std::string& class_name) {
    return std::string(kPerClassMetricPrefix) + metric + "/" + class_name;
}

// One optimizer step, timed as LightlyTrain times it: batch_time is forward + backward +
// optimizer step, data_time the rest of the cycle (waiting for the loader),
// data_wait = data_time / (batch_time + data_time).
struct StepMetrics {
    std::int64_t step = 0; // optimizer steps done, 1-based
    std::int64_t total_steps = 0;
    std::int64_t epoch = 0; // 0-based
    std::int64_t epochs = 0;
    std::int64_t batch_in_epoch = 0; // 1-based
    std::int64_t batches_per_epoch = 0;
    double loss = 0.0;
    double lr = 0.0;
    double batch_time = 0.0; // seconds
    double data_time = 0.0;  // seconds
    double data_wait = 0.0;  // fraction
    double images_per_second = 0.0;
    double cpu_util = 0.0;         // system, all cores, [0, 1]
    double process_cpu_util = 0.0; // this process, [0, 1] of all cores
    double rss_mb = 0.0;
    std::optional<double> allreduce_time; // seconds averaging gradients; distributed runs only
    std::vector<system::GpuSample> gpus;  // the run's GPUs; values NVML cannot give are absent
};

// One validation pass: its metrics under the names every logger uses (val_loss,
// val_metric/...), and whether the watched metric reached its best (best.ckpt was written).
// A validation's confusion matrix (classification and semantic segmentation): images or
// pixels of true class r predicted as class c at counts[r * classes + c].
struct ConfusionCounts {
    std::vector<std::string> classes;
    std::vector<std::int64_t> counts;
};

// What the model made of one validation image at an evaluation, beside its labels. Which part
// is filled depends on the task.
struct PredictionPreview {
    std::filesystem::path image;
    // Classification: the true classes (one, or several for multilabel) and the predicted ones
    // with their scores (the top class, or every class above 0.5 for multilabel).
    std::vector<std::int64_t> true_classes;
    std::vector<std::pair<std::int64_t, float>> predicted_classes;
    // Semantic segmentation: class ids row by row at mask_width x mask_height (the model's
    // input, at most PredictionPreviews::kMaskSide a side), 255 where ignored.
    int mask_width = 0;
    int mask_height = 0;
    std::vector<std::uint8_t> true_mask, predicted_mask;
    // Object detection: boxes [x0, y0, x1, y1] in the pixels of the image, of `size` (width,
    // height) as labelled, their class and score (1 for the true ones), the predictions best
    // first.
    std::array<int, 2> size{};
    struct Box {
        std::array<float, 4> box{};
        std::int64_t class_id = 0;
        float score = 1.0F;
    };
    std::vector<Box> true_boxes, predicted_boxes;
};

// The previews of an evaluation: the same first validation images each time (of the first
// rank's share in a distributed run), so that a person sees the model learn.
struct PredictionPreviews {
    static constexpr int kImages = 8;
    static constexpr int kMaskSide = 128;
    std::vector<std::string> classes;
    std::vector<PredictionPreview> images;
};

// A detection validation's precision-recall curve of each class: its precision at COCO's 101
// recall thresholds (coco::precision_at_recalls: IoU 0.5, all areas, 100 detections an image);
// -1 throughout for a class without labelled objects.
struct PrecisionRecallCurves {
    std::vector<std::string> classes;
    std::vector<std::vector<double>> precision;
};

struct ValidationMetrics {
    std::int64_t step = 0;  // optimizer steps done
    std::int64_t epoch = 0; // 0-based
    std::vector<std::pair<std::string, double>> values;
    std::string watched; // the metric that picks best.ckpt
    bool best = false;
    ConfusionCounts confusion;              // empty for the tasks without one
    PredictionPreviews previews;            // empty for the tasks without them
    PrecisionRecallCurves precision_recall; // detection's; empty for the other tasks
};

struct RunSummary {
    enum class Status { Finished, Cancelled };
    Status status = Status::Finished;
    std::int64_t steps = 0;
    std::optional<double> last_loss; // none when no step was left to train (a finished run resumed)
    double seconds = 0.0;
    std::int64_t skipped_images = 0;
    std::filesystem::path checkpoint;
    std::filesystem::path exported_model; // empty when cancelled
    std::optional<system::Advice> advice; // where the time went (the last steps), if any ran
    // Fine-tuning: the watched validation metric, its best value and the step it was reached.
    std::string watch_metric;
    std::optional<double> best_value;
    std::int64_t best_step = 0;
};

// Receives a run's events on the training thread; keep the work short.
class TrainObserver {
public:
    virtual ~TrainObserver() = default;
    virtual void on_start(const TrainConfig& config, std::int64_t dataset_size,
                          std::int64_t total_steps) {
        (void)config, (void)dataset_size, (void)total_steps;
    }
    virtual void on_step(const StepMetrics& metrics) { (void)metrics; }
    virtual void on_epoch_end(std::int64_t epoch, double mean_loss) {
        (void)epoch, (void)mean_loss;
    }
    // After each validation pass (fine-tuning tasks).
    virtual void on_validation(const ValidationMetrics& metrics) { (void)metrics; }
    // A validation pass at `step` ended and its metrics are being computed in the background
    // (COCO mAP); on_validation follows, for this step, when they are ready.
    virtual void on_validation_pending(std::int64_t step) { (void)step; }
    virtual void on_end(const RunSummary& summary) { (void)summary; }
    // Just before a checkpoint is written: what observers keep must cover every step in it,
    // or a resumed run would leave a gap.
    virtual void before_checkpoint(const std::filesystem::path& path) { (void)path; }
    // A checkpoint was written to `path` (never called when writing it failed).
    virtual void on_checkpoint(const std::filesystem::path& path) { (void)path; }
    // Before on_start when the run continues from a checkpoint made after `step` steps.
    virtual void on_resume(std::int64_t step) { (void)step; }
    // The run stopped with an error (instead of on_end); the error is rethrown afterwards.
    virtual void on_failure(const std::string& message) { (void)message; }
};

} // namespace kiln::track
