#pragma once

#include <ATen/core/ivalue.h>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace kiln::models {

// The bytes of a torch.save file holding `value` (dicts, lists, strings, numbers, tensors),
// written so that Python's torch.load reads it with its default weights_only=True (PyTorch 2.6
// and newer): without the TorchScript type tags that torch::pickle_save adds to containers,
// which the weights-only unpickler refuses. Tensors must be on the CPU.
std::vector<char> torch_load_compatible(const c10::IValue& value);

// The tensors of the state_dict in a file Python's torch.save wrote (the zip format of PyTorch
// 1.6 and newer): a dict or OrderedDict of tensors (torchvision's and LightlyTrain's exports,
// Kiln's own), or one under a training checkpoint's "state_dict" or "model" key. Read by a
// pickle reader that knows the few callables torch.save uses for containers and tensors and
// runs nothing: any other object (an optimizer's state, hyperparameters) is skipped. A file
// that is not such a file, or holds no tensors, is a kiln::Error naming it.
std::vector<std::pair<std::string, at::Tensor>> read_state_dict(const std::filesystem::path& path);

} // namespace kiln::models
