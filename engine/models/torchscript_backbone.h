#pragma once

#include "models/backbone.h"

#include <filesystem>

namespace kiln::models {

// A TorchScript module as a backbone: its output per image is its feature vector (4-D outputs
// are average-pooled), its feature size is probed on one 224 px image, and its own parameter
// names are kept in exported weights. Loading it runs the module's code, so it is built only
// where the user named it (model=torchscript:FILE, method_args.teacher=torchscript:FILE), never
// from a name stored in a file, and it says so in the log.
Backbone make_torchscript_backbone(const std::filesystem::path& file);

} // namespace kiln::models
