#include "models/feature_decoder.h"

#include "models/batch_norm.h"
#include "models/onnx_modules.h"

#include <torch/nn/functional/upsampling.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/upsampling.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

void add_conv_bn_relu(nn::Sequential& sequence, std::int64_t in, std::int64_t out) {
    sequence->push_back(nn::Conv2d(nn::Conv2dOptions(in, out, 3).padding(1).bias(false)));
    sequence->push_back(BatchNorm(out));
    sequence->push_back(nn::ReLU());
}

nn::Upsample twice_as_large() {
    return nn::Upsample(nn::UpsampleOptions()
                            .scale_factor(std::vector<double>{2.0, 2.0})
                            .mode(torch::kBilinear)
                            .align_corners(false));
}

} // namespace

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

FeatureDecoder::FeatureDecoder(torch::nn::Module& owner, const std::vector<std::int64_t>& channels,
                               std::int64_t width) {
    fuse_ = nn::Sequential();
    if (channels.size() > 1) {
        laterals_ = nn::ModuleList();
        for (const std::int64_t in : channels) {
            laterals_->push_back(nn::Conv2d(nn::Conv2dOptions(in, width, 1)));
        }
        owner.register_module("laterals", laterals_);
        add_conv_bn_relu(fuse_, width, width);
        out_channels_ = width;
    } else {
        const std::int64_t half = width / 2;
        add_conv_bn_relu(fuse_, channels.front(), width);
        fuse_->push_back(twice_as_large());
        add_conv_bn_relu(fuse_, width, half);
        fuse_->push_back(twice_as_large());
        out_channels_ = half;
    }
    owner.register_module("fuse", fuse_);
}

torch::Tensor FeatureDecoder::forward(const std::vector<torch::Tensor>& maps) {
    if (maps.size() == 1) {
        return fuse_->forward(maps.front());
    }
    torch::Tensor top;
    for (std::size_t i = maps.size(); i-- > 0;) {
        const torch::Tensor lateral = laterals_[i]->as<nn::Conv2d>()->forward(maps[i]);
        top = top.defined() ? lateral + resize_to(top, lateral.size(2), lateral.size(3)) : lateral;
    }
    return fuse_->forward(top);
}

onnx::Value FeatureDecoder::to_onnx(onnx::Graph& graph, const std::vector<onnx::Value>& maps) {
    if (maps.size() == 1) {
        return onnx_sequential(graph, maps.front(), *fuse_, "fuse");
    }
    std::optional<onnx::Value> top;
    for (std::size_t i = maps.size(); i-- > 0;) {
        const onnx::Value lateral = onnx::conv2d(graph, maps[i], *laterals_[i]->as<nn::Conv2d>(),
                                                 "laterals." + std::to_string(i));
        top = top ? onnx::add(graph, lateral,
                              onnx::resize_bilinear(graph, *top, lateral.example.size(2),
                                                    lateral.example.size(3)))
                  : lateral;
    }
    return onnx_sequential(graph, *top, *fuse_, "fuse");
}

} // namespace kiln::models
