#pragma once

#include "config/config_schema.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace kiln::config {

// Applies LightlyTrain's command-line syntax, `key=value` with dots reaching nested keys
// (`method_args.temperature=0.2`), on top of `base`. Values of path and text keys stay text;
// other values are read as JSON when they parse (10, 0.2, true, null, [0,1]), `[a,b]` as a list,
// and as text otherwise. A malformed argument is a kiln::Error naming it.
nlohmann::json apply_overrides(nlohmann::json base, const std::vector<std::string>& assignments,
                               const CommandSchema& schema);

// The inverse: settings as `key=value` pairs with dotted keys, in key order ("optim_args.lr" ->
// "0.3"); text values without quotes, the rest as JSON. For MLflow's params and for comparing
// runs' settings.
std::vector<std::pair<std::string, std::string>> flatten_settings(const nlohmann::json& settings);

// Reads a JSON configuration file; a missing or malformed file is a kiln::Error naming it.
nlohmann::json read_config_file(const std::string& path);

} // namespace kiln::config
