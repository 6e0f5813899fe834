#pragma once

#include "models/batch_norm.h"
#include "onnx/graph.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/pimpl.h>

// The layers of Kiln's CSP backbone (cspnet_*) and of the detector's neck and heads.
namespace kiln::models {

// Convolution (no bias), batch norm and SiLU.
class ConvUnitImpl : public torch::nn::Module {
public:
    ConvUnitImpl(std::int64_t in, std::int64_t out, std::int64_t kernel = 1,
                 std::int64_t stride = 1);
    torch::Tensor forward(const torch::Tensor& x);
    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& x, const std::string& name);

private:
    torch::nn::Conv2d conv_{nullptr};
    BatchNorm bn_{nullptr};
};
TORCH_MODULE(ConvUnit);

// A cross-stage partial block (CSPNet, Wang et al. 2020; the form YOLOv8 calls C2f): a 1x1
// unit makes two halves; the second goes through `depth` residual pairs of 3x3 units, every
// output kept; the halves and those outputs are concatenated and mixed by a 1x1 unit. Cheap
// for what it sees: most of the width skips the 3x3 work, and gradients reach each depth.
class CspBlockImpl : public torch::nn::Module {
public:
    CspBlockImpl(std::int64_t in, std::int64_t out, std::int64_t depth, bool residual = true);
    torch::Tensor forward(const torch::Tensor& x);
    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& x, const std::string& name);

private:
    std::int64_t half_;
    bool residual_;
    ConvUnit enter_{nullptr}, leave_{nullptr};
    torch::nn::ModuleList pairs_{nullptr}; // each a ModuleList of two 3x3 units
};
TORCH_MODULE(CspBlock);

// Spatial pyramid pooling, fast (SPPF, YOLOv5): a 1x1 unit halves the width, three chained 5x5
// max pools widen what each cell sees, and a 1x1 unit mixes the four.
class PyramidPoolingImpl : public torch::nn::Module {
public:
    PyramidPoolingImpl(std::int64_t in, std::int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& x, const std::string& name);

private:
    ConvUnit enter_{nullptr}, leave_{nullptr};
};
TORCH_MODULE(PyramidPooling);

} // namespace kiln::models
