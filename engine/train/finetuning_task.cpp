#include "train/finetuning_task.h"

#include "core/error.h"
#include "core/log.h"
#include "data/dataset_index.h"
#include "data/image_sizes.h"
#include "data/loader.h"
#include "models/backbone.h"
#include "models/checkpoint_file.h"
#include "models/torch_file.h"
#include "runtime/cuda_device.h"
#include "track/run_directory.h"

#include <torch/types.h>

namespace kiln::train {

namespace fs = std::filesystem;

fs::path backbone_weights_file(const fs::path& given) {
    std::error_code error;
    if (fs::is_directory(given, error)) {
        if (fs::path model = track::RunDirectory(given).pretrained_model(); !model.empty()) {
            return model;
        }
        throw Error("model_args.backbone_weights: the folder \"" + given.string() +
                    "\" holds neither exported_models/exported_last.pt nor "
                    "checkpoints/last.ckpt; give a pretraining run folder or a model file");
    }
    if (!fs::is_regular_file(given, error)) {
        throw Error("model_args.backbone_weights: \"" + given.string() +
                    "\" does not exist; give a pretraining run folder, a checkpoint or an "
                    "exported model");
    }
    return given;
}

void FinetuningTask::set_up(std::shared_ptr<torch::nn::Module> model, Labels labels,
                            std::shared_ptr<const data::SampleSource> train,
                            std::shared_ptr<const data::SampleSource> val) {
    model_ = std::move(model);
    classes_ = std::move(labels.classes);
    multilabel_ = labels.multilabel;
    train_ = std::move(train);
    val_ = std::move(val);
}

std::uint64_t FinetuningTask::dataset_fingerprint() const {
    data::NamesFingerprint names;
    for (std::int64_t i = 0; i < train_->size(); ++i) {
        names.add(train_->image_path(i).filename().string());
    }
    return names.value();
}

void FinetuningTask::load_initial_weights(const TrainConfig& config,
                                          const std::string& backbone_weights,
                                          models::BackboneImpl& backbone) {
    backbone_ = &backbone;
    if (!backbone_weights.empty()) {
        const fs::path weights = backbone_weights_file(backbone_weights);
        models::load_backbone_weights(backbone, weights);
        log::info("backbone weights from " + weights.string());
    }
    if (config.checkpoint) { // weights only: the whole model of an earlier fine-tuning run
        const std::optional<models::Archive> checkpoint =
            models::read_checkpoint_file(*config.checkpoint);
        if (!checkpoint || !checkpoint->contains(models::checkpoint_key::kModel)) {
            throw Error("checkpoint \"" + config.checkpoint->string() +
                        "\" is not a Kiln checkpoint; give a checkpoint of the same task, model "
                        "and classes, or start from a backbone with model_args.backbone_weights");
        }
        load(checkpoint->child(models::checkpoint_key::kModel));
    }
}

std::vector<std::vector<at::Tensor>> FinetuningTask::backbone_layers() {
    return backbone_ ? backbone_->layers() : std::vector<std::vector<at::Tensor>>{};
}

std::unique_ptr<data::Loader> FinetuningTask::make_loader(const data::LoaderOptions& options,
                                                          StopToken stop) {
    return std::make_unique<data::Loader>(train_, options, std::move(stop));
}

std::pair<at::Tensor, at::Tensor> FinetuningTask::placed(const data::Batch& batch,
                                                         const Placement& placement) {
    return {runtime::copy_to_device(batch.views.front(), placement.device, placement.dtype,
                                    placement.memory_format),
            runtime::copy_to_device(batch.targets, placement.device, batch.targets.scalar_type())};
}

at::Tensor FinetuningTask::training_loss(const data::Batch& batch, const Placement& placement) {
    const auto [images, targets] = placed(batch, placement);
    return loss(forward(images), targets);
}

Validation FinetuningTask::validate(const ValidationContext& context) {
    data::Loader loader(val_, context.loader, context.stop);
    loader.start_epoch(0);
    const Placement& placement = context.placement;
    // [0]: summed loss, [1]: samples, then the task's counts; the same length on every rank,
    // even one whose share is empty.
    at::Tensor totals;
    // The same images at every validation, in the order of the picks.
    const std::vector<std::int64_t> picks = val_->preview_indices(PredictionPreviews::kImages);
    std::vector<std::optional<PredictionPreview>> shown(picks.size());
    while (std::optional<data::Batch> batch = loader.next()) {
        const auto [images, targets] = placed(*batch, placement);
        const at::Tensor logits = forward(images);
        for (std::size_t i = 0; context.reports && i < batch->indices.size(); ++i) {
            const auto pick = std::find(picks.begin(), picks.end(), batch->indices[i]);
            if (pick != picks.end()) {
                std::optional<PredictionPreview>& slot = shown[std::size_t(pick - picks.begin())];
                slot = preview(logits[std::int64_t(i)], targets[std::int64_t(i)]);
                if (slot) {
                    slot->image = val_->image_path(batch->indices[i]);
                }
            }
        }
        const double samples = double(targets.size(0));
        const at::Tensor batch_totals = torch::cat(
            {(loss(logits, targets).to(torch::kFloat64) * samples).reshape({1}),
             torch::full({1}, samples, torch::dtype(torch::kFloat64).device(placement.device)),
             validation_counts(logits, targets)});
        totals = totals.defined() ? totals + batch_totals : batch_totals;
    }
    if (!totals.defined()) { // this rank's share was empty
        totals = torch::zeros({2 + count_size()},
                              torch::dtype(torch::kFloat64).device(placement.device));
    }
    if (context.sum_over_ranks) {
        context.sum_over_ranks(totals);
    }
    const at::Tensor host = totals.cpu();
    const std::vector<double> all(host.data_ptr<double>(), host.data_ptr<double>() + host.numel());
    MetricValues values = {{"val_loss", all[1] > 0 ? all[0] / all[1] : 0.0}};
    const MetricValues task_values = metrics(std::vector<double>(all.begin() + 2, all.end()));
    values.insert(values.end(), task_values.begin(), task_values.end());
    Validation validation{std::move(values), {}, {}, {}, {}};
    PredictionPreviews previews;
    for (std::optional<PredictionPreview>& preview : shown) {
        if (preview) { // none for an image that could not be read
            previews.images.push_back(std::move(*preview));
        }
    }
    if (!previews.images.empty()) {
        previews.classes = classes_;
        validation.previews = std::move(previews);
    }
    const std::vector<double> confusion =
        confusion_counts(std::vector<double>(all.begin() + 2, all.end()));
    if (!confusion.empty()) {
        validation.confusion.classes = classes_;
        validation.confusion.counts.assign(confusion.begin(), confusion.end());
    }
    return validation;
}

void FinetuningTask::save(models::Archive& archive) {
    models::save_module(*model_, archive);
    archive.write(models::checkpoint_key::kClasses, c10::IValue(c10::List<std::string>(classes_)));
    archive.write(models::checkpoint_key::kMultilabel, c10::IValue(multilabel_));
}

FinetuningTask::Labels FinetuningTask::archived_labels(const models::Archive& model) {
    if (!model.contains(models::checkpoint_key::kClasses)) {
        throw Error("\"" + model.file().string() +
                    "\" is not a Kiln fine-tuning checkpoint (it names no classes); give the "
                    "checkpoints/best.ckpt or last.ckpt of a fine-tuning run");
    }
    Labels labels;
    labels.classes = model.texts(models::checkpoint_key::kClasses);
    // Absent in the first fine-tuning checkpoints: single-label.
    const std::optional<c10::IValue> multilabel = model.find(models::checkpoint_key::kMultilabel);
    labels.multilabel = multilabel && multilabel->isBool() && multilabel->toBool();
    return labels;
}

namespace {

std::string listed(const data::ClassNames& classes) {
    std::string text;
    for (const std::string& name : classes) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return "[" + text + "]";
}

} // namespace

void FinetuningTask::load(const models::Archive& archive) {
    // A head for other classes is refused by its labels, before any shape is compared.
    const Labels saved = archived_labels(archive);
    if (saved.classes != classes_ || saved.multilabel != multilabel_) {
        throw Error("the checkpoint's model was trained for the classes " + listed(saved.classes) +
                    " but this run has " + listed(classes_) +
                    "; give the same data.classes, or start from its backbone with "
                    "model_args.backbone_weights");
    }
    models::load_module(*model_, archive);
}

at::Tensor FinetuningTask::validation_counts(const at::Tensor& logits, const at::Tensor&) {
    return torch::zeros({0}, torch::dtype(torch::kFloat64).device(logits.device()));
}

std::vector<std::string> FinetuningTask::metric_names() const {
    std::vector<std::string> names;
    for (const auto& [name, value] :
         metrics(std::vector<double>(static_cast<std::size_t>(count_size())))) {
        names.push_back(name);
    }
    return names;
}

void FinetuningTask::check_watch_metric(const std::string& configured) const {
    // A val_metric/ key (higher is better: best.ckpt keeps the highest), as the settings'
    // check requires; this one knows the task's metrics.
    const std::string watched = watch_metric(configured);
    std::string known;
    bool found = false;
    for (const std::string& name : metric_names()) {
        found = found || name == watched;
        known += (known.empty() ? "" : ", ") + name;
    }
    if (!found) {
        throw ConfigError(
            {{"watch_metric",
              "\"" + watched + "\" is not a metric of this task; choose one of " + known}});
    }
}

nlohmann::json FinetuningTask::sized_transform_args(
    const nlohmann::json& transform_args,
    const std::function<std::vector<std::array<int, 2>>()>& sizes) {
    transform_args_ = data::with_resolved_image_size(
        transform_args, [&sizes] { return data::auto_image_size(sizes()); });
    return transform_args_;
}

void FinetuningTask::resolve_settings(TrainConfig& config) const {
    if (!transform_args_.is_null()) {
        config.transform_args = transform_args_;
    }
}

void FinetuningTask::export_model(const fs::path& file) {
    c10::Dict<std::string, at::Tensor> state;
    const auto add = [&state](const std::string& name, const at::Tensor& tensor) {
        const at::Tensor value = tensor.detach().cpu();
        state.insert(name,
                     (value.is_floating_point() ? value.to(torch::kFloat32) : value).contiguous());
    };
    for (const auto& item : model_->named_parameters()) {
        add(item.key(), item.value());
    }
    for (const auto& item : model_->named_buffers()) {
        add(item.key(), item.value());
    }
    models::write_torch_file(file, c10::IValue(state));
}

} // namespace kiln::train
