#pragma once

#include "config/config_schema.h"

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kiln::config {

// One setting of a command, declared once: its key (type, default, checks, help, place in
// Studio's form) and how it reads into and writes from the command's typed configuration.
// The schema, --help, the readers and writers of config.json and presets, `kiln config check`
// and Studio's form all come from these declarations.
template <class Config> struct Setting {
    KeySpec key;
    // `value` is the key's normalized value (checked, default filled in).
    std::function<void(const nlohmann::json& value, Config& config)> read;
    std::function<nlohmann::json(const Config& config)> write;
};

// A command's settings, in the order --help lists them.
template <class Config> class CommandSettings {
public:
    CommandSettings(std::string command, std::vector<Setting<Config>> settings)
        : settings_(std::move(settings)) {
        schema_.command = std::move(command);
        for (const Setting<Config>& setting : settings_) {
            schema_.keys.push_back(setting.key);
        }
    }

    const CommandSchema& schema() const { return schema_; }
    const std::vector<Setting<Config>>& settings() const { return settings_; }

    // The configuration from normalize()'s output.
    Config read(const nlohmann::json& normalized) const {
        Config config;
        for (const Setting<Config>& setting : settings_) {
            setting.read(normalized.value(setting.key.name, nlohmann::json()), config);
        }
        return config;
    }

    nlohmann::json write(const Config& config) const {
        nlohmann::json values = nlohmann::json::object();
        for (const Setting<Config>& setting : settings_) {
            values[setting.key.name] = setting.write(config);
        }
        return values;
    }

private:
    CommandSchema schema_;
    std::vector<Setting<Config>> settings_;
};

// A setting stored in `member` as it is typed: int, bool, double, std::string, a path, a list of
// paths, std::optional<int> or <double> (unset: "auto" or null, as the key allows),
// std::optional<path> (null when unset) or raw JSON (a dictionary, or null).
template <class Config, class T> Setting<Config> bind(KeySpec key, T Config::*member) {
    namespace fs = std::filesystem;
    using nlohmann::json;
    const bool unset_is_auto = key.allows_auto;
    Setting<Config> setting{std::move(key), {}, {}};
    setting.read = [member](const json& value, Config& config) {
        T& field = config.*member;
        if constexpr (std::is_same_v<T, std::optional<int>>) {
            field = value.is_number_integer() ? std::optional<int>(value.get<int>()) : std::nullopt;
        } else if constexpr (std::is_same_v<T, std::optional<double>>) {
            field = value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
        } else if constexpr (std::is_same_v<T, std::optional<fs::path>>) {
            field = value.is_string() ? std::optional<fs::path>(value.get<std::string>())
                                      : std::nullopt;
        } else if constexpr (std::is_same_v<T, std::vector<fs::path>>) {
            field.clear();
            for (const json& entry : value.is_array() ? value : json::array()) {
                field.emplace_back(entry.get<std::string>());
            }
        } else if constexpr (std::is_same_v<T, fs::path> || std::is_same_v<T, std::string>) {
            field = value.is_string() ? value.get<std::string>() : std::string();
        } else if constexpr (std::is_same_v<T, json>) {
            field = value.is_object() || value.is_string() ? value : json();
        } else {
            field = value.is_null() ? T{} : value.get<T>(); // null: a required key, reported
        }
    };
    setting.write = [member, unset_is_auto](const Config& config) -> json {
        const T& field = config.*member;
        if constexpr (std::is_same_v<T, std::optional<int>> ||
                      std::is_same_v<T, std::optional<double>>) {
            return field ? json(*field) : unset_is_auto ? json("auto") : json();
        } else if constexpr (std::is_same_v<T, std::optional<fs::path>>) {
            return field ? json(field->string()) : json();
        } else if constexpr (std::is_same_v<T, std::vector<fs::path>>) {
            json list = json::array();
            for (const fs::path& path : field) {
                list.push_back(path.string());
            }
            return list;
        } else if constexpr (std::is_same_v<T, fs::path>) {
            return field.string();
        } else {
            return json(field);
        }
    };
    return setting;
}

// A setting stored as an enum, by the names `names` gives each value.
template <class Config, class Enum>
Setting<Config> bind_enum(KeySpec key, Enum Config::*member,
                          std::vector<std::pair<Enum, std::string>> names) {
    Setting<Config> setting{std::move(key), {}, {}};
    setting.read = [member, names](const nlohmann::json& value, Config& config) {
        config.*member = names.front().first; // only for values normalize() already reported
        for (const auto& [entry, name] : names) {
            if (value == name) {
                config.*member = entry;
            }
        }
    };
    setting.write = [member, names](const Config& config) -> nlohmann::json {
        for (const auto& [entry, name] : names) {
            if (entry == config.*member) {
                return name;
            }
        }
        return nullptr;
    };
    return setting;
}

} // namespace kiln::config
