#pragma once

#include "onnx/graph.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/container/sequential.h>
#include <vector>

namespace kiln::models {

// The light decoder that the dense heads (segmentation, detection) put over a backbone's
// feature maps, giving one map at the finest level. Several maps (ResNet stages, the small
// CNN's blocks) go through an FPN-style decoder: 1x1 lateral convolutions to a common width, a
// top-down pathway adding each coarser level upsampled, and a 3x3 convolution on the finest
// level. One map (ViT patch tokens) goes through progressive upsampling: two 3x3 convolutions
// each followed by 2x upsampling. Its modules are registered in `owner` as "laterals" and
// "fuse", so checkpoints name them as the owner's own.
class FeatureDecoder {
public:
    FeatureDecoder(torch::nn::Module& owner, const std::vector<std::int64_t>& channels,
                   std::int64_t width);

    torch::Tensor forward(const std::vector<torch::Tensor>& maps);
    // forward() as ONNX nodes; its weights are named as the owner's ("laterals", "fuse").
    onnx::Value to_onnx(onnx::Graph& graph, const std::vector<onnx::Value>& maps);
    std::int64_t out_channels() const { return out_channels_; }

private:
    torch::nn::ModuleList laterals_{nullptr};
    torch::nn::Sequential fuse_{nullptr};
    std::int64_t out_channels_ = 0;
};

// Bilinear resize of a [B, C, H, W] map (no copy when it already has that size).
torch::Tensor resize_to(const torch::Tensor& x, std::int64_t height, std::int64_t width);

} // namespace kiln::models
