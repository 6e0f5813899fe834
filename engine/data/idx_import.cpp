#include "data/idx_import.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <cstring>
#include <opencv2/core/mat.hpp>
#include <opencv2/imgcodecs.hpp>
#include <vector>
#include <zlib.h>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kUbyteLabels = 0x00000801;
constexpr std::uint32_t kUbyteImages = 0x00000803;

// An IDX file's header and payload; gzip is undone transparently (gzread passes plain files).
struct IdxFile {
    std::uint32_t magic = 0;
    std::vector<std::uint32_t> dimensions;
    std::vector<unsigned char> data;
};

IdxFile read_idx(const fs::path& path, std::uint32_t expected_magic, const std::string& what) {
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw Error("cannot open " + what + " file \"" + path.string() + "\"; check the path");
    }
    std::vector<unsigned char> bytes;
    unsigned char chunk[1 << 16];
    int n = 0;
    while ((n = gzread(file, chunk, sizeof chunk)) > 0) {
        bytes.insert(bytes.end(), chunk, chunk + n);
    }
    const bool failed = n < 0;
    gzclose(file);
    if (failed) {
        throw Error(what + " file \"" + path.string() + "\" is corrupt (gzip error)");
    }
    const auto big_endian = [&](std::size_t offset) {
        return (std::uint32_t(bytes[offset]) << 24) | (std::uint32_t(bytes[offset + 1]) << 16) |
               (std::uint32_t(bytes[offset + 2]) << 8) | std::uint32_t(bytes[offset + 3]);
    };
    IdxFile idx;
    if (bytes.size() >= 4) {
        idx.magic = big_endian(0);
    }
    if (idx.magic != expected_magic) {
        throw Error(what + " file \"" + path.string() + "\" is not an IDX " + what +
                    " file (expected magic number " + std::to_string(expected_magic) +
                    "); give the *-" + (what == "images" ? "images-idx3" : "labels-idx1") +
                    "-ubyte(.gz) file");
    }
    const std::size_t rank = expected_magic & 0xFF;
    const std::size_t header = 4 + 4 * rank;
    if (bytes.size() < header) {
        throw Error(what + " file \"" + path.string() + "\" is truncated (header)");
    }
    std::size_t payload = 1;
    for (std::size_t i = 0; i < rank; ++i) {
        idx.dimensions.push_back(big_endian(4 + 4 * i));
        payload *= idx.dimensions.back();
    }
    if (bytes.size() - header != payload) {
        throw Error(what + " file \"" + path.string() + "\" holds " +
                    std::to_string(bytes.size() - header) + " bytes of data but its header " +
                    "announces " + std::to_string(payload) + "; the file is truncated or corrupt");
    }
    idx.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header), bytes.end());
    return idx;
}

} // namespace

cv::Mat IdxImages::image(std::int64_t i) const {
    const std::size_t image_bytes = std::size_t(height) * std::size_t(width);
    return cv::Mat(height, width, CV_8UC1,
                   const_cast<unsigned char*>(pixels.data() + std::size_t(i) * image_bytes));
}

IdxImages read_idx_images(const fs::path& images_path, const fs::path& labels_path) {
    IdxFile images = read_idx(images_path, kUbyteImages, "images");
    IdxFile labels = read_idx(labels_path, kUbyteLabels, "labels");
    if (images.dimensions[0] != labels.dimensions[0]) {
        throw Error("images file \"" + images_path.string() + "\" has " +
                    std::to_string(images.dimensions[0]) + " images but labels file \"" +
                    labels_path.string() + "\" has " + std::to_string(labels.dimensions[0]) +
                    " labels; give the matching pair");
    }
    IdxImages result;
    result.count = images.dimensions[0];
    result.height = static_cast<int>(images.dimensions[1]);
    result.width = static_cast<int>(images.dimensions[2]);
    result.pixels = std::move(images.data);
    result.labels = std::move(labels.data);
    return result;
}

IdxImportResult import_idx(const IdxImportOptions& options, const Progress& progress) {
    if (options.format != "png" && options.format != "jpg") {
        throw Error("format \"" + options.format + "\" is not supported; use png or jpg");
    }
    const IdxImages images = read_idx_images(options.images, options.labels);
    IdxImportResult result;
    result.height = images.height;
    result.width = images.width;
    for (const std::string& name : options.class_names) {
        if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
            throw Error("class name \"" + name +
                        "\" cannot name a folder: give names without \"/\", not empty, "
                        "\".\" or \"..\"");
        }
    }
    const auto folder_of = [&](int label) {
        return std::size_t(label) < options.class_names.size() ? options.class_names[label]
                                                               : std::to_string(label);
    };
    std::int64_t count = images.count;
    if (options.limit) {
        count = std::min(count, *options.limit);
    }
    const int digits =
        static_cast<int>(std::to_string(std::max<std::int64_t>(count - 1, 0)).size());
    const std::vector<int> parameters = options.format == "jpg"
                                            ? std::vector<int>{cv::IMWRITE_JPEG_QUALITY, 95}
                                            : std::vector<int>{};
    std::vector<unsigned char> encoded;
    for (std::int64_t i = 0; i < count; ++i) {
        const int label = images.labels[static_cast<std::size_t>(i)];
        cv::imencode("." + options.format, images.image(i), encoded, parameters);
        std::string name = std::to_string(i);
        name.insert(0, static_cast<std::size_t>(std::max(0, digits - int(name.size()))), '0');
        write_file_atomically(
            options.out / folder_of(label) / (name + "." + options.format),
            std::string_view(reinterpret_cast<const char*>(encoded.data()), encoded.size()),
            Durability::Buffered);
        ++result.per_label[label];
        ++result.images;
        if (progress) {
            progress(i + 1, count);
        }
    }
    return result;
}

} // namespace kiln::data
