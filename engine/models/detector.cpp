#include "models/detector.h"

#include "core/error.h"
#include "models/onnx_modules.h"
#include "models/segmenter.h"
#include "onnx/ops.h"

#include <cmath>
#include <optional>
#include <torch/nn/functional/upsampling.h>
#include <torch/nn/init.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/pooling.h>
#include <torch/nn/modules/upsampling.h>
#include <torch/types.h>
#include <torch/utils.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;
namespace F = torch::nn::functional;
constexpr std::int64_t R = DetectorImpl::kDistanceBins;

// Two 3x3 units and a 1x1 convolution to `out` channels, its bias set to `bias`.
nn::Sequential head(std::int64_t in, std::int64_t mid, std::int64_t out, double bias) {
    nn::Conv2d last(nn::Conv2dOptions(mid, out, 1));
    nn::init::constant_(last->bias, bias);
    return nn::Sequential(ConvUnit(in, mid, 3), ConvUnit(mid, mid, 3), last);
}

torch::Tensor nearest_to(const torch::Tensor& x, std::int64_t height, std::int64_t width) {
    return F::interpolate(x, F::InterpolateFuncOptions()
                                 .size(std::vector<std::int64_t>{height, width})
                                 .mode(torch::kNearest));
}

// A map's side for an image side at `stride`: ceil for convolutions with "same" padding, floor
// for a ViT's patches.
std::int64_t map_side(std::int64_t image_side, std::int64_t stride, bool floor) {
    return floor ? image_side / stride : (image_side + stride - 1) / stride;
}

// The neck's modules in their order in `neck_`: reduce the coarsest map, two top-down joins,
// two bottom-up downsamplings with their joins.
enum NeckPart : std::size_t { kReduce, kTop16, kTop8, kDown8, kBottom16, kDown16, kBottom32 };

} // namespace

DetectorImpl::DetectorImpl(Backbone backbone, std::int64_t classes, std::int64_t width,
                           std::int64_t prototypes, std::int64_t in_channels,
                           std::int64_t image_side)
    : backbone_(register_module("backbone", std::move(backbone))), classes_(classes),
      prototypes_(prototypes) {
    // The backbone's maps and their strides, measured on a size every stride divides, and on
    // one they do not, to see how map sides round (in eval mode: batch-norm statistics stay).
    std::vector<std::int64_t> channels = dense_feature_channels(*backbone_);
    const auto probe = [&](std::int64_t side) {
        const torch::NoGradGuard no_grad;
        const bool training = backbone_->is_training();
        backbone_->eval();
        std::vector<torch::Tensor> maps =
            backbone_->feature_maps(torch::zeros({1, in_channels, side, side}));
        backbone_->train(training);
        return maps;
    };
    const std::vector<torch::Tensor> maps = probe(224);
    single_map_ = maps.size() == 1;
    if (maps.size() < 3 && !single_map_) {
        throw Error("the detector needs a backbone with three feature maps or one; this one has " +
                    std::to_string(maps.size()));
    }
    const std::int64_t coarsest = 224 / maps.back().size(2);
    strides_ = single_map_ ? std::array<std::int64_t, 3>{coarsest / 2, coarsest, coarsest * 2}
                           : std::array<std::int64_t, 3>{coarsest / 4, coarsest / 2, coarsest};
    floor_sides_ = probe(200).back().size(2) == 200 / coarsest;
    if (single_map_) {
        const std::int64_t c = channels.back();
        finer_ = register_module(
            "finer", nn::Sequential(nn::Upsample(nn::UpsampleOptions()
                                                     .scale_factor(std::vector<double>{2.0, 2.0})
                                                     .mode(torch::kNearest)),
                                    ConvUnit(c, c, 3)));
        coarser_ = register_module("coarser", nn::Sequential(ConvUnit(c, c, 3, 2)));
        channels = {c, c, c};
    } else {
        channels = {channels.end() - 3, channels.end()};
    }
    const std::array<std::int64_t, 3> widths{width, 2 * width, 4 * width};
    neck_ = register_module("neck", nn::ModuleList());
    neck_->push_back(ConvUnit(channels[2], widths[2], 1));
    neck_->push_back(CspBlock(widths[2] + channels[1], widths[1], 1, false));
    neck_->push_back(CspBlock(widths[1] + channels[0], widths[0], 1, false));
    neck_->push_back(ConvUnit(widths[0], widths[0], 3, 2));
    neck_->push_back(CspBlock(widths[0] + widths[1], widths[1], 1, false));
    neck_->push_back(ConvUnit(widths[1], widths[1], 3, 2));
    neck_->push_back(CspBlock(widths[1] + widths[2], widths[2], 1, false));

    const std::int64_t box_width = std::max<std::int64_t>({16, width / 4, 4 * R});
    const std::int64_t class_width =
        std::max<std::int64_t>(width, std::min<std::int64_t>(classes, 100));
    box_heads_ = register_module("box_heads", nn::ModuleList());
    class_heads_ = register_module("class_heads", nn::ModuleList());
    for (std::size_t level = 0; level < 3; ++level) {
        // About 5 objects per image over the level's cells, as YOLOv8 starts its classes.
        const double cells = std::pow(double(image_side) / double(strides_[level]), 2.0);
        box_heads_->push_back(head(widths[level], box_width, 4 * R, 1.0));
        class_heads_->push_back(
            head(widths[level], class_width, classes, std::log(5.0 / double(classes) / cells)));
    }
    if (prototypes > 0) {
        mask_heads_ = register_module("mask_heads", nn::ModuleList());
        const std::int64_t mask_width = std::max<std::int64_t>(width / 4, prototypes);
        for (std::size_t level = 0; level < 3; ++level) {
            mask_heads_->push_back(head(widths[level], mask_width, prototypes, 0.0));
        }
        prototype_head_ = register_module(
            "prototypes",
            nn::Sequential(ConvUnit(widths[0], width, 3),
                           nn::Upsample(nn::UpsampleOptions()
                                            .scale_factor(std::vector<double>{2.0, 2.0})
                                            .mode(torch::kNearest)),
                           ConvUnit(width, width, 3), ConvUnit(width, prototypes, 1)));
    }
}

