#include "track/guarded_logger.h"

#include "core/log.h"

#include <exception>

namespace kiln::track {

GuardedLogger::GuardedLogger(std::string name, std::unique_ptr<TrainObserver> logger)
    : name_(std::move(name)), logger_(std::move(logger)) {}

template <class Call> void GuardedLogger::guard(const Call& call) {
    if (failed_) {
        ++missed_;
        return;
    }
    try {
        call();
    } catch (const std::exception& error) {
        failed_ = true;
        log::warning(name_ + " failed at step " + std::to_string(step_) + ": " + error.what() +
                     "; it is off for the rest of this run, which goes on (every metric is in "
                     "run.db and metrics.jsonl)");
    }
}

void GuardedLogger::on_start(const TrainConfig& config, std::int64_t dataset_size,
                             std::int64_t total_steps) {
    guard([&] { logger_->on_start(config, dataset_size, total_steps); });
}

void GuardedLogger::on_step(const StepMetrics& metrics) {
    step_ = metrics.step;
    guard([&] { logger_->on_step(metrics); });
}

void GuardedLogger::on_epoch_end(std::int64_t epoch, double mean_loss) {
    guard([&] { logger_->on_epoch_end(epoch, mean_loss); });
}

void GuardedLogger::on_validation(const ValidationMetrics& metrics) {
    guard([&] { logger_->on_validation(metrics); });
}

void GuardedLogger::on_validation_pending(std::int64_t step) {
    guard([&] { logger_->on_validation_pending(step); });
}

void GuardedLogger::on_end(const RunSummary& summary) {
    guard([&] { logger_->on_end(summary); });
    if (failed_) {
        log::warning(name_ + " missed " + std::to_string(missed_) +
                     " events of this run after it failed; run.db and metrics.jsonl hold them");
    }
}

void GuardedLogger::before_checkpoint(const std::filesystem::path& path) {
    guard([&] { logger_->before_checkpoint(path); });
}

void GuardedLogger::on_checkpoint(const std::filesystem::path& path) {
    guard([&] { logger_->on_checkpoint(path); });
}

void GuardedLogger::on_resume(std::int64_t step) {
    guard([&] { logger_->on_resume(step); });
}

void GuardedLogger::on_failure(const std::string& message) {
    guard([&] { logger_->on_failure(message); });
}

} // namespace kiln::track
