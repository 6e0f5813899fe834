#include "track/run_files.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_text.h"
#include "track/run_directory.h"
#include "track/step_values.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace kiln::track {
namespace {

std::FILE* open_for_append(const std::filesystem::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "a");
    if (file == nullptr) {
        throw Error("cannot write \"" + path.string() + "\": " + std::strerror(errno));
    }
    return file;
}

std::string timestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    return text;
}

// The lines of metrics.jsonl a resumed run keeps: those of the steps up to its checkpoint. The
// steps after it are trained again, and a line torn by a kill is not a line.
std::string lines_up_to_step(const std::filesystem::path& path, std::int64_t step) {
    refuse_unless_regular_file(path, "run metrics");
    std::ifstream in(path);
    std::string kept;
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json record = parse_json_or_discarded(line);
        if (record.is_object() && record.contains("step") && record["step"].is_number_integer() &&
            record["step"].get<std::int64_t>() <= step) {
            kept += line + "\n";
        }
    }
    return kept;
}

} // namespace

RunFiles::RunFiles(const TrainConfig& config, const std::vector<log::Line>& earlier) {
    log_ = open_for_append(RunDirectory(config.out).train_log());
    for (const log::Line& line : earlier) {
        write_log(log::to_string(line.level) + ": " + line.message);
    }
    const bool jsonl = !(config.loggers.is_object() && config.loggers.contains("jsonl") &&
                         config.loggers["jsonl"].is_null());
    if (jsonl) {
        metrics_path_ = RunDirectory(config.out).metrics_jsonl();
        open_metrics();
    }
    sink_ = std::make_unique<log::ScopedSink>([this](log::Level level, const std::string& message) {
        write_log(log::to_string(level) + ": " + message);
    });
}

RunFiles::~RunFiles() {
    sink_.reset();
    if (metrics_ != nullptr) {
        std::fclose(metrics_);
    }
    std::fclose(log_);
}

void RunFiles::write_log(const std::string& line) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::fprintf(log_, "%s %s\n", timestamp().c_str(), line.c_str());
    std::fflush(log_);
}

void RunFiles::on_start(const TrainConfig& config, std::int64_t dataset_size,
                        std::int64_t total_steps) {
    write_log("run started: " + std::to_string(dataset_size) + " images, " +
              std::to_string(total_steps) + " steps; settings:\n" + to_json(config).dump(2));
}

void RunFiles::on_resume(std::int64_t step) {
    if (metrics_ == nullptr) {
        return;
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    std::fclose(metrics_);
    metrics_ = nullptr;
    write_file_atomically(metrics_path_, lines_up_to_step(metrics_path_, step));
    open_metrics();
}

// Unbuffered: each line is one write, which a failure can take back whole (write_metrics).
void RunFiles::open_metrics() {
    metrics_ = open_for_append(metrics_path_);
    std::setvbuf(metrics_, nullptr, _IONBF, 0);
}

void RunFiles::on_step(const StepMetrics& metrics) {
    write_metrics(metrics.step, metrics.epoch, step_values(metrics));
}

void RunFiles::on_validation(const ValidationMetrics& metrics) {
    std::string text = "validation after step " + std::to_string(metrics.step) + ":";
    for (const auto& [key, value] : metrics.values) {
        if (key.find('/', key.find('/') + 1) == std::string::npos) { // not per class
            text += " " + key + " " + std::to_string(value);
        }
    }
    write_log(text + (metrics.best ? " (best so far)" : ""));
    write_metrics(metrics.step, metrics.epoch, metrics.values);
}

void RunFiles::write_metrics(std::int64_t step, std::int64_t epoch, const MetricValues& values) {
    if (metrics_ == nullptr) {
        return;
    }
    nlohmann::json line = {{"step", step}, {"epoch", epoch}};
    for (const auto& [key, value] : values) {
        line[key] = value;
    }
    line["time"] = unix_seconds();
    const std::string text = line.dump() + "\n";
    const std::lock_guard<std::mutex> lock(mutex_);
    const int descriptor = fileno(metrics_);
    const off_t end = ::lseek(descriptor, 0, SEEK_END);
    if (std::fwrite(text.data(), 1, text.size(), metrics_) != text.size()) {
        const std::string reason = std::strerror(errno);
        // A line cut short by a full disk is taken back: the file keeps whole lines only.
        if (end >= 0 && ::ftruncate(descriptor, end) == 0) {
            std::clearerr(metrics_);
        }
        throw Error("cannot write \"" + metrics_path_.string() + "\": " + reason +
                    "; free some disk space and resume the run");
    }
}

void RunFiles::on_epoch_end(std::int64_t epoch, double mean_loss) {
    write_log("epoch " + std::to_string(epoch + 1) + " done, mean loss " +
              std::to_string(mean_loss));
}

void RunFiles::on_end(const RunSummary& summary) {
    write_log(std::string(summary.status == RunSummary::Status::Finished ? "run finished"
                                                                         : "run stopped") +
              " after " + std::to_string(summary.steps) + " steps in " +
              std::to_string(summary.seconds) + " s" +
              (summary.last_loss ? ", last loss " + std::to_string(*summary.last_loss)
               : summary.status == RunSummary::Status::Finished
                   ? std::string(", no step left to train")
                   : std::string(", before a step finished")) +
              (summary.skipped_images > 0
                   ? ", " + std::to_string(summary.skipped_images) + " unreadable images skipped"
                   : std::string()));
    if (summary.advice) {
        std::string text = "bottleneck: " + summary.advice->diagnosis;
        for (const std::string& step : summary.advice->advice) {
            text += "\n  - " + step;
        }
        write_log(text);
    }
}

} // namespace kiln::track