std::array<std::int64_t, 3> DetectorImpl::map_sides(std::int64_t image_side) const {
    if (single_map_) { // the ViT's map, upsampled twice and downsampled by a stride-2 unit
        const std::int64_t middle = map_side(image_side, strides_[1], floor_sides_);
        return {2 * middle, middle, (middle + 1) / 2};
    }
    return {map_side(image_side, strides_[0], false), map_side(image_side, strides_[1], false),
            map_side(image_side, strides_[2], false)};
}

// The three maps the neck joins, finest first.
std::vector<torch::Tensor> DetectorImpl::pyramid(const torch::Tensor& images) {
    std::vector<torch::Tensor> maps = backbone_->feature_maps(images);
    if (single_map_) {
        const torch::Tensor& map = maps.back();
        return {finer_->forward(map), map, coarser_->forward(map)};
    }
    return {maps.end() - 3, maps.end()};
}

torch::Tensor DetectorImpl::forward(const torch::Tensor& images) {
    const std::vector<torch::Tensor> c = pyramid(images);
    const auto part = [this](NeckPart index) { return neck_[index]; };
    const torch::Tensor p32 = part(kReduce)->as<ConvUnit>()->forward(c[2]);
    const torch::Tensor t16 = part(kTop16)->as<CspBlock>()->forward(
        torch::cat({nearest_to(p32, c[1].size(2), c[1].size(3)), c[1]}, 1));
    const torch::Tensor p8 = part(kTop8)->as<CspBlock>()->forward(
        torch::cat({nearest_to(t16, c[0].size(2), c[0].size(3)), c[0]}, 1));
    const torch::Tensor n16 = part(kBottom16)->as<CspBlock>()->forward(
        torch::cat({part(kDown8)->as<ConvUnit>()->forward(p8), t16}, 1));
    const torch::Tensor n32 = part(kBottom32)->as<CspBlock>()->forward(
        torch::cat({part(kDown16)->as<ConvUnit>()->forward(n16), p32}, 1));
    const std::array<torch::Tensor, 3> levels{p8, n16, n32};
    std::vector<torch::Tensor> anchors;
    for (std::size_t level = 0; level < 3; ++level) {
        std::vector<torch::Tensor> outputs = {
            box_heads_[level]->as<nn::Sequential>()->forward(levels[level]),
            class_heads_[level]->as<nn::Sequential>()->forward(levels[level])};
        if (prototypes_ > 0) {
            outputs.push_back(mask_heads_[level]->as<nn::Sequential>()->forward(levels[level]));
        }
        // [B, F, h, w] to [B, h * w, F]: anchor-major.
        anchors.push_back(torch::cat(outputs, 1).flatten(2).transpose(1, 2));
    }
    torch::Tensor flat = torch::cat(anchors, 1).flatten(1);
    if (prototypes_ > 0) {
        flat = torch::cat({flat, prototype_head_->forward(p8).flatten(1)}, 1);
    }
    return flat;
}

