#pragma once

#include "models/backbone.h"

#include <cstdint>
#include <vector>

namespace kiln::models {

// torchvision's ResNet without its classifier, with its parameter names: `blocks` residual blocks
// per stage (2, 2, 2, 2 for ResNet-18; 3, 4, 6, 3 for ResNet-34 and, with `bottleneck`, -50).
Backbone make_resnet(const std::vector<int>& blocks, bool bottleneck, std::int64_t in_channels);

} // namespace kiln::models
