#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kiln::data {

// transform_args.image_size=auto: the view size a fine-tuning run trains at, from its images
// (width, height each): their median height and width, each rounded to a multiple of kStride
// (the coarsest stride of Kiln's models; at least one stride), the longer side at most
// kMaxSide with the other kept in proportion. No small image is blown up to 224.
struct AutoImageSize {
    int height = 0;
    int width = 0;
    int median_height = 0;
    int median_width = 0;
    int max_side = 0; // the cap the size was chosen under
    // What was chosen and why, for the log: "96x96 (the training images' median 96x96, ...)".
    std::string explanation() const;
};
// The largest side any image_size setting takes, and a checkpoint's recorded one may have.
inline constexpr int kMaxImageSide = 4096;
// The smallest side an image_size setting takes: a ViT's patch; a CNN's last stage sees it as
// one location. A CNN trained on 1 px views, accepted before, learnt nothing and said nothing.
inline constexpr int kMinImageSide = 16;
inline constexpr int kAutoImageStride = 32;
inline constexpr int kAutoImageMaxSide = 640;
AutoImageSize auto_image_size(const std::vector<std::array<int, 2>>& sizes);

// transform_args.image_size=auto for pretraining: square views of the images' median shorter
// side in multiples of kAutoImageStride, at most `method_side` (the method's own views, 224 px,
// which crop larger images as its recipe does). Small images are not blown up to the method's
// side: Fashion-MNIST's 28 px images train at 32.
AutoImageSize auto_view_size(const std::vector<std::array<int, 2>>& sizes, int method_side);

// `transform_args` with image_size=auto replaced by `resolve()`'s size, which a run logs (Studio's
// previews do not: `logged` false); as given otherwise (null becomes an empty object).
nlohmann::json with_resolved_image_size(const nlohmann::json& transform_args,
                                        const std::function<AutoImageSize()>& resolve,
                                        bool logged = true);

// The sizes of up to `sample` of `paths`, evenly spread, read from their headers where the
// format allows; unreadable files are left out.
std::vector<std::array<int, 2>> sampled_image_sizes(const std::vector<std::filesystem::path>& paths,
                                                    std::size_t sample = 256);

} // namespace kiln::data