DetectorOutput DetectorImpl::split(const torch::Tensor& output, std::int64_t image_height,
                                   std::int64_t image_width) const {
    const std::array<std::int64_t, 3> rows = map_sides(image_height);
    const std::array<std::int64_t, 3> columns = map_sides(image_width);
    const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(output.device());
    std::vector<torch::Tensor> anchors, strides;
    std::int64_t count = 0;
    for (std::size_t level = 0; level < 3; ++level) {
        const double stride = double(strides_[level]);
        const torch::Tensor ys = (torch::arange(rows[level], options) + 0.5) * stride;
        const torch::Tensor xs = (torch::arange(columns[level], options) + 0.5) * stride;
        const std::vector<torch::Tensor> grid = torch::meshgrid({ys, xs}, "ij");
        anchors.push_back(torch::stack({grid[1].flatten(), grid[0].flatten()}, 1));
        strides.push_back(torch::full({rows[level] * columns[level], 1}, stride, options));
        count += rows[level] * columns[level];
    }
    const std::int64_t batch = output.size(0);
    const std::int64_t fields = 4 * R + classes_ + prototypes_;
    const torch::Tensor per_anchor =
        output.narrow(1, 0, count * fields).view({batch, count, fields});
    DetectorOutput result;
    result.distributions = per_anchor.narrow(2, 0, 4 * R).view({batch, count, 4, R});
    result.class_logits = per_anchor.narrow(2, 4 * R, classes_);
    if (prototypes_ > 0) {
        result.coefficients = per_anchor.narrow(2, 4 * R + classes_, prototypes_);
        const std::int64_t height = 2 * rows[0], width = 2 * columns[0];
        result.prototypes = output.narrow(1, count * fields, prototypes_ * height * width)
                                .view({batch, prototypes_, height, width});
    }
    result.anchors = torch::cat(anchors);
    result.strides = torch::cat(strides);
    return result;
}

std::vector<onnx::Value> DetectorImpl::onnx_pyramid(onnx::Graph& graph, const onnx::Value& images) {
    std::vector<onnx::Value> maps = backbone_->onnx_feature_maps(graph, images, "backbone");
    if (single_map_) {
        const onnx::Value map = maps.back();
        return {onnx_sequential(graph, map, *finer_, "finer"), map,
                onnx_sequential(graph, map, *coarser_, "coarser")};
    }
    return {maps.end() - 3, maps.end()};
}

namespace {

// The graph's half of decode_detections(): an ONNX Value and the example LibTorch computes.
struct OnnxDecoder {
    onnx::Graph& graph;

