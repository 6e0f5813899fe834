#pragma once

#include "config/logger_settings.h"
#include "track/run_events.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kiln::track {

// W&B's transaction log (run-<id>.wandb): a 7-byte header (":W&B", 0xBEE1, version 0), then
// records in LevelDB's log format (32 KiB blocks, chunks with a CRC-32 over type and payload).
// Each record is flushed when appended, so a killed run keeps what it logged.
class WandbTransactionLog {
public:
    // Creates `file`; a kiln::Error names it when it cannot (or when it exists).
    explicit WandbTransactionLog(const std::filesystem::path& file);
    ~WandbTransactionLog();
    WandbTransactionLog(const WandbTransactionLog&) = delete;
    WandbTransactionLog& operator=(const WandbTransactionLog&) = delete;

    void append(const std::string& record);

private:
    void write(const void* bytes, std::size_t size);

    std::filesystem::path file_;
    std::FILE* stream_ = nullptr;
    std::uint64_t offset_ = 0;
};

// The complete records of a transaction log, in order. A record cut short at the end (a run
// killed while writing) is left out, as `wandb sync` does; a damaged one elsewhere, or a file
// that is not a W&B log, is a kiln::Error naming the file and the byte.
std::vector<std::string> read_wandb_records(const std::filesystem::path& file);

// Logs a training run as a W&B offline run under out/wandb/offline-run-<time>-<id>/, the
// layout `wandb sync` uploads: the resolved settings as the run's config, one history row per
// step (every step value: profiling/batch_time, profiling/data_time, data_wait, the system
// metrics) and per validation, each with trainer/global_step and epoch (as Lightning logs
// them; W&B's own _step counts rows, so that a validation finished late still has its row),
// the summary of the latest values, and the exit code: 0 finished, 130 stopped, 1 failed. A
// resumed run writes a new offline run with the same id, its rows after the earlier ones'.
class WandbLogger : public TrainObserver {
public:
    WandbLogger(const config::WandbSettings& settings, const std::filesystem::path& out);
    ~WandbLogger() override;

    void on_resume(std::int64_t step) override;
    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override;
    void on_step(const StepMetrics& metrics) override;
    void on_validation(const ValidationMetrics& metrics) override;
    void on_end(const RunSummary& summary) override;
    void on_failure(const std::string& message) override;

    // The run's folder (offline-run-...), once started.
    const std::filesystem::path& run_folder() const { return run_folder_; }

private:
    void log_row(std::int64_t step, std::int64_t epoch,
                 const std::vector<std::pair<std::string, double>>& values);
    void finish(int exit_code);

    config::WandbSettings settings_;
    std::filesystem::path wandb_dir_;
    std::filesystem::path run_folder_;
    std::unique_ptr<WandbTransactionLog> log_;
    std::int64_t record_number_ = 0;
    std::int64_t row_ = 0; // W&B's _step
    double start_time_ = 0.0;
    bool resumed_ = false;
    std::mutex mutex_; // validations may end on another thread (asynchronous mAP)
};

} // namespace kiln::track
