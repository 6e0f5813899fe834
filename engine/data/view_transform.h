#pragma once

#include "core/error.h"
#include "data/augment.h"
#include "data/detection_augment.h"
#include "data/view_recipe.h"

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kiln::data {

// The side of LightlyTrain's views (SimCLR's two, DINO's global ones); its blur sigmas and DINO's
// 96 px local views are made for it, and other view sizes get them in proportion.
inline constexpr int kMethodViewSide = 224;
inline constexpr int kDinoLocalViewSide = 96;
// DINO's local views are left out by default when narrower than this: a smaller view is one
// position at a ResNet's or ViT's last stride, and costs steps it does not repay.
inline constexpr int kDinoMinLocalViewSide = 32;

// How one view of an image is made. Probabilities are in [0, 1].
struct ViewArgs {
    int height = kMethodViewSide;
    int width = kMethodViewSide;
    bool random_crop = true; // false: the whole image, resized (embedding)
    double min_scale = 0.08;
    double max_scale = 1.0;
    double horizontal_flip_prob = 0.0;
    double vertical_flip_prob = 0.0;
    double color_jitter_prob = 0.0;
    ColorJitter color_jitter;
    double gray_prob = 0.0;
    double blur_prob = 0.0;
    double blur_sigma_min = 0.1;
    double blur_sigma_max = 2.0;
    double solarize_prob = 0.0;
};

// Every view a method takes of each image, plus the normalisation of all of them.
// Two images of a classification batch mixed, with their labels in the same shares: mixup
// blends whole images (a share ~ Beta(alpha, alpha)), cutmix pastes a box of one into the other
// (its area's share ~ Beta(alpha, alpha)). A batch is cut-mixed with cutmix_prob, else blended
// with mixup_prob. timm's alphas.
struct BatchMixing {
    double mixup_prob = 0.0;
    double mixup_alpha = 0.8;
    double cutmix_prob = 0.0;
    double cutmix_alpha = 1.0;
    static constexpr double kMinAlpha = 1e-3; // Beta(0, 0) has no mean
    static constexpr double kMaxAlpha = 100.0;

    bool enabled() const { return mixup_prob > 0 || cutmix_prob > 0; }
};

// The task-specific augmentation keys finetune_transform reads besides the views' own.
struct TaskAugmentations {
    bool detection = false;    // DetectionAugmentation's (mosaic on by default)
    bool batch_mixing = false; // BatchMixing's (classification)
};

struct TransformArgs {
    std::vector<ViewArgs> views;
    int num_channels = 3; // 1 turns colour ops off and writes one grey plane
    std::array<float, 3> mean = {0.485f, 0.456f, 0.406f}; // ImageNet
    std::array<float, 3> std = {0.229f, 0.224f, 0.225f};
    DetectionAugmentation detection; // the detection tasks' mosaic, mixup, scale and shift
    BatchMixing mixing;              // classification's mixup and cutmix

    // The shorter side an image needs for its largest view: decoding may shrink it to that.
    int min_decode_side() const;
};

// LightlyTrain's view defaults for each method, changed by `transform_args` with LightlyTrain's
// key names; at view sizes other than 224 px the blur sigmas (and DINO's local view side)
// default to the same share of the view. Bad keys or values are appended to `issues` with
// their dotted path.
TransformArgs simclr_transform(const nlohmann::json& transform_args,
                               std::vector<ConfigIssue>& issues);
TransformArgs dino_transform(const nlohmann::json& transform_args,
                             std::vector<ConfigIssue>& issues);
// The views `recipe` trains on; throws ConfigError for bad transform_args. image_size=auto is
// the pretraining task's to resolve from its images (data::auto_view_size); checked here at 224.
TransformArgs recipe_transform(ViewRecipe recipe, const nlohmann::json& transform_args);
// `transform_args` with what the views' defaults resolved to and a later default could change:
// multi-crop's local view count (none on small images), so a resumed run trains the views it
// started with. As given where nothing was resolved.
nlohmann::json with_resolved_view_counts(ViewRecipe recipe, const nlohmann::json& transform_args,
                                         const TransformArgs& transform);
// A resumed run's `views` (its transform_args) given the counts its interrupted run recorded
// (`recorded`, that run's transform_args) where it sets none itself.
void carry_recorded_view_counts(ViewRecipe recipe, const nlohmann::json& recorded,
                                nlohmann::json& views);
// The smallest area a classifier's training crop takes by default: ImageNet's 8%, but never a
// crop under 28 px a side, so that small images are not cut to unrecognisable patches (on
// 32 px views, crops from 77%).
double classification_min_scale(int height, int width);
// The fine-tuning tasks' one view: for training a random resized crop (area from
// default_min_scale) with horizontal flips, else the whole image resized; `transform_args` as
// the methods read it (image_size, random_resize, random_flip, color_jitter, normalize, ...).
// Throws ConfigError for bad transform_args. `task` adds its own keys; validation (training
// false) neither mosaics nor mixes.
TransformArgs finetune_transform(const nlohmann::json& transform_args, bool training,
                                 double default_min_scale, TaskAugmentations task = {});
// Embedding: the whole image resized to height x width, normalised.
TransformArgs embed_transform(int height, int width);
// transform_args' num_channels and normalize alone (how a trained model's images were
// normalised), its views left unread; a bad value is a ConfigError.
TransformArgs normalization_of(const nlohmann::json& transform_args);

// Makes one view of a decoded BGR image: its geometry (crop or resize, flips), then
// apply_photometric().
cv::Mat make_view(const cv::Mat& image, const ViewArgs& view, int num_channels, Rng& rng);
// A view's colour jitter and grey, blur and solarisation, in place: what changes pixels but not
// where they are (a mask needs none of it).
void apply_photometric(cv::Mat& image, const ViewArgs& view, int num_channels, Rng& rng);

} // namespace kiln::data
