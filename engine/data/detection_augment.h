#pragma once

#include "data/augment.h"

#include <array>
#include <cstdint>
#include <opencv2/core/mat.hpp>
#include <vector>

// The geometric augmentations of object detection and instance segmentation, which move boxes
// and instance masks with the image: mosaic, random scale and translation, mixup.
namespace kiln::data {

// transform_args of the detection tasks (Ultralytics' recipe; its names in brackets):
// mosaic.prob (mosaic) 1, mosaic.close_fraction (close_mosaic, as a share of the run) 0.1,
// mixup.prob (mixup) 0, copy_paste.prob (copy_paste) 0, random_affine.scale (scale) 0.5,
// random_affine.translate (translate) 0.1.
struct DetectionAugmentation {
    double mosaic_prob = 0.0;
    double close_mosaic_fraction = 0.1; // the last part of the run trains on single images
    double mixup_prob = 0.0;
    double copy_paste_prob = 0.0; // instance segmentation: the share of objects copied
    double scale = 0.5;           // a mosaic is scaled by a factor from [1 - scale, 1 + scale]
    double translate = 0.1;       // and moved by up to this share of the view
};

// The training defaults above, the ones transform_args leaves unset (validation augments
// nothing).
constexpr DetectionAugmentation kTrainingDetectionAugmentation{.mosaic_prob = 1.0};

// An image with its objects: boxes (x0, y0, x1, y1 in its pixels), classes, and with masks an
// instance map (16-bit: 1 + the object's index, 0 for none).
struct LabelledScene {
    cv::Mat image;
    std::vector<std::array<double, 4>> boxes;
    std::vector<std::int64_t> classes;
    // Each object's box area before augmentation, so that one cut to a sliver can be dropped.
    std::vector<double> areas;
    cv::Mat instances; // empty without masks
};

// Four scenes tiled around a random centre on a canvas twice the view's size (each scaled so
// that its longer side is the view's), then scaled and moved at random and cut to `view`, as
// YOLOv4's mosaic: every sample holds more objects, at more scales, in more contexts. Objects
// left with less than 2 px a side or a tenth of their area are dropped.
LabelledScene mosaic(const std::array<const LabelledScene*, 4>& scenes, cv::Size view,
                     const DetectionAugmentation& augmentation, Rng& rng);

// Two scenes blended with a factor drawn from Beta(32, 32) (about a half), objects of both.
LabelledScene mixup(const LabelledScene& a, const LabelledScene& b, Rng& rng);

// Simple copy-paste (Ghiasi et al. 2021, as Ultralytics' "flip" mode): the objects of the
// scene's mirror image that cover less than 30% of any object's box are candidates, and each
// is pasted, mask and pixels, with probability `prob`. Needs instance masks; a scene without
// them is returned unchanged.
LabelledScene copy_paste(LabelledScene scene, double prob, Rng& rng);

// The objects of `scene` whose boxes keep at least 2 px a side and a tenth of their area.
void drop_slivers(LabelledScene& scene);

} // namespace kiln::data
