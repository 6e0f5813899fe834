#pragma once

#include "data/view_transform.h"
#include "models/classifier.h"
#include "train/finetuning_task.h"

namespace kiln::train {

// A batch after mixup or cutmix: images [B, C, H, W] and soft targets [B, classes].
struct MixedBatch {
    at::Tensor images;
    at::Tensor targets;
    double share = 1.0; // of the original images in each mixed one (1: left as they were)
};

// `images` mixed with the batch in reverse order, and the soft `targets` [B, classes] in the
// same shares, as `mixing` says; the draws come from LibTorch's default generator (seeded by
// the run, saved with checkpoints).
MixedBatch mix_batch(const at::Tensor& images, const at::Tensor& targets,
                     const data::BatchMixing& mixing);

// Image classification: a backbone with a linear or MLP head. Single-label: cross-entropy,
// validated by top-1 and top-5 accuracy, per-class accuracy and macro F1, precision, recall.
// Multilabel (a CSV giving images several labels or none): binary cross-entropy per class,
// validated by micro and macro F1 at 0.5 and mAP, best.ckpt by mAP unless told otherwise.
class ClassificationTask : public FinetuningTask {
public:
    // Reads config.labelled_data (scanning both splits) and builds config.model with
    // model_args' head. Bad settings and bad data are kiln::Errors raised before anything is
    // written.
    explicit ClassificationTask(const TrainConfig& config);
    // The model alone, for prediction: the labels as the checkpoint names them.
    ClassificationTask(const TrainConfig& config, Labels labels);

    at::Tensor forward(const at::Tensor& images) override;
    // With model_args.label_smoothing or transform_args' mixup/cutmix, against soft targets;
    // validation's loss is always the plain one.
    at::Tensor training_loss(const data::Batch& batch, const Placement& placement) override;
    std::string watch_metric(const std::string& configured) const override;

private:
    at::Tensor loss(const at::Tensor& logits, const at::Tensor& targets) override;
    at::Tensor validation_counts(const at::Tensor& logits, const at::Tensor& targets) override;
    std::int64_t count_size() const override;
    MetricValues metrics(const std::vector<double>& counts) const override;
    std::vector<double> confusion_counts(const std::vector<double>& counts) const override;
    std::optional<PredictionPreview> preview(const at::Tensor& logits,
                                             const at::Tensor& target) const override;

    models::Classifier model_{nullptr};
    data::BatchMixing mixing_;
    double label_smoothing_ = 0.0;
};

} // namespace kiln::train
