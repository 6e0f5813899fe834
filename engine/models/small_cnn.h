#pragma once

#include "models/backbone.h"

#include <cstdint>
#include <vector>

namespace kiln::models {

// smallcnn: four conv-BN-ReLU blocks halving the resolution, then global average pooling (256
// features), fast enough to pretrain on a laptop CPU in minutes.
Backbone make_small_cnn(std::int64_t in_channels);

} // namespace kiln::models
