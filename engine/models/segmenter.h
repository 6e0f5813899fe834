#pragma once

#include "models/backbone.h"
#include "models/feature_decoder.h"

#include <memory>
#include <torch/nn/modules/conv.h>
#include <torch/nn/pimpl.h>

namespace kiln::models {

// Semantic segmentation: the FeatureDecoder over the backbone's feature maps, then a 1x1
// classifier, upsampled bilinearly to the image size.
class SegmenterImpl : public torch::nn::Module {
public:
    SegmenterImpl(Backbone backbone, std::int64_t classes, std::int64_t decoder_width = 128);

    torch::Tensor forward(const torch::Tensor& images);
    onnx::Value
    to_onnx(onnx::Graph& graph,
            const onnx::Value& images); // logits at input size // [B, classes, H, W] logits

    BackboneImpl& backbone() { return *backbone_; }

private:
    Backbone backbone_;
    std::unique_ptr<FeatureDecoder> decoder_;
    torch::nn::Conv2d classifier_{nullptr};
};
TORCH_MODULE(Segmenter);

// The backbone's feature-map channels; a backbone without feature maps is a kiln::Error
// naming the fix.
std::vector<std::int64_t> dense_feature_channels(BackboneImpl& backbone);

} // namespace kiln::models
