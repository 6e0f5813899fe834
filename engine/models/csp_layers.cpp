#include "models/csp_layers.h"

#include "models/onnx_modules.h"
#include "onnx/ops.h"

#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/pooling.h>
#include <torch/types.h>

namespace kiln::models {

namespace nn = torch::nn;

ConvUnitImpl::ConvUnitImpl(std::int64_t in, std::int64_t out, std::int64_t kernel,
                           std::int64_t stride)
    : conv_(register_module(
          "conv",
          nn::Conv2d(
              nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false)))),
      bn_(register_module("bn", BatchNorm(out, 0.03, 1e-3))) {}

torch::Tensor ConvUnitImpl::forward(const torch::Tensor& x) {
    return torch::silu(bn_->forward(conv_->forward(x)));
}

onnx::Value ConvUnitImpl::to_onnx(onnx::Graph& graph, const onnx::Value& x,
                                  const std::string& name) {
    const onnx::BatchNormParameters folded = batch_norm_parameters(*bn_);
    return onnx::silu(graph, onnx::conv2d(graph, x, *conv_, onnx_name(name, "conv"), &folded));
}

CspBlockImpl::CspBlockImpl(std::int64_t in, std::int64_t out, std::int64_t depth, bool residual)
    : half_(std::max<std::int64_t>(1, out / 2)), residual_(residual) {
    enter_ = register_module("enter", ConvUnit(in, 2 * half_));
    pairs_ = register_module("pairs", nn::ModuleList());
    for (std::int64_t i = 0; i < depth; ++i) {
        pairs_->push_back(nn::ModuleList(ConvUnit(half_, half_, 3), ConvUnit(half_, half_, 3)));
    }
    leave_ = register_module("leave", ConvUnit((2 + depth) * half_, out));
}

torch::Tensor CspBlockImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> parts = enter_->forward(x).chunk(2, 1);
    for (const auto& pair : *pairs_) {
        const auto& units = *pair->as<nn::ModuleList>();
        const torch::Tensor& last = parts.back();
        torch::Tensor y =
            units[1]->as<ConvUnit>()->forward(units[0]->as<ConvUnit>()->forward(last));
        parts.push_back(residual_ ? last + y : y);
    }
    return leave_->forward(torch::cat(parts, 1));
}

onnx::Value CspBlockImpl::to_onnx(onnx::Graph& graph, const onnx::Value& x,
                                  const std::string& name) {
    const onnx::Value entered = enter_->to_onnx(graph, x, onnx_name(name, "enter"));
    std::vector<onnx::Value> parts = {onnx::narrow(graph, entered, 1, 0, half_),
                                      onnx::narrow(graph, entered, 1, half_, half_)};
    for (std::size_t i = 0; i < pairs_->size(); ++i) {
        const auto& units = *pairs_[i]->as<nn::ModuleList>();
        const std::string pair = onnx_name(name, "pairs." + std::to_string(i));
        const onnx::Value last = parts.back();
        const onnx::Value y = units[1]->as<ConvUnit>()->to_onnx(
            graph, units[0]->as<ConvUnit>()->to_onnx(graph, last, onnx_name(pair, "0")),
            onnx_name(pair, "1"));
        parts.push_back(residual_ ? onnx::add(graph, last, y) : y);
    }
    return leave_->to_onnx(graph, onnx::concat(graph, parts, 1), onnx_name(name, "leave"));
}

PyramidPoolingImpl::PyramidPoolingImpl(std::int64_t in, std::int64_t out)
    : enter_(register_module("enter", ConvUnit(in, in / 2))),
      leave_(register_module("leave", ConvUnit(in / 2 * 4, out))) {}

torch::Tensor PyramidPoolingImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> pooled = {enter_->forward(x)};
    for (int i = 0; i < 3; ++i) {
        pooled.push_back(torch::max_pool2d(pooled.back(), 5, 1, 2));
    }
    return leave_->forward(torch::cat(pooled, 1));
}

onnx::Value PyramidPoolingImpl::to_onnx(onnx::Graph& graph, const onnx::Value& x,
                                        const std::string& name) {
    std::vector<onnx::Value> pooled = {enter_->to_onnx(graph, x, onnx_name(name, "enter"))};
    for (int i = 0; i < 3; ++i) {
        pooled.push_back(onnx::max_pool2d(graph, pooled.back(), 5, 1, 2));
    }
    return leave_->to_onnx(graph, onnx::concat(graph, pooled, 1), onnx_name(name, "leave"));
}

} // namespace kiln::models
