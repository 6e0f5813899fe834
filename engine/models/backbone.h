#pragma once

#include <memory>
#include <string>
#include <torch/nn/module.h>
#include <vector>

namespace kiln::models {

// A network that maps images [B, C, H, W] to one feature vector each, [B, feature_dim()].
class BackboneImpl : public torch::nn::Module {
public:
    virtual torch::Tensor forward(const torch::Tensor& images) = 0;
    virtual std::int64_t feature_dim() const = 0;
};
using Backbone = std::shared_ptr<BackboneImpl>;

// Backbones by name: resnet18, resnet34, resnet50 (torchvision's parameter names, without the
// classifier) and smallcnn (a four-block CNN for quick CPU runs). An unknown name is a
// kiln::Error listing the valid ones.
Backbone make_backbone(const std::string& name, std::int64_t in_channels = 3);
std::vector<std::string> backbone_names();

} // namespace kiln::models
