#include "config/config_schema.h"

#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace kiln::config {
namespace {

using nlohmann::json;

constexpr long long kMaxInteger = std::numeric_limits<int>::max();

std::string type_name(const json& value) {
    switch (value.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        return "an integer";
    case json::value_t::number_float:
        // The JSON reader keeps integers beyond 64 bits as floating point.
        return std::abs(value.get<double>()) >= 0x1p63 &&
                       value.get<double>() == std::floor(value.get<double>())
                   ? "an integer too large to hold"
                   : "a number with a decimal point or an exponent";
    case json::value_t::string:
        return "a string";
    case json::value_t::array:
        return "a list";
    case json::value_t::object:
        return "a dictionary";
    default:
        return "an unsupported value";
    }
}

std::string number_text(double value) {
    if (value == std::floor(value) && std::abs(value) < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    std::ostringstream text;
    text << value;
    return text.str();
}

// ">= 1", "in [0, 1]": an integer's maximum is left out when it is the largest int.
std::string range_text(const KeySpec& spec) {
    if (spec.maximum >= kMaxInteger) {
        return ">= " + number_text(spec.minimum);
    }
    return "in [" + number_text(spec.minimum) + ", " + number_text(spec.maximum) + "]";
}

std::string expected_type(const KeySpec& spec) {
    std::string text;
    switch (spec.kind) {
    case ValueKind::Text:
        text = "text";
        break;
    case ValueKind::Path:
        text = "path";
        break;
    case ValueKind::PathList:
        text = "path or list of paths";
        break;
    case ValueKind::Integer:
        text = "integer " + range_text(spec);
        break;
    case ValueKind::Number:
        text = "number " + range_text(spec);
        break;
    case ValueKind::Numbers:
        text = std::to_string(spec.count) + " numbers, each " + range_text(spec);
        break;
    case ValueKind::IntegerOrChoice:
        text = "integer " + range_text(spec) + " or " + join_alternatives(spec.choices);
        break;
    case ValueKind::Devices:
        text = "integer " + range_text(spec) + " or a list of GPU indices";
        break;
    case ValueKind::Boolean:
        text = "true or false";
        break;
    case ValueKind::Choice:
        text = join_alternatives(spec.choices) +
               (spec.also_accepts_help.empty() ? "" : ", or " + spec.also_accepts_help);
        break;
    case ValueKind::ImageSize:
        text = "integer or [height, width]";
        break;
    case ValueKind::Duration:
        text = "seconds or \"DD:HH:MM:SS\"";
        break;
    case ValueKind::Object:
        text = "dictionary";
        break;
    case ValueKind::ObjectOrPath:
        text = "dictionary or a path";
        break;
    }
    if (spec.allows_auto) {
        text += ", or auto";
    }
    if (spec.allows_null) {
        text += ", or null";
    }
    return text;
}

bool is_integer(const json& value) {
    return value.is_number_integer() || value.is_number_unsigned();
}

void report_unknown_key(const std::string& path, const std::string& key,
                        const std::vector<std::string>& known, std::vector<ConfigIssue>& issues) {
    issues.push_back({path, unknown_key_message(key, known)});
}

json normalize_keys(const std::vector<KeySpec>& keys, const json& input, const std::string& prefix,
                    bool open, std::vector<ConfigIssue>& issues);

class Checker {
public:
    Checker(const KeySpec& spec, std::string path, std::vector<ConfigIssue>& issues)
        : spec_(spec), path_(std::move(path)), issues_(issues) {}

    // Returns the canonical form of `value`, or null after reporting why it is not valid.
    json check(const json& value) const {
        if (value.is_null() && spec_.allows_null) {
            return value;
        }
        if (spec_.allows_auto && value == "auto") {
            return value;
        }
        switch (spec_.kind) {
        case ValueKind::Text:
        case ValueKind::Path:
            return check_text(path_, value);
        case ValueKind::PathList:
            return check_path_list(value);
        case ValueKind::Integer:
            return check_integer(path_, value);
        case ValueKind::Number:
            return check_number(path_, value);
        case ValueKind::Numbers:
            return check_numbers(value);
        case ValueKind::IntegerOrChoice:
            return is_integer(value) ? check_integer(path_, value) : check_choice(value);
        case ValueKind::Devices:
            return value.is_array() ? check_device_list(value) : check_integer(path_, value);
        case ValueKind::Boolean:
            return value.is_boolean() ? value : reject(path_, value, "true or false");
        case ValueKind::Choice:
            return check_choice(value);
        case ValueKind::ImageSize:
            return check_image_size(value);
        case ValueKind::Duration:
            return check_duration(value);
        case ValueKind::Object:
            return check_object(value);
        case ValueKind::ObjectOrPath:
            return value.is_string() ? check_text(path_, value) : check_object(value);
        }
        return nullptr;
    }

private:
    json reject(const std::string& path, const json& value, const std::string& expected) const {
        issues_.push_back({path, "expected " + expected + ", got " + type_name(value) +
                                     (value.is_primitive() ? " (" + value.dump() + ")" : "")});
        return nullptr;
    }

    json check_text(const std::string& path, const json& value) const {
        if (!value.is_string()) {
            return reject(path, value, spec_.kind == ValueKind::Path ? "a path" : "a string");
        }
        if (value.get_ref<const std::string&>().empty()) {
            issues_.push_back({path, "must not be empty"});
            return nullptr;
        }
        return value;
    }

    json check_path_list(const json& value) const {
        if (value.is_string()) {
            return check_text(path_, value).is_null() ? json() : json::array({value});
        }
        if (!value.is_array()) {
            return reject(path_, value, "a path or a list of paths");
        }
        if (value.empty()) {
            issues_.push_back({path_, "the list is empty; give at least one folder or image"});
            return nullptr;
        }
        bool valid = true;
        for (std::size_t i = 0; i < value.size(); ++i) {
            valid = !check_text(path_ + "[" + std::to_string(i) + "]", value[i]).is_null() && valid;
        }
        return valid ? value : json();
    }

    json check_integer(const std::string& path, const json& value) const {
        if (!is_integer(value)) {
            return reject(path, value, expected_type(spec_));
        }
        const double number = value.is_number_unsigned()
                                  ? static_cast<double>(value.get<unsigned long long>())
                                  : static_cast<double>(value.get<long long>());
        return within_range(path, number, value) ? value : json();
    }

    json check_number(const std::string& path, const json& value) const {
        if (!value.is_number()) {
            return reject(path, value, expected_type(spec_));
        }
        return within_range(path, value.get<double>(), value) ? value : json();
    }

    bool within_range(const std::string& path, double number, const json& value) const {
        const double maximum = std::min<double>(spec_.maximum, double(kMaxInteger));
        if (number > maximum && spec_.kind != ValueKind::Number) {
            issues_.push_back(
                {path, "must be at most " + number_text(maximum) + ", got " + value.dump()});
            return false;
        }
        if (number > spec_.maximum) {
            issues_.push_back(
                {path, "must be at most " + number_text(spec_.maximum) + ", got " + value.dump()});
            return false;
        }
        if (number < spec_.minimum) {
            issues_.push_back(
                {path, "must be at least " + number_text(spec_.minimum) + ", got " + value.dump()});
            return false;
        }
        return true;
    }

    json check_numbers(const json& value) const {
        if (!value.is_array() || value.size() != spec_.count) {
            return reject(path_, value, expected_type(spec_));
        }
        bool valid = true;
        for (std::size_t i = 0; i < value.size(); ++i) {
            valid =
                !check_number(path_ + "[" + std::to_string(i) + "]", value[i]).is_null() && valid;
        }
        return valid ? value : json();
    }

    json check_device_list(const json& value) const {
        if (value.empty()) {
            issues_.push_back({path_, "the list of devices is empty; give GPU indices, a "
                                      "count, or auto"});
            return nullptr;
        }
        std::vector<long long> seen;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string path = path_ + "[" + std::to_string(i) + "]";
            if (!is_integer(value[i]) || value[i].get<long long>() < 0) {
                issues_.push_back(
                    {path, "must be a GPU index (0, 1, ...), got " + value[i].dump()});
                return nullptr;
            }
            const long long index = value[i].get<long long>();
            if (std::find(seen.begin(), seen.end(), index) != seen.end()) {
                issues_.push_back({path, "GPU " + std::to_string(index) +
                                             " is listed twice; list each GPU once"});
                return nullptr;
            }
            seen.push_back(index);
        }
        return value;
    }

    json check_choice(const json& value) const {
        if (!value.is_string()) {
            return reject(path_, value, expected_type(spec_));
        }
        const std::string& text = value.get_ref<const std::string&>();
        if (spec_.also_accepts && spec_.also_accepts(text)) {
            return value;
        }
        for (const std::string& choice : spec_.choices) {
            if (text == choice) {
                // "gpu" is Lightning's name for the CUDA accelerator.
                return spec_.name == "accelerator" && text == "gpu" ? json("cuda") : value;
            }
        }
        std::string message = "unknown value \"" + text + "\"";
        const std::string suggestion = closest_match(text, spec_.choices);
        if (!suggestion.empty()) {
            message += "; did you mean \"" + suggestion + "\"?";
        }
        issues_.push_back({path_, message + " (expected " + expected_type(spec_) + ")"});
        return nullptr;
    }

    // Seconds, or "DD:HH:MM:SS" with any leading fields left out ("1:30:00", "45:00"): the
    // canonical form is the seconds.
    json check_duration(const json& value) const {
        if (value.is_number()) {
            return check_number(path_, value);
        }
        if (!value.is_string()) {
            return reject(path_, value, expected_type(spec_));
        }
        const std::string& text = value.get_ref<const std::string&>();
        static const double kUnits[] = {1.0, 60.0, 3600.0, 86400.0};
        double seconds = 0.0;
        std::size_t field = 0;
        std::size_t end = text.size();
        while (true) {
            const std::size_t colon = end == 0 ? std::string::npos : text.rfind(':', end - 1);
            const std::size_t begin = colon == std::string::npos ? 0 : colon + 1;
            const std::string part = text.substr(begin, end - begin);
            if (field >= 4 || part.empty() ||
                part.find_first_not_of("0123456789") != std::string::npos) {
                issues_.push_back({path_, "expected seconds or \"DD:HH:MM:SS\" (e.g. "
                                          "\"00:00:05:00\" for five minutes), got " +
                                              value.dump()});
                return nullptr;
            }
            seconds += std::stod(part) * kUnits[field++];
            if (colon == std::string::npos) {
                break;
            }
            end = colon;
        }
        return check_number(path_, json(seconds));
    }

    // One message for the key, whichever side is wrong.
    json check_image_size(const json& value) const {
        const json sides = is_integer(value) ? json::array({value, value}) : value;
        if (!sides.is_array() || sides.size() != 2 || !is_integer(sides[0]) ||
            !is_integer(sides[1])) {
            return reject(path_, value, expected_type(spec_));
        }
        for (const json& side : sides) {
            const double length = side.get<double>();
            if (length < spec_.minimum || length > spec_.maximum) {
                issues_.push_back({path_, "sides must be between " + number_text(spec_.minimum) +
                                              " and " + number_text(spec_.maximum) + ", got " +
                                              value.dump()});
                return nullptr;
            }
        }
        return sides;
    }

    json check_object(const json& value) const {
        if (!value.is_object()) {
            return reject(path_, value, "a dictionary");
        }
        if (!spec_.children.empty()) {
            return normalize_keys(spec_.children, value, path_ + ".", spec_.open, issues_);
        }
        if (spec_.choices.empty()) {
            return value;
        }
        bool valid = true;
        json canonical = value;
        for (const auto& [key, entry] : value.items()) {
            if (std::find(spec_.choices.begin(), spec_.choices.end(), key) == spec_.choices.end()) {
                report_unknown_key(path_ + "." + key, key, spec_.choices, issues_);
                valid = false;
            } else if (entry.is_boolean()) { // true: default settings; false: disabled
                canonical[key] = entry.get<bool>() ? json::object() : json();
            } else if (!entry.is_object() && !entry.is_null()) {
                reject(path_ + "." + key, entry,
                       "a dictionary of settings, true for the defaults, or null or false to "
                       "disable");
                valid = false;
            }
        }
        return valid ? canonical : json();
    }

private:
    const KeySpec& spec_;
    const std::string path_;
    std::vector<ConfigIssue>& issues_;
};

std::vector<std::string> names_of(const std::vector<KeySpec>& keys) {
    std::vector<std::string> names;
    for (const KeySpec& key : keys) {
        names.push_back(key.name);
    }
    return names;
}

const KeySpec* find_key(const std::vector<KeySpec>& keys, const std::string& name) {
    for (const KeySpec& key : keys) {
        if (key.name == name) {
            return &key;
        }
    }
    return nullptr;
}

// Checks `input`'s keys against `keys` (an open dictionary also keeps others, for their owner to
// check) and fills in defaults; an invalid value is reported and replaced by the default, so
// that later checks still see a complete configuration and can report their own problems too.
json normalize_keys(const std::vector<KeySpec>& keys, const json& input, const std::string& prefix,
                    bool open, std::vector<ConfigIssue>& issues) {
    json normalized = json::object();
    for (const auto& [key, value] : input.items()) {
        if (find_key(keys, key) == nullptr) {
            if (!open) {
                report_unknown_key(prefix + key, key, names_of(keys), issues);
            } else {
                normalized[key] = value;
            }
        }
    }
    for (const KeySpec& spec : keys) {
        const auto given = input.find(spec.name);
        if (given == input.end()) {
            if (spec.required) {
                issues.push_back(
                    {prefix + spec.name, "missing; set it, e.g. " + prefix + spec.name + "=..."});
            }
            if (!prefix.empty() && spec.default_value.is_null() && spec.children.empty()) {
                continue; // a nested key left to its owner's default (the method's lr)
            }
            normalized[spec.name] =
                spec.children.empty() ? spec.default_value
                                      : normalize_keys(spec.children, json::object(),
                                                       prefix + spec.name + ".", spec.open, issues);
            continue;
        }
        const std::size_t issues_before = issues.size();
        json value = Checker(spec, prefix + spec.name, issues).check(*given);
        normalized[spec.name] =
            issues.size() == issues_before ? std::move(value) : spec.default_value;
    }
    return normalized;
}

} // namespace

