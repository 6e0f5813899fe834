#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <opencv2/core/mat.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kiln::data {

// Images with more pixels than this are refused before decoding (a 0.9 MB PNG can declare
// 30000 x 30000 pixels, 2.7 GB decoded). 64 MP is a large camera's full frame.
constexpr std::int64_t kDefaultMaxImagePixels = 64'000'000;

// Decodes an image file to 8-bit, 3-channel BGR: grayscale is expanded to three channels,
// 16-bit is scaled to 8-bit, alpha is dropped.
//
// JPEGs are decoded by TurboJPEG, the rest by OpenCV. Like PIL (and so LightlyTrain), EXIF
// orientation is not applied. `min_side` > 0 allows a JPEG whose shorter side is at least 2, 4
// or 8 times larger to be decoded at 1/2, 1/4 or 1/8 of its size by libjpeg-turbo's scaled
// IDCT, which is several times faster; the result's shorter side stays >= min_side.
//
// An empty, truncated, corrupt or non-image file is a kiln::Error naming the file, and so is
// one whose header declares more than `max_pixels` pixels, or whose size declared_image_size
// cannot read (OpenCV decodes OpenEXR, Radiance HDR and JPEG 2000 too, up to 2^30 pixels).
cv::Mat decode_image(const std::filesystem::path& path, int min_side = 0,
                     std::int64_t max_pixels = kDefaultMaxImagePixels);
cv::Mat decode_image(const std::vector<unsigned char>& bytes, const std::string& name,
                     int min_side = 0, std::int64_t max_pixels = kDefaultMaxImagePixels);

// The {width, height} an image's header declares, without decoding: JPEG, PNG, BMP, GIF, WebP,
// TIFF, Netpbm (PBM, PGM, PPM, PAM, PFM) and Sun raster; nullopt for anything else. 64-bit, so
// a hostile header cannot wrap.
std::optional<std::array<std::int64_t, 2>>
declared_image_size(const std::vector<unsigned char>& bytes);
// Whether `bytes` are a PNG whose chunks end before IEND: a copy or download that did not
// finish. Decoding one, libpng printed its own error line on the terminal.
bool png_cut_short(const std::vector<unsigned char>& bytes);
// A PNG's samples as its header stores them: bits per sample, the colour type (0 grey, 2 RGB,
// 3 palette, 4 grey and alpha, 6 RGBA) and, for a palette, its colours (PLTE's RGB triples).
// nullopt for anything else. Masks need it: OpenCV scales 1-, 2- and 4-bit grey samples to 8
// bits and turns palette indices (PASCAL VOC's class ids) into colours.
struct PngLayout {
    int bit_depth = 8;
    int colour_type = 0;
    std::vector<std::array<unsigned char, 3>> palette;
};
std::optional<PngLayout> png_layout(const std::vector<unsigned char>& bytes);
// width x height, saturating at the largest int64 (a header may declare 2^32 x 2^32).
std::int64_t pixel_count(const std::array<std::int64_t, 2>& size);

// The pixel size stored in a JPEG's frame header, without decoding; {0, 0} when `bytes` is not
// a JPEG or has no frame header.
cv::Size jpeg_size(const std::vector<unsigned char>& bytes);

// An image's pixel size from its header where declared_image_size reads it, else by decoding.
// A file that is not a readable image is a kiln::Error naming it.
cv::Size stored_image_size(const std::vector<unsigned char>& bytes, const std::string& name);

// The file's bytes, at most `most_bytes` of them from its start.
std::vector<unsigned char>
read_file(const std::filesystem::path& path,
          std::size_t most_bytes = std::numeric_limits<std::size_t>::max());
// The {width, height} the header of the image file at `path` declares (declared_image_size),
// reading its start alone: 8 KB, more for a JPEG whose frame header follows much metadata, at
// most 1 MB; else nullopt.
std::optional<std::array<std::int64_t, 2>> declared_image_size(const std::filesystem::path& path);

} // namespace kiln::data
