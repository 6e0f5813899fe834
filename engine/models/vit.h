#pragma once

#include "models/backbone.h"

#include <cstdint>
#include <vector>

namespace kiln::models {

// A Vision Transformer with 16 px patches and timm's parameter names (vit_tiny: dim 192, depth
// 12, 3 heads; vit_small: 384, 12, 6), for any image size.
Backbone make_vision_transformer(std::int64_t dim, std::int64_t depth, std::int64_t heads,
                                 std::int64_t in_channels);

} // namespace kiln::models
