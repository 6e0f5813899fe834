#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace kiln::system {

struct CpuSample {
    double system_util = 0.0;  // busy share of all cores, [0, 1]
    double process_util = 0.0; // this process's share of all cores, [0, 1]
    double rss_mb = 0.0;       // resident memory of this process
    bool measured = false;     // false until the first interval has passed
};

// Samples CPU utilisation from /proc on its own thread, a few times a second, so that a slow
// training step does not stretch the measurement. The first value arrives after 50 ms.
class CpuSampler {
public:
    explicit CpuSampler(std::chrono::milliseconds interval = std::chrono::milliseconds(250));
    ~CpuSampler();
    CpuSampler(const CpuSampler&) = delete;
    CpuSampler& operator=(const CpuSampler&) = delete;

    CpuSample latest() const;

private:
    void run();

    const std::chrono::milliseconds interval_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    CpuSample latest_;
    std::thread thread_;
};

} // namespace kiln::system
