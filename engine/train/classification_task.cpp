#include "train/classification_task.h"

#include "core/error.h"
#include "data/image_sizes.h"
#include "data/labelled_samples.h"
#include "data/view_transform.h"
#include "eval/confusion_matrix.h"
#include "eval/multilabel_metrics.h"

#include <algorithm>
#include <cmath>
#include <torch/nn/functional/loss.h>
#include <torch/types.h>

namespace kiln::train {
namespace {

struct ClassifierArgs {
    std::string backbone_weights;
    models::ClassifierHead head;
    bool freeze_backbone;
    double label_smoothing;
};

ClassifierArgs read_model_args(const TrainConfig& config) {
    const nlohmann::json args = model_args_or_defaults(config);
    return {.backbone_weights = args.value("backbone_weights", ""),
            .head = args.at("head") == "mlp" ? models::ClassifierHead::Mlp
                                             : models::ClassifierHead::Linear,
            .freeze_backbone = args.at("freeze_backbone").get<bool>(),
            .label_smoothing = args.at("label_smoothing").get<double>()};
}

models::Classifier make_classifier(const TrainConfig& config, const ClassifierArgs& args,
                                   std::int64_t classes, int channels) {
    return models::Classifier(models::make_backbone(config.model, channels), classes, args.head,
                              args.freeze_backbone);
}

// A share ~ Beta(alpha, alpha), from two gamma draws.
double beta_share(double alpha) {
    const at::Tensor gammas = at::_standard_gamma(torch::full({2}, alpha, torch::kFloat64));
    const double first = gammas[0].item<double>();
    const double total = first + gammas[1].item<double>();
    return total > 0 ? first / total : 0.5;
}

MixedBatch cut_mix(const at::Tensor& images, const at::Tensor& targets, const at::Tensor& partner,
                   const at::Tensor& partner_targets, double alpha) {
    const std::int64_t height = images.size(2);
    const std::int64_t width = images.size(3);
    const double cut = std::sqrt(1.0 - beta_share(alpha)); // the box's side, as a share
    const at::Tensor centre = torch::rand({2}, torch::kFloat64);
    const auto span = [&](double middle, std::int64_t side) {
        const double half = cut * double(side) / 2.0;
        const auto from = std::clamp<std::int64_t>(std::llround(middle * side - half), 0, side);
        const auto to = std::clamp<std::int64_t>(std::llround(middle * side + half), 0, side);
        return std::pair{from, to};
    };
    const auto [y0, y1] = span(centre[0].item<double>(), height);
    const auto [x0, x1] = span(centre[1].item<double>(), width);
    at::Tensor mixed = images.clone();
    using torch::indexing::Slice;
    mixed.index_put_({Slice(), Slice(), Slice(y0, y1), Slice(x0, x1)},
                     partner.index({Slice(), Slice(), Slice(y0, y1), Slice(x0, x1)}));
    const double share = 1.0 - double((y1 - y0) * (x1 - x0)) / double(height * width);
    return {mixed, targets * share + partner_targets * (1.0 - share), share};
}

} // namespace

MixedBatch mix_batch(const at::Tensor& images, const at::Tensor& targets,
                     const data::BatchMixing& mixing) {
    if (images.size(0) < 2 || !mixing.enabled()) {
        return {images, targets, 1.0};
    }
    const at::Tensor draws = torch::rand({2}, torch::kFloat64);
    const at::Tensor partner = images.flip(0);
    const at::Tensor partner_targets = targets.flip(0);
    if (draws[0].item<double>() < mixing.cutmix_prob) {
        return cut_mix(images, targets, partner, partner_targets, mixing.cutmix_alpha);
    }
    if (draws[1].item<double>() < mixing.mixup_prob) {
        const double share = beta_share(mixing.mixup_alpha);
        return {images * share + partner * (1.0 - share),
                targets * share + partner_targets * (1.0 - share), share};
    }
    return {images, targets, 1.0};
}

ClassificationTask::ClassificationTask(const TrainConfig& config) {
    const ClassifierArgs args = read_model_args(config);
    data::ClassificationData data = data::load_classification_data(
        config.labelled_data, static_cast<std::uint64_t>(config.seed));
    const nlohmann::json transform_args = sized_transform_args(
        config.transform_args, [&data] { return data::sampled_image_sizes(data.train.paths); });
    data::TransformArgs val_transform =
        data::finetune_transform(transform_args, false, 0.08, {.batch_mixing = true});
    const data::ViewArgs& whole = val_transform.views.front();
    data::TransformArgs train_transform = data::finetune_transform(
        transform_args, true, data::classification_min_scale(whole.height, whole.width),
        {.batch_mixing = true});
    if (data.classes.size() < 2) {
        throw Error("data: classification needs at least two classes, found " +
                    std::to_string(data.classes.size()) + "; add class folders or labels");
    }
    const int channels = train_transform.num_channels;
    const auto classes = static_cast<std::int64_t>(data.classes.size());
    model_ = make_classifier(config, args, classes, channels);
    const std::int64_t multi_hot = data.multilabel ? classes : 0;
    set_up(
        model_.ptr(), {data.classes, data.multilabel},
        std::make_shared<data::ClassifiedSamples>(std::move(data.train), train_transform,
                                                  multi_hot),
        std::make_shared<data::ClassifiedSamples>(std::move(data.val), val_transform, multi_hot));
    load_initial_weights(config, args.backbone_weights, model_->backbone());
    check_watch_metric(config.watch_metric);
    mixing_ = train_transform.mixing;
    label_smoothing_ = args.label_smoothing;
}

ClassificationTask::ClassificationTask(const TrainConfig& config, Labels labels) {
    const data::TransformArgs transform =
        data::finetune_transform(config.transform_args, false, 0.08, {.batch_mixing = true});
    model_ =
        make_classifier(config, read_model_args(config),
                        static_cast<std::int64_t>(labels.classes.size()), transform.num_channels);
    set_up(model_.ptr(), std::move(labels));
}

std::string ClassificationTask::watch_metric(const std::string& configured) const {
    const bool default_metric =
        configured == task_traits(TaskKind::ImageClassification).watch_metric;
    return multilabel() && default_metric ? "val_metric/map" : configured;
}

at::Tensor ClassificationTask::forward(const at::Tensor& images) {
    return model_->forward(images);
}

at::Tensor ClassificationTask::training_loss(const data::Batch& batch, const Placement& placement) {
    if (!mixing_.enabled() && label_smoothing_ == 0.0) {
        return FinetuningTask::training_loss(batch, placement);
    }
    const auto [images, targets] = placed(batch, placement);
    const auto classes = static_cast<std::int64_t>(this->classes().size());
    const at::Tensor soft = multilabel() ? targets.to(torch::kFloat32)
                                         : torch::one_hot(targets, classes).to(torch::kFloat32);
    const MixedBatch mixed = mix_batch(images, soft, mixing_);
    const at::Tensor logits = forward(mixed.images).to(torch::kFloat32);
    namespace F = torch::nn::functional;
    if (multilabel()) { // smoothing pulls each class's target towards one half
        const at::Tensor smoothed = mixed.targets * (1.0 - label_smoothing_) + label_smoothing_ / 2;
        return F::binary_cross_entropy_with_logits(logits, smoothed);
    }
    return F::cross_entropy(logits, mixed.targets,
                            F::CrossEntropyFuncOptions().label_smoothing(label_smoothing_));
}

at::Tensor ClassificationTask::loss(const at::Tensor& logits, const at::Tensor& targets) {
    if (multilabel()) {
        return torch::nn::functional::binary_cross_entropy_with_logits(logits.to(torch::kFloat32),
                                                                       targets.to(torch::kFloat32));
    }
    return torch::nn::functional::cross_entropy(logits.to(torch::kFloat32), targets);
}

std::int64_t ClassificationTask::count_size() const {
    const auto classes = static_cast<std::int64_t>(this->classes().size());
    if (multilabel()) {
        return eval::multilabel_count_size(static_cast<int>(classes));
    }
    return classes * classes + 1; // the confusion matrix, then the top-5 hits
}

at::Tensor ClassificationTask::validation_counts(const at::Tensor& logits,
                                                 const at::Tensor& targets) {
    const auto classes = static_cast<std::int64_t>(this->classes().size());
    if (multilabel()) {
        // Per class TP, FP, FN at 0.5; then per class the score histograms of its positive
        // and negative images.
        const at::Tensor scores = logits.to(torch::kFloat32);
        const at::Tensor truth = targets.to(torch::kBool);
        const at::Tensor predicted = scores.ge(0.0); // sigmoid >= 0.5
        const at::Tensor outcomes = torch::stack(
            {(predicted & truth).sum(0), (predicted & ~truth).sum(0), (~predicted & truth).sum(0)},
            1);
        constexpr double kRange = eval::kMaxBinnedLogit;
        const at::Tensor bins =
            ((scores.clamp(-kRange, kRange) + kRange) * (eval::kScoreBins / (2 * kRange)))
                .to(torch::kInt64)
                .clamp(0, eval::kScoreBins - 1);
        const at::Tensor offsets =
            torch::arange(classes, targets.options()).unsqueeze(0) * (2 * eval::kScoreBins) +
            (~truth).to(torch::kInt64) * eval::kScoreBins;
        const at::Tensor histograms =
            torch::bincount((offsets + bins).flatten(), {}, classes * 2 * eval::kScoreBins);
        return torch::cat({outcomes.flatten().to(torch::kFloat64), histograms.to(torch::kFloat64)});
    }
    const at::Tensor predicted = logits.argmax(1);
    const at::Tensor confusion =
        torch::bincount(targets * classes + predicted, {}, classes * classes);
    const at::Tensor top5 = std::get<1>(logits.topk(std::min<std::int64_t>(5, classes), 1));
    const at::Tensor hits = top5.eq(targets.unsqueeze(1)).any(1).sum().reshape({1});
    return torch::cat({confusion.to(torch::kFloat64), hits.to(torch::kFloat64)});
}

std::vector<double> ClassificationTask::confusion_counts(const std::vector<double>& counts) const {
    if (multilabel()) {
        return {}; // one image may hold several classes: no single true class per row
    }
    const auto classes = static_cast<std::ptrdiff_t>(this->classes().size());
    return {counts.begin(), counts.begin() + classes * classes}; // then the top-5 hits
}

MetricValues ClassificationTask::metrics(const std::vector<double>& counts) const {
    const int classes = static_cast<int>(this->classes().size());
    if (multilabel()) {
        const eval::MultilabelMetrics result = eval::multilabel_metrics(counts, classes);
        MetricValues values = {{"val_metric/f1_micro", result.f1_micro},
                               {"val_metric/f1_macro", result.f1_macro},
                               {"val_metric/map", result.map}};
        for (int c = 0; c < classes; ++c) {
            if (!std::isnan(result.per_class_ap[c])) {
                values.emplace_back(track::per_class_metric("ap", this->classes()[c]),
                                    result.per_class_ap[c]);
            }
        }
        return values;
    }
    eval::ConfusionMatrix matrix(classes);
    matrix.add(std::vector<std::int64_t>(counts.begin(), counts.begin() + classes * classes));
    const eval::ClassificationMetrics result =
        eval::classification_metrics(matrix, static_cast<std::int64_t>(counts.back()));
    MetricValues values = {{"val_metric/top1_acc_micro", result.top1_acc_micro},
                           {"val_metric/top5_acc_micro", result.top5_acc_micro},
                           {"val_metric/top1_acc_macro", result.top1_acc_macro},
                           {"val_metric/f1_macro", result.f1_macro},
                           {"val_metric/precision_macro", result.precision_macro},
                           {"val_metric/recall_macro", result.recall_macro}};
    for (int c = 0; c < classes; ++c) {
        if (!std::isnan(result.per_class_accuracy[c])) {
            values.emplace_back(track::per_class_metric("top1_acc", this->classes()[c]),
                                result.per_class_accuracy[c]);
        }
    }
    return values;
}

std::optional<PredictionPreview> ClassificationTask::preview(const at::Tensor& logits,
                                                             const at::Tensor& target) const {
    const at::Tensor scores = (multilabel() ? logits.sigmoid() : logits.softmax(0))
                                  .to(torch::kFloat32)
                                  .cpu()
                                  .contiguous();
    const float* score = scores.data_ptr<float>();
    const at::Tensor truth = target.to(torch::kFloat32).cpu().contiguous();
    PredictionPreview shown;
    if (multilabel()) { // every class above one half, as the metrics count them
        for (std::int64_t c = 0; c < scores.numel(); ++c) {
            if (truth.data_ptr<float>()[c] > 0.5F) {
                shown.true_classes.push_back(c);
            }
            if (score[c] > 0.5F) {
                shown.predicted_classes.emplace_back(c, score[c]);
            }
        }
    } else {
        shown.true_classes.push_back(static_cast<std::int64_t>(truth.item<float>()));
        const std::int64_t top = scores.argmax().item<std::int64_t>();
        shown.predicted_classes.emplace_back(top, score[top]);
    }
    return shown;
}

} // namespace kiln::train
