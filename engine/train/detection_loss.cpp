#include "train/detection_loss.h"

#include <ATen/ops/_unique.h>
#include <cmath>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/pooling.h>
#include <torch/types.h>

namespace kiln::train {
namespace {

namespace F = torch::nn::functional;
constexpr double kEps = 1e-9;

// Complete IoU of the pairs of gt [B, M, 4] and predicted boxes [B, A, 4] that `pairs`
// [B, M, A] marks, 0 for the others: [B, M, A].
at::Tensor masked_complete_iou(const at::Tensor& truth, const at::Tensor& predicted,
                               const at::Tensor& pairs) {
    const at::Tensor where = pairs.nonzero(); // [N, 3]: image, object, anchor
    const at::Tensor image = where.select(1, 0);
    const at::Tensor t = truth.index({image, where.select(1, 1)});
    const at::Tensor p = predicted.index({image, where.select(1, 2)});
    at::Tensor overlaps = torch::zeros(pairs.sizes(), truth.options());
    overlaps.index_put_({image, where.select(1, 1), where.select(1, 2)},
                        complete_iou(t, p).clamp_min(0));
    return overlaps;
}

} // namespace

at::Tensor complete_iou(const at::Tensor& a, const at::Tensor& b) {
    const double eps = 1e-7;
    const auto edge = [](const at::Tensor& box, std::int64_t i) { return box.select(1, i); };
    const at::Tensor w1 = edge(a, 2) - edge(a, 0), h1 = edge(a, 3) - edge(a, 1) + eps;
    const at::Tensor w2 = edge(b, 2) - edge(b, 0), h2 = edge(b, 3) - edge(b, 1) + eps;
    const at::Tensor inter =
        (torch::min(edge(a, 2), edge(b, 2)) - torch::max(edge(a, 0), edge(b, 0))).clamp_min(0) *
        (torch::min(edge(a, 3), edge(b, 3)) - torch::max(edge(a, 1), edge(b, 1))).clamp_min(0);
    const at::Tensor iou = inter / (w1 * h1 + w2 * h2 - inter + eps);
    const at::Tensor cw = torch::max(edge(a, 2), edge(b, 2)) - torch::min(edge(a, 0), edge(b, 0));
    const at::Tensor ch = torch::max(edge(a, 3), edge(b, 3)) - torch::min(edge(a, 1), edge(b, 1));
    const at::Tensor diagonal = cw.pow(2) + ch.pow(2) + eps;
    const at::Tensor centres = ((edge(b, 0) + edge(b, 2) - edge(a, 0) - edge(a, 2)).pow(2) +
                                (edge(b, 1) + edge(b, 3) - edge(a, 1) - edge(a, 3)).pow(2)) /
                               4;
    const double pi = 3.14159265358979323846;
    const at::Tensor v = (4 / (pi * pi)) * (torch::atan(w2 / h2) - torch::atan(w1 / h1)).pow(2);
    at::Tensor alpha;
    {
        const torch::NoGradGuard no_grad;
        alpha = v / (v - iou + (1 + eps));
    }
    return iou - (centres / diagonal + v * alpha);
}

at::Tensor distribution_focal_loss(const at::Tensor& logits, const at::Tensor& distances) {
    const at::Tensor left = distances.to(torch::kInt64);
    const at::Tensor right = left + 1;
    const at::Tensor left_weight = right.to(distances.dtype()) - distances;
    const at::Tensor right_weight = 1 - left_weight;
    const at::Tensor log_probabilities = torch::log_softmax(logits.to(torch::kFloat32), 2);
    const at::Tensor at_left = log_probabilities.gather(2, left.unsqueeze(2)).squeeze(2);
    const at::Tensor at_right = log_probabilities.gather(2, right.unsqueeze(2)).squeeze(2);
    return -(at_left * left_weight + at_right * right_weight).mean(1);
}

Assignment assign(const at::Tensor& scores, const at::Tensor& boxes, const at::Tensor& anchors,
                  const DetectionTargets& targets, const AssignerSettings& settings) {
    const std::int64_t batch = scores.size(0), count = scores.size(1), classes = scores.size(2);
    const std::int64_t m = targets.boxes.size(1);
    Assignment result;
    if (m == 0) {
        result.foreground = torch::zeros({batch, count}, scores.options().dtype(torch::kBool));
        result.object = torch::zeros({batch, count}, scores.options().dtype(torch::kInt64));
        result.target_boxes = torch::zeros({batch, count, 4}, scores.options());
        result.target_scores = torch::zeros_like(scores);
        return result;
    }
    // Anchors inside each object's box, of the objects that are there.
    const at::Tensor points = anchors.view({1, 1, count, 2});
    const at::Tensor truth = targets.boxes.unsqueeze(2); // [B, M, 1, 4]
    const at::Tensor margins = torch::cat(
        {points - truth.narrow(3, 0, 2), truth.narrow(3, 2, 2) - points}, 3); // [B, M, A, 4]
    const at::Tensor inside =
        std::get<0>(margins.min(3)).gt(kEps).logical_and(targets.valid.unsqueeze(2));
    const at::Tensor overlaps = masked_complete_iou(targets.boxes, boxes, inside); // [B, M, A]
    const at::Tensor class_scores =
        scores.transpose(1, 2).gather(1, targets.classes.unsqueeze(2).expand({-1, -1, count}));
    const at::Tensor alignment =
        class_scores.pow(settings.alpha) * overlaps.pow(settings.beta) * inside;
    // Each object's k best-aligned anchors among those inside it.
    const std::int64_t k = std::min(settings.top_k, count);
    const at::Tensor best = std::get<1>(alignment.topk(k, 2));
    at::Tensor positive =
        torch::zeros_like(alignment).scatter_(2, best, 1.0).gt(0).logical_and(inside);
    // An anchor claimed by several objects learns the one it overlaps most.
    const at::Tensor claims = positive.sum(1); // [B, A]
    const at::Tensor most = torch::one_hot(overlaps.argmax(1), m).transpose(1, 2).gt(0);
    positive = torch::where(claims.gt(1).unsqueeze(1), most, positive);
    result.foreground = positive.any(1);
    result.object = positive.to(torch::kFloat32).argmax(1);
    const at::Tensor rows =
        torch::arange(batch, targets.classes.options()).unsqueeze(1).expand({batch, count});
    result.target_boxes = targets.boxes.index({rows, result.object});
    const at::Tensor target_classes = targets.classes.index({rows, result.object});
    // Target scores: each object's best-aligned anchor at the object's best IoU, the others in
    // proportion to their alignment.
    const at::Tensor kept = alignment * positive;
    const at::Tensor best_alignment = std::get<0>(kept.max(2, true));
    const at::Tensor best_overlap = std::get<0>((overlaps * positive).max(2, true));
    const at::Tensor normalised =
        std::get<0>((kept * best_overlap / (best_alignment + kEps)).max(1)); // [B, A]
    result.target_scores = torch::one_hot(target_classes, classes).to(scores.dtype()) *
                           (normalised * result.foreground).unsqueeze(2);
    return result;
}

at::Tensor DetectionLoss::total(const LossGains& gains) const {
    at::Tensor sum = box * gains.box + distribution * gains.distribution + classes * gains.classes;
    return masks.defined() ? sum + masks * gains.masks : sum;
}

namespace {

// Each foreground anchor's mask against its object's, both at the prototypes' resolution, the
// per-pixel cross-entropy summed inside the object's box over its area; summed over anchors.
at::Tensor mask_loss(const models::DetectorOutput& output, const DetectionTargets& targets,
                     const Assignment& assignment, std::int64_t view_height) {
    const std::int64_t batch = output.prototypes.size(0), p = output.prototypes.size(1);
    const std::int64_t rows = output.prototypes.size(2), columns = output.prototypes.size(3);
    const double scale = double(rows) / double(view_height);
    const auto options = torch::dtype(torch::kFloat32).device(output.prototypes.device());
    const at::Tensor ys = (torch::arange(rows, options) + 0.5).view({1, -1, 1});
    const at::Tensor xs = (torch::arange(columns, options) + 0.5).view({1, 1, -1});
    at::Tensor total = torch::zeros({}, options);
    for (std::int64_t b = 0; b < batch; ++b) {
        const at::Tensor anchors = assignment.foreground[b].nonzero().squeeze(1);
        if (anchors.size(0) == 0) {
            continue;
        }
        const at::Tensor objects = assignment.object[b].index_select(0, anchors);
        // The objects learnt, at the prototypes' size: the share of each cell they cover.
        const auto [learnt, of_anchor] = at::_unique(objects, true, true);
        const at::Tensor wanted =
            F::adaptive_avg_pool2d(targets.instances[b]
                                       .unsqueeze(0)
                                       .eq((learnt + 1).view({-1, 1, 1}))
                                       .to(torch::kFloat32)
                                       .unsqueeze(1),
                                   F::AdaptiveAvgPool2dFuncOptions({rows, columns}))
                .squeeze(1)
                .index_select(0, of_anchor); // [N, rows, columns]
        const at::Tensor logits =
            torch::matmul(output.coefficients[b].to(torch::kFloat32).index_select(0, anchors),
                          output.prototypes[b].to(torch::kFloat32).reshape({p, -1}))
                .view({-1, rows, columns});
        const at::Tensor box = assignment.target_boxes[b].index_select(0, anchors) * scale;
        const at::Tensor crop =
            xs.ge(box.select(1, 0).view({-1, 1, 1})) & xs.le(box.select(1, 2).view({-1, 1, 1})) &
            ys.ge(box.select(1, 1).view({-1, 1, 1})) & ys.le(box.select(1, 3).view({-1, 1, 1}));
        const at::Tensor per_pixel = F::binary_cross_entropy_with_logits(
            logits, wanted, F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kNone));
        const at::Tensor inside = crop.to(torch::kFloat32);
        total = total + ((per_pixel * inside).sum({1, 2}) / inside.sum({1, 2}).clamp_min(1)).sum();
    }
    return total;
}

} // namespace

