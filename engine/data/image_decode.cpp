#include "data/image_decode.h"

#include "core/error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <opencv2/imgcodecs.hpp>

namespace kiln::data {
namespace {

bool is_jpeg(const std::vector<unsigned char>& bytes) {
    return bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

// libjpeg decodes a truncated file without complaint, filling the rest with grey; the end-of-
// image marker tells a complete file. Cameras may append padding, so look near the end.
bool has_jpeg_end(const std::vector<unsigned char>& bytes) {
    const std::size_t window = std::min<std::size_t>(bytes.size(), 64 * 1024);
    for (std::size_t i = bytes.size() - 1; i + window > bytes.size() && i > 0; --i) {
        if (bytes[i - 1] == 0xFF && bytes[i] == 0xD9) {
            return true;
        }
    }
    return false;
}

int reduced_flag(const cv::Size& size, int min_side) {
    const int shorter = std::min(size.width, size.height);
    if (min_side <= 0 || shorter <= 0) {
        return cv::IMREAD_COLOR;
    }
    if (shorter >= 8 * min_side) {
        return cv::IMREAD_REDUCED_COLOR_8;
    }
    if (shorter >= 4 * min_side) {
        return cv::IMREAD_REDUCED_COLOR_4;
    }
    if (shorter >= 2 * min_side) {
        return cv::IMREAD_REDUCED_COLOR_2;
    }
    return cv::IMREAD_COLOR;
}

} // namespace

std::vector<unsigned char> read_file(const std::filesystem::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw Error("cannot open \"" + path.string() + "\": " + std::strerror(errno));
    }
    std::vector<unsigned char> bytes;
    unsigned char chunk[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof chunk, file)) > 0) {
        bytes.insert(bytes.end(), chunk, chunk + n);
    }
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed) {
        throw Error("cannot read \"" + path.string() + "\"");
    }
    return bytes;
}

cv::Size jpeg_size(const std::vector<unsigned char>& bytes) {
    if (!is_jpeg(bytes)) {
        return {0, 0};
    }
    std::size_t position = 2;
    while (position + 9 < bytes.size()) {
        if (bytes[position] != 0xFF) {
            return {0, 0};
        }
        const unsigned char marker = bytes[position + 1];
        if (marker == 0xFF) { // fill byte
            ++position;
            continue;
        }
        const std::size_t length = (bytes[position + 2] << 8) | bytes[position + 3];
        const bool start_of_frame =
            marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (start_of_frame) {
            const int height = (bytes[position + 5] << 8) | bytes[position + 6];
            const int width = (bytes[position + 7] << 8) | bytes[position + 8];
            return {width, height};
        }
        if (marker == 0xDA || length < 2) { // image data starts before any frame header
            return {0, 0};
        }
        position += 2 + length;
    }
    return {0, 0};
}

cv::Mat decode_image(const std::vector<unsigned char>& bytes, const std::string& name,
                     int min_side) {
    if (bytes.empty()) {
        throw Error("\"" + name + "\" is empty (0 bytes)");
    }
    int flags = cv::IMREAD_COLOR;
    if (is_jpeg(bytes)) {
        if (!has_jpeg_end(bytes)) {
            throw Error("\"" + name + "\" is a truncated JPEG (no end-of-image marker)");
        }
        flags = reduced_flag(jpeg_size(bytes), min_side);
    }
    cv::Mat image;
    try {
        image = cv::imdecode(bytes, flags);
    } catch (const cv::Exception& error) {
        throw Error("\"" + name + "\" cannot be decoded: " + error.err);
    }
    if (image.empty()) {
        throw Error("\"" + name + "\" is not a readable image (corrupt, or an unsupported format)");
    }
    return image;
}

cv::Mat decode_image(const std::filesystem::path& path, int min_side) {
    return decode_image(read_file(path), path.string(), min_side);
}

} // namespace kiln::data
