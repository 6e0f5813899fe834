#include "core/error.h"
#include "core/text.h"
#include "distributed/process_group.h"
#include "methods/method.h"
#include "methods/method_names.h"
#include "models/batch_norm.h"
#include "models/checkpoint_file.h"

#include <c10/core/impl/LocalDispatchKeySet.h>
#include <cmath>
#include <filesystem>
#include <torch/nn.h>
#include <tuple>

namespace kiln::methods {
namespace {

namespace nn = torch::nn;
namespace F = torch::nn::functional;

constexpr double kPi = 3.14159265358979323846;

// SimCLR (Chen et al. 2020) with LightlyTrain's defaults: a projection head with batch norm to
// 128 dimensions, NT-Xent at temperature 0.1; the head's width and the optimizer per backbone
// family are the method table's.
// Each method's arguments are read from resolve_method_args' values: declared, checked and
// defaulted in the method table (method_names.cpp).
struct SimClrArgs {
    double temperature;
    bool gather_distributed;
    int hidden_dim;
    int output_dim;
    double decorrelation;

    explicit SimClrArgs(const nlohmann::json& values)
        : temperature(values.at("temperature").get<double>()),
          gather_distributed(values.at("gather_distributed").get<bool>()),
          hidden_dim(values.at("hidden_dim").get<int>()),
          output_dim(values.at("output_dim").get<int>()),
          decorrelation(values.at("decorrelation").get<double>()) {}
};

class SimClrImpl : public MethodImpl {
public:
    SimClrImpl(models::Backbone backbone, const SimClrArgs& args)
        : MethodImpl(std::move(backbone)), temperature_(args.temperature),
          gather_distributed_(args.gather_distributed), decorrelation_(args.decorrelation) {
        projection_ = register_module(
            "projection_head", nn::Sequential(nn::Linear(backbone_->feature_dim(), args.hidden_dim),
                                              models::BatchNorm(args.hidden_dim), nn::ReLU(),
                                              nn::Linear(args.hidden_dim, args.output_dim)));
    }

    torch::Tensor training_loss(const std::vector<torch::Tensor>& views) override {
        const std::int64_t batch = views.at(0).size(0);
        const torch::Tensor features = backbone_->forward(torch::cat({views.at(0), views.at(1)}));
        const torch::Tensor embeddings = projection_->forward(features);
        distributed::ProcessGroup* group = gather_distributed_ ? group_ : nullptr;
        torch::Tensor loss = nt_xent_loss(embeddings.narrow(0, 0, batch),
                                          embeddings.narrow(0, batch, batch), temperature_, group);
        if (decorrelation_ > 0) { // of each view's global batch, as one process would see it
            const auto global = [group](const torch::Tensor& rows) {
                return group ? group->all_gather(rows) : rows;
            };
            loss = loss + decorrelation_ * 0.5 *
                              (anisotropy(global(features.narrow(0, 0, batch))) +
                               anisotropy(global(features.narrow(0, batch, batch))));
        }
        return loss;
    }

private:
    double temperature_ = 0.1;
    bool gather_distributed_ = true; // negatives from every rank's batch
    double decorrelation_ = 0.0;
    nn::Sequential projection_{nullptr};
};

// DINO's head: MLP to a 256-d bottleneck, L2-normalised, then a weight-normalised linear layer
// (its norm fixed at 1) to the prototype scores.
class DinoHeadImpl : public nn::Module {
public:
    DinoHeadImpl(std::int64_t in, std::int64_t hidden, std::int64_t bottleneck, std::int64_t out) {
        mlp_ = register_module("mlp", nn::Sequential(nn::Linear(in, hidden), nn::GELU(),
                                                     nn::Linear(hidden, hidden), nn::GELU(),
                                                     nn::Linear(hidden, bottleneck)));
        last_layer_ = register_module("last_layer",
                                      nn::Linear(nn::LinearOptions(bottleneck, out).bias(false)));
        for (auto& module : mlp_->modules(false)) {
            if (auto* linear = module->as<nn::Linear>()) {
                torch::NoGradGuard no_grad; // truncated normal, as DINO initialises its head
                nn::init::normal_(linear->weight, 0.0, 0.02).clamp_(-0.04, 0.04);
                nn::init::zeros_(linear->bias);
            }
        }
    }

