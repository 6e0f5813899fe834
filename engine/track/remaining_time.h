#pragma once

#include "track/run_events.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace kiln::track {

// The time a run has left: the mean wall time per step since the run started (or resumed) in
// this process, times the steps to go. The CLI's progress bar and Studio's status bar both
// show it, so they agree.
class RemainingTime {
public:
    // When the run starts; without it, the first step's arrival counts as the start.
    void start();
    // After each step: the seconds left.
    double after_step(const StepMetrics& metrics);

private:
    std::optional<std::chrono::steady_clock::time_point> started_;
    std::int64_t first_step_ = -1; // the step before the first one seen (a resumed run's last)
};

// A duration as m:ss, or h:mm:ss from an hour on.
std::string clock_text(double seconds);

} // namespace kiln::track