const KeySpec* CommandSchema::find_path(const std::string& path) const {
    const std::vector<KeySpec>* level = &keys;
    const KeySpec* found = nullptr;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        found = find_key(*level, path.substr(start, dot == std::string::npos ? dot : dot - start));
        if (found == nullptr || dot == std::string::npos) {
            return found;
        }
        level = &found->children;
        start = dot + 1;
    }
    return found;
}

const KeySpec* CommandSchema::find(const std::string& name) const {
    for (const KeySpec& key : keys) {
        if (key.name == name) {
            return &key;
        }
    }
    return nullptr;
}

std::vector<std::string> CommandSchema::key_names() const {
    std::vector<std::string> names;
    for (const KeySpec& key : keys) {
        names.push_back(key.name);
    }
    return names;
}

json normalize(const CommandSchema& schema, const json& input, std::vector<ConfigIssue>& issues) {
    if (!input.is_object()) {
        issues.push_back(
            {"(top level)", "expected a dictionary of settings, got " + type_name(input)});
        return json::object();
    }
    return normalize_keys(schema.keys, input, "", false, issues);
}

json defaults_of(const KeySpec& dictionary) {
    std::vector<ConfigIssue> issues; // an absent child is only an issue when required
    return normalize_keys(dictionary.children, json::object(), dictionary.name + ".",
                          dictionary.open, issues);
}

namespace {

void describe(const std::vector<KeySpec>& keys, const std::string& prefix, std::ostream& text) {
    for (const KeySpec& spec : keys) {
        text << "  " << prefix << spec.name << " (" << expected_type(spec) << ")";
        if (spec.required) {
            text << ", required";
        } else if (!spec.default_value.is_null() || spec.allows_null) {
            text << ", default " << spec.default_value.dump();
        }
        text << "\n      " << spec.help << "\n";
        describe(spec.children, prefix + spec.name + ".", text);
    }
}

} // namespace

std::string describe_keys(const CommandSchema& schema) {
    return "Settings (key=value; dots reach nested keys, e.g. method_args.temperature=0.2):\n" +
           describe_keys(schema.keys, "");
}

std::string describe_keys(const std::vector<KeySpec>& keys, const std::string& prefix) {
    std::ostringstream text;
    describe(keys, prefix, text);
    return text.str();
}

} // namespace kiln::config