    onnx::Value node(const char* op, const std::vector<std::string>& inputs,
                     const torch::Tensor& example, const onnx::Attributes& attributes = {}) {
        return graph.node(op, inputs, example, attributes);
    }
    onnx::Value cast(const onnx::Value& x, std::int64_t to, const torch::Tensor& example) {
        return node("Cast", {x.name}, example, {{"to", to}});
    }
    onnx::Value unsqueeze(const onnx::Value& x, std::int64_t axis) {
        return node("Unsqueeze", {x.name, graph.int64s({axis})}, x.example.unsqueeze(axis));
    }
    // x [B, N, D] at `index` [B, K]: [B, K, D].
    onnx::Value gather_rows(const onnx::Value& x, const onnx::Value& index) {
        const std::int64_t depth = x.example.size(2);
        const torch::Tensor expanded = index.example.unsqueeze(2).expand(
            {index.example.size(0), index.example.size(1), depth});
        const onnx::Value indices =
            node("Expand", {unsqueeze(index, 2).name, graph.int64s({1, 1, depth})}, expanded);
        return node("GatherElements", {x.name, indices.name}, x.example.gather(1, expanded),
                    {{"axis", std::int64_t{1}}});
    }
    onnx::Value gather(const onnx::Value& x, const onnx::Value& index) {
        return node("GatherElements", {x.name, index.name}, x.example.gather(1, index.example),
                    {{"axis", std::int64_t{1}}});
    }
};

// The chosen detections' masks: their anchors' coefficients mix the prototypes, upsampled to
// the input and kept inside the box, as `kiln predict` keeps them; 0 past the detections.
onnx::Value onnx_masks(onnx::Graph& graph, const onnx::Value& anchors_out,
                       const onnx::Value& prototypes, const onnx::Value& anchor_of,
                       const onnx::Value& boxes, const onnx::Value& valid,
                       std::array<std::int64_t, 2> coefficient_fields,
                       std::array<std::int64_t, 2> image_size) {
    OnnxDecoder d{graph};
    const auto [offset, count] = coefficient_fields;
    const auto [image_height, image_width] = image_size;
    const onnx::Value coefficients =
        d.gather_rows(onnx::narrow(graph, anchors_out, 2, offset, count), anchor_of); // [B,K,P]
    const std::int64_t rows = prototypes.example.size(2), columns = prototypes.example.size(3);
    const std::int64_t k = anchor_of.example.size(1);
    const onnx::Value flat = onnx::reshape(graph, prototypes, {count, rows * columns});
    const onnx::Value logits =
        onnx::reshape(graph, onnx::matmul(graph, coefficients, flat), {k, rows, columns});
    const onnx::Value probabilities =
        onnx::sigmoid(graph, onnx::resize_bilinear(graph, logits, image_height, image_width));
    const auto pixel_centres = [](std::int64_t n) {
        return torch::arange(n, torch::kFloat32) + 0.5;
    };
    const torch::Tensor xs = pixel_centres(image_width).view({1, 1, 1, -1});
    const torch::Tensor ys = pixel_centres(image_height).view({1, 1, -1, 1});
    const std::string xs_name = graph.weight("mask_pixel_x", xs);
    const std::string ys_name = graph.weight("mask_pixel_y", ys);
    std::optional<onnx::Value> inside;
    for (std::int64_t side = 0; side < 4; ++side) {
        const bool is_x = side % 2 == 0, low = side < 2;
        const onnx::Value edge =
            onnx::reshape(graph, onnx::narrow(graph, boxes, 2, side, 1), {k, 1, 1});
        const torch::Tensor& pixels = is_x ? xs : ys;
        const torch::Tensor edges = edge.example.to(torch::kFloat32);
        const torch::Tensor test_example = low ? pixels.ge(edges) : pixels.le(edges);
        const onnx::Value test = d.node(low ? "GreaterOrEqual" : "LessOrEqual",
                                        {is_x ? xs_name : ys_name, edge.name}, test_example);
        inside = inside ? d.node("And", {inside->name, test.name},
                                 inside->example.logical_and(test_example))
                        : test;
    }
    const torch::Tensor shown_example =
        inside->example.to(torch::kFloat32) * valid.example.unsqueeze(2).unsqueeze(3);
    const onnx::Value shown = d.node(
        "Mul",
        {d.cast(*inside, graph.float_type(), inside->example.to(probabilities.example.dtype()))
             .name,
         d.unsqueeze(d.unsqueeze(d.cast(valid, graph.float_type(),
                                        valid.example.to(probabilities.example.dtype())),
                                 2),
                     3)
             .name},
        shown_example.to(probabilities.example.dtype()));
    return d.node("Mul", {probabilities.name, shown.name}, probabilities.example * shown.example);
}

// Boxes [B, A, 4]: the expected distance of each edge, in strides, from the anchor, clipped to
// the image.
onnx::Value onnx_boxes(onnx::Graph& graph, const onnx::Value& anchors_out,
                       const DetectorOutput& example, std::int64_t height, std::int64_t width) {
    OnnxDecoder d{graph};
    const std::int64_t count = example.anchors.size(0);
    const onnx::Value distributions =
        onnx::reshape(graph, onnx::narrow(graph, anchors_out, 2, 0, 4 * R), {count, 4, R});
    const onnx::Value probabilities = onnx::softmax(graph, distributions, 3);
    const torch::Tensor bins = torch::arange(R, torch::kFloat32).view({R, 1});
    const onnx::Value expected = onnx::reshape(
        graph,
        d.node("MatMul", {probabilities.name, graph.weight("distance_bins", bins)},
               torch::matmul(probabilities.example, bins.to(probabilities.example.dtype()))),
        {count, 4});
    const onnx::Value distances =
        d.node("Mul", {expected.name, graph.weight("anchor_strides", example.strides)},
               expected.example * example.strides.to(expected.example.dtype()));
    const std::string anchor_points = graph.weight("anchor_points", example.anchors);
    const torch::Tensor points = example.anchors.to(distances.example.dtype());
    const onnx::Value near = onnx::narrow(graph, distances, 2, 0, 2);
    const onnx::Value far = onnx::narrow(graph, distances, 2, 2, 2);
    const onnx::Value corners =
        onnx::concat(graph,
                     {d.node("Sub", {anchor_points, near.name}, points - near.example),
                      d.node("Add", {anchor_points, far.name}, points + far.example)},
                     2);
    const torch::Tensor limits = torch::tensor(
        {float(width), float(height), float(width), float(height)}, corners.example.dtype());
    const onnx::Value boxes = d.node(
        "Min",
        {d.node("Max", {corners.name, graph.scalar(0.0f)}, corners.example.clamp_min(0)).name,
         graph.weight("image_limits", limits)},
        torch::min(corners.example.clamp_min(0), limits));
    return boxes;
}

// The `candidates` best (anchor, class) scores of each image, with their anchors' boxes.
struct OnnxCandidates {
    std::vector<onnx::Value> top; // TopK's scores and places (anchor x classes + class)
    onnx::Value anchor_of;
    onnx::Value class_of;
    onnx::Value boxes;
};

OnnxCandidates onnx_candidates(onnx::Graph& graph, const onnx::Value& anchors_out,
                               const onnx::Value& boxes, std::int64_t classes,
                               std::int64_t candidates) {
    OnnxDecoder d{graph};
    const std::int64_t count = boxes.example.size(1);
    const onnx::Value class_scores = onnx::reshape(
        graph, onnx::sigmoid(graph, onnx::narrow(graph, anchors_out, 2, 4 * R, classes)),
        {count * classes});
    const std::int64_t k = std::min(candidates, count * classes);
    const auto [top_scores, top_places] = class_scores.example.topk(k, 1);
    const std::vector<onnx::Value> top = graph.nodes(
        "TopK", {class_scores.name, graph.int64s({k})}, {top_scores, top_places},
        {{"axis", std::int64_t{1}}, {"largest", std::int64_t{1}}, {"sorted", std::int64_t{1}}});
    const onnx::Value anchor_of = d.node("Div", {top[1].name, graph.int64s({classes})},
                                         torch::div(top_places, classes, "floor"));
    const onnx::Value class_of =
        d.node("Mod", {top[1].name, graph.int64s({classes})}, top_places % classes);
    const onnx::Value top_boxes = d.gather_rows(boxes, anchor_of);
    return {top, anchor_of, class_of, top_boxes};
}

// Non-maximum suppression of the `moved` candidates: 1 where a candidate survives, 0 elsewhere
// ([B, K]); at most `limit` per image.
onnx::Value onnx_survivors(onnx::Graph& graph, const onnx::Value& moved,
                           const onnx::Value& float_scores, const torch::Tensor& top_scores,
                           const DecodeOptions& options) {
    OnnxDecoder d{graph};
    const std::int64_t batch = moved.example.size(0), k = top_scores.size(1);
    std::vector<torch::Tensor> selected_rows;
    for (std::int64_t b = 0; b < batch; ++b) {
        const torch::Tensor above = top_scores[b].gt(options.score_threshold).nonzero().squeeze(1);
        torch::Tensor kept = above.index_select(
            0, non_maximum_suppression(moved.example[b].index_select(0, above),
                                       torch::zeros({above.size(0)}, torch::kInt64),
                                       options.iou_threshold));
        kept = kept.narrow(0, 0, std::min<std::int64_t>(options.limit, kept.size(0)));
        selected_rows.push_back(
            torch::stack({torch::full_like(kept, b), torch::zeros_like(kept), kept}, 1));
    }
    const torch::Tensor selected_example = torch::cat(selected_rows);
    const onnx::Value selected =
        d.node("NonMaxSuppression",
               {moved.name, d.unsqueeze(float_scores, 1).name, graph.int64s({options.limit}),
                graph.float32(float(options.iou_threshold)),
                graph.float32(float(options.score_threshold))},
               selected_example);
    // The survivors' scores, the others' 0, and the best `limit` of them.
    const torch::Tensor where_example =
        selected_example.index_select(1, torch::tensor({0, 2}, torch::kInt64));
    const onnx::Value where = d.node("Gather", {selected.name, graph.int64s({0, 2})}, where_example,
                                     {{"axis", std::int64_t{1}}});
    const torch::Tensor zeros_example = torch::zeros({batch, k});
    const onnx::Value zeros = d.node(
        "ConstantOfShape", {d.node("Shape", {float_scores.name}, torch::tensor({batch, k})).name},
        zeros_example);
    const torch::Tensor ones_example = torch::ones({where_example.size(0)});
    const onnx::Value ones =
        d.node("Add",
               {d.node("ConstantOfShape",
                       {d.node("Shape", {selected.name},
                               torch::tensor({where_example.size(0), std::int64_t{3}}),
                               {{"start", std::int64_t{0}}, {"end", std::int64_t{1}}})
                            .name},
                       torch::zeros({where_example.size(0)}))
                    .name,
                graph.float32(1.0f)},
               ones_example);
    torch::Tensor kept_example = zeros_example.clone();
    kept_example.index_put_({where_example.select(1, 0), where_example.select(1, 1)}, ones_example);
    return d.node("ScatterND", {zeros.name, where.name, ones.name}, kept_example);
}

// The detections among the candidates: class by class suppression, the best `limit` that
// survive, with their candidates' places and which of them are detections (1) or padding (0).
struct OnnxChosen {
    OnnxDetections detections;
    onnx::Value places;
    onnx::Value valid;
};

OnnxChosen onnx_choose(onnx::Graph& graph, const OnnxCandidates& c, std::int64_t height,
                       std::int64_t width, const DecodeOptions& options) {
    OnnxDecoder d{graph};
    const torch::Tensor& top_scores = c.top[0].example;
    const std::int64_t k = top_scores.size(1);
    // Suppression class by class as one: each class's boxes moved apart from the others'.
    const float apart = float(std::max(height, width) + 1);
    const onnx::Value class_float = d.cast(c.class_of, 1, c.class_of.example.to(torch::kFloat32));
    const onnx::Value float_boxes = d.cast(c.boxes, 1, c.boxes.example.to(torch::kFloat32));
    const onnx::Value shift =
        d.node("Mul", {d.unsqueeze(class_float, 2).name, graph.float32(apart)},
               class_float.example.unsqueeze(2) * apart);
    const onnx::Value moved =
        d.node("Add", {float_boxes.name, shift.name}, float_boxes.example + shift.example);
    const onnx::Value float_scores = d.cast(c.top[0], 1, top_scores.to(torch::kFloat32));
    const onnx::Value kept = onnx_survivors(graph, moved, float_scores, top_scores, options);
    const onnx::Value survivors =
        d.node("Mul", {float_scores.name, kept.name}, float_scores.example * kept.example);
    const std::int64_t limit = std::min(options.limit, k);
    const auto [final_scores, final_places] = survivors.example.topk(limit, 1);
    const std::vector<onnx::Value> best = graph.nodes(
        "TopK", {survivors.name, graph.int64s({limit})}, {final_scores, final_places},
        {{"axis", std::int64_t{1}}, {"largest", std::int64_t{1}}, {"sorted", std::int64_t{1}}});
    const onnx::Value valid_float =
        d.cast(d.node("Greater", {best[0].name, graph.float32(0.0f)}, final_scores.gt(0)), 1,
               final_scores.gt(0).to(torch::kFloat32));
    const onnx::Value valid_integer = d.cast(valid_float, 7, final_scores.gt(0).to(torch::kInt64));
    const onnx::Value chosen_boxes = d.gather_rows(float_boxes, best[1]);
    OnnxDetections detections;
    detections.scores = d.cast(best[0], graph.float_type(), final_scores.to(top_scores.dtype()));
    const onnx::Value chosen_classes = d.gather(c.class_of, best[1]);
    detections.classes = d.node("Mul", {chosen_classes.name, valid_integer.name},
                                chosen_classes.example * valid_integer.example);
    const onnx::Value zeroed = d.node("Mul", {chosen_boxes.name, d.unsqueeze(valid_float, 2).name},
                                      chosen_boxes.example * valid_float.example.unsqueeze(2));
    detections.boxes =
        d.cast(zeroed, graph.float_type(), zeroed.example.to(c.boxes.example.dtype()));
    return {detections, best[1], valid_float};
}

} // namespace

