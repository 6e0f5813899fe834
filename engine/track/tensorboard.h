#pragma once

#include "track/run_events.h"
#include "track/step_values.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::track {

// CRC-32C (Castagnoli), as TFRecord files use it, and TFRecord's masking of it.
std::uint32_t crc32c(std::string_view bytes);
std::uint32_t masked_crc32c(std::string_view bytes);

// The records of a TFRecord file, each checked against both of its CRCs. Throws kiln::Error
// naming the file and the offset of the first damaged or truncated record.
std::vector<std::string> read_tfrecords(const std::filesystem::path& file);

// TensorBoard's event file in a run directory: out/events.out.tfevents.<time>.<host>.<pid>,
// one Event per step with every metric as a scalar. Each record is flushed when written, so a
// killed run keeps its steps. `loggers.tensorboard: null` turns it off.
class TensorBoardWriter : public TrainObserver {
public:
    explicit TensorBoardWriter(const std::filesystem::path& directory);
    ~TensorBoardWriter() override;
    TensorBoardWriter(const TensorBoardWriter&) = delete;
    TensorBoardWriter& operator=(const TensorBoardWriter&) = delete;

    void add_scalars(std::int64_t step, double wall_time, const MetricValues& values);
    void on_step(const StepMetrics& metrics) override;
    void on_validation(const ValidationMetrics& metrics) override;
    // A START at the next step: TensorBoard drops what a killed run logged after `step`, as
    // Lightning's purge_step does, so the steps logged again show once.
    void on_resume(std::int64_t step) override;

    const std::filesystem::path& file() const { return file_; }

private:
    void write_record(const std::string& data);

    std::filesystem::path file_;
    std::FILE* stream_ = nullptr;
    std::mutex mutex_;
};

} // namespace kiln::track
