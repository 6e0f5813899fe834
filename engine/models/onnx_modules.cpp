#include "models/onnx_modules.h"

#include "core/error.h"
#include "models/csp_layers.h"

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/upsampling.h>

namespace kiln::models {

std::string onnx_name(const std::string& parent, const std::string& child) {
    return parent.empty() ? child : parent + "." + child;
}

onnx::BatchNormParameters batch_norm_parameters(const BatchNormImpl& batch_norm) {
    return {batch_norm.weight, batch_norm.bias, batch_norm.running_mean, batch_norm.running_var,
            batch_norm.eps()};
}

onnx::Value onnx_sequential(onnx::Graph& graph, onnx::Value x, torch::nn::SequentialImpl& layers,
                            const std::string& name) {
    const auto children = layers.named_children();
    for (std::size_t i = 0; i < children.size(); ++i) {
        const std::string& key = children[i].key();
        torch::nn::Module& layer = *children[i].value();
        const std::string layer_name = onnx_name(name, key);
        // A batch norm right after a convolution or linear layer is folded into it.
        const BatchNormImpl* next_norm =
            i + 1 < children.size() ? children[i + 1].value()->as<BatchNormImpl>() : nullptr;
        std::optional<onnx::BatchNormParameters> folded;
        if (next_norm != nullptr) {
            folded = batch_norm_parameters(*next_norm);
        }
        if (const auto* conv = layer.as<torch::nn::Conv2dImpl>()) {
            x = onnx::conv2d(graph, x, *conv, layer_name, folded ? &*folded : nullptr);
            i += folded ? 1 : 0;
        } else if (const auto* linear = layer.as<torch::nn::LinearImpl>()) {
            x = onnx::linear(graph, x, *linear, layer_name, folded ? &*folded : nullptr);
            i += folded ? 1 : 0;
        } else if (auto* unit = layer.as<ConvUnitImpl>()) {
            x = unit->to_onnx(graph, x, layer_name);
        } else if (layer.as<torch::nn::ReLUImpl>() != nullptr) {
            x = onnx::relu(graph, x);
        } else if (layer.as<torch::nn::GELUImpl>() != nullptr) {
            x = onnx::gelu(graph, x);
        } else if (const auto* upsample = layer.as<torch::nn::UpsampleImpl>();
                   upsample != nullptr && upsample->options.scale_factor() &&
                   std::holds_alternative<torch::enumtype::kNearest>(upsample->options.mode())) {
            const std::vector<double>& scale = *upsample->options.scale_factor();
            x = onnx::resize_nearest(
                graph, x, static_cast<std::int64_t>(double(x.example.size(2)) * scale[0]),
                static_cast<std::int64_t>(double(x.example.size(3)) * scale[1]));
        } else if (const auto* upsample = layer.as<torch::nn::UpsampleImpl>();
                   upsample != nullptr && upsample->options.scale_factor() &&
                   std::holds_alternative<torch::enumtype::kBilinear>(upsample->options.mode()) &&
                   !upsample->options.align_corners().value_or(false)) {
            const std::vector<double>& scale = *upsample->options.scale_factor();
            x = onnx::resize_bilinear(
                graph, x, static_cast<std::int64_t>(double(x.example.size(2)) * scale[0]),
                static_cast<std::int64_t>(double(x.example.size(3)) * scale[1]));
        } else {
            throw Error("ONNX export: " + layer_name + " is a " + layer.name() +
                        ", which Kiln cannot export");
        }
    }
    return x;
}

} // namespace kiln::models
