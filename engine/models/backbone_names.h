#pragma once

#include <string>
#include <vector>

namespace kiln::models {

// The names `model=` accepts, in the order `kiln list-models` prints them.
std::vector<std::string> backbone_names();

// Whether `model` names a TorchScript file rather than a built-in backbone.
bool is_torchscript_model(const std::string& model);

} // namespace kiln::models
