#pragma once

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
    Integer,         // whole number within [minimum, maximum]
    Number,          // a number within [minimum, maximum]
    Numbers,         // a list of `count` numbers, each within [minimum, maximum]
    IntegerOrChoice, // a whole number (at least `minimum`), or one of `choices`
    Devices,         // a count (at least `minimum`), or a list of distinct device indices
    Boolean,         // true or false
    Choice,          // one of `choices`
    ImageSize,       // one side length, or [height, width]
    Duration,        // seconds (at least `minimum`), or Lightning's "DD:HH:MM:SS" (or a tail of it)
    Object,          // a dictionary: of `children` (when given), or of the keys in `choices`
    ObjectOrPath,    // a dictionary, or the path of a file that describes one
};

// Where Studio's run form shows a setting: nowhere (files and the command line only), among the
// main fields, or in the folded Advanced section. `label` is the field's name; Studio translates
// it (lupdate finds it through KILN_FORM_LABEL).
enum class FormSection { Hidden, Main, Advanced };
#define KILN_FORM_LABEL(text) text
struct FormPlace {
    FormSection section = FormSection::Hidden;
    const char* label = "";
};

// One key of a command's configuration: the single source for its type, default, validation,
// help text and place in Studio's form. A dictionary's own keys are `children`, checked the same
// way (paths such as optim_args.lr); an `open` dictionary also takes keys its owner checks (a
// method's method_args).
struct KeySpec {
    std::string name = {};
    ValueKind kind = ValueKind::Text;
    nlohmann::json default_value = nullptr; // null: no default
    bool required = false;                  // the user must give it
    bool allows_auto = false; // "auto" stands in for a value resolved against the hardware
    bool allows_null = false; // null means "not set"
    double minimum = 0;       // Integer, Number(s) and ImageSize
    double maximum = 2147483647.0;
    std::size_t count = 0; // Numbers
    std::vector<std::string> choices = {};
    std::string help = {};
    // Choice only: other values accepted besides `choices`, and how the help names them.
    std::function<bool(const std::string&)> also_accepts = {};
    std::string also_accepts_help = {};
    std::vector<KeySpec> children = {};
    bool open = false;
    FormPlace form = {};
};

struct CommandSchema {
    std::string command;
    std::vector<KeySpec> keys;

    const KeySpec* find(const std::string& name) const;
    // A key by its dotted path ("optim_args.lr"), through the children.
    const KeySpec* find_path(const std::string& path) const;
    std::vector<std::string> key_names() const;
};

// Checks `input` against `schema` (unknown keys, types, ranges, choices), appending every
// problem to `issues`. Returns the input with defaults filled in (also in place of invalid
// values) and values in canonical form.
nlohmann::json normalize(const CommandSchema& schema, const nlohmann::json& input,
                         std::vector<ConfigIssue>& issues);

// A dictionary key's children at their defaults: what normalize() fills in when it is absent.
nlohmann::json defaults_of(const KeySpec& dictionary);

// The keys with their types and defaults, for `--help`; children as dotted paths.
std::string describe_keys(const CommandSchema& schema);
// `keys` as describe_keys lists them, each named after `prefix`.
std::string describe_keys(const std::vector<KeySpec>& keys, const std::string& prefix);

} // namespace kiln::config
