#pragma once

#include "core/error.h"

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace torch::nn {
class Module;
}

namespace kiln::models {

// A tree of named tensors and values: what Kiln's checkpoints hold. It is written as a torch.save
// file (Python's torch.load(path, weights_only=True) reads it) and read by Kiln's own reader,
// which runs nothing (models/torch_file.h). Reading a key that is missing, or of another kind, or
// a tensor of another shape, is a kiln::Error naming the file and the key.
class Archive {
public:
    // `file` names the archive in messages, with the keys above this part of it.
    explicit Archive(std::filesystem::path file = "archive", std::string prefix = "");

    // Tensors are stored as detached copies, on the CPU.
    void write(const std::string& key, const at::Tensor& tensor);
    // Strings, numbers, bools and lists of them.
    void write(const std::string& key, const c10::IValue& value);
    void write(const std::string& key, const Archive& child);

    bool contains(const std::string& key) const;
    std::optional<c10::IValue> find(const std::string& key) const;
    at::Tensor tensor(const std::string& key) const;
    // Copies the tensor `key` into `target` in place (its device and dtype stay); a tensor of
    // another shape is an error naming the key. An undefined `target` receives the CPU tensor.
    void read(const std::string& key, at::Tensor& target) const;
    // An integer, stored as a number or as a one-element tensor (Kiln's first checkpoints).
    std::int64_t integer(const std::string& key) const;
    double real(const std::string& key) const;
    std::string text(const std::string& key) const;
    std::vector<std::string> texts(const std::string& key) const;
    std::vector<std::int64_t> integers(const std::string& key) const;
    Archive child(const std::string& key) const;
    std::optional<Archive> find_child(const std::string& key) const;

    const std::filesystem::path& file() const { return file_; }
    // A kiln::Error about `key` of this archive.
    Error problem(const std::string& key, const std::string& what) const;

    c10::IValue to_ivalue() const;
    // `value` must be a dict with string keys (others are left out).
    static Archive from_ivalue(const c10::IValue& value, std::filesystem::path file,
                               std::string prefix = "");

private:
    std::filesystem::path file_;
    std::string prefix_; // "model/backbone/": the keys above this part
    std::vector<std::pair<std::string, c10::IValue>> entries_;
};

// A module's parameters and buffers under their names, and each child module as a child archive
// (the layout of LibTorch's Module::save).
void save_module(const torch::nn::Module& module, Archive& archive);
// Loads what save_module wrote into `module`, shapes checked.
void load_module(torch::nn::Module& module, const Archive& archive);

// Whether a tensor read from a file holds only finite numbers (integer tensors always do).
bool all_finite(const at::Tensor& tensor);

// Writes `archive` to `path` atomically, as a torch.save file.
void write_archive(const std::filesystem::path& path, const Archive& archive);
// The archive a torch.save file holds at its top; a file that holds no dict is a kiln::Error.
Archive read_archive(const std::filesystem::path& path);

} // namespace kiln::models
