#include "data/idx_import.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "system/memory.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <opencv2/core/mat.hpp>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <vector>
#include <zlib.h>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kUbyteLabels = 0x00000801;
constexpr std::uint32_t kUbyteImages = 0x00000803;
// The largest side JPEG can store (and far beyond any IDX set's 28 or 32 px).
constexpr std::uint32_t kMaxIdxSide = 65500;

// An IDX file's header and payload; gzip is undone transparently (gzread passes plain files).
struct IdxFile {
    std::uint32_t magic = 0;
    std::vector<std::uint32_t> dimensions;
    std::vector<unsigned char> data;
};

// Reads up to `count` bytes (fewer at the end of the file); throws on a gzip error.
std::size_t read_some(gzFile file, unsigned char* into, std::size_t count, const fs::path& path,
                      const std::string& what) {
    std::size_t done = 0;
    while (done < count) {
        const unsigned chunk = unsigned(std::min<std::size_t>(count - done, 1u << 20));
        const int n = gzread(file, into + done, chunk);
        if (n < 0) {
            throw Error(what + " file \"" + path.string() + "\" is corrupt (gzip error)");
        }
        if (n == 0) {
            break;
        }
        done += std::size_t(n);
    }
    return done;
}

// The payload its header announces, read only when this machine can hold it: a 13 MB gzip
// file announcing 10 images and holding 3 GB of zeros was read whole until memory ran out.
std::size_t checked_payload(const IdxFile& idx, const fs::path& path, const std::string& what) {
    std::uint64_t payload = 1;
    for (const std::uint32_t dimension : idx.dimensions) {
        if (dimension != 0 && payload > std::numeric_limits<std::uint64_t>::max() / dimension) {
            payload = std::numeric_limits<std::uint64_t>::max();
            break;
        }
        payload *= dimension;
    }
    const std::optional<double> free_mb = system::available_memory_mb();
    if (free_mb && double(payload) > *free_mb * 1024 * 1024 / 2) {
        throw Error(what + " file \"" + path.string() + "\" announces " + std::to_string(payload) +
                    " bytes of data, more than half the memory free (" +
                    std::to_string(std::int64_t(*free_mb)) +
                    " MB); the file is corrupt, or import it on a larger machine");
    }
    return std::size_t(payload);
}

IdxFile read_idx(const fs::path& path, std::uint32_t expected_magic, const std::string& what) {
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw Error("cannot open " + what + " file \"" + path.string() + "\"; check the path");
    }
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> closing(file, gzclose);
    const std::size_t rank = expected_magic & 0xFF;
    std::vector<unsigned char> header(4 + 4 * rank);
    const std::size_t header_read = read_some(file, header.data(), header.size(), path, what);
    const auto big_endian = [&](std::size_t offset) {
        return (std::uint32_t(header[offset]) << 24) | (std::uint32_t(header[offset + 1]) << 16) |
               (std::uint32_t(header[offset + 2]) << 8) | std::uint32_t(header[offset + 3]);
    };
    IdxFile idx;
    if (header_read >= 4) {
        idx.magic = big_endian(0);
    }
    if (idx.magic != expected_magic) {
        throw Error(what + " file \"" + path.string() + "\" is not an IDX " + what +
                    " file (expected magic number " + std::to_string(expected_magic) +
                    "); give the *-" + (what == "images" ? "images-idx3" : "labels-idx1") +
                    "-ubyte(.gz) file");
    }
    if (header_read < header.size()) {
        throw Error(what + " file \"" + path.string() + "\" is truncated (header)");
    }
    for (std::size_t i = 0; i < rank; ++i) {
        idx.dimensions.push_back(big_endian(4 + 4 * i));
    }
    const std::size_t payload = checked_payload(idx, path, what);
    // Reserved, which touches no page, and filled as the data arrives: a header announcing more
    // than the file holds costs no more memory than the file, and a whole file one copy.
    idx.data.reserve(payload);
    std::size_t read = 0;
    while (read < payload) {
        const std::size_t chunk = std::min<std::size_t>(payload - read, std::size_t(16) << 20);
        idx.data.resize(read + chunk);
        const std::size_t got = read_some(file, idx.data.data() + read, chunk, path, what);
        read += got;
        if (got < chunk) {
            break;
        }
    }
    idx.data.resize(read);
    unsigned char extra = 0;
    if (read != payload || read_some(file, &extra, 1, path, what) != 0) {
        throw Error(what + " file \"" + path.string() + "\" does not hold the " +
                    std::to_string(payload) + " bytes of data its header announces" +
                    (read == payload ? " (more follow)" : " (" + std::to_string(read) + " do)") +
                    "; the file is truncated or corrupt");
    }
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
    if (images.dimensions[1] == 0 || images.dimensions[2] == 0 ||
        images.dimensions[1] > kMaxIdxSide || images.dimensions[2] > kMaxIdxSide) {
        throw Error("images file \"" + images_path.string() + "\" declares images of " +
                    std::to_string(images.dimensions[1]) + "x" +
                    std::to_string(images.dimensions[2]) + " pixels; an IDX image is 1 to " +
                    std::to_string(kMaxIdxSide) + " pixels a side: the file is corrupt");
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
    if (const auto repeat = first_repeat(options.class_names)) {
        throw Error("class name \"" + options.class_names[repeat->first] +
                    "\" is given twice (names " + std::to_string(repeat->first + 1) + " and " +
                    std::to_string(repeat->second + 1) +
                    "), which would put two classes in one folder; give each label its own name");
    }
    if (options.limit && *options.limit < 1) {
        throw Error("limit " + std::to_string(*options.limit) +
                    " imports no image; give a limit of at least 1, or none for all");
    }
    std::int64_t count = images.count;
    if (options.limit) {
        count = std::min(count, *options.limit);
    }
    const int labels =
        count == 0 ? 0
                   : 1 + *std::max_element(images.labels.begin(), images.labels.begin() + count);
    if (!options.class_names.empty() && std::size_t(labels) > options.class_names.size()) {
        throw Error("the labels go from 0 to " + std::to_string(labels - 1) + ", and " +
                    std::to_string(options.class_names.size()) +
                    " class names are given; give one name per label, or none to name the "
                    "folders by number");
    }
    const auto folder_of = [&](int label) {
        return options.class_names.empty() ? std::to_string(label)
                                           : options.class_names[std::size_t(label)];
    };
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
