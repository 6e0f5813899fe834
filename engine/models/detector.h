#pragma once

#include "models/backbone.h"
#include "models/csp_layers.h"

#include <array>
#include <memory>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>
#include <vector>

namespace kiln::models {

// What the detector predicts at each anchor point (the cell centres of its three maps, finest
// first), as split from forward()'s one tensor.
struct DetectorOutput {
    torch::Tensor distributions; // [B, A, 4, R]: logits over 0 .. R-1 strides from the anchor to
                                 // the box's left, top, right and bottom edges
    torch::Tensor class_logits;  // [B, A, C]
    torch::Tensor coefficients;  // [B, A, P]: the object's mask as a mix of the prototypes
    torch::Tensor prototypes;    // [B, P, Hp, Wp] at a quarter of the image (undefined: P = 0)
    torch::Tensor anchors;       // [A, 2]: x, y in input pixels
    torch::Tensor strides;       // [A, 1]: pixels per cell of the anchor's map
};

// Objects found in one image: boxes as x0, y0, x1, y1 in input pixels.
struct ImageDetections {
    torch::Tensor scores;      // [N] float, descending
    torch::Tensor classes;     // [N] int64
    torch::Tensor boxes;       // [N, 4] float
    torch::Tensor mask_logits; // [N, Hp, Wp] at the prototypes' resolution (instance masks)
};

// The detections of a batch as an exported model gives them, `limit` per image.
struct OnnxDetections {
    onnx::Value scores;        // [B, K] descending; 0 past the image's detections
    onnx::Value classes;       // [B, K] int64
    onnx::Value boxes;         // [B, K, 4]: x0, y0, x1, y1 in input pixels
    onnx::Value masks;         // [B, K, H, W]: probabilities at input size, 0 outside the box
    torch::Tensor predictions; // the mirror's forward(): what the decoding nodes decode
};

// How decode_detections() picks detections: of the `candidates` best (anchor, class) scores,
// those above `score_threshold` that no better one of the same class overlaps by more than
// `iou_threshold` (non-maximum suppression), the best `limit`. An anchor may give one
// detection per class, as COCO evaluation of detectors expects.
struct DecodeOptions {
    std::int64_t limit = 100;
    double score_threshold = 0.001;
    double iou_threshold = 0.7;
    std::int64_t candidates = 1000;
};

// Object detection, and with mask prototypes instance segmentation: an anchor-free detector of
// the YOLOv8 family. The backbone's three coarsest maps (a ViT's one map made into three) go
// through a path-aggregation neck (top-down, then bottom-up, CSP blocks at each join), and each
// level has decoupled heads: box edges as distributions over distances (DFL), class logits,
// and mask coefficients over prototypes made from the finest level (YOLACT). Decoding keeps the
// best-scored boxes that survive class-wise non-maximum suppression.
class DetectorImpl : public torch::nn::Module {
public:
    static constexpr std::int64_t kDistanceBins = 16; // R: distances 0 .. 15 strides

    // `width`: the neck's channels at the finest level (twice and four times that below).
    // `image_side`: the side images are trained at, for the class prior.
    DetectorImpl(Backbone backbone, std::int64_t classes, std::int64_t width = 64,
                 std::int64_t prototypes = 0, std::int64_t in_channels = 3,
                 std::int64_t image_side = 320);

    // Every anchor's predictions and the prototypes, flattened per image: [B, N].
    torch::Tensor forward(const torch::Tensor& images);
    DetectorOutput split(const torch::Tensor& output, std::int64_t image_height,
                         std::int64_t image_width) const;
    // forward() and decode_detections() as ONNX nodes (masks only with prototypes).
    OnnxDetections to_onnx(onnx::Graph& graph, const onnx::Value& images,
                           const DecodeOptions& options);

    BackboneImpl& backbone() { return *backbone_; }
    std::int64_t classes() const { return classes_; }
    std::int64_t prototypes() const { return prototypes_; }
    // Each map's side for an image side: ceil(side / stride) for convolutional backbones.
    std::array<std::int64_t, 3> map_sides(std::int64_t image_side) const;

private:
    std::vector<torch::Tensor> pyramid(const torch::Tensor& images);
    std::vector<onnx::Value> onnx_pyramid(onnx::Graph& graph, const onnx::Value& images);

    Backbone backbone_;
    std::array<std::int64_t, 3> strides_{8, 16, 32};
    bool floor_sides_ = false; // a ViT's patches: floor(side / stride)
    bool single_map_ = false;  // a ViT: one map at stride 16, made into three
    torch::nn::ModuleList neck_{nullptr};
    torch::nn::ModuleList box_heads_{nullptr}, class_heads_{nullptr}, mask_heads_{nullptr};
    torch::nn::Sequential prototype_head_{nullptr};
    torch::nn::Sequential finer_{nullptr}, coarser_{nullptr}; // a ViT's extra levels
    std::int64_t classes_;
    std::int64_t prototypes_;
};
TORCH_MODULE(Detector);

// Boxes [B, A, 4] (x0, y0, x1, y1 in input pixels) from the distance distributions.
torch::Tensor decode_boxes(const DetectorOutput& output);

// Each image's detections (see DecodeOptions), boxes clipped to the image; with prototypes,
// their mask logits. One copy to the host per batch; the rest on the output's device.
std::vector<ImageDetections> decode_detections(const DetectorOutput& output,
                                               std::int64_t image_height, std::int64_t image_width,
                                               const DecodeOptions& options = {});

// A batch's detections padded to `slots` per image, as the exported model gives them: scores
// and classes [B, slots] and boxes [B, slots, 4], 0 past each image's detections; with mask
// logits, masks [B, slots, height, width]: probabilities at the input size, 0 outside the box.
struct PaddedDetections {
    torch::Tensor scores, classes, boxes, masks;
};
PaddedDetections padded_detections(const std::vector<ImageDetections>& images, std::int64_t slots,
                                   std::int64_t image_height, std::int64_t image_width);
// The slots an export of `options` gives per image for `anchors` anchors and `classes` classes.
std::int64_t detection_slots(const DecodeOptions& options, std::int64_t anchors,
                             std::int64_t classes);

// The boxes [K, 4] to keep of `boxes` sorted by descending score, class by class (`classes`
// [K]): each is dropped when a kept one of its class overlaps it by more than `iou_threshold`.
// Indices into `boxes`, in order. CPU tensors.
torch::Tensor non_maximum_suppression(const torch::Tensor& boxes, const torch::Tensor& classes,
                                      double iou_threshold);

} // namespace kiln::models
