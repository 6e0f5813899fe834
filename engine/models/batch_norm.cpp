#include "models/batch_norm.h"

#include "distributed/process_group.h"

#include <ATen/Context.h>
#include <torch/nn/init.h>

namespace kiln::models {

BatchNormImpl::BatchNormImpl(std::int64_t features, double momentum, double eps)
    : momentum_(momentum), eps_(eps) {
    weight = register_parameter("weight", torch::ones({features}));
    bias = register_parameter("bias", torch::zeros({features}));
    running_mean = register_buffer("running_mean", torch::zeros({features}));
    running_var = register_buffer("running_var", torch::ones({features}));
    num_batches_tracked = register_buffer("num_batches_tracked", torch::zeros({}, torch::kLong));
}

torch::Tensor BatchNormImpl::forward(const torch::Tensor& input) {
    // One value per channel (a batch of one, without spatial extent) has no variance: its
    // statistics would be NaN, and the running ones with them. It is normalised as in evaluation.
    const bool single_value = input.dim() >= 2 && input.numel() == input.size(1);
    if (!is_training() || (single_value && (group_ == nullptr || group_->world_size() == 1))) {
        return torch::batch_norm(input, weight, bias, running_mean, running_var, false, momentum_,
                                 eps_, at::globalContext().userEnabledCuDNN());
    }
    {
        const torch::NoGradGuard no_grad;
        num_batches_tracked.add_(1);
    }
    if (group_ != nullptr && group_->world_size() > 1) {
        return synchronized_forward(input);
    }
    return torch::batch_norm(input, weight, bias, running_mean, running_var, true, momentum_, eps_,
                             at::globalContext().userEnabledCuDNN());
}

torch::Tensor BatchNormImpl::synchronized_forward(const torch::Tensor& input) {
    // Statistics in float32 whatever autocast made of the input, as batch norm keeps them.
    const torch::Tensor x = input.to(torch::kFloat32);
    const std::int64_t channels = x.size(1);
    std::vector<std::int64_t> reduced = {0};
    for (std::int64_t d = 2; d < x.dim(); ++d) {
        reduced.push_back(d);
    }
    const double count = double(x.numel() / channels);
    // [sum, sum of squares, count] of this rank; the ranks' rows are added up.
    const torch::Tensor local =
        torch::cat({x.sum(reduced), x.pow(2).sum(reduced), torch::full({1}, count, x.options())});
    const torch::Tensor total = group_->all_gather(local.unsqueeze(0)).sum(0);
    const torch::Tensor n = total.narrow(0, 2 * channels, 1);
    const torch::Tensor mean = total.narrow(0, 0, channels) / n;
    const torch::Tensor variance =
        (total.narrow(0, channels, channels) / n - mean.pow(2)).clamp_min(0);
    {
        const torch::NoGradGuard no_grad;
        const double samples = n.item<double>();
        running_mean.mul_(1 - momentum_).add_(mean.detach(), momentum_);
        running_var.mul_(1 - momentum_)
            .add_(variance.detach() * (samples / std::max(1.0, samples - 1)), momentum_);
    }
    std::vector<std::int64_t> shape(static_cast<std::size_t>(x.dim()), 1);
    shape[1] = channels;
    return (x - mean.view(shape)) * torch::rsqrt(variance + eps_).view(shape) * weight.view(shape) +
           bias.view(shape);
}

int synchronize_batch_norms(torch::nn::Module& module, distributed::ProcessGroup* group) {
    int count = 0;
    for (const auto& child : module.modules()) {
        if (auto* batch_norm = child->as<BatchNormImpl>()) {
            batch_norm->synchronize_over(group);
            ++count;
        }
    }
    return count;
}

} // namespace kiln::models
