#include "models/segmenter.h"

#include "models/batch_norm.h"

#include <torch/nn/functional/upsampling.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/upsampling.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

torch::Tensor resize_to(const torch::Tensor& x, std::int64_t height, std::int64_t width) {
    if (x.size(2) == height && x.size(3) == width) {
        return x;
    }
    nn::functional::InterpolateFuncOptions bilinear;
    bilinear.size(std::vector<std::int64_t>{height, width})
        .mode(torch::kBilinear)
        .align_corners(false);
    return nn::functional::interpolate(x, bilinear);
}

void add_conv_bn_relu(nn::Sequential& sequence, std::int64_t in, std::int64_t out) {
    sequence->push_back(nn::Conv2d(nn::Conv2dOptions(in, out, 3).padding(1).bias(false)));
    sequence->push_back(BatchNorm(out));
    sequence->push_back(nn::ReLU());
}

} // namespace

SegmenterImpl::SegmenterImpl(Backbone backbone, std::int64_t classes, std::int64_t decoder_width)
    : backbone_(register_module("backbone", std::move(backbone))) {
    const std::vector<std::int64_t> channels = backbone_->feature_map_channels();
    if (channels.empty()) {
        backbone_->feature_maps(torch::zeros({1, 3, 32, 32})); // throws, naming the fix
    }
    fuse_ = nn::Sequential();
    if (channels.size() > 1) {
        laterals_ = nn::ModuleList();
        for (const std::int64_t in : channels) {
            laterals_->push_back(nn::Conv2d(nn::Conv2dOptions(in, decoder_width, 1)));
        }
        register_module("laterals", laterals_);
        add_conv_bn_relu(fuse_, decoder_width, decoder_width);
    } else {
        const std::int64_t half = decoder_width / 2;
        add_conv_bn_relu(fuse_, channels.front(), decoder_width);
        fuse_->push_back(nn::Upsample(nn::UpsampleOptions()
                                          .scale_factor(std::vector<double>{2.0, 2.0})
                                          .mode(torch::kBilinear)
                                          .align_corners(false)));
        add_conv_bn_relu(fuse_, decoder_width, half);
        fuse_->push_back(nn::Upsample(nn::UpsampleOptions()
                                          .scale_factor(std::vector<double>{2.0, 2.0})
                                          .mode(torch::kBilinear)
                                          .align_corners(false)));
        decoder_width = half;
    }
    register_module("fuse", fuse_);
    classifier_ =
        register_module("classifier", nn::Conv2d(nn::Conv2dOptions(decoder_width, classes, 1)));
}

torch::Tensor SegmenterImpl::forward(const torch::Tensor& images) {
    const std::vector<torch::Tensor> maps = backbone_->feature_maps(images);
    const torch::Tensor decoded =
        maps.size() > 1 ? decode_pyramid(maps) : decode_single(maps.front());
    return resize_to(classifier_->forward(decoded), images.size(2), images.size(3));
}

torch::Tensor SegmenterImpl::decode_pyramid(const std::vector<torch::Tensor>& maps) {
    torch::Tensor top;
    for (std::size_t i = maps.size(); i-- > 0;) {
        const torch::Tensor lateral = laterals_[i]->as<nn::Conv2d>()->forward(maps[i]);
        top = top.defined() ? lateral + resize_to(top, lateral.size(2), lateral.size(3)) : lateral;
    }
    return fuse_->forward(top);
}

torch::Tensor SegmenterImpl::decode_single(const torch::Tensor& map) {
    return fuse_->forward(map);
}

} // namespace kiln::models
