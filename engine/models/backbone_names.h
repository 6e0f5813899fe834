#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

namespace kiln::models {

// The names `model=` accepts, in the order `kiln list-models` prints them.
std::vector<std::string> backbone_names();

// A TorchScript module as a backbone is named "torchscript:FILE". Loading one runs code from the
// file, so Kiln never loads a .pt file as TorchScript unless it is named so, by the user.
inline constexpr const char* kTorchScriptPrefix = "torchscript:";

// Whether `model` is a vision transformer (vit_*): the methods' recipes differ for them.
bool is_vit_model(const std::string& model);

// The families whose pretraining recipes differ: convolutional networks (ResNets, the CSP
// backbones, TorchScript modules), the small CNN made for small images, vision transformers.
enum class BackboneFamily { Cnn, SmallCnn, Vit };
BackboneFamily backbone_family(const std::string& model);

// Whether `model` names a TorchScript file ("torchscript:FILE") rather than a built-in backbone.
bool is_torchscript_model(const std::string& model);
// The FILE of "torchscript:FILE".
std::string torchscript_file(const std::string& model);
// Whether `model` is a path that looks like a TorchScript file (.pt, .pth) without the prefix.
bool looks_like_torchscript_file(const std::string& model);

// Throws when recorded `settings` (a checkpoint's, a run's record) name a TorchScript module
// that the reader would load: loading one runs its code, and a name stored in a file from
// someone else is not the user naming it. A checkpoint's readers load only its backbone
// ("model"); resuming a run loads its distillation teacher too. The error starts with `source`
// and ends with `fix`.
enum class RecordedModels { Backbone, BackboneAndTeacher };
// The (key, module) pairs of the TorchScript modules `settings` name, where they would be loaded.
std::vector<std::pair<std::string, std::string>>
recorded_torchscript(const nlohmann::json& settings, RecordedModels loaded);
void refuse_recorded_torchscript(const nlohmann::json& settings, RecordedModels loaded,
                                 const std::string& source, const std::string& fix);

} // namespace kiln::models
