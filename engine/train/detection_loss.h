#pragma once

#include "models/detector.h"

#include <ATen/core/Tensor.h>

namespace kiln::train {

// The objects of a batch as the detection loss takes them, padded to the most objects an image
// of the batch has (M).
struct DetectionTargets {
    at::Tensor boxes;     // [B, M, 4]: x0, y0, x1, y1 in view pixels
    at::Tensor classes;   // [B, M] int64
    at::Tensor valid;     // [B, M] bool
    at::Tensor instances; // [B, H, W] int64: 1 + the object's row where it is seen, 0 elsewhere;
                          // undefined without masks
};

// Task-aligned assignment (TOOD, Feng et al. 2021), as YOLOv8 trains: each object is learnt by
// the k anchors inside it whose predictions align best with it, alignment being
// score^alpha * IoU^beta (the predicted score of its class, the complete IoU of the predicted
// box); an anchor claimed by several objects goes to the one its box overlaps most.
struct AssignerSettings {
    std::int64_t top_k = 10;
    double alpha = 0.5;
    double beta = 6.0;
};

struct Assignment {
    at::Tensor foreground;    // [B, A] bool
    at::Tensor object;        // [B, A] int64: the object (its row) each anchor learns
    at::Tensor target_boxes;  // [B, A, 4]
    at::Tensor target_scores; // [B, A, C]: its object's class at the normalised alignment (the
                              // best-aligned anchor of each object at that object's best IoU)
};

// `scores` [B, A, C] probabilities and `boxes` [B, A, 4] predicted (detached), `anchors` [A, 2].
Assignment assign(const at::Tensor& scores, const at::Tensor& boxes, const at::Tensor& anchors,
                  const DetectionTargets& targets, const AssignerSettings& settings = {});

// Complete IoU (Zheng et al. 2020) of corresponding boxes [N, 4]: the IoU less the squared
// distance of the centres over the enclosing box's squared diagonal, less the aspect-ratio term.
at::Tensor complete_iou(const at::Tensor& a, const at::Tensor& b);

// Distribution focal loss (GFL, Li et al. 2020) of distance logits [N, 4, R] against distances
// [N, 4] in bins (within [0, R - 1)): the cross-entropy of the two bins around each distance,
// weighted by nearness, averaged over the four edges: [N].
at::Tensor distribution_focal_loss(const at::Tensor& logits, const at::Tensor& distances);

// The weights of the loss's parts: YOLOv8's for boxes and classes. The mask term is a mean per
// foreground anchor here; on generated scenes (40 s runs) a weight of 1 gave 0.12 mask mAP and
// left the box mAP as it was without masks, 2.5 gave 0.08 and 7.5 0.03.
struct LossGains {
    double box = 7.5;
    double classes = 0.5;
    double distribution = 1.5;
    double masks = 1.0;
};

struct DetectionLoss {
    at::Tensor box, distribution, classes, masks; // masks undefined without prototypes
    at::Tensor total(const LossGains& gains = {}) const;
};

// The loss of a batch's predictions: binary cross-entropy of the class scores against the
// assignment's target scores, and for the foreground anchors the complete-IoU and distribution
// losses of their boxes (weighted by their target scores), all over the target scores' sum; with
// prototypes, each foreground anchor's mask against its object's, cropped to the box.
DetectionLoss detection_loss(const models::DetectorOutput& output, const DetectionTargets& targets,
                             const AssignerSettings& settings = {});

} // namespace kiln::train