    torch::Tensor forward(const torch::Tensor& features) {
        const torch::Tensor x =
            F::normalize(mlp_->forward(features), F::NormalizeFuncOptions().dim(1));
        const torch::Tensor weight = last_layer_->weight;
        // Weight normalisation with g = 1: each prototype is a unit vector.
        return torch::mm(x, (weight / weight.norm(2, 1, true).clamp_min(1e-12)).t());
    }

    const nn::Linear& last_layer() const { return last_layer_; }

private:
    nn::Sequential mlp_{nullptr};
    nn::Linear last_layer_{nullptr};
};
TORCH_MODULE(DinoHead);

// DINO (Caron et al. 2021) with LightlyTrain's defaults: a student trained to match a teacher
// that is an exponential moving average of it, on 2 global and several local views; the
// teacher's outputs are centred and sharpened, its temperature warms up from 0.04 to 0.07.
// Enough prototypes to tell the images apart, a sharp and slow teacher on small sets: the
// defaults follow the dataset's size (`scaling`).
struct DinoArgs {
    int hidden_dim;
    int bottleneck_dim;
    int output_dim;
    double student_temp;
    double teacher_temp;
    double warmup_teacher_temp;
    double warmup_fraction;
    double center_momentum;
    double momentum_start;
    double momentum_end;
    double freeze_last_layer_fraction;

    explicit DinoArgs(const nlohmann::json& values)
        : hidden_dim(values.at("hidden_dim").get<int>()),
          bottleneck_dim(values.at("bottleneck_dim").get<int>()),
          output_dim(values.at("output_dim").get<int>()),
          student_temp(values.at("student_temp").get<double>()),
          teacher_temp(values.at("teacher_temp").get<double>()),
          warmup_teacher_temp(values.at("warmup_teacher_temp").get<double>()),
          warmup_fraction(values.at("warmup_teacher_temp_fraction").get<double>()),
          center_momentum(values.at("center_momentum").get<double>()),
          momentum_start(values.at("momentum_start").get<double>()),
          momentum_end(values.at("momentum_end").get<double>()),
          freeze_last_layer_fraction(values.at("freeze_last_layer_fraction").get<double>()) {}
};

class DinoImpl : public MethodImpl {
public:
    DinoImpl(const std::string& model, models::Backbone backbone, const DinoArgs& args,
             std::int64_t in_channels)
        : MethodImpl(std::move(backbone)), student_temperature_(args.student_temp),
          teacher_temperature_(args.teacher_temp),
          warmup_teacher_temperature_(args.warmup_teacher_temp),
          warmup_fraction_(args.warmup_fraction), center_momentum_(args.center_momentum),
          momentum_start_(args.momentum_start), momentum_end_(args.momentum_end),
          freeze_last_layer_fraction_(args.freeze_last_layer_fraction) {
        const auto head = [&] {
            return DinoHead(backbone_->feature_dim(), args.hidden_dim, args.bottleneck_dim,
                            args.output_dim);
        };
        head_ = register_module("head", head());
        teacher_backbone_ = register_module(models::checkpoint_key::kTeacherBackbone,
                                            models::make_backbone(model, in_channels));
        teacher_head_ = register_module("teacher_head", head());
        center_ = register_buffer("center", torch::zeros({1, args.output_dim}));
        torch::NoGradGuard no_grad;
        start_teacher_as_student();
        for (torch::Tensor& parameter : teacher_parameters()) {
            parameter.set_requires_grad(false);
        }
    }

    torch::Tensor training_loss(const std::vector<torch::Tensor>& views) override {
        const std::size_t global_views = 2;
        const std::int64_t batch = views.at(0).size(0);
        const double teacher_temperature = this->teacher_temperature();
        std::vector<torch::Tensor> teacher_probabilities;
        {
            torch::NoGradGuard no_grad;
            const torch::Tensor teacher_out = teacher_head_->forward(
                teacher_backbone_->forward(torch::cat({views[0], views[1]})));
            teacher_probabilities =
                torch::softmax((teacher_out - center_) / teacher_temperature, 1).chunk(2);
            add_to_pending_center(teacher_out);
        }
        // Global views together, local views together: one forward per resolution.
        std::vector<torch::Tensor> student_log_probabilities;
        const auto add_student = [&](const std::vector<torch::Tensor>& same_size) {
            const torch::Tensor out = head_->forward(backbone_->forward(torch::cat(same_size)));
            for (const torch::Tensor& chunk :
                 torch::log_softmax(out / student_temperature_, 1).split(batch)) {
                student_log_probabilities.push_back(chunk);
            }
        };
        add_student({views[0], views[1]});
        if (views.size() > global_views) {
            add_student(std::vector<torch::Tensor>(views.begin() + global_views, views.end()));
        }
        torch::Tensor total = torch::zeros({}, views[0].options());
        int terms = 0;
        for (std::size_t t = 0; t < global_views; ++t) {
            for (std::size_t s = 0; s < student_log_probabilities.size(); ++s) {
                if (s == t) {
                    continue;
                }
                total =
                    total - (teacher_probabilities[t] * student_log_probabilities[s]).sum(1).mean();
                ++terms;
            }
        }
        return total / terms;
    }

