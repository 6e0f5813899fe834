#pragma once

#include "config/run_config.h"
#include "config/settings.h"
#include "methods/method_names.h"

// Every command's settings, each declared once (engine/config/*_settings.cpp): the schema,
// --help, config.json's reader and writer, `kiln config check` and Studio's form come from them.
namespace kiln::config {

// The training commands: `kiln train` (pretraining) and the fine-tuning tasks', each with its
// own defaults (task_traits()).
const CommandSettings<TrainConfig>& train_settings(TaskKind task = TaskKind::Pretraining);
const CommandSettings<EmbedConfig>& embed_settings();
const CommandSettings<PredictConfig>& predict_settings();
const CommandSettings<ExportConfig>& export_settings();
const CommandSettings<SelectConfig>& select_settings();
const CommandSettings<MapConfig>& map_settings();

inline const CommandSchema& train_schema(TaskKind task = TaskKind::Pretraining) {
    return train_settings(task).schema();
}
inline const CommandSchema& embed_schema() {
    return embed_settings().schema();
}
inline const CommandSchema& predict_schema() {
    return predict_settings().schema();
}
inline const CommandSchema& export_schema() {
    return export_settings().schema();
}
inline const CommandSchema& select_schema() {
    return select_settings().schema();
}
inline const CommandSchema& map_schema() {
    return map_settings().schema();
}

// A method's argument (methods::MethodArg) as a key of `method_args`: the method table declares
// it; --help and Studio's method settings describe it as this.
KeySpec method_arg_key(const methods::MethodArg& arg);
// Each method's `method_args`, as `kiln train --help` lists them after its settings.
std::string describe_method_args();

// Keys that several commands share, with the same meaning.
KeySpec data_key();
KeySpec batch_size_key(int default_value, const std::string& help);
KeySpec num_workers_key();
KeySpec accelerator_key();
KeySpec overwrite_key(const std::string& help);
std::vector<std::string> precision_choices();

// `devices`: a count, auto, or a list of GPU indices (into `device_ids`).
template <class Config> Setting<Config> devices_setting(KeySpec key) {
    Setting<Config> setting{std::move(key), {}, {}};
    setting.read = [](const nlohmann::json& value, Config& config) {
        config.device_ids.clear();
        if (value.is_array()) {
            config.device_ids = value.get<std::vector<int>>();
            config.devices = static_cast<int>(config.device_ids.size());
        } else {
            config.devices =
                value.is_number_integer() ? std::optional<int>(value.get<int>()) : std::nullopt;
        }
    };
    setting.write = [](const Config& config) -> nlohmann::json {
        if (!config.device_ids.empty()) {
            return config.device_ids;
        }
        return config.devices ? nlohmann::json(*config.devices) : nlohmann::json("auto");
    };
    return setting;
}

} // namespace kiln::config
