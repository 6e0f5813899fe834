#pragma once

#include "config/logger_settings.h"
#include "track/run_events.h"
#include "track/step_values.h"

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kiln::track {

// loggers.mlflow as config::mlflow_settings reads it, its tracking_uri defaulting to out/mlruns.
using MlflowSettings = config::MlflowSettings;
MlflowSettings mlflow_settings(const nlohmann::json& settings, const std::filesystem::path& out);

// Where an MLflow run's records go: a file store or a server.
class MlflowStore {
public:
    virtual ~MlflowStore() = default;
    // Creates the experiment when needed and a run in it; returns the run id.
    virtual std::string start_run(const MlflowSettings& settings, double start_time) = 0;
    virtual void log_params(const std::vector<std::pair<std::string, std::string>>& params) = 0;
    virtual void log_metrics(std::int64_t step, double wall_time, const MetricValues& values) = 0;
    // "FINISHED", "FAILED" or "KILLED".
    virtual void end_run(const std::string& status, double end_time) = 0;
};
std::unique_ptr<MlflowStore> make_mlflow_store(const MlflowSettings& settings);

// `name` (a metric or param, which may hold a class name from someone else's annotations) as
// MLflow accepts it and its file store can hold it inside the run's folder: characters other
// than letters, digits, "_", "-", ".", " " and "/" become "_", and so do path parts that are
// empty, "." or ".." ("../../x" is "__/__/x"), and the slashes of a per-class metric's class
// name (per_class_metric); each part at most 200 bytes.
std::string mlflow_key(const std::string& name);

// The MLflow keys of one run's names: a name's key is the same all run long, and no two names
// share one. A name whose mlflow_key an earlier name has is given "_2" (then "_3", ...), with a
// warning: "person/rider" and "person_rider" would otherwise log into one metric.
class MlflowKeys {
public:
    const std::string& operator()(const std::string& name);

private:
    std::unordered_map<std::string, std::string> keys_;
    std::unordered_set<std::string> taken_;
};

// Logs a training run to MLflow: the resolved configuration as params (flattened: optim_args.lr),
// every step's metrics,
// and the run's end state.
class MlflowLogger : public TrainObserver {
public:
    MlflowLogger(const MlflowSettings& settings, const TrainConfig& config);

    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override;
    void on_step(const StepMetrics& metrics) override;
    void on_validation(const ValidationMetrics& metrics) override;
    void on_end(const RunSummary& summary) override;
    void on_failure(const std::string& message) override;

    const std::string& run_id() const { return run_id_; }

private:
    MlflowSettings settings_;
    std::unique_ptr<MlflowStore> store_;
    MlflowKeys param_keys_; // MLflow keeps params and metrics apart
    MlflowKeys metric_keys_;
    std::string run_id_;
};

} // namespace kiln::track
