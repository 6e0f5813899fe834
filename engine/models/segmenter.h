#pragma once

#include "models/backbone.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/pimpl.h>

namespace kiln::models {

// Semantic segmentation: a light decoder over the backbone's feature maps, logits at the input
// resolution. Several maps (ResNet stages, the small CNN's blocks) go through an FPN-style
// decoder: 1x1 lateral convolutions to a common width, a top-down pathway adding each coarser
// level upsampled, and a 3x3 convolution on the finest level. One map (ViT patch tokens) goes
// through progressive upsampling: two 3x3 convolutions each followed by 2x upsampling. Either
// ends in a 1x1 classifier, upsampled bilinearly to the image size.
class SegmenterImpl : public torch::nn::Module {
public:
    SegmenterImpl(Backbone backbone, std::int64_t classes, std::int64_t decoder_width = 128);

    torch::Tensor forward(const torch::Tensor& images); // [B, classes, H, W] logits

    BackboneImpl& backbone() { return *backbone_; }

private:
    torch::Tensor decode_pyramid(const std::vector<torch::Tensor>& maps);
    torch::Tensor decode_single(const torch::Tensor& map);

    Backbone backbone_;
    torch::nn::ModuleList laterals_{nullptr};
    torch::nn::Sequential fuse_{nullptr};
    torch::nn::Conv2d classifier_{nullptr};
};
TORCH_MODULE(Segmenter);

} // namespace kiln::models
