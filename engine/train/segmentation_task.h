#pragma once

#include "models/segmenter.h"
#include "train/finetuning_task.h"

namespace kiln::train {

// Semantic segmentation: a backbone with a light decoder, per-pixel cross-entropy that skips
// the ignore index, validated by mIoU, per-class IoU and pixel accuracy.
class SegmentationTask : public FinetuningTask {
public:
    // Reads config.labelled_data (checking every mask) and builds config.model with a decoder.
    // Bad settings and bad data are kiln::Errors raised before anything is written.
    explicit SegmentationTask(const TrainConfig& config);
    // The model alone, for prediction.
    SegmentationTask(const TrainConfig& config, Labels labels);

    at::Tensor forward(const at::Tensor& images) override;

private:
    at::Tensor loss(const at::Tensor& logits, const at::Tensor& targets) override;
    at::Tensor validation_counts(const at::Tensor& logits, const at::Tensor& targets) override;
    std::int64_t count_size() const override;
    MetricValues metrics(const std::vector<double>& counts) const override;
    std::vector<double> confusion_counts(const std::vector<double>& counts) const override;
    std::optional<PredictionPreview> preview(const at::Tensor& logits,
                                             const at::Tensor& target) const override;

    models::Segmenter model_{nullptr};
};

} // namespace kiln::train
