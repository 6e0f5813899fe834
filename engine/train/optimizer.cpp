#include "train/optimizer.h"

#include "config/run_config.h"
#include "core/error.h"

#include <ATen/ATen.h>
#include <algorithm>
#include <cmath>

namespace kiln::train {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool decays(const torch::Tensor& parameter) {
    return parameter.dim() > 1;
}

// parameters[i] -= learning_rate * scales[i] * updates[i], one fused kernel per distinct scale.
void apply_updates(const std::vector<torch::Tensor>& parameters,
                   const std::vector<torch::Tensor>& updates, const std::vector<double>& scales,
                   double learning_rate) {
    std::vector<double> distinct = scales;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (const double scale : distinct) {
        std::vector<torch::Tensor> moved;
        std::vector<torch::Tensor> by;
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            if (scales[i] == scale) {
                moved.push_back(parameters[i]);
                by.push_back(updates[i]);
            }
        }
        at::_foreach_add_(moved, by, -learning_rate * scale);
    }
}

} // namespace

OptimizerSettings optimizer_settings(const OptimizerArgs& args) {
    OptimizerSettings settings;
    settings.name = args.chosen.name;
    settings.weight_decay = args.chosen.weight_decay;
    settings.momentum = args.chosen.momentum;
    settings.beta1 = args.beta1;
    settings.beta2 = args.beta2;
    settings.eps = args.eps;
    settings.trust_coefficient = args.trust_coefficient;
    return settings;
}

Optimizer::Optimizer(OptimizerSettings settings, std::vector<torch::Tensor> parameters)
    : settings_(std::move(settings)), parameters_(std::move(parameters)) {
    if (settings_.name != "sgd" && settings_.name != "adamw" && settings_.name != "lars") {
        throw Error("optim \"" + settings_.name + "\" is not supported; use sgd, adamw or lars");
    }
    learning_rate_scales_.assign(parameters_.size(), 1.0);
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        position_of_.emplace(parameters_[i].unsafeGetTensorImpl(), i);
    }
    for (const torch::Tensor& parameter : parameters_) {
        first_moment_.push_back(torch::zeros_like(parameter));
        if (settings_.name == "adamw") {
            second_moment_.push_back(torch::zeros_like(parameter));
            adamw_steps_.push_back(0);
        }
    }
}

void Optimizer::zero_grad() {
    for (torch::Tensor& parameter : parameters_) {
        if (parameter.mutable_grad().defined()) {
            parameter.mutable_grad().zero_();
        }
    }
}

void Optimizer::set_learning_rate_scale(const std::vector<torch::Tensor>& parameters,
                                        double scale) {
    for (const torch::Tensor& given : parameters) {
        const auto found = position_of_.find(given.unsafeGetTensorImpl());
        if (found != position_of_.end()) {
            learning_rate_scales_[found->second] = scale;
        }
    }
}

void Optimizer::step(double learning_rate) {
    torch::NoGradGuard no_grad;
    if (settings_.name == "adamw") {
        step_adamw(learning_rate);
    } else {
        step_momentum(learning_rate);
    }
}

void Optimizer::step_adamw(double learning_rate) {
    const OptimizerSettings& s = settings_;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        torch::Tensor& parameter = parameters_[i];
        const torch::Tensor& gradient = parameter.grad();
        const double rate = learning_rate * learning_rate_scales_[i];
        if (!gradient.defined() || rate == 0.0) {
            continue; // frozen this step (e.g. DINO's last layer at first, a backbone in head
                      // warm-up)
        }
        if (decays(parameter)) {
            parameter.mul_(1.0 - rate * s.weight_decay);
        }
        torch::Tensor& m = first_moment_[i];
        torch::Tensor& v = second_moment_[i];
        m.mul_(s.beta1).add_(gradient, 1.0 - s.beta1);
        v.mul_(s.beta2).addcmul_(gradient, gradient, 1.0 - s.beta2);
        const double steps = double(++adamw_steps_[i]);
        const double correction1 = 1.0 - std::pow(s.beta1, steps);
        const double correction2 = 1.0 - std::pow(s.beta2, steps);
        const torch::Tensor denominator = (v / correction2).sqrt_().add_(s.eps);
        parameter.addcdiv_(m, denominator, -rate / correction1);
    }
}

