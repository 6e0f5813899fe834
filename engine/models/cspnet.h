#pragma once

#include "models/backbone.h"

#include <string>
#include <vector>

namespace kiln::models {

// The CSP network family: cspnet_n (1.2 M parameters) and cspnet_s (4.6 M), Kiln's backbones for
// dense tasks at small image sizes on modest hardware. A 3x3 stride-2 stem, then four stages,
// each a 3x3 stride-2 unit and a cross-stage partial block (CspBlock), the last followed by
// spatial pyramid pooling; feature maps at strides 4, 8, 16 and 32, features by global average
// pooling of the last.
std::vector<std::string> cspnet_names();
Backbone make_cspnet(const std::string& name, std::int64_t in_channels);

} // namespace kiln::models