    void before_optimizer_step() override {
        if (progress_ < freeze_last_layer_fraction_) {
            for (torch::Tensor& parameter : head_->last_layer()->parameters()) {
                parameter.mutable_grad() = torch::Tensor();
            }
        }
    }

    models::BackboneImpl& result_backbone() override { return *teacher_backbone_; }

    void backbone_weights_loaded() override {
        torch::NoGradGuard no_grad;
        start_teacher_as_student(); // the teacher starts as the loaded student again
    }

    void after_optimizer_step() override {
        torch::NoGradGuard no_grad;
        update_teacher(teacher_momentum());
        if (pending_center_.defined()) {
            const std::int64_t dims = center_.size(1);
            const torch::Tensor mean =
                pending_center_.narrow(1, 0, dims) / pending_center_.narrow(1, dims, 1);
            center_.mul_(center_momentum_).add_(mean.to(center_.dtype()), 1.0 - center_momentum_);
            pending_center_ = torch::Tensor();
        }
    }

    double teacher_temperature() const {
        return dino_teacher_temperature(progress_, warmup_teacher_temperature_,
                                        teacher_temperature_, warmup_fraction_);
    }

    double teacher_momentum() const {
        return cosine_momentum(progress_, momentum_start_, momentum_end_);
    }

private:
    std::vector<torch::Tensor> teacher_parameters() {
        std::vector<torch::Tensor> parameters = teacher_backbone_->parameters();
        for (torch::Tensor& parameter : teacher_head_->parameters()) {
            parameters.push_back(parameter);
        }
        return parameters;
    }

    // teacher = momentum * teacher + (1 - momentum) * student, for the parameters. The buffers
    // (batch norms' statistics) are the teacher's own forward passes', as DINO's and
    // LightlyTrain's teachers keep them: the student's statistics do not fit averaged weights.
    void update_teacher(double momentum) {
        const auto blend = [momentum](nn::Module& student, nn::Module& teacher) {
            const auto student_parameters = student.named_parameters();
            for (auto& item : teacher.named_parameters()) {
                item.value().mul_(momentum).add_(student_parameters[item.key()], 1.0 - momentum);
            }
        };
        blend(*backbone_, *teacher_backbone_);
        blend(*head_, *teacher_head_);
    }

    // The step's center is the mean teacher output over all its batches (every micro-batch of
    // a gradient accumulation, every rank's, as DINO all-reduces it): their sum beside their
    // rows. A skipped step's (gradients not finite) join the next step's.
    void add_to_pending_center(const torch::Tensor& teacher_out) {
        // At least in float: a float16 or bfloat16 sum (and its row count) would round.
        const torch::Tensor outputs =
            teacher_out.to(c10::promoteTypes(teacher_out.scalar_type(), torch::kFloat32));
        torch::Tensor sums = torch::cat(
            {outputs.sum(0, true), outputs.new_full({1, 1}, double(outputs.size(0)))}, 1);
        if (group_) {
            group_->all_reduce_sum(sums);
        }
        pending_center_ = pending_center_.defined() ? pending_center_ + sums : sums;
    }

    // The teacher becomes a copy of the student, parameters and buffers alike.
    void start_teacher_as_student() {
        const auto copy = [](nn::Module& student, nn::Module& teacher) {
            const auto student_parameters = student.named_parameters();
            for (auto& item : teacher.named_parameters()) {
                item.value().copy_(student_parameters[item.key()]);
            }
            const auto student_buffers = student.named_buffers();
            for (auto& item : teacher.named_buffers()) {
                item.value().copy_(student_buffers[item.key()]);
            }
        };
        copy(*backbone_, *teacher_backbone_);
        copy(*head_, *teacher_head_);
    }