// SGD with momentum, and LARS: a few fused (foreach) kernels for all parameters, and the trust
// ratios computed on the device, so a step never waits for it.
void Optimizer::step_momentum(double learning_rate) {
    const OptimizerSettings& s = settings_;
    std::vector<torch::Tensor> parameters;
    std::vector<torch::Tensor> gradients;
    std::vector<torch::Tensor> buffers;
    std::vector<torch::Tensor> decayed_parameters;
    std::vector<torch::Tensor> decayed_gradients;
    std::vector<std::size_t> decayed; // positions in `gradients`
    std::vector<double> scales;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        const torch::Tensor& gradient = parameters_[i].grad();
        if (!gradient.defined() || learning_rate_scales_[i] == 0.0) {
            continue; // frozen this step (e.g. DINO's last layer at first, a backbone in head
                      // warm-up)
        }
        if (decays(parameters_[i])) {
            decayed.push_back(gradients.size());
            decayed_parameters.push_back(parameters_[i]);
            decayed_gradients.push_back(gradient);
        }
        parameters.push_back(parameters_[i]);
        gradients.push_back(gradient);
        buffers.push_back(first_moment_[i]);
        scales.push_back(learning_rate_scales_[i]);
    }
    if (parameters.empty()) {
        return;
    }
    if (!decayed.empty() && (s.weight_decay > 0 || s.name == "lars")) {
        std::vector<torch::Tensor> updated =
            s.weight_decay > 0
                ? at::_foreach_add(decayed_gradients, decayed_parameters, s.weight_decay)
                : decayed_gradients;
        if (s.name == "lars") {
            const torch::Tensor parameter_norms =
                torch::stack(at::_foreach_norm(decayed_parameters));
            const torch::Tensor gradient_norms = torch::stack(at::_foreach_norm(updated));
            const torch::Tensor ratios =
                torch::where((parameter_norms > 0).logical_and(gradient_norms > 0),
                             s.trust_coefficient * parameter_norms / gradient_norms,
                             torch::ones_like(parameter_norms));
            for (std::size_t k = 0; k < updated.size(); ++k) {
                updated[k] = updated[k] * ratios[static_cast<std::int64_t>(k)];
            }
        }
        for (std::size_t k = 0; k < decayed.size(); ++k) {
            gradients[decayed[k]] = updated[k];
        }
    }
    at::_foreach_mul_(buffers, s.momentum);
    at::_foreach_add_(buffers, gradients);
    apply_updates(parameters, buffers, scales, learning_rate);
}

void Optimizer::save(models::Archive& archive) const {
    archive.write("adamw_steps", c10::IValue(adamw_steps_));
    for (std::size_t i = 0; i < first_moment_.size(); ++i) {
        archive.write("first_moment/" + std::to_string(i), first_moment_[i]);
    }
    for (std::size_t i = 0; i < second_moment_.size(); ++i) {
        archive.write("second_moment/" + std::to_string(i), second_moment_[i]);
    }
}

void Optimizer::load(const models::Archive& archive) {
    if (archive.contains("adamw_steps")) {
        const std::vector<std::int64_t> steps = archive.integers("adamw_steps");
        if (steps.size() != adamw_steps_.size() ||
            std::any_of(steps.begin(), steps.end(), [](std::int64_t n) { return n < 0; })) {
            throw archive.problem(
                "adamw_steps", "does not count this run's " + std::to_string(adamw_steps_.size()) +
                                   " AdamW parameters: resume the run with its own settings");
        }
        adamw_steps_ = steps;
    } else { // older checkpoints counted the optimizer's steps, the same for every parameter
        std::fill(adamw_steps_.begin(), adamw_steps_.end(), archive.integer("steps"));
    }
    for (std::size_t i = 0; i < first_moment_.size(); ++i) {
        archive.read("first_moment/" + std::to_string(i), first_moment_[i]);
    }
    for (std::size_t i = 0; i < second_moment_.size(); ++i) {
        archive.read("second_moment/" + std::to_string(i), second_moment_[i]);
    }
}

double warmup_cosine(double peak, std::int64_t step, std::int64_t warmup_steps,
                     std::int64_t total_steps) {
    if (step < warmup_steps) {
        return peak * double(step + 1) / double(warmup_steps);
    }
    const std::int64_t decay_steps = std::max<std::int64_t>(1, total_steps - warmup_steps);
    const double progress = std::min(1.0, double(step - warmup_steps) / double(decay_steps));
    return peak * 0.5 * (1.0 + std::cos(kPi * progress));
}

} // namespace kiln::train
