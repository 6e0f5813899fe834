#pragma once

#include "track/run_events.h"

#include <cstdint>
#include <memory>
#include <string>

namespace kiln::track {

// A logger the run does not depend on (TensorBoard, MLflow, W&B): its first failure is a
// warning naming it, after which it is switched off for the rest of the run and the events it
// misses are counted (said again at the end). Training, run.db and metrics.jsonl go on, and the
// run's status stays the training's: a logging server that fails mid-run never fails the run.
class GuardedLogger : public TrainObserver {
public:
    GuardedLogger(std::string name, std::unique_ptr<TrainObserver> logger);

    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override;
    void on_step(const StepMetrics& metrics) override;
    void on_epoch_end(std::int64_t epoch, double mean_loss) override;
    void on_validation(const ValidationMetrics& metrics) override;
    void on_validation_pending(std::int64_t step) override;
    void on_end(const RunSummary& summary) override;
    void before_checkpoint(const std::filesystem::path& path) override;
    void on_checkpoint(const std::filesystem::path& path) override;
    void on_resume(std::int64_t step) override;
    void on_failure(const std::string& message) override;

    const std::string& name() const { return name_; }
    const TrainObserver& logger() const { return *logger_; }
    bool failed() const { return failed_; }
    std::int64_t missed_events() const { return missed_; }

private:
    template <class Call> void guard(const Call& call);

    std::string name_;
    std::unique_ptr<TrainObserver> logger_;
    bool failed_ = false;
    std::int64_t missed_ = 0;
    std::int64_t step_ = 0;
};

} // namespace kiln::track
