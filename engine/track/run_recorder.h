#pragma once

#include "core/log.h"
#include "track/run_events.h"
#include "track/run_store.h"

#include <memory>
#include <optional>

namespace kiln::track {

// Records a training run in out/run.db: the run (config, status, host), every step's metrics,
// log lines as events, the checkpoint and exported model as artifacts, the summary and the
// bottleneck advice at the end. A resumed run continues its row.
class RunRecorder : public TrainObserver {
public:
    explicit RunRecorder(const TrainConfig& config);
    ~RunRecorder() override;

    void on_resume(std::int64_t step) override;
    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override;
    void on_step(const StepMetrics& metrics) override;
    void on_validation(const ValidationMetrics& metrics) override;
    void on_epoch_end(std::int64_t epoch, double mean_loss) override;
    void before_checkpoint(const std::filesystem::path& path) override;
    void on_checkpoint(const std::filesystem::path& path) override;
    void on_end(const RunSummary& summary) override;
    void on_failure(const std::string& message) override;

private:
    RunStore store_;
    std::string settings_; // the resolved configuration, JSON
    std::string method_;
    std::string model_;
    std::int64_t run_ = 0;
    bool resuming_; // resume_interrupted: the newest run is continued, not a new one begun
    std::optional<std::int64_t> resumed_step_;
    std::unique_ptr<log::ScopedSink> sink_;
};

} // namespace kiln::track
