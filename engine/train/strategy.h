#pragma once

#include "track/run_events.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <cstdint>
#include <optional>
#include <vector>

namespace torch::nn {
class Module;
}
namespace kiln::distributed {
class ProcessGroup;
}

namespace kiln::train {

// How the work is spread over devices, as Lightning's strategies: where this process computes,
// and what the processes of a run exchange (starting weights, gradients, metrics, a stop).
class Strategy {
public:
    virtual ~Strategy() = default;

    const c10::Device& device() const { return device_; }
    virtual int rank() const { return 0; }
    virtual int world_size() const { return 1; }
    // Only the first rank writes the run directory and reports.
    bool writes() const { return rank() == 0; }
    virtual distributed::ProcessGroup* group() { return nullptr; }
    // Whether each step's metrics must be agreed on by every rank when the step ends (so the
    // ranks stop after the same step); otherwise they may be read a few steps late.
    virtual bool synchronous_metrics() const { return false; }

    virtual void barrier() {}
    // Every rank starts from the first rank's parameters and buffers.
    virtual void broadcast_state(torch::nn::Module& module) { (void)module; }
    // Before each optimizer step (batch-norm statistics follow the first rank's).
    virtual void before_step(torch::nn::Module& module) { (void)module; }
    // Averages the gradients of `parameters` and the step's loss over the ranks; the seconds
    // it took, in distributed runs.
    virtual std::optional<double> average_gradients(const std::vector<at::Tensor>& parameters,
                                                    at::Tensor& loss) {
        (void)parameters, (void)loss;
        return std::nullopt;
    }
    // Combines one step's metrics over the ranks (images summed, the slowest rank's times);
    // returns whether any rank asked to stop.
    virtual bool reduce_metrics(track::StepMetrics& metrics, std::int64_t& images, bool stopping) {
        (void)metrics, (void)images;
        return stopping;
    }
    // Sums `tensor` (on this process's device) over the ranks, in place.
    virtual void sum_over_ranks(at::Tensor& tensor) { (void)tensor; }
    // At the end: logs whether every rank holds the same weights.
    virtual void check_replicas_agree(torch::nn::Module& module) { (void)module; }

protected:
    explicit Strategy(c10::Device device) : device_(device) {}

private:
    c10::Device device_;
};

// One process on one device.
class SingleDevice : public Strategy {
public:
    explicit SingleDevice(c10::Device device) : Strategy(device) {}
};

// Distributed data parallel over a c10d process group (Gloo on CPU, NCCL on CUDA).
class DataParallel : public Strategy {
public:
    DataParallel(c10::Device device, distributed::ProcessGroup& group, bool sync_batchnorm);

    int rank() const override;
    int world_size() const override;
    distributed::ProcessGroup* group() override { return &group_; }
    bool synchronous_metrics() const override { return true; }

    void barrier() override;
    void broadcast_state(torch::nn::Module& module) override;
    void before_step(torch::nn::Module& module) override;
    std::optional<double> average_gradients(const std::vector<at::Tensor>& parameters,
                                            at::Tensor& loss) override;
    bool reduce_metrics(track::StepMetrics& metrics, std::int64_t& images, bool stopping) override;
    void sum_over_ranks(at::Tensor& tensor) override;
    void check_replicas_agree(torch::nn::Module& module) override;

private:
    distributed::ProcessGroup& group_;
    bool sync_batchnorm_;
};

} // namespace kiln::train
