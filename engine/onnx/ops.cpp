#include "onnx/ops.h"

#include "core/error.h"

#include <ATen/ATen.h>
#include <cmath>

namespace kiln::onnx {
namespace {

// The layer's weight and bias with an inference-time batch norm folded in, per output
// channel (the first dimension of the weight).
std::pair<at::Tensor, at::Tensor> folded(const at::Tensor& weight, const at::Tensor& bias,
                                         const BatchNormParameters* batch_norm) {
    const at::Tensor w = weight.detach().to(at::kFloat);
    at::Tensor b =
        bias.defined() ? bias.detach().to(at::kFloat) : at::zeros({w.size(0)}, w.options());
    if (batch_norm == nullptr) {
        return {w, b};
    }
    const at::Tensor scale =
        batch_norm->weight.detach() / (batch_norm->running_var.detach() + batch_norm->eps).sqrt();
    std::vector<std::int64_t> per_channel(static_cast<std::size_t>(w.dim()), 1);
    per_channel[0] = -1;
    return {w * scale.reshape(per_channel),
            (b - batch_norm->running_mean.detach()) * scale + batch_norm->bias.detach()};
}

std::vector<std::int64_t> pair(const torch::ExpandingArray<2>& values) {
    return {(*values)[0], (*values)[1]};
}

// The batch size of `x` as a one-element int64 tensor, [B].
std::string batch_of(Graph& graph, const Value& x) {
    return graph
        .node("Shape", {x.name}, at::tensor({x.example.size(0)}),
              {{"start", std::int64_t{0}}, {"end", std::int64_t{1}}})
        .name;
}

// Resize wants every dimension's size: the batch and channels come from x.
Value resize_sizes(Graph& graph, const Value& x, std::int64_t height, std::int64_t width) {
    const Value leading =
        graph.node("Shape", {x.name}, at::tensor({x.example.size(0), x.example.size(1)}),
                   {{"start", std::int64_t{0}}, {"end", std::int64_t{2}}});
    return graph.node("Concat", {leading.name, graph.int64s({height, width})},
                      at::tensor({x.example.size(0), x.example.size(1), height, width}),
                      {{"axis", std::int64_t{0}}});
}

} // namespace

Value conv2d(Graph& graph, const Value& x, const torch::nn::Conv2dImpl& conv,
             const std::string& name, const BatchNormParameters* batch_norm) {
    const auto& options = conv.options;
    const auto* padding = std::get_if<torch::ExpandingArray<2>>(&options.padding());
    if (padding == nullptr || options.padding_mode().index() != 0) {
        throw Error("ONNX export: the convolution " + name +
                    " uses padding Kiln cannot export (only explicit zero padding)");
    }
    const auto [weight, bias] = folded(conv.weight, conv.bias, batch_norm);
    const std::vector<std::int64_t> pads = pair(*padding);
    const at::Tensor example = at::conv2d(x.example, weight, bias, pair(options.stride()), pads,
                                          pair(options.dilation()), options.groups());
    return graph.node(
        "Conv",
        {x.name, graph.weight(name + ".weight", weight), graph.weight(name + ".bias", bias)},
        example,
        {{"kernel_shape", pair(options.kernel_size())},
         {"strides", pair(options.stride())},
         {"pads", std::vector<std::int64_t>{pads[0], pads[1], pads[0], pads[1]}},
         {"dilations", pair(options.dilation())},
         {"group", options.groups()}});
}

Value linear(Graph& graph, const Value& x, const torch::nn::LinearImpl& linear,
             const std::string& name, const BatchNormParameters* batch_norm) {
    const auto [weight, bias] = folded(linear.weight, linear.bias, batch_norm);
    const at::Tensor example = at::linear(x.example, weight, bias);
    if (x.example.dim() == 2) {
        return graph.node(
            "Gemm",
            {x.name, graph.weight(name + ".weight", weight), graph.weight(name + ".bias", bias)},
            example, {{"transB", std::int64_t{1}}});
    }
    const Value product = graph.node("MatMul", {x.name, graph.weight(name + ".weight", weight.t())},
                                     at::matmul(x.example, weight.t()));
    return graph.node("Add", {product.name, graph.weight(name + ".bias", bias)}, example);
}

Value layer_norm(Graph& graph, const Value& x, const torch::nn::LayerNormImpl& norm,
                 const std::string& name) {
    const auto& shape = norm.options.normalized_shape();
    const at::Tensor example =
        at::layer_norm(x.example, shape, norm.weight, norm.bias, norm.options.eps());
    return graph.node("LayerNormalization",
                      {x.name, graph.weight(name + ".weight", norm.weight),
                       graph.weight(name + ".bias", norm.bias)},
                      example,
                      {{"axis", -static_cast<std::int64_t>(shape.size())},
                       {"epsilon", static_cast<float>(norm.options.eps())}});
}

Value relu(Graph& graph, const Value& x) {
    return graph.node("Relu", {x.name}, at::relu(x.example));
}

Value gelu(Graph& graph, const Value& x) {
    // 0.5 x (1 + erf(x / sqrt 2)): opset 17 has no Gelu.
    const Value scaled = multiply(graph, x, static_cast<float>(1.0 / std::sqrt(2.0)));
    const Value erf = graph.node("Erf", {scaled.name}, at::erf(scaled.example));
    const Value shifted = graph.node("Add", {erf.name, graph.scalar(1.0f)}, erf.example + 1);
    const Value product = graph.node("Mul", {x.name, shifted.name}, x.example * shifted.example);
    return graph.node("Mul", {product.name, graph.scalar(0.5f)}, at::gelu(x.example));
}

Value sigmoid(Graph& graph, const Value& x) {
    return graph.node("Sigmoid", {x.name}, at::sigmoid(x.example));
}

Value silu(Graph& graph, const Value& x) {
    const Value gate = sigmoid(graph, x);
    return graph.node("Mul", {x.name, gate.name}, x.example * gate.example);
}

Value add(Graph& graph, const Value& a, const Value& b) {
    return graph.node("Add", {a.name, b.name}, a.example + b.example);
}

Value multiply(Graph& graph, const Value& x, float factor) {
    return graph.node("Mul", {x.name, graph.scalar(factor)}, x.example * factor);
}

Value matmul(Graph& graph, const Value& a, const Value& b) {
    return graph.node("MatMul", {a.name, b.name}, at::matmul(a.example, b.example));
}

Value softmax(Graph& graph, const Value& x, std::int64_t axis) {
    return graph.node("Softmax", {x.name}, at::softmax(x.example, axis), {{"axis", axis}});
}

Value max_pool2d(Graph& graph, const Value& x, std::int64_t kernel, std::int64_t stride,
                 std::int64_t padding) {
    return graph.node(
        "MaxPool", {x.name},
        at::max_pool2d(x.example, {kernel, kernel}, {stride, stride}, {padding, padding}),
        {{"kernel_shape", std::vector<std::int64_t>{kernel, kernel}},
         {"strides", std::vector<std::int64_t>{stride, stride}},
         {"pads", std::vector<std::int64_t>(4, padding)}});
}

Value global_average_pool(Graph& graph, const Value& x) {
    const Value pooled =
        graph.node("GlobalAveragePool", {x.name}, at::adaptive_avg_pool2d(x.example, {1, 1}));
    return graph.node("Flatten", {pooled.name}, pooled.example.flatten(1),
                      {{"axis", std::int64_t{1}}});
}

Value reshape(Graph& graph, const Value& x, const std::vector<std::int64_t>& shape) {
    std::vector<std::int64_t> full = {0};
    full.insert(full.end(), shape.begin(), shape.end());
    std::vector<std::int64_t> example_shape = full;
    example_shape[0] = x.example.size(0);
    return graph.node("Reshape", {x.name, graph.int64s(full)}, x.example.reshape(example_shape));
}

Value transpose(Graph& graph, const Value& x, const std::vector<std::int64_t>& permutation) {
    return graph.node("Transpose", {x.name}, x.example.permute(permutation),
                      {{"perm", permutation}});
}

Value concat(Graph& graph, const std::vector<Value>& values, std::int64_t axis) {
    std::vector<std::string> names;
    std::vector<at::Tensor> examples;
    for (const Value& value : values) {
        names.push_back(value.name);
        examples.push_back(value.example);
    }
    return graph.node("Concat", names, at::cat(examples, axis), {{"axis", axis}});
}

Value narrow(Graph& graph, const Value& x, std::int64_t axis, std::int64_t start,
             std::int64_t length) {
    return graph.node(
        "Slice",
        {x.name, graph.int64s({start}), graph.int64s({start + length}), graph.int64s({axis})},
        x.example.narrow(axis, start, length));
}

Value select(Graph& graph, const Value& x, std::int64_t axis, std::int64_t index) {
    const std::string scalar_index =
        graph.weight("index", at::scalar_tensor(index, at::TensorOptions().dtype(at::kLong)));
    return graph.node("Gather", {x.name, scalar_index}, x.example.select(axis, index),
                      {{"axis", axis}});
}

Value resize_bilinear(Graph& graph, const Value& x, std::int64_t height, std::int64_t width) {
    if (x.example.size(2) == height && x.example.size(3) == width) {
        return x;
    }
    const at::Tensor example = at::upsample_bilinear2d(x.example, {height, width}, false);
    const Value sizes = resize_sizes(graph, x, height, width);
    return graph.node("Resize", {x.name, "", "", sizes.name}, example,
                      {{"mode", std::string("linear")},
                       {"coordinate_transformation_mode", std::string("pytorch_half_pixel")}});
}

Value resize_nearest(Graph& graph, const Value& x, std::int64_t height, std::int64_t width) {
    if (x.example.size(2) == height && x.example.size(3) == width) {
        return x;
    }
    const at::Tensor example = at::upsample_nearest2d(x.example, {height, width});
    const Value sizes = resize_sizes(graph, x, height, width);
    // PyTorch's nearest: the source pixel is floor(destination * in / out).
    return graph.node("Resize", {x.name, "", "", sizes.name}, example,
                      {{"mode", std::string("nearest")},
                       {"coordinate_transformation_mode", std::string("asymmetric")},
                       {"nearest_mode", std::string("floor")}});
}

Value batch_constant(Graph& graph, const std::string& name, const at::Tensor& constant,
                     const Value& like) {
    std::vector<std::int64_t> rest(constant.sizes().begin() + 1, constant.sizes().end());
    std::vector<std::int64_t> example_shape = {like.example.size(0)};
    example_shape.insert(example_shape.end(), rest.begin(), rest.end());
    const Value shape = graph.node("Concat", {batch_of(graph, like), graph.int64s(rest)},
                                   at::tensor(example_shape), {{"axis", std::int64_t{0}}});
    return graph.node("Expand", {graph.weight(name, constant), shape.name},
                      constant.detach().to(at::kFloat).expand(example_shape));
}

} // namespace kiln::onnx