    DinoHead head_{nullptr};
    models::Backbone teacher_backbone_;
    DinoHead teacher_head_{nullptr};
    torch::Tensor center_;
    torch::Tensor pending_center_; // [1, output_dim + 1]: the step's sums, then its rows
    // DinoArgs' values (its defaults are the recipe's).
    double student_temperature_;
    double teacher_temperature_;
    double warmup_teacher_temperature_;
    double warmup_fraction_;
    double center_momentum_;
    double momentum_start_;
    double momentum_end_;
    double freeze_last_layer_fraction_;
};

} // namespace

MethodImpl::MethodImpl(models::Backbone backbone)
    : backbone_(register_module("backbone", std::move(backbone))) {}

// Distillation: the student learns a frozen teacher's features. The student's features go
// through a linear projection to the teacher's size; both are L2-normalised. Without a queue the
// loss is their mean squared distance (2 - 2 cos); with `queue_size` past teacher features the
// student matches the teacher's softmax over its similarities to them and to the batch (SEED,
// Fang et al. 2021, as a KL divergence), at `temperature`. Where both backbones have feature
// maps, `patch_weight` times the same distance per location of their last maps is added (the
// teacher's map resized to the student's, the student's projected by a 1x1 convolution), as
// LightlyTrain's distillation v2 regresses patch features. AdamW 5e-4 x batch / 256.
struct DistillationArgs {
    std::string teacher;
    std::int64_t queue_size;
    double temperature;
    double patch_weight; // off by default: in equal time it neither paid nor cost (README)

    explicit DistillationArgs(const nlohmann::json& values)
        : teacher(values.at("teacher").get<std::string>()),
          queue_size(values.at("queue_size").get<std::int64_t>()),
          temperature(values.at("temperature").get<double>()),
          patch_weight(values.at("patch_weight").get<double>()) {}
};

torch::Tensor normalised_distance(const torch::Tensor& student, const torch::Tensor& teacher) {
    const auto unit = F::NormalizeFuncOptions().dim(1);
    return (F::normalize(student, unit) - F::normalize(teacher, unit)).pow(2).sum(1).mean();
}

torch::Tensor patch_distance(const torch::Tensor& student, const torch::Tensor& teacher) {
    const torch::Tensor target =
        teacher.sizes().slice(2) == student.sizes().slice(2)
            ? teacher
            : F::interpolate(teacher,
                             F::InterpolateFuncOptions()
                                 .size(std::vector<std::int64_t>{student.size(2), student.size(3)})
                                 .mode(torch::kBilinear)
                                 .align_corners(false));
    return normalised_distance(student, target); // dim 1 is the channels at every location
}

class DistillationImpl : public MethodImpl {
public:
    DistillationImpl(models::Backbone student, models::Backbone teacher,
                     const DistillationArgs& args)
        : MethodImpl(std::move(student)), queue_size_(args.queue_size),
          temperature_(args.temperature) {
        teacher_ = register_module("teacher", std::move(teacher));
        for (torch::Tensor& parameter : teacher_->parameters()) {
            parameter.set_requires_grad(false);
        }
        teacher_->eval();
        const std::int64_t teacher_dim = teacher_->feature_dim();
        projection_ =
            register_module("projection_head", nn::Linear(backbone_->feature_dim(), teacher_dim));
        queue_ = register_buffer("queue", torch::zeros({queue_size_, teacher_dim}));
        queue_filled_ = register_buffer("queue_filled", torch::zeros({}, torch::kLong));
        const std::vector<std::int64_t> student_maps = backbone_->feature_map_channels();
        const std::vector<std::int64_t> teacher_maps = teacher_->feature_map_channels();
        if (args.patch_weight > 0 && !student_maps.empty() && !teacher_maps.empty()) {
            patch_weight_ = args.patch_weight;
            patch_projection_ = register_module(
                "patch_projection_head",
                nn::Conv2d(nn::Conv2dOptions(student_maps.back(), teacher_maps.back(), 1)));
        }
    }

    void train(bool on) override {
        MethodImpl::train(on);
        teacher_->eval(); // frozen: its batch norms keep their statistics
    }

