#include "models/cspnet.h"

#include "core/error.h"
#include "models/csp_layers.h"
#include "models/onnx_modules.h"
#include "onnx/ops.h"

#include <torch/nn/modules/container/sequential.h>
#include <torch/types.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

struct CspNetShape {
    std::vector<std::int64_t> widths; // the stem's, then each stage's
    std::vector<std::int64_t> depths; // each stage's residual pairs
};

CspNetShape shape_of(const std::string& name) {
    if (name == "cspnet_n") {
        return {{16, 32, 64, 128, 256}, {1, 2, 2, 1}};
    }
    if (name == "cspnet_s") {
        return {{32, 64, 128, 256, 512}, {1, 2, 2, 1}};
    }
    throw Error("unknown CSP network \"" + name + "\"");
}

class CspNetImpl : public PooledMapsBackboneImpl {
public:
    CspNetImpl(const CspNetShape& shape, std::int64_t in_channels) : widths_(shape.widths) {
        stem_ = register_module("stem", ConvUnit(in_channels, widths_[0], 3, 2));
        for (std::size_t stage = 0; stage < shape.depths.size(); ++stage) {
            nn::Sequential layer(
                ConvUnit(widths_[stage], widths_[stage + 1], 3, 2),
                CspBlock(widths_[stage + 1], widths_[stage + 1], shape.depths[stage]));
            if (stage + 1 == shape.depths.size()) {
                layer->push_back(PyramidPooling(widths_.back(), widths_.back()));
            }
            stages_.push_back(register_module("stage" + std::to_string(stage + 1), layer));
        }
    }

    // Each stage's output: strides 4, 8, 16 and 32.
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override {
        torch::Tensor x = stem_->forward(images);
        std::vector<torch::Tensor> maps;
        for (nn::Sequential& stage : stages_) {
            x = stage->forward(x);
            maps.push_back(x);
        }
        return maps;
    }

    std::int64_t feature_dim() const override { return widths_.back(); }
    std::vector<std::int64_t> feature_map_channels() const override {
        return {widths_.begin() + 1, widths_.end()};
    }

protected:
    // The stem, then each stage.
    std::string layer_of(const std::string& parameter) const override {
        return leading_parts(parameter, 1);
    }

public:
    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        onnx::Value x = stem_->to_onnx(graph, images, onnx_name(name, "stem"));
        std::vector<onnx::Value> maps;
        for (std::size_t s = 0; s < stages_.size(); ++s) {
            const std::string stage = onnx_name(name, "stage" + std::to_string(s + 1));
            nn::Sequential& layers = stages_[s];
            x = layers[0]->as<ConvUnit>()->to_onnx(graph, x, onnx_name(stage, "0"));
            x = layers[1]->as<CspBlock>()->to_onnx(graph, x, onnx_name(stage, "1"));
            if (layers->size() > 2) {
                x = layers[2]->as<PyramidPooling>()->to_onnx(graph, x, onnx_name(stage, "2"));
            }
            maps.push_back(x);
        }
        return maps;
    }

private:
    std::vector<std::int64_t> widths_;
    ConvUnit stem_{nullptr};
    std::vector<nn::Sequential> stages_;
};

} // namespace

std::vector<std::string> cspnet_names() {
    return {"cspnet_n", "cspnet_s"};
}

Backbone make_cspnet(const std::string& name, std::int64_t in_channels) {
    return std::make_shared<CspNetImpl>(shape_of(name), in_channels);
}

} // namespace kiln::models
