#include "track/remaining_time.h"

#include <algorithm>
#include <cstdio>

namespace kiln::track {

void RemainingTime::start() {
    started_ = std::chrono::steady_clock::now();
}

double RemainingTime::after_step(const StepMetrics& metrics) {
    const auto now = std::chrono::steady_clock::now();
    if (!started_) {
        started_ = now;
    }
    if (first_step_ < 0) {
        first_step_ = metrics.step - 1;
    }
    const double elapsed = std::chrono::duration<double>(now - *started_).count();
    const double per_step = elapsed / double(std::max<std::int64_t>(1, metrics.step - first_step_));
    return per_step * double(std::max<std::int64_t>(0, metrics.total_steps - metrics.step));
}

std::string clock_text(double seconds) {
    // Beyond a century (or NaN) a duration is not a duration but a bad record or estimate.
    if (!(seconds < 3.2e9)) {
        return "-";
    }
    const auto total = static_cast<long long>(std::max(0.0, seconds) + 0.5);
    char text[32];
    if (total >= 3600) {
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                      total % 60);
    } else {
        std::snprintf(text, sizeof text, "%lld:%02lld", total / 60, total % 60);
    }
    return text;
}

} // namespace kiln::track
