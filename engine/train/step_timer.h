#pragma once

#include <chrono>

namespace kiln::train {

// LightlyTrain's step timing on CPU, with wall clocks: within one cycle (one optimizer step,
// from the end of the previous one), the intervals between begin_compute() and end_compute()
// are batch_time (forward, backward, optimizer step); the rest of the cycle is data_time
// (waiting for the loader, logging, checkpoints).
class StepTimer {
public:
    using Clock = std::chrono::steady_clock;

    struct Times {
        double batch_time = 0.0; // seconds
        double data_time = 0.0;  // seconds
        // data_time / (batch_time + data_time): the share of the cycle spent waiting.
        double data_wait() const {
            const double cycle = batch_time + data_time;
            return cycle > 0 ? data_time / cycle : 0.0;
        }
    };

    StepTimer() : cycle_start_(Clock::now()) {}

    void begin_compute() { compute_start_ = Clock::now(); }
    void end_compute() { compute_ += Clock::now() - compute_start_; }

    // Ends the current cycle now, returns its times, and starts the next one.
    Times finish_cycle() {
        const Clock::time_point now = Clock::now();
        Times times;
        times.batch_time = std::chrono::duration<double>(compute_).count();
        times.data_time = std::max(0.0, std::chrono::duration<double>(now - cycle_start_).count() -
                                            times.batch_time);
        cycle_start_ = now;
        compute_ = Clock::duration::zero();
        return times;
    }

private:
    Clock::time_point cycle_start_;
    Clock::time_point compute_start_;
    Clock::duration compute_{};
};

} // namespace kiln::train
