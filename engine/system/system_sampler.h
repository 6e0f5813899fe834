#pragma once

#include "system/nvml.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::system {

struct SystemSample {
    double system_util = 0.0;  // busy share of all cores, [0, 1]
    double process_util = 0.0; // this process's share of all cores, [0, 1]
    double rss_mb = 0.0;       // resident memory of this process
    bool measured = false;     // false until the first interval has passed
    std::vector<GpuSample> gpus;
};

// The GPUs a run uses, as NVML sees them; empty on CPU or without NVML.
struct GpuSet {
    std::unique_ptr<Nvml> nvml;
    std::vector<Nvml::Device> devices;
};

// The GPUs at these PCI bus ids (CUDA's devices of the run, in order), when NVML is there.
GpuSet gpus_at(const std::vector<std::string>& pci_bus_ids);

// Samples CPU utilisation from /proc and each GPU's utilisation and memory from NVML on its own
// thread, a few times a second, so that a slow training step does not stretch the
// measurement. The first value arrives after 50 ms.
class SystemSampler {
public:
    explicit SystemSampler(GpuSet gpus = {},
                           std::chrono::milliseconds interval = std::chrono::milliseconds(250));
    ~SystemSampler();
    SystemSampler(const SystemSampler&) = delete;
    SystemSampler& operator=(const SystemSampler&) = delete;

    SystemSample latest() const;

private:
    void run();

    GpuSet gpus_;
    const std::chrono::milliseconds interval_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    SystemSample latest_;
    std::thread thread_;
};

} // namespace kiln::system
