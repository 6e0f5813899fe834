#include "train/optimizer.h"

#include "core/error.h"

#include <cmath>

namespace kiln::train {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool decays(const torch::Tensor& parameter) {
    return parameter.dim() > 1;
}

} // namespace

Optimizer::Optimizer(OptimizerSettings settings, std::vector<torch::Tensor> parameters)
    : settings_(std::move(settings)), parameters_(std::move(parameters)) {
    if (settings_.name != "sgd" && settings_.name != "adamw" && settings_.name != "lars") {
        throw Error("optim \"" + settings_.name + "\" is not supported; use sgd, adamw or lars");
    }
    for (const torch::Tensor& parameter : parameters_) {
        first_moment_.push_back(torch::zeros_like(parameter));
        if (settings_.name == "adamw") {
            second_moment_.push_back(torch::zeros_like(parameter));
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

void Optimizer::step(double learning_rate) {
    torch::NoGradGuard no_grad;
    ++steps_;
    const OptimizerSettings& s = settings_;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        torch::Tensor& parameter = parameters_[i];
        const torch::Tensor& gradient_in = parameter.grad();
        if (!gradient_in.defined()) {
            continue; // frozen this step (e.g. DINO's last layer at first)
        }
        const bool decay = decays(parameter);
        if (s.name == "adamw") {
            if (decay) {
                parameter.mul_(1.0 - learning_rate * s.weight_decay);
            }
            torch::Tensor& m = first_moment_[i];
            torch::Tensor& v = second_moment_[i];
            m.mul_(s.beta1).add_(gradient_in, 1.0 - s.beta1);
            v.mul_(s.beta2).addcmul_(gradient_in, gradient_in, 1.0 - s.beta2);
            const double correction1 = 1.0 - std::pow(s.beta1, double(steps_));
            const double correction2 = 1.0 - std::pow(s.beta2, double(steps_));
            const torch::Tensor denominator = (v / correction2).sqrt_().add_(s.eps);
            parameter.addcdiv_(m, denominator, -learning_rate / correction1);
            continue;
        }
        torch::Tensor gradient = decay && s.weight_decay > 0
                                     ? gradient_in + s.weight_decay * parameter
                                     : gradient_in.clone();
        if (s.name == "lars" && decay) {
            const double parameter_norm = parameter.norm().item<double>();
            const double gradient_norm = gradient.norm().item<double>();
            if (parameter_norm > 0 && gradient_norm > 0) {
                gradient.mul_(s.trust_coefficient * parameter_norm / gradient_norm);
            }
        }
        torch::Tensor& buffer = first_moment_[i];
        buffer.mul_(s.momentum).add_(gradient);
        parameter.add_(buffer, -learning_rate);
    }
}

void Optimizer::save(torch::serialize::OutputArchive& archive) const {
    archive.write("steps", torch::tensor(steps_));
    for (std::size_t i = 0; i < first_moment_.size(); ++i) {
        archive.write("first_moment/" + std::to_string(i), first_moment_[i], true);
    }
    for (std::size_t i = 0; i < second_moment_.size(); ++i) {
        archive.write("second_moment/" + std::to_string(i), second_moment_[i], true);
    }
}

void Optimizer::load(torch::serialize::InputArchive& archive) {
    torch::Tensor steps;
    archive.read("steps", steps);
    steps_ = steps.item<std::int64_t>();
    for (std::size_t i = 0; i < first_moment_.size(); ++i) {
        archive.read("first_moment/" + std::to_string(i), first_moment_[i], true);
    }
    for (std::size_t i = 0; i < second_moment_.size(); ++i) {
        archive.read("second_moment/" + std::to_string(i), second_moment_[i], true);
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
