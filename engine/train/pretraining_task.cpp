#include "train/pretraining_task.h"

#include "data/image_sizes.h"
#include "methods/method_names.h"
#include "models/archive.h"
#include "models/backbone.h"
#include "runtime/cuda_device.h"

namespace kiln::train {
namespace {

// The sizes of up to 256 of the images, evenly spread.
std::vector<std::array<int, 2>> sampled_sizes(const data::DatasetIndex& index) {
    constexpr std::size_t kSample = 256;
    std::vector<std::filesystem::path> paths;
    const std::size_t count = std::min(kSample, index.size());
    for (std::size_t i = 0; i < count; ++i) {
        paths.push_back(index.path(i * index.size() / count));
    }
    return data::sampled_image_sizes(paths, kSample);
}

} // namespace

PretrainingTask::PretrainingTask(const TrainConfig& config)
    : index_(data::DatasetIndex::scan(config.data)),
      transform_args_(data::with_resolved_image_size(
          config.transform_args,
          [this] { return data::auto_view_size(sampled_sizes(index_), data::kMethodViewSide); })),
      transform_(data::recipe_transform(methods::view_recipe(config.method), transform_args_)),
      method_(methods::make_method(config.method, config.model, config.method_args,
                                   static_cast<std::int64_t>(index_.size()),
                                   transform_.num_channels)) {
    if (config.checkpoint) { // weights only: a fresh run from pretrained weights
        models::load_backbone_weights(*method_->backbone(), *config.checkpoint);
        method_->backbone_weights_loaded();
    }
    if (config.knn_monitor.enabled()) {
        monitor_.emplace(config.knn_monitor, transform_, config.precision,
                         method_->backbone()->feature_dim());
    }
}

void PretrainingTask::resolve_settings(TrainConfig& config) const {
    config.transform_args = data::with_resolved_view_counts(methods::view_recipe(config.method),
                                                            transform_args_, transform_);
    config.method_args =
        methods::with_resolved_scaling(config.method, config.method_args, dataset_size());
}

void PretrainingTask::set_process_group(distributed::ProcessGroup* group) {
    method_->set_process_group(group);
}

torch::nn::Module& PretrainingTask::module() {
    return *method_;
}

std::int64_t PretrainingTask::dataset_size() const {
    return static_cast<std::int64_t>(index_.size());
}

std::unique_ptr<data::Loader> PretrainingTask::make_loader(const data::LoaderOptions& options,
                                                           StopToken stop) {
    return std::make_unique<data::Loader>(index_, transform_, options, std::move(stop));
}

void PretrainingTask::set_progress(double progress) {
    method_->set_progress(progress);
}

at::Tensor PretrainingTask::training_loss(const data::Batch& batch, const Placement& placement) {
    std::vector<at::Tensor> views;
    views.reserve(batch.views.size());
    for (const at::Tensor& view : batch.views) {
        views.push_back(runtime::copy_to_device(view, placement.device, placement.dtype,
                                                placement.memory_format));
    }
    return method_->training_loss(views);
}

void PretrainingTask::before_optimizer_step() {
    method_->before_optimizer_step();
}

void PretrainingTask::after_optimizer_step() {
    method_->after_optimizer_step();
}

Validation PretrainingTask::validate(const ValidationContext& context) {
    Validation validation;
    validation.values = monitor_->evaluate(method_->result_backbone(), context);
    return validation;
}

std::string PretrainingTask::watch_metric(const std::string& configured) const {
    (void)configured; // pretraining has no watch_metric setting: the monitor's top-1 picks
    return "val_metric/knn_top1";
}

void PretrainingTask::save(models::Archive& archive) {
    models::save_module(*method_, archive);
}

void PretrainingTask::load(const models::Archive& archive) {
    models::load_module(*method_, archive);
}

void PretrainingTask::export_model(const std::filesystem::path& file) {
    models::save_backbone_weights(method_->result_backbone(), file);
}

} // namespace kiln::train
