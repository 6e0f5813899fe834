#include "models/detector.h"

#include "models/segmenter.h"

#include <cmath>
#include <torch/nn/functional/pooling.h>
#include <torch/nn/init.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/types.h>
#include <torch/utils.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

// A head: 3x3 convolution and ReLU, then a 1x1 convolution to `out` channels.
nn::Sequential head(std::int64_t in, std::int64_t out, double bias = 0.0) {
    nn::Conv2d last(nn::Conv2dOptions(in, out, 1));
    nn::init::constant_(last->bias, bias);
    return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(in, in, 3).padding(1)), nn::ReLU(), last);
}

constexpr std::int64_t kFinestStride = 4;

// Where the backbone's maps at stride 4 or coarser begin, measured on an image of the size
// every backbone takes (in eval mode, so batch-norm statistics stay as they are).
std::size_t first_coarse_map(BackboneImpl& backbone, std::int64_t channels) {
    const std::int64_t side = 224;
    const torch::NoGradGuard no_grad;
    const bool training = backbone.is_training();
    backbone.eval();
    const std::vector<torch::Tensor> maps =
        backbone.feature_maps(torch::zeros({1, channels, side, side}));
    backbone.train(training);
    std::size_t first = 0;
    while (first + 1 < maps.size() && side / maps[first].size(2) < kFinestStride) {
        ++first;
    }
    return first;
}

std::vector<std::int64_t> channels_from(const std::vector<std::int64_t>& channels,
                                        std::size_t first) {
    return {channels.begin() + std::ptrdiff_t(first), channels.end()};
}

// Heatmap logits start at a 1% prior, as focal-loss detectors do, so the many background cells
// do not swamp the first steps.
const double kHeatmapPriorBias = -std::log((1 - 0.01) / 0.01);

} // namespace

DetectorImpl::DetectorImpl(Backbone backbone, std::int64_t classes, std::int64_t decoder_width,
                           std::int64_t prototypes, std::int64_t in_channels)
    : backbone_(register_module("backbone", std::move(backbone))),
      first_map_(first_coarse_map(*backbone_, in_channels)),
      decoder_(std::make_unique<FeatureDecoder>(
          *this, channels_from(dense_feature_channels(*backbone_), first_map_), decoder_width)),
      classes_(classes), prototypes_(prototypes) {
    const std::int64_t width = decoder_->out_channels();
    heatmap_ = register_module("heatmap", head(width, classes, kHeatmapPriorBias));
    boxes_ = register_module("boxes", head(width, 4));
    if (prototypes > 0) {
        coefficients_ = register_module("coefficients", head(width, prototypes));
        prototype_head_ = register_module("prototypes", head(width, prototypes));
    }
}

torch::Tensor DetectorImpl::forward(const torch::Tensor& images) {
    std::vector<torch::Tensor> maps = backbone_->feature_maps(images);
    maps.erase(maps.begin(), maps.begin() + std::ptrdiff_t(first_map_));
    const torch::Tensor features = decoder_->forward(maps);
    std::vector<torch::Tensor> outputs = {heatmap_->forward(features), boxes_->forward(features)};
    if (prototypes_ > 0) {
        outputs.push_back(coefficients_->forward(features));
        outputs.push_back(prototype_head_->forward(features));
    }
    return torch::cat(outputs, 1);
}

DetectorOutput DetectorImpl::split(const torch::Tensor& output, std::int64_t image_height) const {
    DetectorOutput result;
    result.heatmap = output.narrow(1, 0, classes_);
    result.boxes = output.narrow(1, classes_, 4);
    if (prototypes_ > 0) {
        result.coefficients = output.narrow(1, classes_ + 4, prototypes_);
        result.prototypes = output.narrow(1, classes_ + 4 + prototypes_, prototypes_);
    }
    result.stride = std::max<std::int64_t>(1, image_height / output.size(2));
    return result;
}

std::vector<ImageDetections> decode_detections(const DetectorOutput& output,
                                               std::int64_t image_height, std::int64_t image_width,
                                               std::int64_t limit) {
    const torch::Tensor heat = torch::sigmoid(output.heatmap.to(torch::kFloat32));
    const torch::Tensor peaks = nn::functional::max_pool2d(
        heat, nn::functional::MaxPool2dFuncOptions(3).stride(1).padding(1));
    const std::int64_t batch = heat.size(0);
    const std::int64_t height = heat.size(2);
    const std::int64_t width = heat.size(3);
    const torch::Tensor kept = (heat * heat.eq(peaks)).reshape({batch, -1});
    const auto [scores, places] = kept.topk(std::min(limit, kept.size(1)), 1);
    const torch::Tensor cells = places % (height * width);
    const torch::Tensor classes_of = torch::div(places, height * width, "floor");
    const torch::Tensor boxes = output.boxes.to(torch::kFloat32).reshape({batch, 4, -1});
    const torch::Tensor at_cells =
        boxes.gather(2, cells.unsqueeze(1).expand({batch, 4, cells.size(1)}));
    const double stride = double(output.stride);
    const torch::Tensor cx = ((cells % width).to(torch::kFloat32) + at_cells.select(1, 0)) * stride;
    const torch::Tensor cy =
        (torch::div(cells, width, "floor").to(torch::kFloat32) + at_cells.select(1, 1)) * stride;
    const torch::Tensor half_w = at_cells.select(1, 2).clamp_max(12).exp() * stride / 2;
    const torch::Tensor half_h = at_cells.select(1, 3).clamp_max(12).exp() * stride / 2;
    const torch::Tensor corners = torch::stack(
        {(cx - half_w).clamp(0, double(image_width)), (cy - half_h).clamp(0, double(image_height)),
         (cx + half_w).clamp(0, double(image_width)), (cy + half_h).clamp(0, double(image_height))},
        2);
    std::vector<ImageDetections> result(static_cast<std::size_t>(batch));
    for (std::int64_t b = 0; b < batch; ++b) {
        ImageDetections& image = result[static_cast<std::size_t>(b)];
        image.scores = scores[b];
        image.classes = classes_of[b];
        image.boxes = corners[b];
        if (output.prototypes.defined()) {
            const std::int64_t p = output.prototypes.size(1);
            const torch::Tensor coefficients = output.coefficients[b]
                                                   .to(torch::kFloat32)
                                                   .reshape({p, -1})
                                                   .index_select(1, cells[b]);
            image.mask_logits =
                torch::matmul(coefficients.t(),
                              output.prototypes[b].to(torch::kFloat32).reshape({p, -1}))
                    .reshape({-1, height, width});
        }
    }
    return result;
}

} // namespace kiln::models
