#include "core/error.h"

#include "core/text.h"

namespace kiln {
namespace {

std::string describe(const std::vector<ConfigIssue>& issues) {
    std::string text = issues.size() == 1 ? "invalid configuration:"
                                          : "invalid configuration (" +
                                                std::to_string(issues.size()) + " problems):";
    // A file of a million bad keys would print a million lines, and the first ones say enough.
    constexpr std::size_t kListed = 50;
    constexpr std::size_t kShownPath = 200;
    for (std::size_t i = 0; i < issues.size() && i < kListed; ++i) {
        // A key from someone's file is shown cut short: it may be megabytes long.
        const std::string& path = issues[i].path;
        text += "\n  " + (path.size() > kShownPath ? quoted_excerpt(path, kShownPath) : path) +
                ": " + issues[i].message;
    }
    if (issues.size() > kListed) {
        text += "\n  (" + std::to_string(issues.size() - kListed) +
                " more problems, not listed; fix these first)";
    }
    return text;
}

} // namespace

ConfigError::ConfigError(std::vector<ConfigIssue> issues)
    : Error(describe(issues)), issues_(std::move(issues)) {}

} // namespace kiln
