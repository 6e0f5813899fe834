#include "models/backbone_names.h"

#include "core/error.h"
#include "core/json_text.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

namespace kiln::models {

// Kept apart from the LibTorch code so that configuration checks can list the models cheaply.
bool is_torchscript_model(const std::string& model) {
    return model.rfind(kTorchScriptPrefix, 0) == 0 &&
           model.size() > std::strlen(kTorchScriptPrefix);
}

std::string torchscript_file(const std::string& model) {
    return is_torchscript_model(model) ? model.substr(std::strlen(kTorchScriptPrefix)) : "";
}

bool looks_like_torchscript_file(const std::string& model) {
    const auto ends_with = [&](const std::string& suffix) {
        return model.size() > suffix.size() &&
               model.compare(model.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return !is_torchscript_model(model) && (ends_with(".pt") || ends_with(".pth"));
}

bool is_vit_model(const std::string& model) {
    return model.rfind("vit_", 0) == 0;
}

BackboneFamily backbone_family(const std::string& model) {
    if (is_vit_model(model)) {
        return BackboneFamily::Vit;
    }
    return model == "smallcnn" || model == "smallcnn_v2" ? BackboneFamily::SmallCnn
                                                         : BackboneFamily::Cnn;
}

std::vector<std::string> backbone_names() {
    return {"resnet18", "resnet34", "resnet50", "smallcnn", "smallcnn_v2",
            "cspnet_n", "cspnet_s", "vit_tiny", "vit_small"};
}

std::vector<std::pair<std::string, std::string>>
recorded_torchscript(const nlohmann::json& settings, RecordedModels loaded) {
    const std::pair<const char*, nlohmann::json> named[] = {
        {"model", settings.value("model", nlohmann::json())},
        {"method_args.teacher", loaded == RecordedModels::BackboneAndTeacher
                                    ? setting_in_group(settings, "method_args", "teacher")
                                    : nlohmann::json()}};
    std::vector<std::pair<std::string, std::string>> found;
    for (const auto& [key, value] : named) {
        if (value.is_string() && is_torchscript_model(value.get<std::string>())) {
            found.emplace_back(key, value.get<std::string>());
        }
    }
    return found;
}

void refuse_recorded_torchscript(const nlohmann::json& settings, RecordedModels loaded,
                                 const std::string& source, const std::string& fix) {
    const auto found = recorded_torchscript(settings, loaded);
    if (!found.empty()) {
        throw Error(source + ": " + found.front().first + " is the TorchScript module \"" +
                    found.front().second +
                    "\", which Kiln loads only where you name it yourself, never from a "
                    "name stored in a file; " +
                    fix);
    }
}

} // namespace kiln::models
