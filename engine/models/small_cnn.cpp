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
// fast enough to pretrain on a laptop CPU in minutes. With `signed_features` (smallcnn_v2) the
// last block has no ReLU and lives apart (`last_block`, so that its files tell the two apart):
// its features are then signed and, as its batch norm's shift gets no gradient from SimCLR's
// losses, centred, where ReLU's non-negative ones share a mean direction that takes part of
// every cosine (42% of their squared length in the twenty-ninth session's smallcnn).
class SmallCnnImpl : public PooledMapsBackboneImpl {
public:
    SmallCnnImpl(std::int64_t in_channels, bool signed_features) {
        const std::vector<std::int64_t> widths{32, 64, 128, 256};
        std::int64_t channels = in_channels;
        for (const std::int64_t width : widths) {
            const bool last = width == widths.back();
            nn::Sequential& block = last && signed_features ? last_block_ : features_;
            block->push_back(conv(channels, width, 3, 2));
            block->push_back(BatchNorm(width));
            if (!(last && signed_features)) {
                block->push_back(nn::ReLU(nn::ReLUOptions(true)));
            }
            channels = width;
        }
        register_module("features", features_);
        if (signed_features) {
            register_module("last_block", last_block_);
        }
    }

    // One pass that keeps no block's output (embedding large batches), where pooling
    // feature_maps().back() would hold all four until the end.
    torch::Tensor forward(const torch::Tensor& images) override {
        return torch::adaptive_avg_pool2d(last_block(features_->forward(images)), {1, 1})
            .flatten(1);
    }

    // The output of each block (after its ReLU, if it has one): strides 2, 4, 8 and 16.
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
        if (!last_block_->is_empty()) {
            maps.push_back(last_block_->forward(x));
        }
        return maps;
    }

    std::int64_t feature_dim() const override { return 256; }
    std::vector<std::int64_t> feature_map_channels() const override { return {32, 64, 128, 256}; }

protected:
    // Each conv-BN(-ReLU) block: three entries of `features` ("features.4.weight" is the
    // second block's batch norm), and `last_block`.
    std::string layer_of(const std::string& parameter) const override {
        const std::string features = "features.";
        if (parameter.rfind(features, 0) != 0) {
            return leading_parts(parameter, 1);
        }
        const int entry = std::stoi(parameter.substr(features.size()));
        return "block " + std::to_string(entry / 3);
    }

public:
    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        // Block by block (conv and batch norm folded, then ReLU), keeping each block's output.
        std::vector<onnx::Value> maps;
        onnx::Value x = images;
        for (std::size_t first = 0; first < features_->size(); first += 3) {
            x = onnx::relu(graph, onnx_conv(graph, x, *features_, first,
                                            onnx_name(name, "features." + std::to_string(first))));
            maps.push_back(x);
        }
        if (!last_block_->is_empty()) {
            maps.push_back(onnx_conv(graph, x, *last_block_, 0, onnx_name(name, "last_block.0")));
        }
        return maps;
    }

private:
    torch::Tensor last_block(const torch::Tensor& x) {
        return last_block_->is_empty() ? x : last_block_->forward(x);
    }

    // The convolution at `first` in `modules` with the batch norm after it folded in.
    static onnx::Value onnx_conv(onnx::Graph& graph, const onnx::Value& x,
                                 nn::SequentialImpl& modules, std::size_t first,
                                 const std::string& name) {
        const onnx::BatchNormParameters folded =
            batch_norm_parameters(*modules[first + 1]->as<BatchNorm>());
        return onnx::conv2d(graph, x, *modules[first]->as<nn::Conv2d>(), name, &folded);
    }

    nn::Sequential features_;
    nn::Sequential last_block_;
};

} // namespace

Backbone make_small_cnn(std::int64_t in_channels, bool signed_features) {
    return std::make_shared<SmallCnnImpl>(in_channels, signed_features);
}

} // namespace kiln::models
