#include "models/resnet.h"

#include "models/batch_norm.h"
#include "models/conv.h"
#include "models/onnx_modules.h"
#include "onnx/ops.h"

#include <torch/nn.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

// torchvision's BasicBlock (ResNet-18/34) and Bottleneck (ResNet-50), with its parameter names:
// conv1, bn1, conv2, bn2[, conv3, bn3][, downsample.0, downsample.1].
class ResidualBlockImpl : public nn::Module {
public:
    ResidualBlockImpl(std::int64_t in, std::int64_t width, std::int64_t stride, bool bottleneck)
        : bottleneck_(bottleneck) {
        const std::int64_t out = bottleneck ? width * 4 : width;
        if (bottleneck) {
            conv1_ = register_module("conv1", conv(in, width, 1));
            bn1_ = register_module("bn1", BatchNorm(width));
            conv2_ = register_module("conv2", conv(width, width, 3, stride));
            bn2_ = register_module("bn2", BatchNorm(width));
            conv3_ = register_module("conv3", conv(width, out, 1));
            bn3_ = register_module("bn3", BatchNorm(out));
        } else {
            conv1_ = register_module("conv1", conv(in, width, 3, stride));
            bn1_ = register_module("bn1", BatchNorm(width));
            conv2_ = register_module("conv2", conv(width, width, 3));
            bn2_ = register_module("bn2", BatchNorm(width));
        }
        if (stride != 1 || in != out) {
            downsample_ = register_module("downsample",
                                          nn::Sequential(conv(in, out, 1, stride), BatchNorm(out)));
        }
    }

    torch::Tensor forward(const torch::Tensor& x) {
        torch::Tensor y = torch::relu(bn1_(conv1_(x)));
        y = bn2_(conv2_(y));
        if (bottleneck_) {
            y = bn3_(conv3_(torch::relu(y)));
        }
        return torch::relu(y + (downsample_ ? downsample_->forward(x) : x));
    }

    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& x, const std::string& name) {
        const auto conv_bn = [&](const onnx::Value& in, const nn::Conv2d& conv,
                                 const BatchNorm& norm, const std::string& conv_name) {
            const onnx::BatchNormParameters folded = batch_norm_parameters(*norm);
            return onnx::conv2d(graph, in, *conv, onnx_name(name, conv_name), &folded);
        };
        onnx::Value y = onnx::relu(graph, conv_bn(x, conv1_, bn1_, "conv1"));
        y = conv_bn(y, conv2_, bn2_, "conv2");
        if (bottleneck_) {
            y = conv_bn(onnx::relu(graph, y), conv3_, bn3_, "conv3");
        }
        const onnx::Value shortcut =
            downsample_ ? onnx_sequential(graph, x, *downsample_, onnx_name(name, "downsample"))
                        : x;
        return onnx::relu(graph, onnx::add(graph, y, shortcut));
    }

private:
    bool bottleneck_;
    nn::Conv2d conv1_{nullptr}, conv2_{nullptr}, conv3_{nullptr};
    BatchNorm bn1_{nullptr}, bn2_{nullptr}, bn3_{nullptr};
    nn::Sequential downsample_{nullptr};
};
TORCH_MODULE(ResidualBlock);

class ResNetImpl : public PooledMapsBackboneImpl {
public:
    ResNetImpl(const std::vector<int>& blocks, bool bottleneck, std::int64_t in_channels) {
        conv1_ = register_module(
            "conv1",
            nn::Conv2d(nn::Conv2dOptions(in_channels, 64, 7).stride(2).padding(3).bias(false)));
        bn1_ = register_module("bn1", BatchNorm(64));
        std::int64_t channels = 64;
        for (std::size_t stage = 0; stage < blocks.size(); ++stage) {
            const std::int64_t width = 64 << stage;
            nn::Sequential layer;
            for (int b = 0; b < blocks[stage]; ++b) {
                const std::int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
                layer->push_back(ResidualBlock(channels, width, stride, bottleneck));
                channels = bottleneck ? width * 4 : width;
            }
            layers_.push_back(register_module("layer" + std::to_string(stage + 1), layer));
            stage_channels_.push_back(channels);
        }
        feature_dim_ = channels;
        // torchvision's initialisation: He for convolutions, BN weight 1 and bias 0.
        for (auto& module : modules(false)) {
            if (auto* convolution = module->as<nn::Conv2d>()) {
                nn::init::kaiming_normal_(convolution->weight, 0.0, torch::kFanOut, torch::kReLU);
            }
        }
    }

    // The output of each stage: strides 4, 8, 16 and 32.
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override {
        torch::Tensor x = torch::relu(bn1_(conv1_(images)));
        x = torch::max_pool2d(x, 3, 2, 1);
        std::vector<torch::Tensor> maps;
        for (nn::Sequential& layer : layers_) {
            x = layer->forward(x);
            maps.push_back(x);
        }
        return maps;
    }

    std::int64_t feature_dim() const override { return feature_dim_; }
    std::vector<std::int64_t> feature_map_channels() const override { return stage_channels_; }

protected:
    // The stem, then each residual block ("layer2.1"), as timm groups a ResNet's layers.
    std::string layer_of(const std::string& parameter) const override {
        return parameter.rfind("layer", 0) == 0 ? leading_parts(parameter, 2) : "stem";
    }

public:
    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        const onnx::BatchNormParameters folded = batch_norm_parameters(*bn1_);
        onnx::Value x = onnx::relu(
            graph, onnx::conv2d(graph, images, *conv1_, onnx_name(name, "conv1"), &folded));
        x = onnx::max_pool2d(graph, x, 3, 2, 1);
        std::vector<onnx::Value> maps;
        for (std::size_t stage = 0; stage < layers_.size(); ++stage) {
            const std::string layer = onnx_name(name, "layer" + std::to_string(stage + 1));
            for (std::size_t b = 0; b < layers_[stage]->size(); ++b) {
                x = layers_[stage][b]->as<ResidualBlock>()->to_onnx(
                    graph, x, onnx_name(layer, std::to_string(b)));
            }
            maps.push_back(x);
        }
        return maps;
    }

private:
    nn::Conv2d conv1_{nullptr};
    BatchNorm bn1_{nullptr};
    std::vector<nn::Sequential> layers_;
    std::vector<std::int64_t> stage_channels_;
    std::int64_t feature_dim_ = 0;
};

} // namespace

Backbone make_resnet(const std::vector<int>& blocks, bool bottleneck, std::int64_t in_channels) {
    return std::make_shared<ResNetImpl>(blocks, bottleneck, in_channels);
}

} // namespace kiln::models
