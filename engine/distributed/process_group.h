#pragma once

#include "distributed/rank_environment.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::distributed {

// Tensors are flattened into buckets of about this size per collective (DDP's default).
inline constexpr std::int64_t kBucketBytes = 25 * 1024 * 1024;

// Whether processes on the CPU can meet: Kiln was built with Gloo's headers.
bool gloo_available();

// One rank's membership of a run: a c10d TCPStore for the rendezvous (rank 0 serves it) and a
// process group for the collectives: Gloo for a CPU run, NCCL on `device` for a CUDA run. Every
// failure of a collective is a kiln::Error that says which rank failed where that is known
// (explain_failure).
class ProcessGroup {
public:
    // Rank 0 opens the store at environment.master_port (0: a free port, see port()); the
    // others connect to it. A port in use or an unreachable master is a kiln::Error.
    ProcessGroup(const RankEnvironment& environment, std::chrono::milliseconds timeout,
                 c10::Device device = c10::Device(c10::kCPU));
    ~ProcessGroup();
    ProcessGroup(const ProcessGroup&) = delete;
    ProcessGroup& operator=(const ProcessGroup&) = delete;

    int rank() const { return rank_; }
    int world_size() const { return world_size_; }
    const c10::Device& device() const { return device_; }
    int port() const;

    // Waits until every rank has joined and connects the collectives. `check` runs while
    // waiting (to report a local rank that died at start); it throws to give up.
    void join(const std::function<void()>& check = {});
    // Called when a collective fails: the reason it failed, if known (a rank that died).
    void set_failure_explainer(std::function<std::optional<std::string>()> explain);

    void all_reduce_sum(at::Tensor& tensor);
    void all_reduce_max(at::Tensor& tensor);
    // Rank 0's values into every rank's tensors, in buckets.
    void broadcast(const std::vector<at::Tensor>& tensors);
    // Every rank's tensors summed and divided by the world size, in buckets of about
    // `bucket_bytes` whose reductions overlap.
    void average(const std::vector<at::Tensor>& tensors, std::int64_t bucket_bytes = kBucketBytes);
    // [world_size * N, ...] from every rank's [N, ...], in rank order. Differentiable: the
    // gradient of this rank's rows is the sum of every rank's gradient for them.
    at::Tensor all_gather(const at::Tensor& tensor);
    void barrier();

private:
    struct Connection;
    [[noreturn]] void fail(const std::string& operation, const std::exception& error) const;
    template <typename Collective> void run(const std::string& operation, Collective collective);
    void all_reduce(at::Tensor& tensor, const std::string& operation, bool maximum);

    int rank_ = 0;
    int world_size_ = 1;
    c10::Device device_;
    std::string master_;
    std::chrono::milliseconds timeout_;
    std::unique_ptr<Connection> connection_;
    std::function<std::optional<std::string>()> explain_failure_;
};

} // namespace kiln::distributed
