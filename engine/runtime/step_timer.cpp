#include "runtime/step_timer.h"

#include <algorithm>

namespace kiln::runtime {
namespace {

class WallClockEvent : public TimingEvent {
public:
    WallClockEvent() : time_(std::chrono::steady_clock::now()) {}
    bool complete() const override { return true; }
    void wait() const override {}
    double seconds_since(const TimingEvent& earlier) const override {
        const auto& start = static_cast<const WallClockEvent&>(earlier);
        return std::chrono::duration<double>(time_ - start.time_).count();
    }

private:
    std::chrono::steady_clock::time_point time_;
};

} // namespace

std::unique_ptr<TimingEvent> WallClockEvents::record() {
    return std::make_unique<WallClockEvent>();
}

bool StepTimer::Cycle::ready() const {
    return std::all_of(intervals_.begin(), intervals_.end(),
                       [](const auto& interval) { return interval.second->complete(); });
}

void StepTimer::Cycle::wait() const {
    for (const auto& interval : intervals_) {
        interval.second->wait();
    }
}

StepTimer::Times StepTimer::Cycle::times() const {
    Times times;
    for (const auto& [begin, end] : intervals_) {
        times.batch_time += end->seconds_since(*begin);
    }
    times.data_time = std::max(0.0, wall_seconds_ - times.batch_time);
    return times;
}

StepTimer::StepTimer() : StepTimer(std::make_shared<WallClockEvents>()) {}

StepTimer::StepTimer(std::shared_ptr<EventSource> events)
    : events_(std::move(events)), cycle_start_(Clock::now()) {}

void StepTimer::begin_compute() {
    current_.intervals_.emplace_back(events_->record(), nullptr);
}

void StepTimer::end_compute() {
    current_.intervals_.back().second = events_->record();
}

StepTimer::Cycle StepTimer::finish_cycle() {
    const Clock::time_point now = Clock::now();
    Cycle finished = std::move(current_);
    finished.wall_seconds_ = std::chrono::duration<double>(now - cycle_start_).count();
    current_ = Cycle();
    cycle_start_ = now;
    return finished;
}

} // namespace kiln::runtime
