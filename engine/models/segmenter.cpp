#include "models/segmenter.h"

#include "onnx/ops.h"

#include <torch/types.h>

namespace kiln::models {

std::vector<std::int64_t> dense_feature_channels(BackboneImpl& backbone) {
    std::vector<std::int64_t> channels = backbone.feature_map_channels();
    if (channels.empty()) {
        backbone.feature_maps(torch::zeros({1, 3, 32, 32})); // throws, naming the fix
    }
    return channels;
}

SegmenterImpl::SegmenterImpl(Backbone backbone, std::int64_t classes, std::int64_t decoder_width)
    : backbone_(register_module("backbone", std::move(backbone))),
      decoder_(std::make_unique<FeatureDecoder>(*this, dense_feature_channels(*backbone_),
                                                decoder_width)) {
    classifier_ = register_module("classifier", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                                    decoder_->out_channels(), classes, 1)));
}

torch::Tensor SegmenterImpl::forward(const torch::Tensor& images) {
    return resize_to(classifier_->forward(decoder_->forward(backbone_->feature_maps(images))),
                     images.size(2), images.size(3));
}

onnx::Value SegmenterImpl::to_onnx(onnx::Graph& graph, const onnx::Value& images) {
    const onnx::Value logits = onnx::conv2d(
        graph, decoder_->to_onnx(graph, backbone_->onnx_feature_maps(graph, images, "backbone")),
        *classifier_, "classifier");
    return onnx::resize_bilinear(graph, logits, images.example.size(2), images.example.size(3));
}

} // namespace kiln::models
