#pragma once

#include "core/error.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

// Reads a nested settings dictionary (method_args, transform_args, ...) key by key, with
// defaults and ranges, appending a ConfigIssue located by dotted path for every bad value.
// finish() reports the keys nobody asked for as unknown, with a "did you mean".
class JsonArgs {
public:
    JsonArgs(const nlohmann::json& object, std::string path, std::vector<ConfigIssue>& issues);

    double number(const std::string& key, double fallback, double minimum, double maximum);
    int integer(const std::string& key, int fallback, int minimum, int maximum);
    // [low, high] with minimum <= low <= high <= maximum.
    std::pair<double, double> range(const std::string& key, std::pair<double, double> fallback,
                                    double minimum, double maximum);
    // Exactly `fallback.size()` numbers, each within [minimum, maximum].
    std::vector<double> numbers(const std::string& key, std::vector<double> fallback,
                                double minimum, double maximum);
    // An image size: one side length for a square, or [height, width].
    std::vector<double> side_lengths(const std::string& key, std::vector<double> fallback,
                                     double minimum, double maximum);
    // A string (a path, a name); `fallback` when absent.
    std::string text(const std::string& key, const std::string& fallback);
    bool boolean(const std::string& key, bool fallback);
    // A nested dictionary (absent or null: empty). Call finish() on it too.
    JsonArgs child(const std::string& key);

    // Records a problem with `key` that the typed readers cannot see.
    void report(const std::string& key, const std::string& message);

    void finish();

private:
    const nlohmann::json* find(const std::string& key);

    nlohmann::json object_;
    std::string path_;
    std::vector<ConfigIssue>* issues_;
    std::set<std::string> known_;
};

} // namespace kiln
