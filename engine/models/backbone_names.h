#pragma once

#include <string>
#include <vector>

namespace kiln::models {

// The names `model=` accepts, in the order `kiln list-models` prints them.
std::vector<std::string> backbone_names();

} // namespace kiln::models
