#pragma once

#include "config/run_config.h"
#include "data/dataset_index.h"
#include "data/sample_source.h"
#include "data/view_transform.h"
#include "train/knn_monitor.h"
#include "train/task.h"

#include <optional>

namespace kiln::train {

// Self-supervised pretraining: a method (SimCLR, DINO, distillation) over the views of
// unlabelled images; exports the backbone.
class PretrainingTask : public Task {
public:
    // Scans config.data and builds config.method around config.model (with config.checkpoint's
    // weights when given). Bad settings are kiln::Errors, raised before anything is written.
    explicit PretrainingTask(const TrainConfig& config);

    torch::nn::Module& module() override;
    std::int64_t dataset_size() const override;
    std::uint64_t dataset_fingerprint() const override { return index_.fingerprint(); }
    std::vector<data::ViewShape> training_views() const override {
        return data::view_shapes(transform_);
    }
    std::unique_ptr<data::Loader> make_loader(const data::LoaderOptions& options,
                                              StopToken stop) override;
    void set_process_group(distributed::ProcessGroup* group) override;
    void set_progress(double progress) override;
    at::Tensor training_loss(const data::Batch& batch, const Placement& placement) override;
    void before_optimizer_step() override;
    void after_optimizer_step() override;
    void save(models::Archive& archive) override;
    void load(const models::Archive& archive) override;
    void export_model(const std::filesystem::path& file) override;
    // With knn_monitor: validation is the kNN accuracy of the backbone, which picks best.ckpt.
    bool validates() const override { return monitor_.has_value(); }
    Validation validate(const ValidationContext& context) override;
    std::string watch_metric(const std::string& configured) const override;
    // Records the view size image_size=auto resolved to.
    void resolve_settings(TrainConfig& config) const override;

private:
    data::DatasetIndex index_;
    nlohmann::json transform_args_; // config.transform_args, image_size=auto resolved
    data::TransformArgs transform_;
    methods::Method method_;
    std::optional<KnnMonitor> monitor_;
};

} // namespace kiln::train
