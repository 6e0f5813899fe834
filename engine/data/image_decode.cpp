#include "data/image_decode.h"

#include "core/error.h"
#include "core/input_file.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
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

std::vector<unsigned char> read_file(const std::filesystem::path& path, std::size_t most_bytes) {
    refuse_special_file(path, "image file"); // a mask or image linked to /dev/zero has no end
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw Error("cannot open \"" + path.string() + "\": " + std::strerror(errno));
    }
    try {
        refuse_special_file(fileno(file), path, "image file");
    } catch (const Error&) {
        std::fclose(file);
        throw;
    }
    std::vector<unsigned char> bytes;
    if (std::fseek(file, 0, SEEK_END) == 0) {
        const long size = std::ftell(file);
        if (size > 0) {
            bytes.reserve(std::min(static_cast<std::size_t>(size), most_bytes));
        }
        std::rewind(file);
    }
    unsigned char chunk[1 << 16];
    std::size_t n = 0;
    while (bytes.size() < most_bytes &&
           (n = std::fread(chunk, 1, std::min(sizeof chunk, most_bytes - bytes.size()), file)) >
               0) {
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

namespace {

std::uint32_t little_endian(const std::vector<unsigned char>& bytes, std::size_t at, int width) {
    std::uint32_t value = 0;
    for (int i = width - 1; i >= 0; --i) {
        value = value << 8 | bytes[at + std::size_t(i)];
    }
    return value;
}

std::uint32_t big_endian(const std::vector<unsigned char>& bytes, std::size_t at) {
    return std::uint32_t(bytes[at]) << 24 | std::uint32_t(bytes[at + 1]) << 16 |
           std::uint32_t(bytes[at + 2]) << 8 | std::uint32_t(bytes[at + 3]);
}

bool starts_with(const std::vector<unsigned char>& bytes, std::size_t at, const char* text) {
    const std::size_t length = std::strlen(text);
    return bytes.size() >= at + length &&
           std::equal(text, text + length, bytes.begin() + long(at),
                      [](char a, unsigned char b) { return static_cast<unsigned char>(a) == b; });
}

// TIFF's first image (what OpenCV decodes): ImageWidth (256) and ImageLength (257) in its first
// directory, classic or BigTIFF, either byte order.
std::optional<std::array<std::int64_t, 2>> tiff_size(const std::vector<unsigned char>& bytes) {
    const bool little = starts_with(bytes, 0, "II");
    if (bytes.size() < 16 || !(little || starts_with(bytes, 0, "MM"))) {
        return std::nullopt;
    }
    const auto number = [&](std::size_t at, int width) -> std::uint64_t {
        std::uint64_t value = 0;
        for (int i = 0; i < width; ++i) {
            const unsigned char byte = bytes[at + std::size_t(little ? width - 1 - i : i)];
            value = value << 8 | byte;
        }
        return value;
    };
    const std::uint64_t version = number(2, 2);
    if (version != 42 && version != 43) {
        return std::nullopt;
    }
    const bool big = version == 43;
    const std::uint64_t directory = big ? number(8, 8) : number(4, 4);
    const std::size_t count_width = big ? 8 : 2;
    const std::size_t entry_width = big ? 20 : 12;
    if (directory > bytes.size() || bytes.size() - directory < count_width) {
        return std::nullopt;
    }
    const std::uint64_t entries = number(std::size_t(directory), int(count_width));
    std::array<std::int64_t, 2> size{-1, -1};
    for (std::uint64_t i = 0; i < entries; ++i) {
        const std::uint64_t at = directory + count_width + i * entry_width;
        if (at + entry_width > bytes.size()) {
            break;
        }
        const std::uint64_t tag = number(std::size_t(at), 2);
        const std::uint64_t type = number(std::size_t(at) + 2, 2);
        const std::size_t value_at = std::size_t(at) + (big ? 12 : 8);
        const int width = type == 3           ? 2
                          : type == 4         ? 4
                          : type == 16 && big ? 8
                                              : 0; // SHORT, LONG, LONG8
        if ((tag == 256 || tag == 257) && width > 0) {
            size[tag - 256] = std::int64_t(
                std::min<std::uint64_t>(number(value_at, width), std::uint64_t{1} << 40));
        }
    }
    if (size[0] < 0 || size[1] < 0) {
        return std::nullopt;
    }
    return size;
}

// Netpbm's (P1-P6, PF, Pf: "P6 640 480 255", '#' comments between) and PAM's (P7, WIDTH and
// HEIGHT lines) sizes.
std::optional<std::array<std::int64_t, 2>> netpbm_size(const std::vector<unsigned char>& bytes) {
    if (bytes.size() < 3 || bytes[0] != 'P' || bytes[1] == 0 ||
        std::strchr("1234567Ff", bytes[1]) == nullptr) {
        return std::nullopt;
    }
    const std::size_t header_end = bytes.size(); // comments may be of any length
    std::size_t at = 2;
    const auto token = [&]() {
        std::string word;
        while (at < header_end) {
            const char ch = char(bytes[at]);
            if (ch == '#') {
                while (at < header_end && bytes[at] != '\n') {
                    ++at;
                }
            } else if (std::isspace(static_cast<unsigned char>(ch))) {
                ++at;
                if (!word.empty()) {
                    return word;
                }
            } else {
                word += ch;
                ++at;
            }
        }
        return word;
    };
    const auto count = [](const std::string& word) -> std::int64_t {
        if (word.empty() || word.size() > 9 || // OpenCV reads sizes as int
            !std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            return -1;
        }
        return std::stoll(word);
    };
    std::array<std::int64_t, 2> size{-1, -1};
    if (bytes[1] == '7') {
        for (std::string word = token(); !word.empty() && word != "ENDHDR"; word = token()) {
            if (word == "WIDTH" || word == "HEIGHT") {
                size[word == "WIDTH" ? 0 : 1] = count(token());
            }
        }
    } else {
        size = {count(token()), count(token())};
    }
    if (size[0] < 0 || size[1] < 0) {
        return std::nullopt;
    }
    return size;
}

} // namespace

bool png_cut_short(const std::vector<unsigned char>& bytes) {
    if (!starts_with(bytes, 0, "\x89PNG\r\n\x1a\n")) {
        return false;
    }
    // Chunks: a 4-byte length, a 4-byte type, the data, a 4-byte CRC; IEND is the last.
    for (std::uint64_t at = 8; at + 12 <= bytes.size(); at += 12 + big_endian(bytes, at)) {
        if (starts_with(bytes, at + 4, "IEND")) {
            return false;
        }
    }
    return true;
}

std::optional<PngLayout> png_layout(const std::vector<unsigned char>& bytes) {
    if (bytes.size() < 26 || !starts_with(bytes, 0, "\x89PNG\r\n\x1a\n") ||
        !starts_with(bytes, 12, "IHDR")) {
        return std::nullopt;
    }
    PngLayout layout;
    layout.bit_depth = bytes[24];
    layout.colour_type = bytes[25];
    for (std::uint64_t at = 8; at + 12 <= bytes.size(); at += 12 + big_endian(bytes, at)) {
        const std::uint64_t length = big_endian(bytes, at);
        if (starts_with(bytes, at + 4, "PLTE") && at + 8 + length <= bytes.size()) {
            for (std::uint64_t entry = at + 8; entry + 3 <= at + 8 + length; entry += 3) {
                layout.palette.push_back({bytes[entry], bytes[entry + 1], bytes[entry + 2]});
            }
            break;
        }
        if (starts_with(bytes, at + 4, "IDAT")) {
            break; // PLTE comes before the image data
        }
    }
    return layout;
}

std::int64_t pixel_count(const std::array<std::int64_t, 2>& size) {
    const auto [width, height] = size;
    if (width <= 0 || height <= 0) {
        return 0;
    }
    return height > std::numeric_limits<std::int64_t>::max() / width
               ? std::numeric_limits<std::int64_t>::max()
               : width * height;
}

std::optional<std::array<std::int64_t, 2>>
declared_image_size(const std::vector<unsigned char>& bytes) {
    if (bytes.size() >= 24 && starts_with(bytes, 0, "\x89PNG\r\n\x1a\n")) {
        return std::array<std::int64_t, 2>{big_endian(bytes, 16), big_endian(bytes, 20)};
    }
    if (bytes.size() >= 26 && starts_with(bytes, 0, "BM")) {
        const auto height = std::int32_t(little_endian(bytes, 22, 4)); // negative: top-down
        return std::array<std::int64_t, 2>{std::int32_t(little_endian(bytes, 18, 4)),
                                           std::abs(std::int64_t(height))};
    }
    if (bytes.size() >= 10 &&
        (starts_with(bytes, 0, "GIF87a") || starts_with(bytes, 0, "GIF89a"))) {
        return std::array<std::int64_t, 2>{little_endian(bytes, 6, 2), little_endian(bytes, 8, 2)};
    }
    if (bytes.size() >= 30 && starts_with(bytes, 0, "RIFF") && starts_with(bytes, 8, "WEBP")) {
        if (starts_with(bytes, 12, "VP8X")) {
            return std::array<std::int64_t, 2>{little_endian(bytes, 24, 3) + 1,
                                               little_endian(bytes, 27, 3) + 1};
        }
        if (starts_with(bytes, 12, "VP8L")) {
            const std::uint32_t bits = little_endian(bytes, 21, 4);
            return std::array<std::int64_t, 2>{(bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1};
        }
        if (starts_with(bytes, 12, "VP8 ")) {
            return std::array<std::int64_t, 2>{little_endian(bytes, 26, 2) & 0x3FFF,
                                               little_endian(bytes, 28, 2) & 0x3FFF};
        }
    }
    if (bytes.size() >= 12 && big_endian(bytes, 0) == 0x59a66a95) { // Sun raster
        return std::array<std::int64_t, 2>{big_endian(bytes, 4), big_endian(bytes, 8)};
    }
    if (const cv::Size jpeg = jpeg_size(bytes); jpeg.area() > 0) {
        return std::array<std::int64_t, 2>{jpeg.width, jpeg.height};
    }
    if (const auto tiff = tiff_size(bytes)) {
        return tiff;
    }
    return netpbm_size(bytes);
}

std::optional<std::array<std::int64_t, 2>> declared_image_size(const std::filesystem::path& path) {
    // PNG, GIF, BMP and WebP say it in their first 30 bytes; a JPEG's frame header follows its
    // metadata (EXIF thumbnails, ICC profiles), mostly within a few KB. A TIFF whose directory
    // is further on is not read for it.
    for (const std::size_t head :
         {std::size_t{8} << 10, std::size_t{128} << 10, std::size_t{1} << 20}) {
        const std::vector<unsigned char> bytes = read_file(path, head);
        const bool jpeg = bytes.size() >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8;
        if (auto size = declared_image_size(bytes); size || bytes.size() < head || !jpeg) {
            return size;
        }
    }
    return std::nullopt;
}

namespace {

void check_pixels(const std::vector<unsigned char>& bytes, const std::string& name,
                  std::int64_t max_pixels) {
    const auto size = declared_image_size(bytes);
    // Fail closed: OpenCV also decodes formats whose size Kiln does not read (OpenEXR, Radiance
    // HDR, JPEG 2000), up to 2^30 pixels from a few bytes.
    if (!size) {
        throw Error("\"" + name +
                    (is_jpeg(bytes) ? "\" is not a readable JPEG (corrupt header)"
                                    : "\" is not a readable image (corrupt, or not JPEG, PNG, BMP, "
                                      "WebP, TIFF, Netpbm or Sun raster, the formats whose size "
                                      "Kiln checks before decoding); convert it to PNG or JPEG"));
    }
    if (png_cut_short(bytes)) {
        throw Error("\"" + name +
                    "\" is a PNG cut short or damaged: its chunks end before IEND "
                    "(a copy or download that did not finish); copy it again");
    }
    if (pixel_count(*size) > max_pixels) {
        throw Error("\"" + name + "\" declares " + std::to_string((*size)[0]) + " x " +
                    std::to_string((*size)[1]) +
                    " pixels, more than loader_args.max_image_pixels (" +
                    std::to_string(max_pixels) + "); raise that setting to read it");
    }
}

} // namespace

cv::Size stored_image_size(const std::vector<unsigned char>& bytes, const std::string& name) {
    if (const auto size = declared_image_size(bytes);
        size && (*size)[0] <= std::numeric_limits<int>::max() &&
        (*size)[1] <= std::numeric_limits<int>::max()) {
        return {int((*size)[0]), int((*size)[1])};
    }
    return decode_image(bytes, name).size();
}

cv::Mat decode_image(const std::vector<unsigned char>& bytes, const std::string& name, int min_side,
                     std::int64_t max_pixels) {
    if (bytes.empty()) {
        throw Error("\"" + name + "\" is empty (0 bytes)");
    }
    check_pixels(bytes, name, max_pixels); // a JPEG's header has been read there
    if (const std::optional<JpegHeader> header = read_jpeg_header(bytes)) {
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

cv::Mat decode_image(const std::filesystem::path& path, int min_side, std::int64_t max_pixels) {
    return decode_image(read_file(path), path.string(), min_side, max_pixels);
}

} // namespace kiln::data
