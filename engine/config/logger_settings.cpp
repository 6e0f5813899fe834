#include "config/logger_settings.h"

#include "core/error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace kiln::config {
namespace {

std::string optional_string(const nlohmann::json& value, const std::string& key) {
    if (value.is_null()) {
        return {};
    }
    if (!value.is_string()) {
        throw Error("loggers.wandb." + key + " must be a string");
    }
    return value.get<std::string>();
}

} // namespace

std::optional<WandbSettings> wandb_settings(const nlohmann::json& settings) {
    const char* mode_variable = std::getenv("WANDB_MODE");
    const std::string mode = mode_variable != nullptr ? mode_variable : "";
    if (mode == "disabled") {
        return std::nullopt;
    }
    bool offline = mode == "offline" || mode == "dryrun";
    WandbSettings result;
    if (const char* project = std::getenv("WANDB_PROJECT")) {
        result.project = project;
    }
    if (const char* entity = std::getenv("WANDB_ENTITY")) {
        result.entity = entity;
    }
    if (settings.is_object()) {
        for (const auto& [key, value] : settings.items()) {
            if (key == "project") {
                result.project = optional_string(value, key);
            } else if (key == "entity") {
                result.entity = optional_string(value, key);
            } else if (key == "name") {
                result.name = optional_string(value, key);
            } else if (key == "version" || key == "id") {
                result.run_id = optional_string(value, key);
            } else if (key == "prefix") {
                result.prefix = optional_string(value, key);
            } else if (key == "notes") {
                result.notes = optional_string(value, key);
            } else if (key == "offline") {
                if (!value.is_boolean()) {
                    throw Error("loggers.wandb.offline must be true or false");
                }
                offline = offline || value.get<bool>();
            } else if (key == "log_model") {
                if (!(value.is_null() || (value.is_boolean() && !value.get<bool>()))) {
                    throw Error("loggers.wandb.log_model: Kiln's W&B runs hold metrics, not "
                                "models; the run's models are in out/exported_models");
                }
            } else if (key == "tags") {
                if (!value.is_array() ||
                    !std::all_of(value.begin(), value.end(),
                                 [](const nlohmann::json& tag) { return tag.is_string(); })) {
                    throw Error("loggers.wandb.tags must be a list of strings");
                }
                result.tags = value.get<std::vector<std::string>>();
            } else {
                throw Error("loggers.wandb." + key +
                            " is not a setting; use project, name, version, offline, prefix, "
                            "entity, tags or notes");
            }
        }
    }
    const auto valid_id_character = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    };
    if (!std::all_of(result.run_id.begin(), result.run_id.end(), valid_id_character)) {
        throw Error("loggers.wandb.version \"" + result.run_id +
                    "\" is not a W&B run id; use letters, digits, - and _");
    }
    if (!offline) {
        throw Error("loggers.wandb: Kiln writes Weights & Biases runs offline, for `wandb sync` "
                    "to upload; set loggers.wandb.offline=true or WANDB_MODE=offline (or "
                    "WANDB_MODE=disabled to turn W&B off)");
    }
    return result;
}

MlflowSettings mlflow_settings(const nlohmann::json& settings) {
    MlflowSettings result;
    if (!settings.is_object()) {
        return result;
    }
    for (const auto& [key, value] : settings.items()) {
        if (!value.is_string()) {
            throw Error("loggers.mlflow." + key + " must be a string");
        }
        if (key == "tracking_uri") {
            result.tracking_uri = value.get<std::string>();
        } else if (key == "experiment_name") {
            result.experiment_name = value.get<std::string>();
        } else if (key == "run_name") {
            result.run_name = value.get<std::string>();
        } else {
            throw Error("loggers.mlflow." + key +
                        " is not a setting; use tracking_uri, experiment_name or run_name");
        }
    }
    check_mlflow_tracking_uri(result.tracking_uri);
    return result;
}

void check_mlflow_tracking_uri(const std::string& uri) {
    const bool server = uri.rfind("http://", 0) == 0 || uri.rfind("https://", 0) == 0;
    if (!server && uri.find("://") != std::string::npos && uri.rfind("file://", 0) != 0) {
        throw Error("loggers.mlflow.tracking_uri \"" + uri +
                    "\" is not supported; use a folder (file:PATH) or an http(s) server");
    }
}

} // namespace kiln::config