    // One pass of each network: with the patch term, the feature vector and the last map come
    // from the same pass.
    torch::Tensor training_loss(const std::vector<torch::Tensor>& views) override {
        const torch::Tensor& images = views.at(0);
        torch::Tensor teacher_features, teacher_map;
        if (!patch_projection_) {
            {
                torch::NoGradGuard no_grad;
                teacher_features = teacher_->forward(images);
            }
            return global_loss(backbone_->forward(images), teacher_features);
        }
        {
            torch::NoGradGuard no_grad;
            std::tie(teacher_features, teacher_map) = teacher_->features_and_last_map(images);
        }
        const auto [features, map] = backbone_->features_and_last_map(images);
        return global_loss(features, teacher_features) +
               patch_weight_ * patch_distance(patch_projection_->forward(map), teacher_map);
    }

    // The feature vectors' term: the projected student against the normalised teacher, as a
    // distance or over the queue.
    torch::Tensor global_loss(const torch::Tensor& features,
                              const torch::Tensor& teacher_features) {
        const torch::Tensor target =
            F::normalize(teacher_features, F::NormalizeFuncOptions().dim(1));
        const torch::Tensor projected = projection_->forward(features);
        return queue_size_ == 0 ? normalised_distance(projected, target)
                                : queue_loss(projected, target);
    }

    // The student's softmax over the queue and the batch against the teacher's.
    torch::Tensor queue_loss(const torch::Tensor& projected, const torch::Tensor& target) {
        const torch::Tensor student = F::normalize(projected, F::NormalizeFuncOptions().dim(1));
        // The global batch's teacher features: keys now, the queue's newest entries after the
        // step (with the step's other micro-batches', newest first).
        const torch::Tensor batch_keys = group_ ? group_->all_gather(target) : target;
        pending_ = pending_.defined() ? torch::cat({batch_keys, pending_}) : batch_keys;
        pending_ = pending_.narrow(0, 0, std::min<std::int64_t>(pending_.size(0), queue_size_));
        const std::int64_t filled = queue_filled_.item<std::int64_t>();
        const torch::Tensor keys = torch::cat({batch_keys, queue_.narrow(0, 0, filled)});
        // KL divergence: zero when the student matches, whatever the teacher's own entropy.
        const torch::Tensor teacher_log_probabilities =
            torch::log_softmax(target.mm(keys.t()) / temperature_, 1);
        const torch::Tensor student_log_probabilities =
            torch::log_softmax(student.mm(keys.t()) / temperature_, 1);
        return (teacher_log_probabilities.exp() *
                (teacher_log_probabilities - student_log_probabilities))
            .sum(1)
            .mean();
    }

