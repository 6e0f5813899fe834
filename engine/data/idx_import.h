#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace kiln::data {

struct IdxImportOptions {
    std::filesystem::path images;      // IDX3 ubyte images, plain or gzip-compressed
    std::filesystem::path labels;      // IDX1 ubyte labels, plain or gzip-compressed
    std::filesystem::path out;         // gets one subfolder per label: out/<label>/<index>.<format>
    std::string format = "png";        // png or jpg
    std::optional<std::int64_t> limit; // import only the first N images
};

struct IdxImportResult {
    std::int64_t images = 0;
    std::map<int, std::int64_t> per_label;
    int height = 0;
    int width = 0;
};

using Progress = std::function<void(std::int64_t done, std::int64_t total)>;

// Writes an IDX image set (MNIST, Fashion-MNIST) as a folder of class subfolders, the layout
// kNN evaluation and `data=` read. Bad files are a kiln::Error naming the file and the fix.
IdxImportResult import_idx(const IdxImportOptions& options, const Progress& progress = {});

} // namespace kiln::data