DetectionLoss detection_loss(const models::DetectorOutput& output, const DetectionTargets& targets,
                             const AssignerSettings& settings) {
    constexpr std::int64_t R = models::DetectorImpl::kDistanceBins;
    const at::Tensor boxes = models::decode_boxes(output);
    const at::Tensor logits = output.class_logits.to(torch::kFloat32);
    Assignment assignment;
    {
        const torch::NoGradGuard no_grad;
        assignment =
            assign(torch::sigmoid(logits), boxes.detach(), output.anchors, targets, settings);
    }
    const at::Tensor score_sum = assignment.target_scores.sum().clamp_min(1);
    DetectionLoss loss;
    loss.classes = F::binary_cross_entropy_with_logits(
                       logits, assignment.target_scores,
                       F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kSum)) /
                   score_sum;
    const at::Tensor foreground = assignment.foreground;
    const at::Tensor weight = assignment.target_scores.sum(2).index({foreground}); // [N]
    const at::Tensor predicted = boxes.index({foreground});
    const at::Tensor wanted = assignment.target_boxes.index({foreground});
    loss.box = ((1 - complete_iou(predicted, wanted)) * weight).sum() / score_sum;
    const at::Tensor anchor_of =
        foreground.nonzero().select(1, 1); // the anchor of each foreground row
    const at::Tensor points = output.anchors.index_select(0, anchor_of);
    const at::Tensor stride = output.strides.index_select(0, anchor_of);
    const at::Tensor distances =
        (torch::cat({points - wanted.narrow(1, 0, 2), wanted.narrow(1, 2, 2) - points}, 1) / stride)
            .clamp(0, double(R) - 1.01);
    loss.distribution =
        (distribution_focal_loss(output.distributions.index({foreground}), distances) * weight)
            .sum() /
        score_sum;
    if (output.prototypes.defined() && targets.instances.defined()) {
        loss.masks = mask_loss(output, targets, assignment, targets.instances.size(1)) /
                     foreground.sum().clamp_min(1).to(torch::kFloat32);
    }
    return loss;
}

} // namespace kiln::train
