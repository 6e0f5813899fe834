#pragma once

#include <chrono>
#include <memory>
#include <vector>

namespace kiln::runtime {

// A point in a device's timeline. On the CPU it is a wall-clock reading, complete at once; on
// CUDA an event recorded on the stream, complete once the GPU has reached it.
class TimingEvent {
public:
    virtual ~TimingEvent() = default;
    virtual bool complete() const = 0;
    // Blocks until complete.
    virtual void wait() const = 0;
    // Seconds from `earlier` to this event; both complete, from the same source.
    virtual double seconds_since(const TimingEvent& earlier) const = 0;
};

class EventSource {
public:
    virtual ~EventSource() = default;
    virtual std::unique_ptr<TimingEvent> record() = 0;
};

// Wall-clock events: the CPU timeline.
class WallClockEvents : public EventSource {
public:
    std::unique_ptr<TimingEvent> record() override;
};

// LightlyTrain's step timing. Within one cycle (one optimizer step, from the end of the
// previous one) the intervals between begin_compute() and end_compute(), measured by the
// event source, add up to batch_time (forward, backward, optimizer step); data_time is the
// cycle's wall time minus batch_time (waiting for the loader, logging, checkpoints), and
// data_wait = data_time / (batch_time + data_time).
//
// With CUDA events the intervals are known only once the GPU has run them: a finished cycle is
// kept as a Cycle whose times() can be read when ready(), a few steps later, without
// synchronising the device on every step.
class StepTimer {
public:
    using Clock = std::chrono::steady_clock;

    struct Times {
        double batch_time = 0.0; // seconds
        double data_time = 0.0;  // seconds
        double data_wait() const {
            const double cycle = batch_time + data_time;
            return cycle > 0 ? data_time / cycle : 0.0;
        }
    };

    // One finished cycle.
    class Cycle {
    public:
        bool ready() const;
        void wait() const;
        Times times() const; // ready() must hold

    private:
        friend class StepTimer;
        std::vector<std::pair<std::unique_ptr<TimingEvent>, std::unique_ptr<TimingEvent>>>
            intervals_;
        double wall_seconds_ = 0.0;
    };

    StepTimer(); // wall clock
    explicit StepTimer(std::shared_ptr<EventSource> events);

    void begin_compute();
    void end_compute();

    // Ends the current cycle now and starts the next one.
    Cycle finish_cycle();

private:
    std::shared_ptr<EventSource> events_;
    Clock::time_point cycle_start_;
    Cycle current_;
};

} // namespace kiln::runtime
