#include "models/detector.h"

#include "models/onnx_modules.h"
#include "models/segmenter.h"

#include <cmath>
#include <optional>
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

OnnxDetections DetectorImpl::to_onnx(onnx::Graph& graph, const onnx::Value& images,
                                     std::int64_t limit) {
    std::vector<onnx::Value> maps = backbone_->onnx_feature_maps(graph, images, "backbone");
    maps.erase(maps.begin(), maps.begin() + std::ptrdiff_t(first_map_));
    const onnx::Value features = decoder_->to_onnx(graph, maps);
    const onnx::Value heat_logits = onnx_sequential(graph, features, *heatmap_, "heatmap");
    const onnx::Value sizes = onnx_sequential(graph, features, *boxes_, "boxes");
    const std::int64_t image_height = images.example.size(2), image_width = images.example.size(3);
    const std::int64_t height = heat_logits.example.size(2), width = heat_logits.example.size(3);
    const std::int64_t cells_per_map = height * width;
    const float stride = float(std::max<std::int64_t>(1, image_height / height));
    const auto cast = [&](const onnx::Value& x, std::int64_t to, const torch::Tensor& example) {
        return graph.node("Cast", {x.name}, example, {{"to", to}});
    };
    const auto binary = [&](const char* op, const onnx::Value& a, const std::string& b,
                            const torch::Tensor& example) {
        return graph.node(op, {a.name, b}, example);
    };

    // The heatmap's 3x3 local maxima, best first.
    const onnx::Value heat = onnx::sigmoid(graph, heat_logits);
    const onnx::Value peaks = onnx::max_pool2d(graph, heat, 3, 1, 1);
    const torch::Tensor is_peak_example = heat.example.eq(peaks.example);
    const onnx::Value is_peak = cast(graph.node("Equal", {heat.name, peaks.name}, is_peak_example),
                                     graph.float_type(), is_peak_example.to(torch::kFloat32));
    const onnx::Value kept = onnx::reshape(
        graph, binary("Mul", heat, is_peak.name, heat.example * is_peak.example), {-1});
    const std::int64_t k = std::min(limit, kept.example.size(1));
    const auto [top_scores, top_places] = kept.example.topk(k, 1);
    const std::vector<onnx::Value> top = graph.nodes(
        "TopK", {kept.name, graph.int64s({k})}, {top_scores, top_places},
        {{"axis", std::int64_t{1}}, {"largest", std::int64_t{1}}, {"sorted", std::int64_t{1}}});
    const onnx::Value& places = top[1];
    const onnx::Value cells =
        binary("Mod", places, graph.int64s({cells_per_map}), places.example % cells_per_map);
    const onnx::Value classes = binary("Div", places, graph.int64s({cells_per_map}),
                                       torch::div(places.example, cells_per_map, "floor"));

    // Each one's box from the cell's offsets and log sizes.
    const auto at_cells = [&](const onnx::Value& map, std::int64_t channels) {
        const onnx::Value flat = onnx::reshape(graph, map, {channels, cells_per_map});
        const torch::Tensor index_example =
            cells.example.unsqueeze(1).expand({cells.example.size(0), channels, k});
        const onnx::Value unsqueezed =
            graph.node("Unsqueeze", {cells.name, graph.int64s({1})}, cells.example.unsqueeze(1));
        const onnx::Value index =
            graph.node("Expand", {unsqueezed.name, graph.int64s({1, channels, 1})}, index_example);
        return graph.node("GatherElements", {flat.name, index.name},
                          flat.example.gather(2, index_example), {{"axis", std::int64_t{2}}});
    };
    const onnx::Value box_at = at_cells(sizes, 4); // [B, 4, K]
    const auto centre = [&](const torch::Tensor& grid_example, const std::string& grid_op,
                            std::int64_t channel) {
        const onnx::Value grid =
            binary(grid_op.c_str(), cells, graph.int64s({width}), grid_example);
        const onnx::Value grid_float =
            cast(grid, graph.float_type(), grid_example.to(torch::kFloat32));
        const onnx::Value offset = onnx::select(graph, box_at, 1, channel);
        return onnx::multiply(graph, onnx::add(graph, grid_float, offset), stride);
    };
    const onnx::Value cx = centre(cells.example % width, "Mod", 0);
    const onnx::Value cy = centre(torch::div(cells.example, width, "floor"), "Div", 1);
    const auto half_size = [&](std::int64_t channel) {
        const onnx::Value log_size = onnx::select(graph, box_at, 1, channel);
        const onnx::Value capped =
            binary("Min", log_size, graph.scalar(12.0f), log_size.example.clamp_max(12));
        return onnx::multiply(graph, graph.node("Exp", {capped.name}, capped.example.exp()),
                              stride / 2);
    };
    const onnx::Value half_w = half_size(2), half_h = half_size(3);
    const auto corner = [&](const onnx::Value& middle, const onnx::Value& half, bool low,
                            std::int64_t limit_value) {
        const torch::Tensor raw_example =
            low ? middle.example - half.example : middle.example + half.example;
        const onnx::Value raw = binary(low ? "Sub" : "Add", middle, half.name, raw_example);
        const torch::Tensor clipped = raw_example.clamp(0, double(limit_value));
        const onnx::Value bounded = graph.node(
            "Clip", {raw.name, graph.scalar(0.0f), graph.scalar(float(limit_value))}, clipped);
        return graph.node("Unsqueeze", {bounded.name, graph.int64s({2})}, clipped.unsqueeze(2));
    };
    OnnxDetections detections;
    detections.scores = top[0];
    detections.classes = classes;
    detections.boxes = onnx::concat(
        graph,
        {corner(cx, half_w, true, image_width), corner(cy, half_h, true, image_height),
         corner(cx, half_w, false, image_width), corner(cy, half_h, false, image_height)},
        2);
    if (prototypes_ == 0) {
        return detections;
    }

    // Masks: each one's coefficients mix the prototypes; upsampled to the input, kept inside
    // the box as `kiln predict` keeps them.
    const onnx::Value coefficients = onnx::transpose(
        graph,
        at_cells(onnx_sequential(graph, features, *coefficients_, "coefficients"), prototypes_),
        {0, 2, 1}); // [B, K, P]
    const onnx::Value prototypes =
        onnx::reshape(graph, onnx_sequential(graph, features, *prototype_head_, "prototypes"),
                      {prototypes_, cells_per_map});
    const onnx::Value mask_logits = onnx::resize_bilinear(
        graph,
        onnx::reshape(graph, onnx::matmul(graph, coefficients, prototypes), {k, height, width}),
        image_height, image_width);
    const torch::Tensor box_example = detections.boxes.example;
    const auto pixel_centres = [&](std::int64_t count) {
        return torch::arange(count, torch::kFloat32) + 0.5;
    };
    const torch::Tensor xs = pixel_centres(image_width).view({1, 1, 1, -1});
    const torch::Tensor ys = pixel_centres(image_height).view({1, 1, -1, 1});
    const std::string xs_name = graph.weight("mask_pixel_x", xs);
    const std::string ys_name = graph.weight("mask_pixel_y", ys);
    std::optional<onnx::Value> inside;
    for (std::int64_t side = 0; side < 4; ++side) {
        const bool is_x = side % 2 == 0, low = side < 2;
        const onnx::Value edge =
            onnx::reshape(graph, onnx::narrow(graph, detections.boxes, 2, side, 1), {k, 1, 1});
        const torch::Tensor& pixels = is_x ? xs : ys;
        const torch::Tensor test_example = low ? pixels.ge(edge.example) : pixels.le(edge.example);
        const onnx::Value test = graph.node(low ? "GreaterOrEqual" : "LessOrEqual",
                                            {is_x ? xs_name : ys_name, edge.name}, test_example);
        inside = inside ? graph.node("And", {inside->name, test.name},
                                     inside->example.logical_and(test_example))
                        : test;
    }
    const onnx::Value inside_float =
        cast(*inside, graph.float_type(), inside->example.to(torch::kFloat32));
    const onnx::Value probabilities = onnx::sigmoid(graph, mask_logits);
    detections.masks = binary("Mul", probabilities, inside_float.name,
                              probabilities.example * inside_float.example);
    return detections;
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