OnnxDetections DetectorImpl::to_onnx(onnx::Graph& graph, const onnx::Value& images,
                                     const DecodeOptions& options) {
    const std::int64_t height = images.example.size(2), width = images.example.size(3);
    const std::vector<onnx::Value> c = onnx_pyramid(graph, images);
    const auto part = [this](NeckPart index) { return neck_[index]; };
    const auto join = [&](NeckPart index, const onnx::Value& a, const onnx::Value& b) {
        return part(index)->as<CspBlock>()->to_onnx(graph, onnx::concat(graph, {a, b}, 1),
                                                    "neck." + std::to_string(index));
    };
    const auto unit = [&](NeckPart index, const onnx::Value& x) {
        return part(index)->as<ConvUnit>()->to_onnx(graph, x, "neck." + std::to_string(index));
    };
    const auto up_to = [&](const onnx::Value& x, const onnx::Value& like) {
        return onnx::resize_nearest(graph, x, like.example.size(2), like.example.size(3));
    };
    const onnx::Value p32 = unit(kReduce, c[2]);
    const onnx::Value t16 = join(kTop16, up_to(p32, c[1]), c[1]);
    const onnx::Value p8 = join(kTop8, up_to(t16, c[0]), c[0]);
    const onnx::Value n16 = join(kBottom16, unit(kDown8, p8), t16);
    const onnx::Value n32 = join(kBottom32, unit(kDown16, n16), p32);
    const std::array<onnx::Value, 3> levels{p8, n16, n32};
    std::vector<onnx::Value> per_level;
    for (std::size_t level = 0; level < 3; ++level) {
        const std::string index = "." + std::to_string(level);
        std::vector<onnx::Value> outputs = {
            onnx_sequential(graph, levels[level], *box_heads_[level]->as<nn::Sequential>(),
                            "box_heads" + index),
            onnx_sequential(graph, levels[level], *class_heads_[level]->as<nn::Sequential>(),
                            "class_heads" + index)};
        if (prototypes_ > 0) {
            outputs.push_back(onnx_sequential(graph, levels[level],
                                              *mask_heads_[level]->as<nn::Sequential>(),
                                              "mask_heads" + index));
        }
        const onnx::Value joined = onnx::concat(graph, outputs, 1);
        const std::int64_t fields = joined.example.size(1);
        per_level.push_back(
            onnx::transpose(graph, onnx::reshape(graph, joined, {fields, -1}), {0, 2, 1}));
    }
    const onnx::Value anchors_out = onnx::concat(graph, per_level, 1); // [B, A, F]
    const std::optional<onnx::Value> prototypes =
        prototypes_ > 0 ? std::optional(onnx_sequential(graph, p8, *prototype_head_, "prototypes"))
                        : std::nullopt;
    // The same split as split() gives, for the anchors, strides and the example decode.
    torch::Tensor flat = anchors_out.example.flatten(1);
    if (prototypes) {
        flat = torch::cat({flat, prototypes->example.flatten(1)}, 1);
    }
    const DetectorOutput example = split(flat, height, width);

    const onnx::Value boxes = onnx_boxes(graph, anchors_out, example, height, width);
    const OnnxCandidates candidates =
        onnx_candidates(graph, anchors_out, boxes, classes_, options.candidates);
    const OnnxChosen chosen = onnx_choose(graph, candidates, height, width, options);
    OnnxDetections detections = chosen.detections;
    detections.predictions = flat;
    if (!prototypes) {
        return detections;
    }
    detections.masks =
        onnx_masks(graph, anchors_out, *prototypes,
                   OnnxDecoder{graph}.gather(candidates.anchor_of, chosen.places), detections.boxes,
                   chosen.valid, {4 * R + classes_, prototypes_}, {height, width});
    return detections;
}

