// Precompiled for the engine's LibTorch sources: the heavy headers most of them include.
#pragma once

#include <torch/nn.h>
#include <torch/serialize.h>
#include <torch/types.h>
