#pragma once

#include <ATen/core/ivalue.h>
#include <vector>

namespace kiln::models {

// The bytes of a torch.save file holding `value` (dicts, lists, strings, numbers, tensors),
// written so that Python's torch.load reads it with its default weights_only=True (PyTorch 2.6
// and newer): without the TorchScript type tags that torch::pickle_save adds to containers,
// which the weights-only unpickler refuses. Tensors must be on the CPU.
std::vector<char> torch_load_compatible(const c10::IValue& value);

} // namespace kiln::models
