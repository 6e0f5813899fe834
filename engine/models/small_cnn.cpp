#include "models/small_cnn.h"

#include "models/batch_norm.h"
#include "models/conv.h"
#include "models/onnx_modules.h"
#include "onnx/ops.h"

#include <torch/nn.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

// Four conv-BN-ReLU blocks halving the resolution, then global average pooling: 256 features,
// fast enough to pretrain on a laptop CPU in minutes.
class SmallCnnImpl : public PooledMapsBackboneImpl {
public:
    explicit SmallCnnImpl(std::int64_t in_channels) {
        std::int64_t channels = in_channels;
        for (const std::int64_t width : {32, 64, 128, 256}) {
            features_->push_back(conv(channels, width, 3, 2));
            features_->push_back(BatchNorm(width));
            features_->push_back(nn::ReLU(nn::ReLUOptions(true)));
            channels = width;
        }
        register_module("features", features_);
    }

    // One pass that keeps no block's output (embedding large batches), where pooling
    // feature_maps().back() would hold all four until the end.
    torch::Tensor forward(const torch::Tensor& images) override {
        return torch::adaptive_avg_pool2d(features_->forward(images), {1, 1}).flatten(1);
    }

    // The output of each block (after its ReLU): strides 2, 4, 8 and 16.
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override {
        std::vector<torch::Tensor> maps;
        torch::Tensor x = images;
        std::size_t layer = 0;
        for (auto& module : *features_) {
            x = module.forward(x);
            if (++layer % 3 == 0) {
                maps.push_back(x);
            }
        }
        return maps;
    }

    std::int64_t feature_dim() const override { return 256; }
    std::vector<std::int64_t> feature_map_channels() const override { return {32, 64, 128, 256}; }

    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        // Block by block (conv, batch norm, ReLU), keeping each block's output.
        std::vector<onnx::Value> maps;
        onnx::Value x = images;
        for (std::size_t first = 0; first < features_->size(); first += 3) {
            const onnx::BatchNormParameters folded =
                batch_norm_parameters(*features_[first + 1]->as<BatchNorm>());
            x = onnx::relu(graph, onnx::conv2d(graph, x, *features_[first]->as<nn::Conv2d>(),
                                               onnx_name(name, "features." + std::to_string(first)),
                                               &folded));
            maps.push_back(x);
        }
        return maps;
    }

private:
    nn::Sequential features_;
};

} // namespace

Backbone make_small_cnn(std::int64_t in_channels) {
    return std::make_shared<SmallCnnImpl>(in_channels);
}

} // namespace kiln::models
