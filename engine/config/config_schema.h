#pragma once

#include "config/task_names.h"
#include "core/error.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kiln::config {

enum class ValueKind {
    Text,            // any non-empty string
    Path,            // a filesystem path, given as a string
    PathList,        // one path, or a list of paths
    Integer,         // whole number, at least `minimum`
    IntegerOrChoice, // a whole number (at least `minimum`), or one of `choices`
    Devices,         // a count (at least `minimum`), or a list of distinct device indices
    Boolean,         // true or false
    Choice,          // one of `choices`
    ImageSize,       // one side length, or [height, width]
    Object,          // a dictionary; `choices` (when given) lists the keys it may hold
    ObjectOrPath,    // a dictionary, or the path of a file that describes one
};

// One top-level key of a command's configuration: the single source for its type,
// default, validation and help text.
struct KeySpec {
    std::string name = {};
    ValueKind kind = ValueKind::Text;
    nlohmann::json default_value = nullptr; // null: no default
    bool required = false;                  // the user must give it
    bool allows_auto = false; // "auto" stands in for a value resolved against the hardware
    bool allows_null = false; // null means "not set"
    long long minimum = 0;    // Integer and ImageSize
    std::vector<std::string> choices = {};
    std::string help = {};
    // Choice only: other values accepted besides `choices`, and how the help names them.
    std::function<bool(const std::string&)> also_accepts = {};
    std::string also_accepts_help = {};
};

struct CommandSchema {
    std::string command;
    std::vector<KeySpec> keys;

    const KeySpec* find(const std::string& name) const;
    std::vector<std::string> key_names() const;
};

// The settings of a training task's command (`kiln train`, `kiln train-image-classification`,
// ...).
const CommandSchema& train_schema(TaskKind task = TaskKind::Pretraining);
const CommandSchema& embed_schema();
const CommandSchema& predict_schema();
const CommandSchema& export_schema();

// Checks `input` against `schema` (unknown keys, types, ranges, choices), appending every
// problem to `issues`. Returns the input with defaults filled in (also in place of invalid
// values) and values in canonical form.
nlohmann::json normalize(const CommandSchema& schema, const nlohmann::json& input,
                         std::vector<ConfigIssue>& issues);

// The keys with their types and defaults, for `--help`.
std::string describe_keys(const CommandSchema& schema);

} // namespace kiln::config
