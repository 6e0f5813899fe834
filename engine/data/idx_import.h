#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <opencv2/core/mat.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kiln::data {

// Fashion-MNIST's classes, by label ("T-shirt/top" without its slash: a folder name).
inline const std::vector<std::string> kFashionMnistClasses = {
    "T-shirt or top", "Trouser", "Pullover", "Dress", "Coat",
    "Sandal",         "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

struct IdxImportOptions {
    std::filesystem::path images; // IDX3 ubyte images, plain or gzip-compressed
    std::filesystem::path labels; // IDX1 ubyte labels, plain or gzip-compressed
    // Gets one subfolder per label: out/<class>/<index>.<format>, the class named by
    // class_names[label], or the label's number beyond them.
    std::filesystem::path out;
    std::string format = "png";        // png or jpg
    std::optional<std::int64_t> limit; // import only the first N images
    std::vector<std::string> class_names;
};

struct IdxImportResult {
    std::int64_t images = 0;
    std::map<int, std::int64_t> per_label;
    int height = 0;
    int width = 0;
};

using Progress = std::function<void(std::int64_t done, std::int64_t total)>;

// The images and labels of an IDX pair (plain or gzip-compressed), checked against each other.
struct IdxImages {
    int height = 0;
    int width = 0;
    std::int64_t count = 0;
    std::vector<unsigned char> pixels; // count x height x width, 8-bit grey
    std::vector<unsigned char> labels;

    // Image `i` as an 8-bit grey matrix sharing `pixels`.
    cv::Mat image(std::int64_t i) const;
};
// Bad files are a kiln::Error naming the file and the fix.
IdxImages read_idx_images(const std::filesystem::path& images, const std::filesystem::path& labels);

// Writes an IDX image set (MNIST, Fashion-MNIST) as a folder of class subfolders, the layout
// kNN evaluation and `data=` read. Bad files are a kiln::Error naming the file and the fix.
IdxImportResult import_idx(const IdxImportOptions& options, const Progress& progress = {});

} // namespace kiln::data
