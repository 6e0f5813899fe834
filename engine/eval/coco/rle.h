#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// Run-length encoded masks exactly as the COCO API (pycocotools' maskApi) defines them, so that
// areas, boxes and IoUs computed here are the values pycocotools computes, bit for bit.
namespace kiln::coco {

// A binary mask of height x width pixels, run-length encoded in column-major order: counts
// alternate between runs of 0s and runs of 1s, starting with 0s (a mask whose first pixel is set
// starts with a count of 0). The counts sum to height * width.
struct Rle {
    std::uint32_t height = 0;
    std::uint32_t width = 0;
    std::vector<std::uint32_t> counts;

    bool operator==(const Rle& other) const {
        return height == other.height && width == other.width && counts == other.counts;
    }
};

// x, y, width, height as COCO writes boxes.
using Box = std::array<double, 4>;

// Encodes a row-major mask (a PyTorch H x W bool or uint8 tensor's memory); any non-zero byte is
// foreground. `row_stride` is the distance in bytes between rows. Works on 8 pixels at a time
// and does per-run work only where the mask changes.
Rle encode_mask(const std::uint8_t* pixels, std::uint32_t height, std::uint32_t width,
                std::size_t row_stride);

// COCO's compressed string form ("counts" in JSON): LEB128-like groups of 5 bits offset by '0',
// counts after the third stored as differences to the count two before.
std::string encode_counts_string(const Rle& rle);

// Decodes a compressed "counts" string. Throws kiln::Error describing what is malformed: a
// character outside the alphabet, a truncated number, a negative or oversized count, or counts
// that do not add up to height * width.
Rle decode_counts_string(std::string_view counts, std::uint32_t height, std::uint32_t width);

// An uncompressed RLE ("counts": [..] in JSON), checked the same way.
Rle rle_from_counts(std::vector<std::uint32_t> counts, std::uint32_t height, std::uint32_t width);

// Rasterises a polygon (x0, y0, x1, y1, ...; an odd trailing value is ignored) as maskApi's
// rleFrPoly does: edges upsampled 5x, pixels whose centre is inside are set. A kiln::Error
// refuses what would take more memory than any real polygon: coordinates beyond
// kLargestPolygonCoordinate, an outline longer than kLongestPolygonOutline times its image's
// (height + width) or than kMostPolygonPoints upsampled points, an image of 2^32 pixels or more.
constexpr double kLargestPolygonCoordinate = 1e6;
constexpr std::size_t kLongestPolygonOutline = 64;
constexpr std::size_t kMostPolygonPoints = std::size_t{1} << 24;
Rle rle_from_polygon(const double* xy, std::size_t point_count, std::uint32_t height,
                     std::uint32_t width);

// A box rasterised as the polygon of its four corners (maskApi's rleFrBbox).
Rle rle_from_box(const Box& box, std::uint32_t height, std::uint32_t width);

// The union of masks of one size (maskApi's rleMerge); masks of different sizes give an empty
// 0 x 0 mask as in maskApi.
Rle merge_union(const std::vector<Rle>& masks);

// Number of foreground pixels.
std::uint64_t area(const Rle& rle);

// maskApi's rleToBbox, including its conventions (a run that wraps into the next column makes
// the box full height).
Box bounding_box(const Rle& rle);

// IoU of two boxes as maskApi's bbIou; with `crowd` the union is the detection's area.
double box_iou(const Box& detection, const Box& ground_truth, bool crowd);

// IoU of two masks as maskApi's rleIou given that their boxes overlap: -1 when the sizes differ,
// otherwise the exact intersection over union from the runs (over the detection's area with
// `crowd`).
double mask_iou_of_overlapping(const Rle& detection, const Rle& ground_truth, bool crowd);

// Expands to one byte per pixel, row-major (for tests and previews).
std::vector<std::uint8_t> decode_to_pixels(const Rle& rle);

} // namespace kiln::coco
