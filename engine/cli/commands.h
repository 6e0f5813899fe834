#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kiln::cli {

// Where a command's settings come from: an optional JSON file, then key=value overrides.
struct ConfigSource {
    std::string file;
    std::vector<std::string> overrides;
};

// Each command returns the process exit code; user errors are thrown as kiln::Error.
int run_info(std::ostream& out);
int run_config_check(const std::string& command, const ConfigSource& source, std::ostream& out);
int run_train(const ConfigSource& source, std::ostream& out);
int run_embed(const ConfigSource& source, std::ostream& out);

} // namespace kiln::cli
