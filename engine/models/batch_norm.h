#pragma once

#include <cstdint>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

namespace kiln::distributed {
class ProcessGroup;
}

namespace kiln::models {

// Batch normalisation over dimension 1 (of [N, C] or [N, C, H, W]) with torchvision's names
// (weight, bias, running_mean, running_var, num_batches_tracked). In training it can take its
// batch statistics over every rank of a distributed run, as PyTorch's SyncBatchNorm: the
// ranks' sums are gathered with their gradients, so the backward pass is synchronised too.
class BatchNormImpl : public torch::nn::Module {
public:
    explicit BatchNormImpl(std::int64_t features, double momentum = 0.1, double eps = 1e-5);

    torch::Tensor forward(const torch::Tensor& input);
    // nullptr (the default): statistics of this process's batch only.
    void synchronize_over(distributed::ProcessGroup* group) { group_ = group; }
    double eps() const { return eps_; }

    torch::Tensor weight, bias, running_mean, running_var, num_batches_tracked;

private:
    torch::Tensor synchronized_forward(const torch::Tensor& input);

    double momentum_;
    double eps_;
    distributed::ProcessGroup* group_ = nullptr;
};
TORCH_MODULE(BatchNorm);

// Every BatchNorm within `module` takes its statistics over `group`'s ranks (nullptr: locally).
// Returns how many there are.
int synchronize_batch_norms(torch::nn::Module& module, distributed::ProcessGroup* group);

} // namespace kiln::models
