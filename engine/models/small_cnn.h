#pragma once

#include "models/backbone.h"

#include <cstdint>
#include <vector>

namespace kiln::models {

// smallcnn: four conv-BN-ReLU blocks halving the resolution, then global average pooling (256
// features), fast enough to pretrain on a laptop CPU in minutes. smallcnn_v2
// (`signed_features`): its last block without the ReLU, so that its features are centred.
Backbone make_small_cnn(std::int64_t in_channels, bool signed_features);

} // namespace kiln::models
