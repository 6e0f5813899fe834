#pragma once

#include "methods/method_names.h"
#include "models/backbone.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <torch/nn/module.h>
#include <vector>

namespace kiln::distributed {
class ProcessGroup;
}

namespace kiln::methods {

// A self-supervised method: a backbone, the heads it trains through, and its loss.
class MethodImpl : public torch::nn::Module {
public:
    explicit MethodImpl(models::Backbone backbone);

    // The backbone that trains.
    const models::Backbone& backbone() const { return backbone_; }
    // The backbone the run hands back (exported, monitored): the trained one, or an EMA
    // teacher where the method keeps one (DINO), as DINO and LightlyTrain evaluate and export.
    virtual models::BackboneImpl& result_backbone() { return *backbone_; }

    // Before each optimizer step's batches, with the fraction of training done, in [0, 1]:
    // schedules (teacher temperature, EMA momentum) follow it.
    void set_progress(double progress) { progress_ = progress; }

    // The loss of one batch given as its views (each [B, C, H, W]).
    virtual torch::Tensor training_loss(const std::vector<torch::Tensor>& views) = 0;
    // Between backward and the optimizer step (e.g. to hold a layer still at first).
    virtual void before_optimizer_step() {}
    // After every optimizer step: EMA teachers and running statistics advance here.
    virtual void after_optimizer_step() {}
    // After the backbone's weights were replaced from a file (`checkpoint=`).
    virtual void backbone_weights_loaded() {}
    // In a distributed run: the ranks whose batches together form the global batch (SimCLR's
    // negatives, DINO's center and the distillation queue come from all of them).
    void set_process_group(distributed::ProcessGroup* group) { group_ = group; }

protected:
    models::Backbone backbone_;
    double progress_ = 0.0;
    distributed::ProcessGroup* group_ = nullptr; // none in a single-process run
};
using Method = std::shared_ptr<MethodImpl>;

// simclr, dino. Bad method_args are a kiln::ConfigError naming each key; an unknown method a
// kiln::Error listing the valid ones.
Method make_method(const std::string& name, const std::string& model,
                   const nlohmann::json& method_args, std::int64_t dataset_size,
                   std::int64_t in_channels = 3);

// DINO's schedules, from the fraction of training done: the teacher temperature warms up
// linearly over the first `warmup_fraction`, the EMA momentum follows a cosine from `start` to
// `end`.
double dino_teacher_temperature(double progress, double warmup_temperature, double temperature,
                                double warmup_fraction);
double cosine_momentum(double progress, double start, double end);

// SimCLR's NT-Xent loss of two batches of embeddings: each sample's positive is its other view,
// the other 2N - 2 embeddings are its negatives. With a process group, the embeddings of every
// rank are gathered (with their gradients) and N is the global batch, so the loss equals the
// single-process loss on the global batch.
torch::Tensor nt_xent_loss(const torch::Tensor& first, const torch::Tensor& second,
                           double temperature, distributed::ProcessGroup* group = nullptr);

// How far features [B, D] are from varying alike in every direction: the squared Frobenius
// distance of their covariance, divided by its mean variance, from the identity, per dimension
// (0 for features whose covariance is a multiple of I). SimCLR's `decorrelation` adds it, on the
// backbone's features of each view: cosine kNN on them then weighs every direction alike, as
// whitening does after the fact.
torch::Tensor anisotropy(const torch::Tensor& features);

// Distillation's regression: the mean over rows (and locations, for maps [B, C, H, W]) of the
// squared distance between the L2-normalised student and teacher vectors along dimension 1,
// 2 - 2 cos. patch_distance first resizes the teacher's map to the student's (bilinear).
torch::Tensor normalised_distance(const torch::Tensor& student, const torch::Tensor& teacher);
torch::Tensor patch_distance(const torch::Tensor& student, const torch::Tensor& teacher);

} // namespace kiln::methods
