#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace kiln {

// A failure the user can cause and fix. The message names the input and says what to do.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One problem found in a configuration, located by the dotted path of its key.
struct ConfigIssue {
    std::string path;
    std::string message;
};

// Every problem found in one configuration, reported together rather than one per attempt.
class ConfigError : public Error {
public:
    explicit ConfigError(std::vector<ConfigIssue> issues);

    const std::vector<ConfigIssue>& issues() const { return issues_; }

private:
    std::vector<ConfigIssue> issues_;
};

} // namespace kiln
