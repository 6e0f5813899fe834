#include "track/run_recorder.h"

#include "track/run_directory.h"
#include "track/step_values.h"

#include <nlohmann/json.hpp>

namespace kiln::track {
namespace {

std::string advice_json(const std::optional<system::Advice>& advice) {
    if (!advice) {
        return "";
    }
    return nlohmann::json{{"bottleneck", system::to_string(advice->bottleneck)},
                          {"diagnosis", advice->diagnosis},
                          {"advice", advice->advice}}
        .dump();
}

} // namespace

RunRecorder::RunRecorder(const TrainConfig& config)
    : store_(RunDirectory(config.out).run_db()), settings_(to_json(config).dump()),
      method_(config.method), model_(config.model), resuming_(config.resume_interrupted) {}

RunRecorder::~RunRecorder() {
    sink_.reset();
}

void RunRecorder::on_resume(std::int64_t step) {
    resumed_step_ = step;
}

void RunRecorder::on_start(const TrainConfig& config, std::int64_t dataset_size,
                           std::int64_t total_steps) {
    settings_ = to_json(config).dump();
    run_ = resumed_step_ ? store_.resume_run(settings_, method_, model_, *resumed_step_)
                         : store_.begin_run(settings_, method_, model_);
    sink_ = std::make_unique<log::ScopedSink>([this](log::Level level, const std::string& message) {
        store_.add_event(run_, log::to_string(level), message, unix_seconds());
    });
    store_.add_event(run_, "info",
                     (resumed_step_ ? "resumed after step " + std::to_string(*resumed_step_) + ", "
                                    : std::string("started, ")) +
                         std::to_string(dataset_size) + " images, " + std::to_string(total_steps) +
                         " steps",
                     unix_seconds());
}

void RunRecorder::on_step(const StepMetrics& metrics) {
    store_.add_metrics(run_, metrics.step, metrics.epoch, step_values(metrics), unix_seconds());
}

void RunRecorder::on_validation(const ValidationMetrics& metrics) {
    store_.add_metrics(run_, metrics.step, metrics.epoch, metrics.values, unix_seconds());
}

void RunRecorder::on_epoch_end(std::int64_t epoch, double mean_loss) {
    store_.add_event(run_, "info",
                     "epoch " + std::to_string(epoch + 1) + " done, mean loss " +
                         std::to_string(mean_loss),
                     unix_seconds());
}

void RunRecorder::before_checkpoint(const std::filesystem::path&) {
    store_.flush();
}

// Recorded once written: a write that failed (a full disk) listed a checkpoint that was not there.
void RunRecorder::on_checkpoint(const std::filesystem::path& path) {
    store_.add_artifact(run_, "checkpoint", path.string(), unix_seconds());
    store_.flush();
}

void RunRecorder::on_end(const RunSummary& summary) {
    sink_.reset();
    const double now = unix_seconds();
    if (!summary.checkpoint.empty()) {
        store_.add_artifact(run_, "checkpoint", summary.checkpoint.string(), now);
    }
    if (!summary.exported_model.empty()) {
        store_.add_artifact(run_, "exported_model", summary.exported_model.string(), now);
    }
    nlohmann::json record = {{"steps", summary.steps},
                             {"seconds", summary.seconds},
                             {"skipped_images", summary.skipped_images}};
    if (summary.last_loss) {
        record["last_loss"] = *summary.last_loss;
    }
    if (summary.best_value) {
        record["watch_metric"] = summary.watch_metric;
        record["best_value"] = *summary.best_value;
        record["best_step"] = summary.best_step;
    }
    store_.finish_run(run_,
                      summary.status == RunSummary::Status::Finished ? RunStatus::Finished
                                                                     : RunStatus::Cancelled,
                      record.dump(), advice_json(summary.advice));
}

void RunRecorder::on_failure(const std::string& message) {
    sink_.reset();
    if (run_ == 0 && resuming_) {
        // A resume that could not start leaves the run as it was (resumable), with the reason
        // among its events: a run of its own split the history of the one it meant to continue.
        if (const std::vector<RunRecord> runs = store_.runs(); !runs.empty()) {
            store_.add_event(runs.back().id, "error", "resuming failed: " + message,
                             unix_seconds());
            store_.flush();
            return;
        }
    }
    if (run_ == 0) { // failed while starting: still a run users should see
        run_ = store_.begin_run(settings_, method_, model_);
    }
    store_.add_event(run_, "error", message, unix_seconds());
    // The message may quote a path in another encoding than UTF-8, which JSON cannot hold.
    store_.finish_run(run_, RunStatus::Failed,
                      nlohmann::json{{"error", message}}.dump(
                          -1, ' ', false, nlohmann::json::error_handler_t::replace),
                      "");
}

} // namespace kiln::track
