#include "train/detection_task.h"

#include "core/error.h"
#include "core/log.h"
#include "data/loader.h"
#include "data/view_transform.h"
#include "eval/coco/coco_eval.h"
#include "eval/coco/mask_tensor.h"
#include "models/checkpoint_file.h"
#include "system/hardware.h"
#include "train/detection_loss.h"

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

struct DetectorArgs {
    std::string backbone_weights;
    int width;
    int prototypes; // 0 without masks
};

DetectorArgs read_model_args(const TrainConfig& config, bool masks) {
    const nlohmann::json args = model_args_or_defaults(config);
    return {.backbone_weights = args.value("backbone_weights", ""),
            .width = args.at("width").get<int>(),
            .prototypes = masks ? args.at("prototypes").get<int>() : 0};
}

models::Detector make_detector(const TrainConfig& config, const DetectorArgs& args,
                               std::int64_t classes, int channels, std::int64_t image_side) {
    return models::Detector(models::make_backbone(config.model, channels), classes, args.width,
                            args.prototypes, channels, image_side);
}

// COCOeval.stats under the names torchmetrics and LightlyTrain log them.
const std::array<const char*, coco::kStatCount> kStatNames = {
    "map",   "map_50", "map_75",  "map_small", "map_medium", "map_large",
    "mar_1", "mar_10", "mar_100", "mar_small", "mar_medium", "mar_large"};

// The mAP metrics of one validation's detections: box for detection, mask for instance
// segmentation (with the box mAP as box_map).
LaterMetrics map_metrics(const coco::GroundTruth& truth, std::vector<coco::Annotation> found,
                         bool masks, bool classwise, int threads) {
    const coco::Detections detections =
        coco::Detections::from_annotations(std::move(found), truth, "validation", threads);
    coco::EvalParams params;
    params.iou_type = masks ? coco::IouType::Mask : coco::IouType::Box;
    params.threads = threads;
    const coco::EvalResult result = coco::evaluate(truth, detections, params);
    LaterMetrics later;
    for (std::size_t k = 0; k < result.category_count; ++k) {
        later.precision_recall.classes.push_back(truth.categories()[k].name);
        later.precision_recall.precision.push_back(coco::precision_at_recalls(result, k));
    }
    MetricValues& values = later.values;
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
                values.emplace_back(track::per_class_metric("map", category.name), category.ap);
            }
        }
    }
    return later;
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

// Every rank's detection records (append_record's numbers) per validation image, summed over the
// ranks in two sums: the records' lengths, then the records at their offsets.
struct GatheredRecords {
    std::vector<std::int64_t> offsets; // image i's numbers are [offsets[i], offsets[i + 1])
    at::Tensor numbers;                // on the CPU
};

GatheredRecords gather_records(const std::vector<std::vector<double>>& records,
                               const ValidationContext& context) {
    const c10::Device device = context.placement.device;
    const auto image_count = static_cast<std::int64_t>(records.size());
    at::Tensor lengths = torch::zeros({image_count}, torch::kFloat64);
    for (std::int64_t i = 0; i < image_count; ++i) {
        lengths[i] = double(records[std::size_t(i)].size());
    }
    lengths = lengths.to(device);
    if (context.sum_over_ranks) {
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
    at::Tensor gathered =
        torch::from_blob(flat.data(), {offsets.back()}, torch::kFloat64).to(device).clone();
    if (context.sum_over_ranks && offsets.back() > 0) {
        context.sum_over_ranks(gathered);
    }
    return {std::move(offsets), gathered.cpu().contiguous()};
}

// The detections the gathered records describe, as COCO results.
std::vector<coco::Annotation> read_records(const GatheredRecords& gathered,
                                           const data::DetectionImages& images,
                                           const std::vector<std::int64_t>& category_ids,
                                           bool masks) {
    const std::vector<std::int64_t>& offsets = gathered.offsets;
    const double* numbers = gathered.numbers.data_ptr<double>();
    std::vector<coco::Annotation> found;
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
        for (std::int64_t at = offsets[i]; at < offsets[i + 1];) {
            coco::Annotation detection;
            detection.image_id = images.image_ids[i];
            detection.category_id = category_ids[std::size_t(numbers[at])];
            detection.score = numbers[at + 1];
            detection.box = {numbers[at + 2], numbers[at + 3], numbers[at + 4], numbers[at + 5]};
            detection.has_box = true;
            const auto runs = static_cast<std::int64_t>(numbers[at + 6]);
            at += 7;
            if (masks) {
                detection.segmentation.kind = coco::Segmentation::Kind::Mask;
                detection.segmentation.mask = {
                    std::uint32_t(images.sizes[i][1]), std::uint32_t(images.sizes[i][0]),
                    std::vector<std::uint32_t>(numbers + at, numbers + at + runs)};
            }
            at += runs;
            found.push_back(std::move(detection));
        }
    }
    return found;
}

} // namespace

