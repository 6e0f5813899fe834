#pragma once

#include "system/bottleneck_advisor.h"
#include "track/run_events.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

namespace kiln::train {

// The last steps of a run as the bottleneck advisor reads them when the run ends. It judges
// only after warm-up (the first kWarmUpSteps steps: start-up, the first batches, allocator and
// cache warm-up) and over at least kMinimumSteps steps: a 7-step run says nothing.
class AdviceWindow {
public:
    static constexpr std::int64_t kWarmUpSteps = 10;
    static constexpr std::size_t kMinimumSteps = 20;

    // `settings`: what the run was set to, so that the advice can name values to try.
    AdviceWindow(bool cuda, system::AdvisedSettings settings, std::size_t capacity = 100)
        : cuda_(cuda), settings_(std::move(settings)), capacity_(capacity) {}

    // One step's metrics, the bytes this process's loader had read by then and the images of
    // its share of the batch. The first kWarmUpSteps steps this window sees (of a run, or of a
    // resumed run) and steps without a system sample are left out.
    void add(const track::StepMetrics& metrics, bool measured, std::uint64_t bytes_read,
             std::int64_t images);
    // The diagnosis over the window; none before kMinimumSteps steps after warm-up.
    std::optional<system::Advice> advise() const;

private:
    struct Step {
        double data_wait;
        double cpu_util;
        std::optional<double> gpu_util; // mean over the run's GPUs, when NVML measured them
        std::uint64_t bytes_read;
        double images; // in the step's batch
        std::chrono::steady_clock::time_point time;
    };
    bool cuda_;
    system::AdvisedSettings settings_;
    std::size_t capacity_;
    std::int64_t seen_ = 0;
    std::deque<Step> steps_;
};

} // namespace kiln::train