namespace {

// One image's mask logits as probabilities at the input size, 0 outside each box.
torch::Tensor masks_at_input_size(const ImageDetections& image, std::int64_t height,
                                  std::int64_t width) {
    torch::nn::functional::InterpolateFuncOptions bilinear;
    bilinear.size(std::vector<std::int64_t>{height, width})
        .mode(torch::kBilinear)
        .align_corners(false);
    const torch::Tensor logits =
        torch::nn::functional::interpolate(image.mask_logits.unsqueeze(0), bilinear)[0];
    const auto options = logits.options();
    const torch::Tensor xs = (torch::arange(width, options) + 0.5).view({1, 1, -1});
    const torch::Tensor ys = (torch::arange(height, options) + 0.5).view({1, -1, 1});
    const auto edge = [&](std::int64_t side) {
        return image.boxes.select(1, side).to(options.dtype()).view({-1, 1, 1});
    };
    const torch::Tensor inside = xs.ge(edge(0)) & xs.le(edge(2)) & ys.ge(edge(1)) & ys.le(edge(3));
    return torch::sigmoid(logits) * inside;
}

} // namespace

PaddedDetections padded_detections(const std::vector<ImageDetections>& images, std::int64_t slots,
                                   std::int64_t image_height, std::int64_t image_width) {
    std::vector<torch::Tensor> scores, classes, boxes, masks;
    for (const ImageDetections& image : images) {
        const std::int64_t missing = slots - image.scores.size(0);
        const auto options = image.scores.options();
        scores.push_back(torch::cat({image.scores, torch::zeros({missing}, options)}));
        classes.push_back(
            torch::cat({image.classes, torch::zeros({missing}, image.classes.options())}));
        boxes.push_back(torch::cat({image.boxes, torch::zeros({missing, 4}, options)}));
        if (image.mask_logits.defined()) {
            masks.push_back(
                torch::cat({masks_at_input_size(image, image_height, image_width),
                            torch::zeros({missing, image_height, image_width}, options)}));
        }
    }
    return {torch::stack(scores), torch::stack(classes), torch::stack(boxes),
            masks.empty() ? torch::Tensor() : torch::stack(masks)};
}

