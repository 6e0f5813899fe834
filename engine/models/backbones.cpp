#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "models/backbone.h"
#include "models/checkpoint_file.h"
#include "models/cspnet.h"
#include "models/onnx_modules.h"
#include "models/resnet.h"
#include "models/small_cnn.h"
#include "models/torch_file.h"
#include "models/torchscript_backbone.h"
#include "models/vit.h"
#include "onnx/ops.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <torch/nn.h>
#include <unordered_map>

namespace kiln::models {

std::vector<torch::Tensor> BackboneImpl::feature_maps(const torch::Tensor&) {
    throw Error("this backbone gives one feature vector per image, not feature maps; dense "
                "tasks such as segmentation need one of Kiln's own backbones (" +
                join_alternatives(backbone_names()) + ")");
}

std::pair<torch::Tensor, torch::Tensor>
BackboneImpl::features_and_last_map(const torch::Tensor& images) {
    return {forward(images), feature_maps(images).back()};
}

torch::Tensor PooledMapsBackboneImpl::forward(const torch::Tensor& images) {
    return features_and_last_map(images).first;
}

std::pair<torch::Tensor, torch::Tensor>
PooledMapsBackboneImpl::features_and_last_map(const torch::Tensor& images) {
    torch::Tensor last = feature_maps(images).back();
    return {torch::adaptive_avg_pool2d(last, {1, 1}).flatten(1), std::move(last)};
}

onnx::Value PooledMapsBackboneImpl::onnx_features(onnx::Graph& graph, const onnx::Value& images,
                                                  const std::string& name) {
    return onnx::global_average_pool(graph, onnx_feature_maps(graph, images, name).back());
}

onnx::Value BackboneImpl::onnx_features(onnx::Graph&, const onnx::Value&, const std::string&) {
    throw Error("ONNX export: this backbone (" + this->name() +
                ") is a TorchScript module, which Kiln cannot export; export Kiln's own "
                "backbones (" +
                join_alternatives(backbone_names()) + ") or use torch.onnx in Python");
}

std::vector<onnx::Value> BackboneImpl::onnx_feature_maps(onnx::Graph& graph,
                                                         const onnx::Value& images,
                                                         const std::string& name) {
    onnx_features(graph, images, name); // throws, naming the fix
    return {};
}

std::vector<std::pair<std::string, torch::Tensor>> BackboneImpl::state() {
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    for (const auto& item : named_parameters()) {
        tensors.emplace_back(item.key(), item.value());
    }
    for (const auto& item : named_buffers()) {
        tensors.emplace_back(item.key(), item.value());
    }
    return tensors;
}

std::vector<std::vector<torch::Tensor>> BackboneImpl::layers() {
    std::vector<std::vector<torch::Tensor>> layers;
    std::unordered_map<std::string, std::size_t> place;
    for (const auto& item : named_parameters()) {
        const auto [found, added] = place.emplace(layer_of(item.key()), layers.size());
        if (added) {
            layers.emplace_back();
        }
        layers[found->second].push_back(item.value());
    }
    return layers;
}

std::string BackboneImpl::layer_of(const std::string&) const {
    return {};
}

std::string leading_parts(const std::string& name, int count) {
    std::size_t end = 0;
    for (int part = 0; part < count && end != std::string::npos; ++part) {
        end = name.find('.', part == 0 ? 0 : end + 1);
    }
    return name.substr(0, end);
}

Backbone make_backbone(const std::string& name, std::int64_t in_channels) {
    if (is_torchscript_model(name)) {
        return make_torchscript_backbone(torchscript_file(name));
    }
    if (name == "resnet18") {
        return make_resnet(std::vector<int>{2, 2, 2, 2}, false, in_channels);
    }
    if (name == "resnet34") {
        return make_resnet(std::vector<int>{3, 4, 6, 3}, false, in_channels);
    }
    if (name == "resnet50") {
        return make_resnet(std::vector<int>{3, 4, 6, 3}, true, in_channels);
    }
    if (backbone_family(name) == BackboneFamily::SmallCnn) {
        return make_small_cnn(in_channels, name == "smallcnn_v2");
    }
    if (name.rfind("cspnet_", 0) == 0) {
        return make_cspnet(name, in_channels);
    }
    if (name == "vit_tiny") {
        return make_vision_transformer(192, 12, 3, in_channels);
    }
    if (name == "vit_small") {
        return make_vision_transformer(384, 12, 6, in_channels);
    }
    std::string message = "unknown model \"" + name + "\"";
    const std::string suggestion = closest_match(name, backbone_names());
    if (!suggestion.empty()) {
        message += "; did you mean \"" + suggestion + "\"?";
    }
    if (looks_like_torchscript_file(name)) {
        message += "; a TorchScript file runs its own code when it loads, so Kiln loads one only "
                   "when named so: model=" +
                   std::string(kTorchScriptPrefix) + name + " (only for files you trust)";
    }
    throw Error(message + " (Kiln has " + join_alternatives(backbone_names()) +
                "; `kiln list-models` prints them)");
}

namespace {

// The backbone's tensors from `state`, each by its name and shape.
void assign_state(BackboneImpl& backbone,
                  const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                  const std::filesystem::path& path) {
    std::unordered_map<std::string, torch::Tensor> state(tensors.begin(), tensors.end());
    torch::NoGradGuard no_grad;
    for (auto& [name, target] : backbone.state()) {
        const auto found = state.find(name);
        if (found == state.end()) {
            throw Error("\"" + path.string() + "\" has no tensor \"" + name +
                        "\"; it was exported from another model");
        }
        if (found->second.sizes() != target.sizes()) {
            throw Error("\"" + path.string() + "\": tensor \"" + name +
                        "\" has another shape than this model's; it was exported from another "
                        "model");
        }
        if (!all_finite(found->second)) {
            throw Error("\"" + path.string() + "\": tensor \"" + name +
                        "\" holds values that are not finite numbers (NaN or infinite); the "
                        "file is damaged");
        }
        target.copy_(found->second);
    }
}

// How many of `backbone`'s tensors `tensors` holds under the same name, of the same shape.
std::size_t matching_tensors(BackboneImpl& backbone,
                             const std::vector<std::pair<std::string, torch::Tensor>>& tensors) {
    std::unordered_map<std::string, torch::Tensor> state(tensors.begin(), tensors.end());
    std::size_t matching = 0;
    for (const auto& [name, target] : backbone.state()) {
        const auto found = state.find(name);
        matching += found != state.end() && found->second.sizes() == target.sizes() ? 1 : 0;
    }
    return matching;
}

// A state_dict's tensors for `backbone`: a fine-tuned model's (a run's exported_models/*.pt)
// are those under "backbone.", beside its head's; a backbone's own are the whole file. Whichever
// holds more of the backbone's.
std::vector<std::pair<std::string, torch::Tensor>> backbone_tensors(BackboneImpl& backbone,
                                                                    const WeightsFile& weights) {
    const std::string prefix = std::string(checkpoint_key::kBackbone) + ".";
    std::vector<std::pair<std::string, torch::Tensor>> under_prefix;
    for (const auto& [name, tensor] : weights.state_dict()) {
        if (name.starts_with(prefix)) {
            under_prefix.emplace_back(name.substr(prefix.size()), tensor);
        }
    }
    return matching_tensors(backbone, under_prefix) >
                   matching_tensors(backbone, weights.state_dict())
               ? under_prefix
               : weights.state_dict();
}

void load_weights(BackboneImpl& backbone, const WeightsFile& weights) {
    try {
        if (weights.checkpoint()) {
            const Archive model = weights.checkpoint()->child(checkpoint_key::kModel);
            const std::optional<Archive> teacher =
                model.find_child(checkpoint_key::kTeacherBackbone);
            load_module(backbone, teacher ? *teacher : model.child(checkpoint_key::kBackbone));
        } else {
            assign_state(backbone, backbone_tensors(backbone, weights), weights.path());
        }
    } catch (...) {
        rethrow_naming(weights.path());
    }
}

} // namespace

void load_backbone_weights(BackboneImpl& backbone, const std::filesystem::path& path) {
    load_weights(backbone, WeightsFile::read(path));
}

void save_backbone_weights(BackboneImpl& backbone, const std::filesystem::path& path) {
    c10::Dict<std::string, at::Tensor> state;
    for (const auto& [name, tensor] : backbone.state()) {
        const torch::Tensor value = tensor.detach().cpu(); // readable where there is no GPU
        state.insert(name,
                     (value.is_floating_point() ? value.to(torch::kFloat32) : value).contiguous());
    }
    write_torch_file(path, c10::IValue(state));
}

std::int64_t input_channels(BackboneImpl& backbone) {
    for (const auto& [name, tensor] : backbone.state()) {
        if (tensor.dim() == 4) {
            return tensor.size(1);
        }
    }
    return 3; // no convolution's weights to tell (a TorchScript module may hide them)
}

Backbone load_backbone(const std::filesystem::path& path, std::string* model) {
    return load_backbone(WeightsFile::read(path), model);
}

Backbone load_backbone(const WeightsFile& weights, std::string* model) {
    const nlohmann::json settings = weights.settings();
    const std::string named = settings.is_object() ? settings.value("model", "") : "";
    if (!named.empty()) { // a checkpoint: its model and channels are recorded
        const bool grey = setting_in_group(settings, "transform_args", "num_channels") == 1;
        Backbone backbone = make_backbone(named, grey ? 1 : 3);
        load_weights(*backbone, weights);
        if (model != nullptr) {
            *model = named;
        }
        return backbone;
    }
    // An exported state_dict: the model whose tensors it matches. Said of the model it matches
    // best when none: the one it most likely came from.
    std::string closest;
    std::string mismatch;
    std::size_t best_matching = 0;
    // The backbone of `name` with the file's weights, or null and how many of its tensors the
    // file lacks or has in another shape.
    const auto loaded = [&](const std::string& name,
                            std::int64_t channels) -> std::pair<Backbone, std::size_t> {
        Backbone backbone = make_backbone(name, channels);
        try {
            load_weights(*backbone, weights);
            return {backbone, 0};
        } catch (const Error& error) {
            const std::size_t tensors = backbone->state().size();
            const std::size_t matching =
                matching_tensors(*backbone, backbone_tensors(*backbone, weights));
            if (matching == tensors) {
                throw; // this model's weights, damaged otherwise (not finite)
            }
            if (closest.empty() || matching > best_matching) {
                closest = name + " (" + std::to_string(matching) + " of its " +
                          std::to_string(tensors) + " tensors match)";
                mismatch = error.what();
                best_matching = matching;
            }
            return {nullptr, tensors - matching};
        }
    };
    for (const std::string& name : backbone_names()) {
        auto [backbone, unmatched] = loaded(name, 3);
        if (unmatched == 1) { // the first layer's alone: pretrained on grey images
            backbone = loaded(name, 1).first;
        }
        if (backbone) {
            if (model != nullptr) {
                *model = name;
            }
            return backbone;
        }
    }
    throw Error("\"" + weights.path().string() + "\" holds the weights of none of Kiln's models (" +
                join_alternatives(backbone_names()) + "); the closest is " + closest + ": " +
                mismatch);
}

} // namespace kiln::models
