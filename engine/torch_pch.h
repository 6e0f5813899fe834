// Precompiled for the engine's LibTorch sources: the heavy headers most of them include.
#pragma once

#include <torch/types.h>