DetectionTask::DetectionTask(const TrainConfig& config, bool masks) : masks_(masks) {
    const DetectorArgs args = read_model_args(config, masks);
    synchronous_ = config.map.synchronous;
    const int threads = system::usable_cpu_cores();
    data::DetectionData data = data::load_detection_data(config.labelled_data, masks, threads);
    classwise_ = config.map.classwise_for(data.classes.size());
    const nlohmann::json transform_args =
        sized_transform_args(config.transform_args, [&data] { return data.train.sizes; });
    const data::TransformArgs train_transform =
        data::finetune_transform(transform_args, true, kMinCropScale, {.detection = true});
    const data::TransformArgs val_transform =
        data::finetune_transform(transform_args, false, kMinCropScale, {.detection = true});
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
                           train_transform.num_channels, std::max(view_height_, view_width_));
    val_ = std::make_shared<DetectedSamples>(std::move(data.val), masks, val_transform);
    train_ = std::make_shared<DetectedSamples>(std::move(data.train), masks, train_transform);
    close_mosaic_fraction_ = train_transform.detection.close_mosaic_fraction;
    set_up(model_.ptr(), {data.classes, false}, train_, val_);
    load_initial_weights(config, args.backbone_weights, model_->backbone());
    check_watch_metric(config.watch_metric);
}

DetectionTask::DetectionTask(const TrainConfig& config, bool masks, Labels labels) : masks_(masks) {
    const data::TransformArgs transform =
        data::finetune_transform(config.transform_args, false, kMinCropScale, {.detection = true});
    view_height_ = transform.views.front().height;
    view_width_ = transform.views.front().width;
    model_ = make_detector(config, read_model_args(config, masks),
                           static_cast<std::int64_t>(labels.classes.size()), transform.num_channels,
                           std::max(view_height_, view_width_));
    set_up(model_.ptr(), std::move(labels));
}

