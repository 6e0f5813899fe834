#pragma once

#include "core/log.h"
#include "track/run_events.h"
#include "track/step_values.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

namespace kiln::track {

// The plain files of a run directory, as LightlyTrain writes them:
//   train.log      the resolved settings, every log line of the run (timestamped), the summary
//   metrics.jsonl  one JSON object per step: step, epoch, train_loss, lr, profiling/batch_time,
//                  profiling/data_time, data_wait, images_per_second, time (Unix seconds)
// Each line is flushed when written, so a killed run keeps every step it finished. A resumed
// run drops the lines after its checkpoint's step (it trains those steps again) and appends.
// `loggers.jsonl: null` turns metrics.jsonl off.
class RunFiles : public TrainObserver {
public:
    // `earlier`: lines logged before the files existed, written first.
    explicit RunFiles(const TrainConfig& config, const std::vector<log::Line>& earlier = {});
    ~RunFiles() override;
    RunFiles(const RunFiles&) = delete;
    RunFiles& operator=(const RunFiles&) = delete;

    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override;
    void on_resume(std::int64_t step) override;
    void on_step(const StepMetrics& metrics) override;
    void on_validation(const ValidationMetrics& metrics) override;
    void on_epoch_end(std::int64_t epoch, double mean_loss) override;
    void on_end(const RunSummary& summary) override;

private:
    void open_metrics();
    void write_log(const std::string& line);
    void write_metrics(std::int64_t step, std::int64_t epoch, const MetricValues& values);

    std::mutex mutex_;
    std::FILE* log_ = nullptr;
    std::filesystem::path metrics_path_;
    std::FILE* metrics_ = nullptr;
    std::unique_ptr<log::ScopedSink> sink_;
};

} // namespace kiln::track
