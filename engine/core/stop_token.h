#pragma once

#include <atomic>
#include <memory>

namespace kiln {

// Cooperative cancellation: the GUI, Ctrl-C or a failing rank asks, long-running work checks.
class StopToken {
public:
    StopToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}

    void request_stop() const { flag_->store(true, std::memory_order_relaxed); }
    bool stop_requested() const { return flag_->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> flag_; // copies share one flag
};

// Whether work given an optional token (null: never stopped) was asked to stop.
inline bool stop_requested(const StopToken* stop) {
    return stop != nullptr && stop->stop_requested();
}

} // namespace kiln
