#pragma once

#include "config/config_schema.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kiln::config {

// Applies LightlyTrain's command-line syntax, `key=value` with dots reaching nested keys
// (`method_args.temperature=0.2`), on top of `base`. Values of path and text keys stay text;
// other values are read as JSON when they parse (10, 0.2, true, null, [0,1]), `[a,b]` as a list,
// and as text otherwise. A malformed argument is a kiln::Error naming it.
nlohmann::json apply_overrides(nlohmann::json base, const std::vector<std::string>& assignments,
                               const CommandSchema& schema);

// Reads a JSON configuration file; a missing or malformed file is a kiln::Error naming it.
nlohmann::json read_config_file(const std::string& path);

} // namespace kiln::config