std::int64_t detection_slots(const DecodeOptions& options, std::int64_t anchors,
                             std::int64_t classes) {
    return std::min(options.limit, std::min(options.candidates, anchors * classes));
}

torch::Tensor decode_boxes(const DetectorOutput& output) {
    const auto options = output.distributions.options().dtype(torch::kFloat32);
    const torch::Tensor bins = torch::arange(R, options);
    const torch::Tensor distances =
        (torch::softmax(output.distributions.to(torch::kFloat32), 3) * bins).sum(3) *
        output.strides; // [B, A, 4]: left, top, right, bottom
    return torch::cat(
        {output.anchors - distances.narrow(2, 0, 2), output.anchors + distances.narrow(2, 2, 2)},
        2);
}

torch::Tensor non_maximum_suppression(const torch::Tensor& boxes, const torch::Tensor& classes,
                                      double iou_threshold) {
    const std::int64_t count = boxes.size(0);
    const torch::Tensor corners = boxes.to(torch::kFloat32).contiguous();
    const torch::Tensor labels = classes.to(torch::kInt64).contiguous();
    const float* box = corners.data_ptr<float>();
    const std::int64_t* label = labels.data_ptr<std::int64_t>();
    std::vector<std::int64_t> kept;
    std::vector<char> suppressed(static_cast<std::size_t>(count), 0);
    for (std::int64_t i = 0; i < count; ++i) {
        if (suppressed[std::size_t(i)]) {
            continue;
        }
        kept.push_back(i);
        const float* a = box + 4 * i;
        const float area_a = std::max(0.0f, a[2] - a[0]) * std::max(0.0f, a[3] - a[1]);
        for (std::int64_t j = i + 1; j < count; ++j) {
            if (suppressed[std::size_t(j)] || label[j] != label[i]) {
                continue;
            }
            const float* b = box + 4 * j;
            const float w = std::min(a[2], b[2]) - std::max(a[0], b[0]);
            const float h = std::min(a[3], b[3]) - std::max(a[1], b[1]);
            if (w <= 0 || h <= 0) {
                continue;
            }
            const float inter = w * h;
            const float area_b = std::max(0.0f, b[2] - b[0]) * std::max(0.0f, b[3] - b[1]);
            if (inter / (area_a + area_b - inter) > iou_threshold) {
                suppressed[std::size_t(j)] = 1;
            }
        }
    }
    return torch::tensor(kept, torch::kInt64);
}

