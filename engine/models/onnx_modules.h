#pragma once

#include "models/batch_norm.h"
#include "onnx/ops.h"

#include <torch/nn/modules/container/sequential.h>

namespace kiln::models {

// `parent.child` for weight names; `child` alone at the top.
std::string onnx_name(const std::string& parent, const std::string& child);

onnx::BatchNormParameters batch_norm_parameters(const BatchNormImpl& batch_norm);

// A Sequential of the layers Kiln's models are made of (convolutions and linear layers, each
// with the batch norm after it folded in, ReLU, GELU, 2x bilinear upsampling) as ONNX nodes. Any
// other layer is a kiln::Error naming it and its place, `name`.N.
onnx::Value onnx_sequential(onnx::Graph& graph, onnx::Value x, torch::nn::SequentialImpl& layers,
                            const std::string& name);

} // namespace kiln::models
