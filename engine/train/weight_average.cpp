#include "train/weight_average.h"

#include <ATen/ATen.h>
#include <cmath>
#include <torch/nn/module.h>
#include <torch/utils.h>

namespace kiln::train {

WeightAverage::WeightAverage(torch::nn::Module& module, double decay) : decay_(decay) {
    const torch::NoGradGuard no_grad;
    for (const at::Tensor& parameter : module.parameters()) {
        live_.push_back(parameter);
    }
    for (const at::Tensor& buffer : module.buffers()) {
        live_.push_back(buffer);
    }
    for (const at::Tensor& tensor : live_) {
        average_.push_back(tensor.detach().clone());
    }
}

double WeightAverage::decay_at(std::int64_t step, std::int64_t total_steps) const {
    const double steps = std::max<double>(1.0, double(total_steps));
    // At most a twentieth of the run's steps in the average: a decay made for long runs
    // (0.9999) would otherwise hold a short run's first weights to its end.
    const double decay = std::min(decay_, std::max(0.0, 1.0 - 20.0 / steps));
    return decay * (1.0 - std::exp(-double(step) / std::max(1.0, steps / 10.0)));
}

void WeightAverage::update(std::int64_t step, std::int64_t total_steps) {
    const torch::NoGradGuard no_grad;
    const double decay = decay_at(step, total_steps);
    std::vector<at::Tensor> averaged, current;
    for (std::size_t i = 0; i < live_.size(); ++i) {
        if (live_[i].is_floating_point()) {
            averaged.push_back(average_[i]);
            current.push_back(live_[i].detach());
        } else {
            average_[i].copy_(live_[i]);
        }
    }
    // average = decay * average + (1 - decay) * current, fused over all tensors.
    at::_foreach_lerp_(averaged, current, 1.0 - decay);
}

void WeightAverage::reset() {
    const torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < live_.size(); ++i) {
        average_[i].copy_(live_[i]);
    }
}

void WeightAverage::swap() {
    const torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < live_.size(); ++i) {
        const at::Tensor kept = live_[i].detach().clone();
        live_[i].detach().copy_(average_[i]);
        average_[i].copy_(kept);
    }
}

} // namespace kiln::train
