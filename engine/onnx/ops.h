#pragma once

#include "onnx/graph.h"

#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

namespace kiln::onnx {

// Inference-time batch normalisation, folded into the convolution or linear layer before it.
struct BatchNormParameters {
    at::Tensor weight, bias, running_mean, running_var;
    double eps = 1e-5;
};

// The operations models are exported with. Each adds ONNX nodes to `graph` and computes the
// same in LibTorch on the example (in inference mode), so sizes are known at every step.
// `name` names a layer's weights after the module that owns them.
Value conv2d(Graph& graph, const Value& x, const torch::nn::Conv2dImpl& conv,
             const std::string& name, const BatchNormParameters* batch_norm = nullptr);
Value linear(Graph& graph, const Value& x, const torch::nn::LinearImpl& linear,
             const std::string& name, const BatchNormParameters* batch_norm = nullptr);
Value layer_norm(Graph& graph, const Value& x, const torch::nn::LayerNormImpl& norm,
                 const std::string& name);
Value relu(Graph& graph, const Value& x);
Value gelu(Graph& graph, const Value& x); // the exact one, with erf, as torch::nn::GELU
Value sigmoid(Graph& graph, const Value& x);
Value silu(Graph& graph, const Value& x); // x * sigmoid(x), as torch::nn::SiLU
Value add(Graph& graph, const Value& a, const Value& b);
Value multiply(Graph& graph, const Value& x, float factor);
Value matmul(Graph& graph, const Value& a, const Value& b);
Value softmax(Graph& graph, const Value& x, std::int64_t axis);
Value max_pool2d(Graph& graph, const Value& x, std::int64_t kernel, std::int64_t stride,
                 std::int64_t padding);
// [B, C, H, W] to [B, C].
Value global_average_pool(Graph& graph, const Value& x);
// `shape` without the batch, which the output keeps from `x`.
Value reshape(Graph& graph, const Value& x, const std::vector<std::int64_t>& shape);
Value transpose(Graph& graph, const Value& x, const std::vector<std::int64_t>& permutation);
Value concat(Graph& graph, const std::vector<Value>& values, std::int64_t axis);
Value narrow(Graph& graph, const Value& x, std::int64_t axis, std::int64_t start,
             std::int64_t length);
// x.select(axis, index): the axis goes.
Value select(Graph& graph, const Value& x, std::int64_t axis, std::int64_t index);
// Bilinear, as torch's interpolate with align_corners=false and no antialiasing.
Value resize_bilinear(Graph& graph, const Value& x, std::int64_t height, std::int64_t width);
// Nearest-neighbour resizing, as torch's interpolate(size=..., mode="nearest").
Value resize_nearest(Graph& graph, const Value& x, std::int64_t height, std::int64_t width);
// A constant [1, ...] repeated along the batch of `like`.
Value batch_constant(Graph& graph, const std::string& name, const at::Tensor& constant,
                     const Value& like);

} // namespace kiln::onnx
