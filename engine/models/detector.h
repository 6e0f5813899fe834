#pragma once

#include "models/backbone.h"
#include "models/feature_decoder.h"

#include <memory>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>

namespace kiln::models {

// What the detector's heads give for each cell of the decoder's map (stride = image side /
// map side), as split from forward()'s one tensor.
struct DetectorOutput {
    torch::Tensor heatmap;      // [B, classes, h, w] logits: an object of the class centred here
    torch::Tensor boxes;        // [B, 4, h, w]: centre offset x, y in cells; log width, height
    torch::Tensor coefficients; // [B, P, h, w]: the object's mask as a mix of the prototypes
    torch::Tensor prototypes;   // [B, P, h, w]: mask prototypes (undefined P = 0: boxes only)
    std::int64_t stride = 1;
};

// Objects found in one image: boxes as x0, y0, x1, y1 in input pixels.
struct ImageDetections {
    torch::Tensor scores;      // [N] float, descending
    torch::Tensor classes;     // [N] int64
    torch::Tensor boxes;       // [N, 4] float
    torch::Tensor mask_logits; // [N, h, w] at the prototypes' resolution (instance masks)
};

// The detections of a batch as an exported model gives them, `limit` per image.
struct OnnxDetections {
    onnx::Value scores;  // [B, K] descending
    onnx::Value classes; // [B, K] int64
    onnx::Value boxes;   // [B, K, 4]: x0, y0, x1, y1 in input pixels
    onnx::Value masks;   // [B, K, H, W]: probabilities at input size, 0 outside the box
};

// Object detection, and with mask prototypes instance segmentation, as a CenterNet: the
// FeatureDecoder's map feeds 3x3-conv heads that predict per cell a heatmap of object centres
// per class, the box's size and the centre's offset, and (YOLACT-style) mask coefficients over
// shared prototype masks. Anchor-free and free of NMS: decoding takes the heatmap's local
// maxima. One dense map at stride 4 (maps finer than that are left out: they would cost 4x
// as much for little gain) suits small objects and trains in minutes on a CPU; every head is
// a convolution, so it scales on GPUs with the batch.
class DetectorImpl : public torch::nn::Module {
public:
    // `in_channels`: the images' channels (3, or 1 for grey).
    DetectorImpl(Backbone backbone, std::int64_t classes, std::int64_t decoder_width = 128,
                 std::int64_t prototypes = 0, std::int64_t in_channels = 3);

    // Every head's output concatenated on channels: [B, classes + 4 + 2P, h, w].
    torch::Tensor forward(const torch::Tensor& images);
    DetectorOutput split(const torch::Tensor& output, std::int64_t image_height) const;
    // forward() and decode_detections() as ONNX nodes (masks only with prototypes).
    OnnxDetections to_onnx(onnx::Graph& graph, const onnx::Value& images, std::int64_t limit);

    BackboneImpl& backbone() { return *backbone_; }
    std::int64_t classes() const { return classes_; }
    std::int64_t prototypes() const { return prototypes_; }

private:
    Backbone backbone_;
    std::size_t first_map_ = 0; // the backbone's first feature map at stride 4 or coarser
    std::unique_ptr<FeatureDecoder> decoder_;
    torch::nn::Sequential heatmap_{nullptr};
    torch::nn::Sequential boxes_{nullptr};
    torch::nn::Sequential coefficients_{nullptr};
    torch::nn::Sequential prototype_head_{nullptr};
    std::int64_t classes_;
    std::int64_t prototypes_;
};
TORCH_MODULE(Detector);

// The `limit` best-scoring local maxima of the heatmap (3x3) of each image, with their boxes
// clipped to the image and, with prototypes, their mask logits.
std::vector<ImageDetections> decode_detections(const DetectorOutput& output,
                                               std::int64_t image_height, std::int64_t image_width,
                                               std::int64_t limit = 100);

} // namespace kiln::models