    // The step's teacher features join the queue, the oldest leave it. A skipped step's
    // (gradients not finite) join with the next step's.
    void after_optimizer_step() override {
        if (queue_size_ == 0 || !pending_.defined()) {
            return;
        }
        torch::NoGradGuard no_grad;
        const std::int64_t batch = pending_.size(0);
        queue_.copy_(
            torch::cat({pending_.to(queue_.dtype()), queue_.narrow(0, 0, queue_size_ - batch)}));
        queue_filled_.fill_(
            std::min<std::int64_t>(queue_filled_.item<std::int64_t>() + batch, queue_size_));
        pending_ = torch::Tensor();
    }

private:
    std::int64_t queue_size_;
    double temperature_;
    double patch_weight_ = 0.0;
    models::Backbone teacher_;
    nn::Linear projection_{nullptr};
    nn::Conv2d patch_projection_{nullptr}; // only where both backbones have feature maps
    torch::Tensor queue_, queue_filled_, pending_;
};

// The teacher of a distillation: a Kiln checkpoint or exported model, a torch.save state_dict of
// a Kiln model family, or a TorchScript module named as torchscript:FILE.
models::Backbone load_teacher(const std::string& teacher, std::vector<ConfigIssue>& issues) {
    const auto report = [&issues](const std::string& message) {
        issues.push_back({"method_args.teacher", message});
    };
    if (teacher.empty()) {
        report("required: give the teacher, an exported model "
               "(out/exported_models/exported_last.pt) or torchscript:FILE");
        return nullptr;
    }
    const bool torchscript = models::is_torchscript_model(teacher);
    const std::string path = torchscript ? models::torchscript_file(teacher) : teacher;
    if (!std::filesystem::exists(path)) {
        report("\"" + path + "\" does not exist");
        return nullptr;
    }
    try {
        return torchscript ? models::make_backbone(teacher) : models::load_backbone(path);
    } catch (const Error& error) {
        report(error.what());
        return nullptr;
    }
}

double dino_teacher_temperature(double progress, double warmup_temperature, double temperature,
                                double warmup_fraction) {
    if (warmup_fraction <= 0 || progress >= warmup_fraction) {
        return temperature;
    }
    return warmup_temperature + (temperature - warmup_temperature) * progress / warmup_fraction;
}

double cosine_momentum(double progress, double start, double end) {
    return end - (end - start) * (std::cos(kPi * progress) + 1.0) / 2.0;
}

torch::Tensor anisotropy(const torch::Tensor& features) {
    // In float at least and out of autocast: a bfloat16 covariance rounds to 3 digits, about the
    // size of the correlations the term exists to remove.
    const c10::impl::ExcludeDispatchKeyGuard full_precision(c10::autocast_dispatch_keyset);
    const torch::Tensor rows =
        features.to(c10::promoteTypes(features.scalar_type(), torch::kFloat32));
    const torch::Tensor centred = rows - rows.mean(0, true);
    const torch::Tensor covariance = centred.t().mm(centred) / double(features.size(0) - 1);
    const torch::Tensor scaled = covariance / covariance.diagonal().mean().clamp_min(1e-8);
    return (scaled - torch::eye(features.size(1), rows.options())).pow(2).sum() /
           double(features.size(1));
}

torch::Tensor nt_xent_loss(const torch::Tensor& first, const torch::Tensor& second,
                           double temperature, distributed::ProcessGroup* group) {
    const std::int64_t batch = first.size(0);
    const torch::Tensor anchors =
        F::normalize(torch::cat({first, second}), F::NormalizeFuncOptions().dim(1));
    // Every rank's [first; second] block in rank order; this rank's anchors are its own block.
    const torch::Tensor candidates = group ? group->all_gather(anchors) : anchors;
    const std::int64_t offset = group ? group->rank() * 2 * batch : 0;
    const auto options = torch::TensorOptions().dtype(torch::kLong).device(anchors.device());
    const torch::Tensor self = torch::arange(2 * batch, options) + offset;
    const torch::Tensor positives =
        torch::cat({torch::arange(batch, 2 * batch, options), torch::arange(0, batch, options)}) +
        offset;
    // At least in float: under 16-mixed autocast the product is float16, which cannot hold
    // the mask.
    const torch::Tensor similarities = torch::mm(anchors, candidates.t());
    const torch::Tensor logits =
        similarities.to(c10::promoteTypes(similarities.scalar_type(), torch::kFloat32))
            .div(temperature)
            .scatter(1, self.unsqueeze(1), -1e9);
    return F::cross_entropy(logits, positives);
}

Method make_method(const std::string& name, const std::string& model,
                   const nlohmann::json& method_args, std::int64_t dataset_size,
                   std::int64_t in_channels) {
    const MethodEntry* entry = find_method(name);
    if (entry == nullptr || (name != "simclr" && name != "dino" && name != "distillation")) {
        throw Error("method \"" + name + "\" is not available in this build; Kiln has " +
                    join_alternatives(method_names()));
    }
    std::vector<ConfigIssue> issues;
    const nlohmann::json values =
        resolve_method_args(*entry, model, dataset_size, method_args, issues);
    models::Backbone teacher; // loaded whatever else is wrong: every problem is said at once
    if (entry->needs_teacher) {
        teacher = load_teacher(values.at("teacher").get<std::string>(), issues);
    }
    if (!issues.empty()) {
        throw ConfigError(issues);
    }
    models::Backbone backbone = models::make_backbone(model, in_channels);
    if (name == "simclr") {
        return std::make_shared<SimClrImpl>(std::move(backbone), SimClrArgs(values));
    }
    if (name == "dino") {
        return std::make_shared<DinoImpl>(model, std::move(backbone), DinoArgs(values),
                                          in_channels);
    }
    return std::make_shared<DistillationImpl>(std::move(backbone), std::move(teacher),
                                              DistillationArgs(values));
}

} // namespace kiln::methods