std::vector<ImageDetections> decode_detections(const DetectorOutput& output,
                                               std::int64_t image_height, std::int64_t image_width,
                                               const DecodeOptions& options) {
    const std::int64_t batch = output.class_logits.size(0);
    const std::int64_t classes = output.class_logits.size(2);
    const torch::Tensor boxes = decode_boxes(output);
    const torch::Tensor limits = torch::tensor(
        {double(image_width), double(image_height), double(image_width), double(image_height)},
        boxes.options());
    const torch::Tensor clipped = torch::min(boxes.clamp_min(0), limits);
    const torch::Tensor scores = torch::sigmoid(output.class_logits.to(torch::kFloat32)).flatten(1);
    const std::int64_t k = std::min(options.candidates, scores.size(1));
    const auto [top_scores, top_places] = scores.topk(k, 1);
    const torch::Tensor anchors = torch::div(top_places, classes, "floor");
    const torch::Tensor top_boxes =
        clipped.gather(1, anchors.unsqueeze(2).expand({batch, k, 4})); // [B, k, 4]
    // One copy to the host for the whole batch; suppression runs there.
    const torch::Tensor host = torch::cat({top_scores.unsqueeze(2),
                                           (top_places % classes).unsqueeze(2).to(torch::kFloat32),
                                           anchors.unsqueeze(2).to(torch::kFloat32), top_boxes},
                                          2)
                                   .cpu();
    std::vector<ImageDetections> result(static_cast<std::size_t>(batch));
    for (std::int64_t b = 0; b < batch; ++b) {
        const torch::Tensor mine = host[b];
        const torch::Tensor above =
            mine.select(1, 0).gt(options.score_threshold).nonzero().squeeze(1);
        const torch::Tensor candidates = mine.index_select(0, above);
        torch::Tensor kept = non_maximum_suppression(
            candidates.narrow(1, 3, 4), candidates.select(1, 1), options.iou_threshold);
        kept = kept.narrow(0, 0, std::min<std::int64_t>(options.limit, kept.size(0)));
        const torch::Tensor chosen = candidates.index_select(0, kept).to(boxes.device());
        ImageDetections& image = result[static_cast<std::size_t>(b)];
        image.scores = chosen.select(1, 0);
        image.classes = chosen.select(1, 1).to(torch::kInt64);
        image.boxes = chosen.narrow(1, 3, 4);
        if (output.prototypes.defined()) {
            const torch::Tensor anchor = chosen.select(1, 2).to(torch::kInt64);
            const std::int64_t p = output.prototypes.size(1);
            const torch::Tensor coefficients =
                output.coefficients[b].to(torch::kFloat32).index_select(0, anchor); // [N, P]
            image.mask_logits =
                torch::matmul(coefficients,
                              output.prototypes[b].to(torch::kFloat32).reshape({p, -1}))
                    .reshape({-1, output.prototypes.size(2), output.prototypes.size(3)});
        }
    }
    return result;
}

} // namespace kiln::models