void DetectionTask::start_epoch(std::int64_t epoch, std::int64_t epochs) {
    if (train_) {
        const double last_mosaic = std::ceil(double(epochs) * (1.0 - close_mosaic_fraction_));
        train_->set_mosaic(double(epoch) < last_mosaic);
    }
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

DetectionTargets DetectionTask::targets_of(const at::Tensor& record) const {
    const std::int64_t batch = record.size(0);
    const at::Tensor rows =
        record.narrow(1, 0, DetectedSamples::kMaxObjects * DetectedSamples::kObjectFields)
            .view({batch, DetectedSamples::kMaxObjects, DetectedSamples::kObjectFields});
    // Rows fill from the first: the batch needs as many as its fullest image has.
    const at::Tensor present = rows.select(2, 0).ge(0);
    const std::int64_t used = present.sum(1).max().item<std::int64_t>();
    DetectionTargets targets;
    targets.valid = present.narrow(1, 0, used);
    targets.classes = rows.select(2, 0).narrow(1, 0, used).clamp_min(0);
    targets.boxes =
        rows.narrow(1, 0, used).narrow(2, 1, 4).to(torch::kFloat32) / DetectedSamples::kBoxScale;
    if (masks_) {
        targets.instances =
            record
                .narrow(1, DetectedSamples::kMaxObjects * DetectedSamples::kObjectFields,
                        view_height_ * view_width_)
                .view({batch, view_height_, view_width_});
    }
    return targets;
}

at::Tensor DetectionTask::loss(const at::Tensor& output, const at::Tensor& targets) {
    const models::DetectorOutput out = model_->split(output, view_height_, view_width_);
    return detection_loss(out, targets_of(targets)).total();
}

std::vector<std::vector<coco::Annotation>>
DetectionTask::detections(const at::Tensor& output, std::int64_t view_height,
                          std::int64_t view_width, const std::vector<ImageRef>& images,
                          int threads) const {
    const std::vector<models::ImageDetections> found = models::decode_detections(
        model_->split(output, view_height, view_width), view_height, view_width);
    std::vector<std::vector<coco::Annotation>> result(images.size());
    for (std::size_t i = 0; i < images.size(); ++i) {
        const ImageRef& image = images[i];
        const models::ImageDetections& mine = found[i];
        const double scale_x = double(image.width) / double(view_width);
        const double scale_y = double(image.height) / double(view_height);
        const at::Tensor scores = mine.scores.to(torch::kFloat64).cpu();
        const at::Tensor classes = mine.classes.cpu();
        const at::Tensor boxes =
            (mine.boxes.to(torch::kFloat64) *
             torch::tensor({scale_x, scale_y, scale_x, scale_y}, torch::kFloat64)
                 .to(mine.boxes.device()))
                .cpu()
                .contiguous();
        std::vector<coco::Rle> masks;
        if (masks_ && scores.size(0) > 0) {
            torch::nn::functional::InterpolateFuncOptions bilinear;
            bilinear.size(std::vector<std::int64_t>{image.height, image.width})
                .mode(torch::kBilinear)
                .align_corners(false);
            const at::Tensor logits =
                torch::nn::functional::interpolate(mine.mask_logits.unsqueeze(0), bilinear)[0];
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
        const auto class_of = classes.accessor<std::int64_t, 1>();
        const auto score_of = scores.accessor<double, 1>();
        for (std::int64_t d = 0; d < scores.size(0); ++d) {
            coco::Annotation detection;
            detection.image_id = image.id;
            detection.category_id = category_ids_[std::size_t(class_of[d])];
            detection.score = score_of[d];
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
    if (context.sum_over_ranks) {
        context.sum_over_ranks(totals);
    }
    const GatheredRecords gathered = gather_records(records, context);
    const at::Tensor host_totals = totals.cpu();
    MetricValues values = {
        {"val_loss", host_totals[1].item<double>() > 0
                         ? host_totals[0].item<double>() / host_totals[1].item<double>()
                         : 0.0}};
    if (!context.reports) {
        return {std::move(values), {}, {}, {}, {}};
    }
    std::vector<coco::Annotation> found = read_records(gathered, images, category_ids_, masks_);
    PredictionPreviews previews = preview_detections(found);
    auto evaluate = [truth = images.ground_truth, found = std::move(found), masks = masks_,
                     classwise = classwise_, threads]() mutable {
        return map_metrics(*truth, std::move(found), masks, classwise, threads);
    };
    if (synchronous_) {
        LaterMetrics map = evaluate();
        values.insert(values.end(), map.values.begin(), map.values.end());
        return {std::move(values), {}, {}, std::move(previews), std::move(map.precision_recall)};
    }
    return {std::move(values),
            std::async(std::launch::async, log::for_this_job(std::move(evaluate))),
            {},
            std::move(previews),
            {}};
}

PredictionPreviews
DetectionTask::preview_detections(const std::vector<coco::Annotation>& found) const {
    const data::DetectionImages& images = val_->images();
    PredictionPreviews previews;
    previews.classes = classes();
    const std::vector<std::int64_t> picks = val_->preview_indices(PredictionPreviews::kImages);
    for (const std::int64_t pick : picks) {
        const auto i = std::size_t(pick);
        PredictionPreview preview;
        preview.image = images.paths[i];
        preview.size = images.sizes[i];
        for (const data::LabelledObject& object : images.objects[i]) {
            preview.true_boxes.push_back({object.box, object.class_id, 1.0F});
        }
        previews.images.push_back(std::move(preview));
    }
    for (const coco::Annotation& detection : found) {
        const auto pick = std::find_if(picks.begin(), picks.end(), [&](std::int64_t i) {
            return images.image_ids[std::size_t(i)] == detection.image_id;
        });
        if (pick == picks.end()) {
            continue;
        }
        const auto category =
            std::find(category_ids_.begin(), category_ids_.end(), detection.category_id);
        const auto [x, y, width, height] = detection.box;
        previews.images[std::size_t(pick - picks.begin())].predicted_boxes.push_back(
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
