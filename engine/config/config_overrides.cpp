#include "config/config_overrides.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_text.h"
#include "core/text.h"

#include <fstream>

namespace kiln::config {
namespace {

using nlohmann::json;

// JSON when the text is JSON, else the text itself.
json json_or_text(const std::string& text) {
    json value = parse_json_or_discarded(text);
    return value.is_discarded() ? json(text) : value;
}

// JSON, or an unquoted list of scalars ([cat, dog]), or the text itself. The list's items are
// not lists again: one level, so that no argument nests the parse beyond JSON's own limit.
json parse_scalar(const std::string& text) {
    json value = parse_json_or_discarded(text);
    if (!value.is_discarded()) {
        return value;
    }
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
        json list = json::array();
        const std::string items = text.substr(1, text.size() - 2);
        std::size_t start = 0;
        while (!trimmed(items).empty()) {
            const std::size_t comma = items.find(',', start);
            list.push_back(json_or_text(trimmed(items.substr(start, comma - start))));
            if (comma == std::string::npos) {
                break;
            }
            start = comma + 1;
        }
        return list;
    }
    return text;
}

json parse_value(const std::string& text, const KeySpec* spec, bool nested) {
    if (spec == nullptr || nested) {
        return parse_scalar(text);
    }
    switch (spec->kind) {
    case ValueKind::Text:
    case ValueKind::Path:
    case ValueKind::Choice:
        return text == "null" && spec->allows_null ? json() : json(text);
    case ValueKind::PathList:
        return text.size() >= 2 && text.front() == '[' ? parse_scalar(text) : json(text);
    default:
        return parse_scalar(text);
    }
}

} // namespace

json apply_overrides(json base, const std::vector<std::string>& assignments,
                     const CommandSchema& schema) {
    if (!base.is_object()) {
        base = json::object();
    }
    for (const std::string& assignment : assignments) {
        const std::size_t equals = assignment.find('=');
        const std::string key = equals == std::string::npos ? "" : assignment.substr(0, equals);
        if (key.empty() || key.front() == '.' || key.back() == '.' ||
            key.find("..") != std::string::npos) {
            throw Error("argument \"" + assignment +
                        "\" is not of the form key=value (e.g. epochs=10); see `kiln " +
                        schema.command + " --help`");
        }
        if (!is_utf8(assignment)) { // the run records its settings as JSON, which holds text
            throw ConfigError(
                {{escaped_text(key), quoted_excerpt(assignment.substr(equals + 1)) + kNotUtf8}});
        }
        const std::string top = key.substr(0, key.find('.'));
        const bool nested = top.size() != key.size();
        json value = parse_value(assignment.substr(equals + 1), schema.find(top), nested);

        json* target = &base;
        std::size_t start = 0;
        for (std::size_t dot = key.find('.'); dot != std::string::npos;
             dot = key.find('.', start)) {
            json& child = (*target)[key.substr(start, dot - start)];
            if (!child.is_object()) {
                child = json::object();
            }
            target = &child;
            start = dot + 1;
        }
        (*target)[key.substr(start)] = std::move(value);
    }
    return base;
}

json read_config_file(const std::string& path) {
    refuse_special_file(path, "configuration file");
    std::ifstream file(path);
    if (!file) {
        throw Error("cannot read configuration file \"" + path + "\"; check that it exists");
    }
    json settings = parse_json(file, "configuration file \"" + path + "\"");
    if (!settings.is_object()) { // it reached value() on an array: "unexpected failure"
        throw Error("configuration file \"" + path + "\" holds " +
                    std::string(settings.type_name()) +
                    ", not a JSON object of settings; write it as {\"key\": value, ...}");
    }
    return settings;
}

namespace {

void flatten(const nlohmann::json& value, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& pairs) {
    if (value.is_object() && !value.empty()) {
        for (const auto& [key, item] : value.items()) {
            flatten(item, prefix.empty() ? key : prefix + "." + key, pairs);
        }
        return;
    }
    pairs.emplace_back(prefix, value.is_string() ? value.get<std::string>() : value.dump());
}

} // namespace

std::vector<std::pair<std::string, std::string>> flatten_settings(const nlohmann::json& settings) {
    std::vector<std::pair<std::string, std::string>> pairs;
    flatten(settings, "", pairs);
    return pairs;
}

} // namespace kiln::config
