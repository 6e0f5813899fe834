#pragma once

#include "eval/coco/rle.h"

#include <ATen/core/Tensor.h>
#include <vector>

namespace kiln::coco {

// Encodes a predicted mask, an H x W bool or uint8 tensor on any device (non-zero is
// foreground), as pycocotools' mask.encode() would encode it.
Rle encode_mask(const at::Tensor& mask);

// Encodes N x H x W masks, up to `threads` at a time.
std::vector<Rle> encode_masks(const at::Tensor& masks, int threads);

} // namespace kiln::coco
