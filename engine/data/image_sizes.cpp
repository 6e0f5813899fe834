#include "data/image_sizes.h"

#include "core/error.h"
#include "core/log.h"
#include "data/image_decode.h"

#include <algorithm>
#include <cmath>

namespace kiln::data {
namespace {

int median(std::vector<int> values) {
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2),
                     values.end());
    return values[values.size() / 2];
}

int rounded_to_stride(double side) {
    return std::max(kAutoImageStride, int(std::lround(side / kAutoImageStride)) * kAutoImageStride);
}

} // namespace

std::string AutoImageSize::explanation() const {
    return std::to_string(height) + "x" + std::to_string(width) + " (the training images' median " +
           std::to_string(median_height) + "x" + std::to_string(median_width) +
           ", in multiples of " + std::to_string(kAutoImageStride) + ", at most " +
           std::to_string(max_side) + "; set transform_args.image_size to choose)";
}

AutoImageSize auto_image_size(const std::vector<std::array<int, 2>>& sizes) {
    if (sizes.empty()) {
        throw Error("transform_args.image_size=auto: no training image could be read to size "
                    "the views; give transform_args.image_size");
    }
    std::vector<int> widths, heights;
    for (const auto& [width, height] : sizes) {
        widths.push_back(width);
        heights.push_back(height);
    }
    AutoImageSize size;
    size.median_width = median(widths);
    size.median_height = median(heights);
    const double longer = std::max(size.median_width, size.median_height);
    const double shrink = longer > kAutoImageMaxSide ? kAutoImageMaxSide / longer : 1.0;
    size.width = std::min(kAutoImageMaxSide, rounded_to_stride(size.median_width * shrink));
    size.height = std::min(kAutoImageMaxSide, rounded_to_stride(size.median_height * shrink));
    size.max_side = kAutoImageMaxSide;
    return size;
}

AutoImageSize auto_view_size(const std::vector<std::array<int, 2>>& sizes, int method_side) {
    AutoImageSize size = auto_image_size(sizes);
    const int shorter = std::min(size.median_height, size.median_width);
    size.height = size.width = std::min(method_side, rounded_to_stride(shorter));
    size.max_side = method_side;
    return size;
}

nlohmann::json with_resolved_image_size(const nlohmann::json& transform_args,
                                        const std::function<AutoImageSize()>& resolve,
                                        bool logged) {
    nlohmann::json resolved =
        transform_args.is_object() ? transform_args : nlohmann::json::object();
    if (resolved.value("image_size", nlohmann::json()) == "auto") {
        const AutoImageSize size = resolve();
        resolved["image_size"] = {size.height, size.width};
        if (logged) {
            log::info("transform_args.image_size=auto: " + size.explanation());
        }
    }
    return resolved;
}

std::vector<std::array<int, 2>> sampled_image_sizes(const std::vector<std::filesystem::path>& paths,
                                                    std::size_t sample) {
    std::vector<std::array<int, 2>> sizes;
    const std::size_t count = std::min(sample, paths.size());
    for (std::size_t i = 0; i < count; ++i) {
        const std::filesystem::path& path = paths[i * paths.size() / count];
        try {
            const auto size = stored_image_size(read_file(path), path.string());
            sizes.push_back({size.width, size.height});
        } catch (const Error&) {
            // unreadable: the loader skips and counts it too
        }
    }
    return sizes;
}

} // namespace kiln::data
