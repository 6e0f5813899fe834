#pragma once

#include "models/archive.h"

#include <nlohmann/json.hpp>
#include <string>
#include <torch/types.h>
#include <unordered_map>
#include <vector>

namespace kiln {
struct OptimizerArgs;
}

namespace kiln::train {

struct OptimizerSettings {
    std::string name = "sgd"; // sgd, adamw or lars
    double weight_decay = 0.0;
    double momentum = 0.9;            // sgd and lars
    double beta1 = 0.9;               // adamw
    double beta2 = 0.999;             // adamw
    double eps = 1e-8;                // adamw
    double trust_coefficient = 0.001; // lars
};

// The optimizer settings a run's resolved optim and optim_args give.
OptimizerSettings optimizer_settings(const OptimizerArgs& args);

// SGD with momentum, AdamW and LARS over the trainable parameters. Biases and normalisation
// weights (tensors of one dimension) get no weight decay and, with LARS, no trust ratio, as in
// the papers. Its state is saved with checkpoints so that a resumed run continues exactly.
class Optimizer {
public:
    Optimizer(OptimizerSettings settings, std::vector<torch::Tensor> parameters);

    void zero_grad();
    // Each parameter moves at `learning_rate` times its scale (1 unless set below).
    void step(double learning_rate);
    // The learning rate of `parameters` (those of them that this optimizer trains) becomes
    // `scale` times the step's: a fine-tuned backbone learns slower than its new head.
    void set_learning_rate_scale(const std::vector<torch::Tensor>& parameters, double scale);

    void save(models::Archive& archive) const;
    void load(const models::Archive& archive);

private:
    void step_adamw(double learning_rate);
    void step_momentum(double learning_rate);

    OptimizerSettings settings_;
    std::vector<torch::Tensor> parameters_;
    std::vector<double> learning_rate_scales_; // one per parameter
    // A parameter's position in parameters_, by the tensor it is (Tensor::is_same's identity).
    std::unordered_map<const c10::TensorImpl*, std::size_t> position_of_;
    std::vector<torch::Tensor> first_moment_;  // momentum buffer, or Adam's m
    std::vector<torch::Tensor> second_moment_; // Adam's v
    // Adam's bias correction counts each parameter's own updates, as torch.optim does: one held
    // still at first (a backbone in head-only warm-up, DINO's last layer) starts from step 1.
    std::vector<std::int64_t> adamw_steps_;
};

// Linear warm-up to `peak` over `warmup_steps`, then cosine decay to 0 at `total_steps`.
double warmup_cosine(double peak, std::int64_t step, std::int64_t warmup_steps,
                     std::int64_t total_steps);

} // namespace kiln::train
