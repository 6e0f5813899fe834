#include "train/segmentation_task.h"

#include "data/image_sizes.h"
#include "data/labelled_samples.h"
#include "data/view_transform.h"
#include "eval/confusion_matrix.h"
#include "system/hardware.h"

#include <algorithm>
#include <cmath>
#include <torch/nn/functional/loss.h>
#include <torch/types.h>

namespace kiln::train {
namespace {

// Segmentation crops keep more of the image than classification's: objects stay whole.
constexpr double kMinCropScale = 0.25;

struct SegmenterArgs {
    std::string backbone_weights;
    int decoder_width;
};

SegmenterArgs read_model_args(const TrainConfig& config) {
    const nlohmann::json args = model_args_or_defaults(config);
    return {.backbone_weights = args.value("backbone_weights", ""),
            .decoder_width = args.at("decoder_width").get<int>()};
}

models::Segmenter make_segmenter(const TrainConfig& config, const SegmenterArgs& args,
                                 std::int64_t classes, int channels) {
    return models::Segmenter(models::make_backbone(config.model, channels), classes,
                             args.decoder_width);
}

} // namespace

SegmentationTask::SegmentationTask(const TrainConfig& config) {
    const SegmenterArgs args = read_model_args(config);
    data::SegmentationData data = data::load_segmentation_data(
        config.labelled_data, system::usable_cpu_cores(), config.max_image_pixels);
    const nlohmann::json transform_args = sized_transform_args(
        config.transform_args, [&data] { return data::sampled_image_sizes(data.train.paths); });
    const data::TransformArgs train_transform =
        data::finetune_transform(transform_args, true, kMinCropScale);
    const data::TransformArgs val_transform =
        data::finetune_transform(transform_args, false, kMinCropScale);
    model_ = make_segmenter(config, args, static_cast<std::int64_t>(data.classes.size()),
                            train_transform.num_channels);
    set_up(model_.ptr(), {data.classes, false},
           std::make_shared<data::SegmentedSamples>(std::move(data.train), data.ignore_index,
                                                    train_transform, data.max_mask_pixels),
           std::make_shared<data::SegmentedSamples>(std::move(data.val), data.ignore_index,
                                                    val_transform, data.max_mask_pixels));
    load_initial_weights(config, args.backbone_weights, model_->backbone());
    check_watch_metric(config.watch_metric);
}

SegmentationTask::SegmentationTask(const TrainConfig& config, Labels labels) {
    const data::TransformArgs transform =
        data::finetune_transform(config.transform_args, false, kMinCropScale);
    model_ =
        make_segmenter(config, read_model_args(config),
                       static_cast<std::int64_t>(labels.classes.size()), transform.num_channels);
    set_up(model_.ptr(), std::move(labels));
}

at::Tensor SegmentationTask::forward(const at::Tensor& images) {
    return model_->forward(images);
}

// The mean over the pixels that count; 0 (not NaN) for a batch whose pixels are all ignored.
at::Tensor SegmentationTask::loss(const at::Tensor& logits, const at::Tensor& targets) {
    const at::Tensor summed = torch::nn::functional::cross_entropy(
        logits.to(torch::kFloat32), targets,
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-1).reduction(torch::kSum));
    return summed / targets.ge(0).sum().clamp_min(1).to(torch::kFloat32);
}

std::int64_t SegmentationTask::count_size() const {
    const auto classes = static_cast<std::int64_t>(this->classes().size());
    return classes * classes;
}

at::Tensor SegmentationTask::validation_counts(const at::Tensor& logits,
                                               const at::Tensor& targets) {
    const auto classes = static_cast<std::int64_t>(this->classes().size());
    const at::Tensor counted = targets.ge(0);
    const at::Tensor pairs =
        targets.masked_select(counted) * classes + logits.argmax(1).masked_select(counted);
    return torch::bincount(pairs, {}, classes * classes).to(torch::kFloat64);
}

std::vector<double> SegmentationTask::confusion_counts(const std::vector<double>& counts) const {
    return counts; // all of them: pixels of true class r predicted as c
}

MetricValues SegmentationTask::metrics(const std::vector<double>& counts) const {
    const int classes = static_cast<int>(this->classes().size());
    eval::ConfusionMatrix matrix(classes);
    matrix.add(std::vector<std::int64_t>(counts.begin(), counts.end()));
    const eval::SegmentationMetrics result = eval::segmentation_metrics(matrix);
    MetricValues values = {{"val_metric/miou", result.miou},
                           {"val_metric/pixel_acc", result.pixel_acc}};
    for (int c = 0; c < classes; ++c) {
        if (!std::isnan(result.per_class_iou[c])) {
            values.emplace_back(track::per_class_metric("iou", this->classes()[c]),
                                result.per_class_iou[c]);
        }
    }
    return values;
}

std::optional<PredictionPreview> SegmentationTask::preview(const at::Tensor& logits,
                                                           const at::Tensor& target) const {
    // Every step-th pixel, so that a preview stays small whatever the image size; class ids
    // beyond 254 show as ignored.
    const std::int64_t side = std::max(target.size(0), target.size(1));
    const std::int64_t step =
        (side + PredictionPreviews::kMaskSide - 1) / PredictionPreviews::kMaskSide;
    const auto shrink = [step](const at::Tensor& mask) {
        return mask.slice(0, 0, std::nullopt, step)
            .slice(1, 0, std::nullopt, step)
            .clamp(0, 255)
            .to(torch::kUInt8)
            .cpu()
            .contiguous();
    };
    const at::Tensor truth = shrink(target);
    const at::Tensor predicted = shrink(logits.argmax(0));
    PredictionPreview shown;
    shown.mask_height = static_cast<int>(truth.size(0));
    shown.mask_width = static_cast<int>(truth.size(1));
    shown.true_mask.assign(truth.data_ptr<std::uint8_t>(),
                           truth.data_ptr<std::uint8_t>() + truth.numel());
    shown.predicted_mask.assign(predicted.data_ptr<std::uint8_t>(),
                                predicted.data_ptr<std::uint8_t>() + predicted.numel());
    return shown;
}

} // namespace kiln::train
