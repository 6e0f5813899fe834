#pragma once

#include <cstdint>
#include <torch/nn/modules/conv.h>

namespace kiln::models {

// A convolution without bias (a batch norm follows it), padded to keep the size at stride 1:
// torchvision's conv3x3 and conv1x1 in one.
inline torch::nn::Conv2d conv(std::int64_t in, std::int64_t out, std::int64_t kernel,
                              std::int64_t stride = 1) {
    return torch::nn::Conv2d(
        torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false));
}

} // namespace kiln::models
