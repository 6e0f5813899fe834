#pragma once

#include "track/run_events.h"

#include <exception>
#include <vector>

namespace kiln::track {

// Passes every event of a run on to several observers, in order (the run's files first, then
// the front end's view).
class FanOut : public TrainObserver {
public:
    explicit FanOut(std::vector<TrainObserver*> observers) : observers_(std::move(observers)) {}

    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override {
        for (TrainObserver* observer : observers_) {
            observer->on_start(config, dataset_size, total_steps);
        }
    }
    void on_step(const StepMetrics& metrics) override {
        for (TrainObserver* observer : observers_) {
            observer->on_step(metrics);
        }
    }
    void on_epoch_end(std::int64_t epoch, double mean_loss) override {
        for (TrainObserver* observer : observers_) {
            observer->on_epoch_end(epoch, mean_loss);
        }
    }
    void on_validation(const ValidationMetrics& metrics) override {
        for (TrainObserver* observer : observers_) {
            observer->on_validation(metrics);
        }
    }
    void on_validation_pending(std::int64_t step) override {
        for (TrainObserver* observer : observers_) {
            observer->on_validation_pending(step);
        }
    }
    void on_end(const RunSummary& summary) override {
        for (TrainObserver* observer : observers_) {
            observer->on_end(summary);
        }
    }
    void before_checkpoint(const std::filesystem::path& path) override {
        for (TrainObserver* observer : observers_) {
            observer->before_checkpoint(path);
        }
    }
    void on_checkpoint(const std::filesystem::path& path) override {
        for (TrainObserver* observer : observers_) {
            observer->on_checkpoint(path);
        }
    }
    void on_resume(std::int64_t step) override {
        for (TrainObserver* observer : observers_) {
            observer->on_resume(step);
        }
    }
    // Every observer hears of a failure, even after one fails to record it (a full disk under
    // run.db still leaves MLflow's run marked failed); the first such error is then thrown.
    void on_failure(const std::string& message) override {
        std::exception_ptr first;
        for (TrainObserver* observer : observers_) {
            try {
                observer->on_failure(message);
            } catch (...) {
                first = first ? first : std::current_exception();
            }
        }
        if (first) {
            std::rethrow_exception(first);
        }
    }

private:
    std::vector<TrainObserver*> observers_;
};

} // namespace kiln::track
