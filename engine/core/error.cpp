#include "core/error.h"

namespace kiln {
namespace {

std::string describe(const std::vector<ConfigIssue>& issues) {
    std::string text = issues.size() == 1 ? "invalid configuration:"
                                          : "invalid configuration (" +
                                                std::to_string(issues.size()) + " problems):";
    for (const ConfigIssue& issue : issues) {
        text += "\n  " + issue.path + ": " + issue.message;
    }
    return text;
}

} // namespace

ConfigError::ConfigError(std::vector<ConfigIssue> issues)
    : Error(describe(issues)), issues_(std::move(issues)) {}

} // namespace kiln
