#pragma once

#include "config/run_config.h"
#include "data/labelled_data.h"
#include "data/sample_source.h"
#include "train/task.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>

namespace kiln::models {
class WeightsFile;
}

namespace kiln::train {

// What the supervised tasks share: a model over one view of labelled images, a loss against
// the batch's targets, validation over the val split through counts that sum over ranks (a
// confusion matrix and the like), class names saved with the weights, and AdamW by default.
// ClassificationTask and SegmentationTask fill in the model, the loss and the metrics.
class FinetuningTask : public Task {
public:
    torch::nn::Module& module() override { return *model_; }
    std::int64_t dataset_size() const override { return train_->size(); }
    std::uint64_t dataset_fingerprint() const override; // of the images' file names
    std::vector<data::ViewShape> training_views() const override {
        return train_ ? train_->view_shapes() : std::vector<data::ViewShape>{};
    }
    std::unique_ptr<data::Loader> make_loader(const data::LoaderOptions& options,
                                              StopToken stop) override;
    at::Tensor training_loss(const data::Batch& batch, const Placement& placement) override;
    bool validates() const override { return true; }
    Validation validate(const ValidationContext& context) override;
    void save(models::Archive& archive) override;
    void load(const models::Archive& archive) override;
    void export_model(const std::filesystem::path& file) override;
    void resolve_settings(TrainConfig& config) const override;
    std::vector<std::vector<at::Tensor>> backbone_layers() override;

    const data::ClassNames& classes() const { return classes_; }
    // The model's outputs for a batch of images already placed: logits.
    virtual at::Tensor forward(const at::Tensor& images) = 0;

    // What a fine-tuning checkpoint's labels were: its class names and whether an image could
    // have several (its "model" entry holds both).
    struct Labels {
        data::ClassNames classes;
        bool multilabel = false;
    };
    // The labels a checkpoint's "model" archive names; a kiln::Error when it names none.
    static Labels archived_labels(const models::Archive& model);
    bool multilabel() const { return multilabel_; }

protected:
    // Takes what the subclass built: its model and labels, and for training its splits.
    void set_up(std::shared_ptr<torch::nn::Module> model, Labels labels,
                std::shared_ptr<const data::SampleSource> train = nullptr,
                std::shared_ptr<const data::SampleSource> val = nullptr);
    // Throws ConfigError when watch_metric (as the task reads it) is none of its metrics:
    // checked when the task is set up, before anything is written.
    void check_watch_metric(const std::string& configured) const;
    // A training run's starting weights: `backbone_weights` (model_args) into `backbone`, then
    // config.checkpoint into the whole model; `backbone` is the part backbone_layers() names.
    void load_initial_weights(const TrainConfig& config, const std::string& backbone_weights,
                              models::BackboneImpl& backbone);

    // A batch's images and targets where the placement says.
    static std::pair<at::Tensor, at::Tensor> placed(const data::Batch& batch,
                                                    const Placement& placement);

    virtual at::Tensor loss(const at::Tensor& logits, const at::Tensor& targets) = 0;
    // validate() as classification and segmentation use it: val_loss, then counts summed over
    // batches and ranks. The counts of one validation batch that metrics() needs, as
    // count_size() float64 values on the batch's device (none by default).
    virtual at::Tensor validation_counts(const at::Tensor& logits, const at::Tensor& targets);
    virtual std::int64_t count_size() const { return 0; }
    // The metrics from the summed counts, under val_metric/... names.
    virtual MetricValues metrics(const std::vector<double>& counts) const {
        (void)counts;
        return {};
    }
    // The confusion matrix within the summed counts (classes x classes, row = true class), for
    // the tasks that count one; empty by default.
    virtual std::vector<double> confusion_counts(const std::vector<double>& counts) const {
        (void)counts;
        return {};
    }
    // What validate() shows of one validation sample: the labels and the prediction from its
    // logits and target (on any device), without the image's path. Only the tasks that use
    // this validate() override it; none is shown otherwise.
    virtual std::optional<PredictionPreview> preview(const at::Tensor& logits,
                                                     const at::Tensor& target) const {
        (void)logits;
        (void)target;
        return std::nullopt;
    }
    // The names validate() reports besides val_loss, for checking watch_metric: those of
    // metrics() by default.
    virtual std::vector<std::string> metric_names() const;

    // `transform_args` with image_size=auto replaced by the size the training images call for
    // (data::auto_image_size of `sizes()`, logged), kept for resolve_settings().
    nlohmann::json
    sized_transform_args(const nlohmann::json& transform_args,
                         const std::function<std::vector<std::array<int, 2>>()>& sizes);

private:
    nlohmann::json transform_args_; // as sized_transform_args() resolved them
    std::shared_ptr<torch::nn::Module> model_;
    models::BackboneImpl* backbone_ = nullptr; // within model_; set for training runs
    data::ClassNames classes_;
    bool multilabel_ = false;
    std::shared_ptr<const data::SampleSource> train_;
    std::shared_ptr<const data::SampleSource> val_;
};

// `model_args.backbone_weights`: a Kiln checkpoint, an exported model, or a run folder (its
// exported_last.pt, else its last.ckpt). Returns the file to load; kiln::Error when none.
std::filesystem::path backbone_weights_file(const std::filesystem::path& given);

// The fine-tuning task a Kiln checkpoint was trained for, built from the settings it stores, with
// its weights and labels, for inference; `trained` receives those settings. A pretraining
// checkpoint or a file that is not a Kiln checkpoint is a kiln::Error naming it and the fix.
std::unique_ptr<FinetuningTask> load_finetuning_task(const models::WeightsFile& checkpoint,
                                                     TrainConfig* trained = nullptr);
// The same, of the file at `checkpoint` (read for this call only).
std::unique_ptr<FinetuningTask> load_finetuning_task(const std::filesystem::path& checkpoint,
                                                     TrainConfig* trained = nullptr);

} // namespace kiln::train
