// Any bytes as a compressed RLE string (the first two bytes pick its size) and as polygon
// coordinates: decoding either fails with kiln::Error or gives a mask that survives every
// operation and re-encodes to an equivalent string.

#include "core/error.h"
#include "eval/coco/rle.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) {
        return 0;
    }
    const std::uint32_t height = data[0] % 64;
    const std::uint32_t width = data[1] % 64;
    const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
    try {
        const kiln::coco::Rle rle = kiln::coco::decode_counts_string(text, height, width);
        const kiln::coco::Rle again =
            kiln::coco::decode_counts_string(kiln::coco::encode_counts_string(rle), height, width);
        if (!(again == rle)) {
            std::abort();
        }
        const std::vector<std::uint8_t> pixels = kiln::coco::decode_to_pixels(rle);
        const kiln::coco::Rle encoded =
            kiln::coco::encode_mask(pixels.data(), height, width, width);
        if (kiln::coco::area(encoded) != kiln::coco::area(rle)) {
            std::abort();
        }
        kiln::coco::bounding_box(rle);
        kiln::coco::merge_union({rle, encoded});
        kiln::coco::mask_iou_of_overlapping(rle, encoded, data[0] & 1);
    } catch (const kiln::Error&) {
    }
    // The same bytes as polygon coordinates in a small image.
    std::vector<double> coordinates;
    for (std::size_t offset = 2; offset + 2 <= size; offset += 2) {
        std::int16_t value;
        std::memcpy(&value, data + offset, sizeof value);
        coordinates.push_back(value / 64.0);
    }
    if (coordinates.size() >= 2 && height > 0 && width > 0) {
        try { // an outline far longer than its image's is refused
            const kiln::coco::Rle polygon = kiln::coco::rle_from_polygon(
                coordinates.data(), coordinates.size() / 2, height, width);
            if (kiln::coco::area(polygon) > std::uint64_t{height} * width) {
                std::abort();
            }
            kiln::coco::bounding_box(polygon);
        } catch (const kiln::Error&) {
        }
    }
    return 0;
}
