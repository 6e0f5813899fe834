#pragma once

#include <ATen/core/Tensor.h>
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::embed {

// Writes embeddings in LightlyTrain's formats, atomically:
//   csv          filename,embedding_0,...,embedding_{D-1}
//   lightly_csv  filenames,embedding_0,...,embedding_{D-1},labels (labels all 0)
//   torch        {"filenames": [...], "embeddings": Tensor[N, D]}, read by Python's torch.load
//   npy          a float32 NumPy matrix, plus the filenames, one a line, in <stem>_filenames.txt
void write_embeddings(const std::filesystem::path& out, const std::string& format,
                      const std::vector<std::string>& filenames, const at::Tensor& embeddings);

// Where the npy format puts the filenames.
std::filesystem::path npy_filenames_path(const std::filesystem::path& out);

} // namespace kiln::embed
