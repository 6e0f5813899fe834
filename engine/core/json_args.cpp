#include "core/json_args.h"

#include "core/text.h"

#include <cstdio>

namespace kiln {
namespace {

std::string format_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

} // namespace

JsonArgs::JsonArgs(const nlohmann::json& object, std::string path, std::vector<ConfigIssue>& issues)
    : object_(object.is_object() ? object : nlohmann::json::object()), path_(std::move(path)),
      issues_(&issues) {
    if (!object.is_null() && !object.is_object()) {
        issues.push_back({path_, "expected a dictionary, got " + object.dump()});
    }
}

const nlohmann::json* JsonArgs::find(const std::string& key) {
    known_.insert(key);
    const auto it = object_.find(key);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
}

void JsonArgs::report(const std::string& key, const std::string& message) {
    issues_->push_back({path_ + "." + key, message});
}

double JsonArgs::number(const std::string& key, double fallback, double minimum, double maximum) {
    const nlohmann::json* value = find(key);
    if (value == nullptr) {
        return fallback;
    }
    if (!value->is_number()) {
        report(key, "expected a number, got " + value->dump());
        return fallback;
    }
    const double number = value->get<double>();
    if (number < minimum || number > maximum) {
        report(key, "must be between " + format_number(minimum) + " and " + format_number(maximum) +
                        ", got " + value->dump());
        return fallback;
    }
    return number;
}

int JsonArgs::integer(const std::string& key, int fallback, int minimum, int maximum) {
    const nlohmann::json* value = find(key);
    if (value == nullptr) {
        return fallback;
    }
    if (!value->is_number_integer()) {
        report(key, "expected a whole number, got " + value->dump());
        return fallback;
    }
    const long long number = value->get<long long>();
    if (number < minimum || number > maximum) {
        report(key, "must be between " + std::to_string(minimum) + " and " +
                        std::to_string(maximum) + ", got " + value->dump());
        return fallback;
    }
    return static_cast<int>(number);
}

std::string JsonArgs::text(const std::string& key, const std::string& fallback) {
    const nlohmann::json* value = find(key);
    if (value == nullptr) {
        return fallback;
    }
    if (!value->is_string()) {
        report(key, "expected a string, got " + value->dump());
        return fallback;
    }
    return value->get<std::string>();
}

bool JsonArgs::boolean(const std::string& key, bool fallback) {
    const nlohmann::json* value = find(key);
    if (value == nullptr) {
        return fallback;
    }
    if (!value->is_boolean()) {
        report(key, "expected true or false, got " + value->dump());
        return fallback;
    }
    return value->get<bool>();
}

std::pair<double, double> JsonArgs::range(const std::string& key,
                                          std::pair<double, double> fallback, double minimum,
                                          double maximum) {
    const std::vector<double> bounds =
        numbers(key, {fallback.first, fallback.second}, minimum, maximum);
    if (bounds[0] > bounds[1]) {
        report(key, "the first value must not exceed the second");
        return fallback;
    }
    return {bounds[0], bounds[1]};
}

std::vector<double> JsonArgs::numbers(const std::string& key, std::vector<double> fallback,
                                      double minimum, double maximum) {
    const nlohmann::json* value = find(key);
    if (value == nullptr) {
        return fallback;
    }
    const auto wrong = [&] {
        report(key, "expected a list of " + std::to_string(fallback.size()) + " numbers between " +
                        format_number(minimum) + " and " + format_number(maximum) + ", got " +
                        value->dump());
        return fallback;
    };
    if (!value->is_array() || value->size() != fallback.size()) {
        return wrong();
    }
    std::vector<double> result;
    for (const nlohmann::json& entry : *value) {
        if (!entry.is_number() || entry.get<double>() < minimum || entry.get<double>() > maximum) {
            return wrong();
        }
        result.push_back(entry.get<double>());
    }
    return result;
}

std::vector<double> JsonArgs::side_lengths(const std::string& key, std::vector<double> fallback,
                                           double minimum, double maximum) {
    const nlohmann::json* value = find(key);
    if (value != nullptr && value->is_number()) {
        const double side = number(key, fallback.front(), minimum, maximum);
        return {side, side};
    }
    return numbers(key, std::move(fallback), minimum, maximum);
}

JsonArgs JsonArgs::child(const std::string& key) {
    const nlohmann::json* value = find(key);
    return JsonArgs(value == nullptr ? nlohmann::json() : *value, path_ + "." + key, *issues_);
}

void JsonArgs::finish() {
    std::vector<std::string> known(known_.begin(), known_.end());
    for (const auto& [key, value] : object_.items()) {
        if (known_.count(key) == 0) {
            issues_->push_back({path_ + "." + key, unknown_key_message(key, known)});
        }
    }
}

} // namespace kiln
