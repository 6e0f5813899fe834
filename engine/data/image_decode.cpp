#include "data/image_decode.h"

#include "core/error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <turbojpeg.h>

namespace kiln::data {
namespace {

bool is_jpeg(const std::vector<unsigned char>& bytes) {
    return bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

// One TurboJPEG decompressor per thread: creating one costs more than decoding a thumbnail.
class JpegDecoder {
public:
    JpegDecoder() : handle_(tjInitDecompress()) {}
    ~JpegDecoder() {
        if (handle_ != nullptr) {
            tjDestroy(handle_);
        }
    }
    JpegDecoder(const JpegDecoder&) = delete;
    JpegDecoder& operator=(const JpegDecoder&) = delete;

    tjhandle handle() const { return handle_; }

    static JpegDecoder& for_this_thread() {
        thread_local JpegDecoder decoder;
        return decoder;
    }

private:
    tjhandle handle_;
};

struct JpegHeader {
    int width = 0;
    int height = 0;
    int colorspace = -1;
};

std::optional<JpegHeader> read_jpeg_header(const std::vector<unsigned char>& bytes) {
    JpegHeader header;
    int subsampling = 0;
    if (!is_jpeg(bytes) ||
        tjDecompressHeader3(JpegDecoder::for_this_thread().handle(), bytes.data(),
                            static_cast<unsigned long>(bytes.size()), &header.width, &header.height,
                            &subsampling, &header.colorspace) != 0) {
        return std::nullopt;
    }
    return header;
}

// The smallest of 1/8, 1/4, 1/2 (libjpeg-turbo's fast scaled IDCTs) that keeps the shorter
// side at least `min_side`; whole size when none does.
tjscalingfactor scaling_for(const JpegHeader& header, int min_side) {
    for (const tjscalingfactor factor :
         {tjscalingfactor{1, 8}, tjscalingfactor{1, 4}, tjscalingfactor{1, 2}}) {
        if (min_side > 0 &&
            std::min(TJSCALED(header.width, factor), TJSCALED(header.height, factor)) >= min_side) {
            return factor;
        }
    }
    return {1, 1};
}

// Decodes straight to BGR with TurboJPEG: OpenCV decodes to RGB and swaps channels in a scalar
// loop that costs a third of the time. Truncated files (a libjpeg warning) are errors.
cv::Mat decode_jpeg(const std::vector<unsigned char>& bytes, const JpegHeader& header,
                    const std::string& name, int min_side) {
    const tjscalingfactor factor = scaling_for(header, min_side);
    cv::Mat image(TJSCALED(header.height, factor), TJSCALED(header.width, factor), CV_8UC3);
    const tjhandle handle = JpegDecoder::for_this_thread().handle();
    if (tjDecompress2(handle, bytes.data(), static_cast<unsigned long>(bytes.size()), image.data,
                      image.cols, static_cast<int>(image.step), image.rows, TJPF_BGR,
                      TJFLAG_STOPONWARNING) != 0) {
        throw Error("\"" + name + "\" is not a readable JPEG: " + tjGetErrorStr2(handle));
    }
    return image;
}

} // namespace

std::vector<unsigned char> read_file(const std::filesystem::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw Error("cannot open \"" + path.string() + "\": " + std::strerror(errno));
    }
    std::vector<unsigned char> bytes;
    if (std::fseek(file, 0, SEEK_END) == 0) {
        const long size = std::ftell(file);
        if (size > 0) {
            bytes.reserve(static_cast<std::size_t>(size));
        }
        std::rewind(file);
    }
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
    const std::optional<JpegHeader> header = read_jpeg_header(bytes);
    return header ? cv::Size(header->width, header->height) : cv::Size(0, 0);
}

cv::Size stored_image_size(const std::vector<unsigned char>& bytes, const std::string& name) {
    static constexpr unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (bytes.size() >= 24 && std::equal(kPngSignature, kPngSignature + 8, bytes.begin())) {
        const auto big_endian = [&bytes](std::size_t at) {
            return int(bytes[at]) << 24 | int(bytes[at + 1]) << 16 | int(bytes[at + 2]) << 8 |
                   int(bytes[at + 3]);
        };
        return {big_endian(16), big_endian(20)}; // IHDR: width, height
    }
    const cv::Size jpeg = jpeg_size(bytes);
    return jpeg.area() > 0 ? jpeg : decode_image(bytes, name).size();
}

cv::Mat decode_image(const std::vector<unsigned char>& bytes, const std::string& name,
                     int min_side) {
    if (bytes.empty()) {
        throw Error("\"" + name + "\" is empty (0 bytes)");
    }
    if (is_jpeg(bytes)) {
        const std::optional<JpegHeader> header = read_jpeg_header(bytes);
        if (!header) {
            throw Error("\"" + name + "\" is not a readable JPEG (corrupt header)");
        }
        // CMYK JPEGs are rare; OpenCV converts them.
        if (header->colorspace != TJCS_CMYK && header->colorspace != TJCS_YCCK) {
            return decode_jpeg(bytes, *header, name, min_side);
        }
    }
    cv::Mat image;
    try {
        image = cv::imdecode(bytes, cv::IMREAD_COLOR);
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
