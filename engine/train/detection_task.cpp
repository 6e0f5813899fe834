#include "train/detection_task.h"

#include "core/error.h"
#include "core/json_args.h"
#include "core/log.h"
#include "data/loader.h"
#include "data/view_transform.h"
#include "eval/coco/coco_eval.h"
#include "eval/coco/mask_tensor.h"
#include "models/checkpoint_file.h"
#include "system/hardware.h"

#include <cmath>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/pooling.h>
#include <torch/nn/functional/upsampling.h>
#include <torch/types.h>

namespace kiln::train {
namespace {

using data::DetectedSamples;

// Detection crops keep most of the scene, so that objects are rarely cut.
constexpr double kMinCropScale = 0.3;
// Instance masks are made only for detections at least this confident: the rest cost mask
// encoding and barely move mAP.
constexpr double kMinMaskScore = 0.05;
// The Gaussian around each centre spans the box (TTFNet's elliptical kernel).
constexpr double kGaussianSpan = 0.54;

struct DetectorArgs {
    std::string backbone_weights;
    int decoder_width = 128;
    int prototypes = 16;
};

DetectorArgs read_model_args(const nlohmann::json& model_args, bool masks) {
    std::vector<ConfigIssue> issues;
    JsonArgs args(model_args, "model_args", issues);
    DetectorArgs result;
    result.backbone_weights = args.text("backbone_weights", "");
    result.decoder_width = args.integer("decoder_width", 128, 8, 1024);
    if (masks) {
        result.prototypes = args.integer("prototypes", 16, 1, 256);
    }
    args.finish();
    if (!issues.empty()) {
        throw ConfigError(issues);
    }
    return result;
}

models::Detector make_detector(const TrainConfig& config, const DetectorArgs& args,
                               std::int64_t classes, int channels, bool masks) {
    return models::Detector(models::make_backbone(config.model, channels), classes,
                            args.decoder_width, masks ? args.prototypes : 0, channels);
}

// COCOeval.stats under the names torchmetrics and LightlyTrain log them.
const std::array<const char*, coco::kStatCount> kStatNames = {
    "map",   "map_50", "map_75",  "map_small", "map_medium", "map_large",
    "mar_1", "mar_10", "mar_100", "mar_small", "mar_medium", "mar_large"};

// The mAP metrics of one validation's detections: box for detection, mask for instance
// segmentation (with the box mAP as box_map).
MetricValues map_metrics(const coco::GroundTruth& truth, std::vector<coco::Annotation> found,
                         bool masks, bool classwise, int threads) {
    const coco::Detections detections =
        coco::Detections::from_annotations(std::move(found), truth, "validation", threads);
    coco::EvalParams params;
    params.iou_type = masks ? coco::IouType::Mask : coco::IouType::Box;
    params.threads = threads;
    const coco::EvalResult result = coco::evaluate(truth, detections, params);
    MetricValues values;
    for (int i = 0; i < coco::kStatCount; ++i) {
        values.emplace_back(std::string("val_metric/") + kStatNames[std::size_t(i)],
                            result.stats[std::size_t(i)]);
    }
    if (masks) {
        params.iou_type = coco::IouType::Box;
        values.emplace_back("val_metric/box_map",
                            coco::evaluate(truth, detections, params).stats[0]);
    }
    if (classwise) {
        for (const coco::CategoryAp& category : result.per_category) {
            if (category.ap >= 0) {
                values.emplace_back("val_metric_per_class/map/" + category.name, category.ap);
            }
        }
    }
    return values;
}

// One image's detections as numbers, so that the ranks of a distributed run can gather them
// by summing: per detection its class index, score, box and (masks) its RLE counts.
void append_record(std::vector<double>& record, const coco::Annotation& detection,
                   std::int64_t class_index) {
    record.insert(record.end(), {double(class_index), detection.score, detection.box[0],
                                 detection.box[1], detection.box[2], detection.box[3],
                                 double(detection.segmentation.mask.counts.size())});
    record.insert(record.end(), detection.segmentation.mask.counts.begin(),
                  detection.segmentation.mask.counts.end());
}

} // namespace

DetectionTask::DetectionTask(const TrainConfig& config, bool masks) : masks_(masks) {
    const DetectorArgs args = read_model_args(config.model_args, masks);
    synchronous_ = config.map.synchronous;
    classwise_ = config.map.classwise;
    const int threads = system::usable_cpu_cores();
    data::DetectionData data = data::load_detection_data(config.labelled_data, masks, threads);
    const nlohmann::json transform_args =
        sized_transform_args(config.transform_args, [&data] { return data.train.sizes; });
    const data::TransformArgs train_transform =
        data::finetune_transform(transform_args, true, kMinCropScale);
    const data::TransformArgs val_transform =
        data::finetune_transform(transform_args, false, kMinCropScale);
    view_height_ = val_transform.views.front().height;
    view_width_ = val_transform.views.front().width;
    for (const std::string& warning : data.warnings) {
        log::warning("data: " + warning);
    }
    if (masks) { // decoded once here, not by every loader worker
        data.train.ground_truth->masks(threads);
        data.val.ground_truth->masks(threads);
    }
    category_ids_ = data.category_ids;
    model_ = make_detector(config, args, static_cast<std::int64_t>(data.classes.size()),
                           train_transform.num_channels, masks);
    val_ = std::make_shared<DetectedSamples>(std::move(data.val), masks, val_transform);
    set_up(model_.ptr(), {data.classes, false},
           std::make_shared<DetectedSamples>(std::move(data.train), masks, train_transform), val_);
    load_initial_weights(config, args.backbone_weights, model_->backbone());
    check_watch_metric(config.watch_metric);
}

DetectionTask::DetectionTask(const TrainConfig& config, bool masks, Labels labels) : masks_(masks) {
    const data::TransformArgs transform =
        data::finetune_transform(config.transform_args, false, kMinCropScale);
    view_height_ = transform.views.front().height;
    view_width_ = transform.views.front().width;
    model_ = make_detector(config, read_model_args(config.model_args, masks),
                           static_cast<std::int64_t>(labels.classes.size()), transform.num_channels,
                           masks);
    set_up(model_.ptr(), std::move(labels));
}

at::Tensor DetectionTask::forward(const at::Tensor& images) {
    return model_->forward(images);
}

std::vector<std::string> DetectionTask::metric_names() const {
    std::vector<std::string> names;
    for (const char* name : kStatNames) {
        names.push_back(std::string("val_metric/") + name);
    }
    if (masks_) {
        names.emplace_back("val_metric/box_map");
    }
    return names;
}

at::Tensor DetectionTask::loss(const at::Tensor& output, const at::Tensor& targets) {
    const models::DetectorOutput out = model_->split(output, view_height_);
    const at::Tensor heat_logits = out.heatmap.to(torch::kFloat32);
    const std::int64_t batch = heat_logits.size(0);
    const std::int64_t classes = heat_logits.size(1);
    const std::int64_t height = heat_logits.size(2);
    const std::int64_t width = heat_logits.size(3);
    const double stride = double(out.stride);
    const auto options = torch::dtype(torch::kFloat32).device(output.device());

    const at::Tensor rows =
        targets.narrow(1, 0, DetectedSamples::kMaxObjects * DetectedSamples::kObjectFields)
            .reshape({batch, DetectedSamples::kMaxObjects, DetectedSamples::kObjectFields});
    const at::Tensor present = rows.select(2, 0).ge(0).nonzero(); // [N, 2]: image, row
    const at::Tensor image_of = present.select(1, 0);
    const at::Tensor row_of = present.select(1, 1);
    const at::Tensor objects = rows.index({image_of, row_of});
    const at::Tensor class_of = objects.select(1, 0);
    const at::Tensor box =
        objects.narrow(1, 1, 4).to(torch::kFloat32) / (DetectedSamples::kBoxScale * stride);
    const at::Tensor cx = (box.select(1, 0) + box.select(1, 2)) / 2;
    const at::Tensor cy = (box.select(1, 1) + box.select(1, 3)) / 2;
    const at::Tensor box_w = (box.select(1, 2) - box.select(1, 0)).clamp_min(1e-3);
    const at::Tensor box_h = (box.select(1, 3) - box.select(1, 1)).clamp_min(1e-3);
    const at::Tensor cell_x = cx.floor().clamp(0, width - 1);
    const at::Tensor cell_y = cy.floor().clamp(0, height - 1);

    // Heatmap target: per class the highest of its objects' Gaussians, exactly 1 at centres.
    const at::Tensor sigma_x = (kGaussianSpan * box_w / 6).clamp_min(0.4).unsqueeze(1);
    const at::Tensor sigma_y = (kGaussianSpan * box_h / 6).clamp_min(0.4).unsqueeze(1);
    const at::Tensor along_x =
        torch::exp(-(torch::arange(width, options).unsqueeze(0) - cell_x.unsqueeze(1)).pow(2) /
                   (2 * sigma_x.pow(2)));
    const at::Tensor along_y =
        torch::exp(-(torch::arange(height, options).unsqueeze(0) - cell_y.unsqueeze(1)).pow(2) /
                   (2 * sigma_y.pow(2)));
    const at::Tensor gaussians =
        (along_y.unsqueeze(2) * along_x.unsqueeze(1)).reshape({-1, height * width});
    at::Tensor heat_target = torch::zeros({batch * classes, height * width}, options);
    heat_target.scatter_reduce_(
        0, (image_of * classes + class_of).unsqueeze(1).expand({-1, height * width}), gaussians,
        "amax");
    heat_target = heat_target.reshape({batch, classes, height, width});

    // CenterNet's focal loss, normalised by the number of objects.
    const at::Tensor positive = heat_target.eq(1).to(torch::kFloat32);
    const at::Tensor probability = torch::sigmoid(heat_logits);
    const at::Tensor focal =
        -(positive * (1 - probability).pow(2) * torch::log_sigmoid(heat_logits) +
          (1 - positive) * (1 - heat_target).pow(4) * probability.pow(2) *
              torch::log_sigmoid(-heat_logits))
             .sum();
    const at::Tensor count = positive.sum().clamp_min(1);
    at::Tensor total = focal / count;
    if (present.size(0) == 0) {
        return total;
    }

    // Offsets and log sizes at each centre cell.
    const at::Tensor cell_index = (cell_y * width + cell_x).to(torch::kInt64);
    const at::Tensor predicted = out.boxes.to(torch::kFloat32)
                                     .reshape({batch, 4, height * width})
                                     .permute({0, 2, 1})
                                     .index({image_of, cell_index});
    const at::Tensor wanted = torch::stack({cx - cell_x, cy - cell_y, box_w.log(), box_h.log()}, 1);
    total = total + torch::nn::functional::l1_loss(predicted, wanted);

    if (masks_) {
        const std::int64_t prototypes = out.prototypes.size(1);
        const at::Tensor coefficients = out.coefficients.to(torch::kFloat32)
                                            .reshape({batch, prototypes, height * width})
                                            .permute({0, 2, 1})
                                            .index({image_of, cell_index}); // [N, P]
        const at::Tensor instances =
            targets
                .narrow(1, DetectedSamples::kMaxObjects * DetectedSamples::kObjectFields,
                        view_height_ * view_width_)
                .reshape({batch, view_height_, view_width_});
        const at::Tensor xs = torch::arange(width, options) + 0.5;
        const at::Tensor ys = torch::arange(height, options) + 0.5;
        at::Tensor mask_loss = torch::zeros({}, options);
        for (std::int64_t b = 0; b < batch; ++b) {
            const at::Tensor mine = image_of.eq(b).nonzero().squeeze(1);
            if (mine.size(0) == 0) {
                continue;
            }
            // Each object's mask at the prototypes' resolution, as the fraction of each cell.
            const at::Tensor ids = (row_of.index_select(0, mine) + 1).view({-1, 1, 1});
            const at::Tensor wanted_masks =
                torch::nn::functional::adaptive_avg_pool2d(
                    instances[b].unsqueeze(0).eq(ids).to(torch::kFloat32).unsqueeze(1),
                    torch::nn::functional::AdaptiveAvgPool2dFuncOptions({height, width}))
                    .squeeze(1);
            const at::Tensor logits =
                torch::matmul(coefficients.index_select(0, mine),
                              out.prototypes[b].to(torch::kFloat32).reshape({prototypes, -1}))
                    .reshape({-1, height, width});
            const at::Tensor corners = box.index_select(0, mine);
            const at::Tensor inside =
                ((xs.view({1, 1, -1}) >= corners.select(1, 0).view({-1, 1, 1})) &
                 (xs.view({1, 1, -1}) <= corners.select(1, 2).view({-1, 1, 1})) &
                 (ys.view({1, -1, 1}) >= corners.select(1, 1).view({-1, 1, 1})) &
                 (ys.view({1, -1, 1}) <= corners.select(1, 3).view({-1, 1, 1})))
                    .to(torch::kFloat32);
            const at::Tensor per_pixel = torch::nn::functional::binary_cross_entropy_with_logits(
                logits, wanted_masks,
                torch::nn::functional::BinaryCrossEntropyWithLogitsFuncOptions().reduction(
                    torch::kNone));
            mask_loss = mask_loss +
                        ((per_pixel * inside).sum({1, 2}) / inside.sum({1, 2}).clamp_min(1)).sum();
        }
        total = total + mask_loss / double(present.size(0));
    }
    return total;
}

std::vector<std::vector<coco::Annotation>>
DetectionTask::detections(const at::Tensor& output, std::int64_t view_height,
                          std::int64_t view_width, const std::vector<ImageRef>& images,
                          int threads) const {
    const std::vector<models::ImageDetections> found =
        models::decode_detections(model_->split(output, view_height), view_height, view_width);
    std::vector<std::vector<coco::Annotation>> result(images.size());
    for (std::size_t i = 0; i < images.size(); ++i) {
        const ImageRef& image = images[i];
        const models::ImageDetections& mine = found[i];
        const double scale_x = double(image.width) / double(view_width);
        const double scale_y = double(image.height) / double(view_height);
        at::Tensor kept = torch::ones({mine.scores.size(0)}, torch::kBool);
        if (masks_) {
            kept = mine.scores.ge(kMinMaskScore).cpu();
        }
        const at::Tensor index = kept.nonzero().squeeze(1).to(mine.scores.device());
        const at::Tensor scores = mine.scores.index_select(0, index).to(torch::kFloat64).cpu();
        const at::Tensor classes = mine.classes.index_select(0, index).cpu();
        const at::Tensor boxes =
            (mine.boxes.index_select(0, index).to(torch::kFloat64) *
             torch::tensor({scale_x, scale_y, scale_x, scale_y}, torch::kFloat64)
                 .to(mine.boxes.device()))
                .cpu()
                .contiguous();
        std::vector<coco::Rle> masks;
        if (masks_ && index.size(0) > 0) {
            torch::nn::functional::InterpolateFuncOptions bilinear;
            bilinear.size(std::vector<std::int64_t>{image.height, image.width})
                .mode(torch::kBilinear)
                .align_corners(false);
            const at::Tensor logits = torch::nn::functional::interpolate(
                mine.mask_logits.index_select(0, index).unsqueeze(0), bilinear)[0];
            const auto pixel_options = torch::dtype(torch::kFloat64).device(logits.device());
            const at::Tensor xs = torch::arange(image.width, pixel_options) + 0.5;
            const at::Tensor ys = torch::arange(image.height, pixel_options) + 0.5;
            const at::Tensor corners = boxes.to(logits.device());
            const at::Tensor inside =
                (xs.view({1, 1, -1}) >= corners.select(1, 0).view({-1, 1, 1})) &
                (xs.view({1, 1, -1}) <= corners.select(1, 2).view({-1, 1, 1})) &
                (ys.view({1, -1, 1}) >= corners.select(1, 1).view({-1, 1, 1})) &
                (ys.view({1, -1, 1}) <= corners.select(1, 3).view({-1, 1, 1}));
            masks = coco::encode_masks((logits.gt(0) & inside).cpu(), threads);
        }
        const double* box = boxes.data_ptr<double>();
        for (std::int64_t d = 0; d < scores.size(0); ++d) {
            coco::Annotation detection;
            detection.image_id = image.id;
            detection.category_id = category_ids_[std::size_t(classes[d].item<std::int64_t>())];
            detection.score = scores[d].item<double>();
            const double* corner = box + 4 * d;
            detection.box = {corner[0], corner[1], corner[2] - corner[0], corner[3] - corner[1]};
            detection.has_box = true;
            if (masks_) {
                detection.segmentation.kind = coco::Segmentation::Kind::Mask;
                detection.segmentation.mask = std::move(masks[std::size_t(d)]);
            }
            result[i].push_back(std::move(detection));
        }
    }
    return result;
}

Validation DetectionTask::validate(const ValidationContext& context) {
    data::Loader loader(val_, context.loader, context.stop);
    loader.start_epoch(0);
    const data::DetectionImages& images = val_->images();
    const int threads = system::usable_cpu_cores();
    const Placement& placement = context.placement;
    // This rank's detections per validation image, as numbers; gathered by summing.
    std::vector<std::vector<double>> records(images.paths.size());
    at::Tensor totals = torch::zeros({2}, torch::dtype(torch::kFloat64).device(placement.device));
    while (std::optional<data::Batch> batch = loader.next()) {
        const auto [pixels, targets] = placed(*batch, placement);
        const at::Tensor output = forward(pixels);
        const double samples = double(targets.size(0));
        totals = totals + torch::stack({loss(output, targets).to(torch::kFloat64) * samples,
                                        torch::full({}, samples, totals.options())});
        std::vector<ImageRef> refs;
        for (const std::int64_t index : batch->indices) {
            const auto i = std::size_t(index);
            refs.push_back({images.image_ids[i], images.sizes[i][0], images.sizes[i][1]});
        }
        const auto found = detections(output, pixels.size(2), pixels.size(3), refs, threads);
        for (std::size_t i = 0; i < refs.size(); ++i) {
            std::vector<double>& record = records[std::size_t(batch->indices[i])];
            for (const coco::Annotation& detection : found[i]) {
                const auto category =
                    std::find(category_ids_.begin(), category_ids_.end(), detection.category_id);
                append_record(record, detection, category - category_ids_.begin());
            }
        }
    }
    // Gathered in two sums: every record's length, then the records at their offsets.
    const auto image_count = static_cast<std::int64_t>(records.size());
    at::Tensor lengths = torch::zeros({image_count}, torch::kFloat64);
    for (std::int64_t i = 0; i < image_count; ++i) {
        lengths[i] = double(records[std::size_t(i)].size());
    }
    lengths = lengths.to(placement.device);
    if (context.sum_over_ranks) {
        context.sum_over_ranks(totals);
        context.sum_over_ranks(lengths);
    }
    const at::Tensor host_lengths = lengths.cpu().to(torch::kInt64).contiguous();
    std::vector<std::int64_t> offsets(std::size_t(image_count) + 1, 0);
    for (std::int64_t i = 0; i < image_count; ++i) {
        offsets[std::size_t(i) + 1] =
            offsets[std::size_t(i)] + host_lengths[i].item<std::int64_t>();
    }
    std::vector<double> flat(std::size_t(offsets.back()), 0.0);
    for (std::size_t i = 0; i < records.size(); ++i) {
        std::copy(records[i].begin(), records[i].end(), flat.begin() + offsets[i]);
    }
    at::Tensor gathered = torch::from_blob(flat.data(), {offsets.back()}, torch::kFloat64)
                              .to(placement.device)
                              .clone();
    if (context.sum_over_ranks && offsets.back() > 0) {
        context.sum_over_ranks(gathered);
    }
    const at::Tensor host_totals = totals.cpu();
    MetricValues values = {
        {"val_loss", host_totals[1].item<double>() > 0
                         ? host_totals[0].item<double>() / host_totals[1].item<double>()
                         : 0.0}};
    if (!context.reports) {
        return {std::move(values), {}, {}, {}};
    }
    const at::Tensor all = gathered.cpu().contiguous();
    const double* numbers = all.data_ptr<double>();
    std::vector<coco::Annotation> found;
    for (std::size_t i = 0; i < records.size(); ++i) {
        for (std::int64_t at = offsets[i]; at < offsets[i + 1];) {
            coco::Annotation detection;
            detection.image_id = images.image_ids[i];
            detection.category_id = category_ids_[std::size_t(numbers[at])];
            detection.score = numbers[at + 1];
            detection.box = {numbers[at + 2], numbers[at + 3], numbers[at + 4], numbers[at + 5]};
            detection.has_box = true;
            const auto runs = static_cast<std::int64_t>(numbers[at + 6]);
            at += 7;
            if (masks_) {
                detection.segmentation.kind = coco::Segmentation::Kind::Mask;
                detection.segmentation.mask = {
                    std::uint32_t(images.sizes[i][1]), std::uint32_t(images.sizes[i][0]),
                    std::vector<std::uint32_t>(numbers + at, numbers + at + runs)};
            }
            at += runs;
            found.push_back(std::move(detection));
        }
    }
    PredictionPreviews previews = preview_detections(found);
    auto evaluate = [truth = images.ground_truth, found = std::move(found), masks = masks_,
                     classwise = classwise_, threads]() mutable {
        return map_metrics(*truth, std::move(found), masks, classwise, threads);
    };
    if (synchronous_) {
        const MetricValues map = evaluate();
        values.insert(values.end(), map.begin(), map.end());
        return {std::move(values), {}, {}, std::move(previews)};
    }
    return {std::move(values),
            std::async(std::launch::async, std::move(evaluate)),
            {},
            std::move(previews)};
}

PredictionPreviews
DetectionTask::preview_detections(const std::vector<coco::Annotation>& found) const {
    const data::DetectionImages& images = val_->images();
    PredictionPreviews previews;
    previews.classes = classes();
    const std::size_t shown =
        std::min<std::size_t>(PredictionPreviews::kImages, images.paths.size());
    for (std::size_t i = 0; i < shown; ++i) {
        PredictionPreview preview;
        preview.image = images.paths[i];
        preview.size = images.sizes[i];
        for (const data::LabelledObject& object : images.objects[i]) {
            preview.true_boxes.push_back({object.box, object.class_id, 1.0F});
        }
        previews.images.push_back(std::move(preview));
    }
    for (const coco::Annotation& detection : found) {
        const auto image = std::find(images.image_ids.begin(), images.image_ids.begin() + shown,
                                     detection.image_id);
        if (image == images.image_ids.begin() + shown) {
            continue;
        }
        const auto category =
            std::find(category_ids_.begin(), category_ids_.end(), detection.category_id);
        const auto [x, y, width, height] = detection.box;
        previews.images[std::size_t(image - images.image_ids.begin())].predicted_boxes.push_back(
            {{float(x), float(y), float(x + width), float(y + height)},
             category - category_ids_.begin(),
             float(detection.score)});
    }
    for (PredictionPreview& preview : previews.images) {
        std::sort(preview.predicted_boxes.begin(), preview.predicted_boxes.end(),
                  [](const auto& a, const auto& b) { return a.score > b.score; });
    }
    return previews;
}

void DetectionTask::save(models::Archive& archive) {
    FinetuningTask::save(archive);
    archive.write(models::checkpoint_key::kCategoryIds,
                  c10::IValue(c10::List<std::int64_t>(category_ids_)));
}

void DetectionTask::load(const models::Archive& archive) {
    FinetuningTask::load(archive);
    if (!archive.contains(models::checkpoint_key::kCategoryIds)) {
        throw Error("the checkpoint's model names no COCO category ids; give a checkpoint of a "
                    "train-object-detection or train-instance-segmentation run");
    }
    std::vector<std::int64_t> saved = archive.integers(models::checkpoint_key::kCategoryIds);
    if (!category_ids_.empty() && saved != category_ids_) {
        throw Error("the checkpoint's model was trained for other category ids than this run's "
                    "annotations; give annotations with the same categories");
    }
    category_ids_ = std::move(saved);
}

} // namespace kiln::train
