#include "train/strategy.h"

#include "core/log.h"
#include "distributed/process_group.h"

#include <chrono>
#include <torch/nn/module.h>
#include <torch/types.h>

namespace kiln::train {
namespace {

// Batch-norm running statistics: the only state that each rank's own batches change.
std::vector<at::Tensor> batch_norm_statistics(const torch::nn::Module& module) {
    std::vector<at::Tensor> statistics;
    for (const auto& buffer : module.named_buffers()) {
        const std::string& name = buffer.key();
        const std::string leaf = name.substr(name.rfind('.') + 1);
        if (leaf == "running_mean" || leaf == "running_var" || leaf == "num_batches_tracked") {
            statistics.push_back(buffer.value());
        }
    }
    return statistics;
}

} // namespace

DataParallel::DataParallel(c10::Device device, distributed::ProcessGroup& group,
                           bool sync_batchnorm)
    : Strategy(device), group_(group), sync_batchnorm_(sync_batchnorm) {}

int DataParallel::rank() const {
    return group_.rank();
}

int DataParallel::world_size() const {
    return group_.world_size();
}

void DataParallel::barrier() {
    group_.barrier();
}

void DataParallel::broadcast_state(torch::nn::Module& module) {
    std::vector<at::Tensor> tensors = module.parameters();
    for (const at::Tensor& buffer : module.buffers()) {
        tensors.push_back(buffer);
    }
    group_.broadcast(tensors);
}

void DataParallel::before_step(torch::nn::Module& module) {
    // As DDP's broadcast_buffers; synchronised batch norms agree already.
    if (!sync_batchnorm_) {
        group_.broadcast(batch_norm_statistics(module));
    }
}

std::optional<double> DataParallel::average_gradients(const std::vector<at::Tensor>& parameters,
                                                      at::Tensor& loss) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<at::Tensor> gradients;
    for (const at::Tensor& parameter : parameters) {
        if (parameter.grad().defined()) {
            gradients.push_back(parameter.grad());
        }
    }
    group_.average(gradients);
    at::Tensor total = loss.to(torch::kFloat64);
    group_.all_reduce_sum(total);
    loss = total / double(world_size());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

bool DataParallel::reduce_metrics(track::StepMetrics& metrics, std::int64_t& images,
                                  bool stopping) {
    const double world = world_size();
    at::Tensor sums =
        torch::tensor({double(images), metrics.cpu_util, metrics.process_cpu_util, metrics.rss_mb},
                      torch::kFloat64);
    at::Tensor maxima = torch::tensor({metrics.batch_time, metrics.data_time, metrics.data_wait,
                                       metrics.allreduce_time.value_or(0.0), stopping ? 1.0 : 0.0},
                                      torch::kFloat64);
    group_.all_reduce_sum(sums);
    group_.all_reduce_max(maxima);
    images = static_cast<std::int64_t>(sums[0].item<double>());
    metrics.cpu_util = sums[1].item<double>() / world;
    metrics.process_cpu_util = sums[2].item<double>() / world;
    metrics.rss_mb = sums[3].item<double>();
    metrics.batch_time = maxima[0].item<double>();
    metrics.data_time = maxima[1].item<double>();
    metrics.data_wait = maxima[2].item<double>();
    metrics.allreduce_time = maxima[3].item<double>();
    return maxima[4].item<double>() > 0;
}

void DataParallel::sum_over_ranks(at::Tensor& tensor) {
    group_.all_reduce_sum(tensor);
}

// Every rank must end with the same weights: the same averaged gradients went into the same
// optimizer. A difference means a rank diverged.
void DataParallel::check_replicas_agree(torch::nn::Module& module) {
    std::vector<at::Tensor> flat;
    for (const at::Tensor& parameter : module.parameters()) {
        flat.push_back(parameter.detach().reshape(-1).to(torch::kCPU, torch::kFloat64));
    }
    const at::Tensor mine = torch::cat(flat);
    at::Tensor highest = mine.clone();
    at::Tensor lowest = -mine;
    group_.all_reduce_max(highest);
    group_.all_reduce_max(lowest);
    const double difference = (highest + lowest).abs().max().item<double>();
    const std::string ranks = std::to_string(world_size());
    if (difference > 0) {
        log::warning("the " + ranks + " ranks ended with different weights (largest difference " +
                     std::to_string(difference) + "); rank 0's were exported");
    } else {
        log::info("the " + ranks + " ranks ended with identical weights");
    }
}

} // namespace kiln::train
