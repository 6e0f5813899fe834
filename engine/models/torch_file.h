#pragma once

#include "core/atomic_file.h"

#include <ATen/core/ivalue.h>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace kiln::models {

// Kiln's reader and writer of torch.save files (the zip format of PyTorch 1.6 and newer), the
// format of every weights file Kiln reads or writes: its checkpoints, exported models,
// embeddings, and the state_dicts of torchvision, timm and LightlyTrain.

// A torch.save file holding `value` (dicts, lists, strings, numbers, tensors) at `path`, written
// atomically (write_file_atomically) so that Python's torch.load reads it with its default
// weights_only=True (PyTorch 2.6 and newer): without the TorchScript type tags that
// torch::pickle_save adds to containers, which the weights-only unpickler refuses. Tensors must
// be on the CPU. The tensors' bytes go to the file from the tensors: a checkpoint of gigabytes
// is never copied whole into memory (a DINO run at 262,144 prototypes peaked 1.1 GB higher
// writing its 1 GB checkpoint through a buffer).
void write_torch_file(const std::filesystem::path& path, const c10::IValue& value);
// The same file's bytes, given in pieces to `sink`, or whole.
void write_torch_load_compatible(const c10::IValue& value, const ByteSink& sink);
std::vector<char> torch_load_compatible(const c10::IValue& value);

// What a torch.save file holds, read by a pickle reader that runs nothing. It knows the
// callables torch.save uses for containers and tensors (the set torch.load(weights_only=True)
// allows) and refuses a file that names any other (posix.system, argparse.Namespace, an
// optimizer class), naming it. A TorchScript archive of torch::serialize::OutputArchive (Kiln's
// checkpoints before format 2) reads the same way, as data: each object becomes a dict of its
// attributes and the archive's code is never looked at.
//
// Values: dicts (keys str or int), lists, tuples, strings, bytes (as strings), numbers, None and
// CPU tensors viewing the file's storages; harmless values Kiln has no use for (sets, integers
// beyond 64 bits, devices) read as None. Sizes are bounded (a record may not declare more than
// kMaxInflation times the file's size, the pickle no more than kMaxPickledValues values and as
// many objects' attributes in all), so a small file cannot take gigabytes. Anything else is a
// kiln::Error naming the file.
c10::IValue read_torch_file(const std::filesystem::path& path);
// The same, of a torch.save file's bytes in memory (the fuzz target's way in); `name` names it.
c10::IValue read_torch_bytes(const std::string& bytes, const std::filesystem::path& name);

inline constexpr std::size_t kMaxInflation = 16;
inline constexpr std::size_t kMaxPickledValues = std::size_t{1} << 22;

// The tensors of the state_dict in a torch.save file: a dict or OrderedDict of tensors
// (torchvision's and LightlyTrain's exports, Kiln's own), or one under a training checkpoint's
// "state_dict" or "model" key. A file that holds no tensors is a kiln::Error naming it.
std::vector<std::pair<std::string, at::Tensor>> read_state_dict(const std::filesystem::path& path);
// The same, of what read_torch_file(path) gave.
std::vector<std::pair<std::string, at::Tensor>> state_dict_in(const c10::IValue& content,
                                                              const std::filesystem::path& path);

} // namespace kiln::models
