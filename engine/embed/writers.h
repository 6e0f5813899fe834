#pragma once

#include <ATen/core/Tensor.h>
#include <filesystem>
#include <optional>
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

struct EmbeddingFile {
    std::vector<std::string> filenames;
    at::Tensor embeddings; // [N, D] float32
};

// Reads any of the four formats back (recognised by content; npy also reads its filenames
// file). A malformed file is a kiln::Error naming it and the line or field at fault.
EmbeddingFile read_embeddings(const std::filesystem::path& path);

// Why images of these names cannot go into an embeddings file, if they cannot: a name that is
// empty or holds a control character (a line break splits the names list `select` writes and
// npy's `_filenames.txt`), or one that leaves the embedded folder (Studio reads thumbnails and
// copies images by these names).
std::optional<std::string> unusable_names(const std::vector<std::string>& filenames);

// Throws a kiln::Error naming `path` when `file` names one image twice (two data folders
// embedded together): a pick or a duplicate written as that name would not say which image.
void refuse_repeated_names(const EmbeddingFile& file, const std::filesystem::path& path);

// Where the npy format puts the filenames.
std::filesystem::path npy_filenames_path(const std::filesystem::path& out);

} // namespace kiln::embed
