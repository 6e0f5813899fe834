#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

// The settings of the loggers that need more than on or off, read where the configuration is
// checked (resolve_train_config, so `kiln config check` and Studio's form report them) and
// where the loggers start (engine/track).
namespace kiln::config {

// loggers.wandb, with the keys of LightlyTrain's (Lightning's) WandbLogger: project, name,
// version (the run id), offline, prefix, log_model (false only), plus entity, tags and notes.
// WANDB_PROJECT and WANDB_ENTITY fill in what is not set, as in W&B.
struct WandbSettings {
    std::string project;
    std::string entity;
    std::string name;
    std::string run_id; // empty: a new id, or the last one's when the run resumes
    std::string prefix; // before every metric's name with "-", as Lightning's `prefix`
    std::string notes;
    std::vector<std::string> tags;
};

// The settings, or nullopt when WANDB_MODE=disabled. Kiln writes W&B runs offline only (for
// `wandb sync`): loggers.wandb.offline=true or WANDB_MODE=offline; otherwise, as for an
// unknown key or a value of the wrong type, a kiln::Error says what to set.
std::optional<WandbSettings> wandb_settings(const nlohmann::json& settings);

// loggers.mlflow: {tracking_uri, experiment_name, run_name}. A file: URI or a path is MLflow's
// file store (empty: the run's out/mlruns); http(s) is a tracking server, spoken to through
// its REST API (MLFLOW_TRACKING_TOKEN, or MLFLOW_TRACKING_USERNAME and _PASSWORD,
// authenticate). An unknown key, a value that is not a string or another URI scheme is a
// kiln::Error saying what to set.
struct MlflowSettings {
    std::string tracking_uri;
    std::string experiment_name = "Default";
    std::string run_name;
};
MlflowSettings mlflow_settings(const nlohmann::json& settings);
void check_mlflow_tracking_uri(const std::string& uri);

} // namespace kiln::config
