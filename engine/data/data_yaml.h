#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace kiln::data {

// An Ultralytics dataset file (data.yaml) as PyYAML reads the part of YAML such files use:
// top-level `key: value` lines (path, train, val, ...) and `names` as an indented map
// (`  0: person`), an indented list (`  - person`) or a flow list or map on one line. Indented
// entries of other keys are passed over. Throws kiln::ConfigError (setting "data") for a file
// that cannot be read, kiln::Error naming the file and line for what it cannot take.
nlohmann::json read_data_yaml(const std::filesystem::path& file);

} // namespace kiln::data
