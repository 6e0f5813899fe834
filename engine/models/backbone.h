#pragma once

#include "models/backbone_names.h"
#include "onnx/graph.h"

#include <filesystem>
#include <memory>
#include <string>
#include <torch/nn/module.h>
#include <utility>
#include <vector>

namespace kiln::models {

class WeightsFile;

// A network that maps images [B, C, H, W] to one feature vector each, [B, feature_dim()].
class BackboneImpl : public torch::nn::Module {
public:
    virtual torch::Tensor forward(const torch::Tensor& images) = 0;
    virtual std::int64_t feature_dim() const = 0;
    // Spatial features for dense tasks (segmentation), finest first, each [B, C_i, H_i, W_i]
    // with the channels of feature_map_channels(). A backbone without them (a TorchScript
    // module) throws kiln::Error.
    virtual std::vector<torch::Tensor> feature_maps(const torch::Tensor& images);
    virtual std::vector<std::int64_t> feature_map_channels() const { return {}; }
    // forward() and feature_maps().back() of one pass, for losses on both (distillation's
    // global and patch terms). The default runs the network twice.
    virtual std::pair<torch::Tensor, torch::Tensor>
    features_and_last_map(const torch::Tensor& images);
    // The tensors of a state_dict, under the names PyTorch users know: by default the
    // registered parameters and buffers.
    virtual std::vector<std::pair<std::string, torch::Tensor>> state();
    // forward() and feature_maps() as ONNX nodes over `images` (in eval mode; `name` prefixes
    // the weights' names). A backbone Kiln cannot export (a TorchScript module) throws
    // kiln::Error naming it.
    virtual onnx::Value onnx_features(onnx::Graph& graph, const onnx::Value& images,
                                      const std::string& name);
    virtual std::vector<onnx::Value>
    onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images, const std::string& name);
    // The parameters by depth, the input's end first (the stem or patch embedding, each block,
    // a last norm), grouped by layer_of: what layer-wise learning-rate decay scales.
    std::vector<std::vector<torch::Tensor>> layers();

protected:
    // The layer a parameter belongs to, from its name in named_parameters(); a layer is placed
    // where its first parameter is. By default the whole backbone is one (a TorchScript module).
    virtual std::string layer_of(const std::string& parameter) const;
};
using Backbone = std::shared_ptr<BackboneImpl>;

// The first `count` dot-separated parts of a parameter's name: "layer1.0" of
// "layer1.0.conv1.weight".
std::string leading_parts(const std::string& name, int count);

// A CNN whose feature vector is its last feature map average-pooled: forward(), the pair of
// one pass and the ONNX features follow from feature_maps(). Its maps are pure here: such a CNN
// has them by definition, and the base's ONNX default calls onnx_features(), which would recurse.
class PooledMapsBackboneImpl : public BackboneImpl {
public:
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override = 0;
    std::vector<std::int64_t> feature_map_channels() const override = 0;
    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override = 0;
    torch::Tensor forward(const torch::Tensor& images) override;
    std::pair<torch::Tensor, torch::Tensor>
    features_and_last_map(const torch::Tensor& images) override;
    onnx::Value onnx_features(onnx::Graph& graph, const onnx::Value& images,
                              const std::string& name) override;
};

// Backbones by name: resnet18, resnet34, resnet50 (torchvision's parameter names, without the
// classifier), smallcnn (a four-block CNN for quick CPU runs), vit_tiny and vit_small (ViT with
// 16 px patches, timm's names, any image size), or the path of a TorchScript
// module (.pt) whose output per image is its feature vector (4-D outputs are average-pooled). An
// unknown name is a kiln::Error listing the valid ones.
Backbone make_backbone(const std::string& name, std::int64_t in_channels = 3);

// Loads weights into `backbone` from a Kiln checkpoint (checkpoints/last.ckpt) or a state_dict
// that torch.save wrote: Kiln's exported model (exported_models/exported_last.pt),
// LightlyTrain's, torchvision's pretrained weights, or a training checkpoint holding one
// (read_state_dict). A file that is neither, or whose tensors do not fit this backbone, is a
// kiln::Error naming the file and the tensor.
void load_backbone_weights(BackboneImpl& backbone, const std::filesystem::path& path);

// Writes the backbone's state_dict (float32 parameters and buffers, torchvision's names) where
// Python's torch.load reads it, atomically.
void save_backbone_weights(BackboneImpl& backbone, const std::filesystem::path& path);

// The backbone stored in a Kiln checkpoint (which names its model) or an exported model (whose
// architecture is recognised from its tensors, one input channel or three), with its weights;
// `model` receives its name.
Backbone load_backbone(const WeightsFile& weights, std::string* model = nullptr);
// The same, of the file at `path` (read for this call only).
Backbone load_backbone(const std::filesystem::path& path, std::string* model = nullptr);

// The image channels `backbone` takes: its first convolution's input (every Kiln backbone
// starts with one; a ViT's patch embedding is one too). 3 for a TorchScript module.
std::int64_t input_channels(BackboneImpl& backbone);

} // namespace kiln::models
