#pragma once

#include "data/labelled_samples.h"
#include "eval/coco/coco_data.h"
#include "models/detector.h"
#include "train/detection_loss.h"
#include "train/finetuning_task.h"

#include <memory>

namespace kiln::train {

// Where a detection's image is and how large it is in its own pixels.
struct ImageRef {
    std::int64_t id = 0;
    int width = 0;
    int height = 0;
};

// Object detection and (with `masks`) instance segmentation: the anchor-free Detector trained
// with task-aligned assignment, complete-IoU and distribution focal losses on its boxes, binary
// cross-entropy on its classes and, for masks, each object's prototype mix inside its box
// (detection_loss). Validated by COCO mAP from Kiln's evaluator (pycocotools' numbers), computed
// from a snapshot of the detections on its own thread unless metric_args.map.mode=sync.
class DetectionTask : public FinetuningTask {
public:
    // Reads config.labelled_data (COCO or YOLO) and builds config.model with the detector.
    // Bad settings and data are kiln::Errors raised before anything is written.
    DetectionTask(const TrainConfig& config, bool masks);
    // The model alone, for prediction.
    DetectionTask(const TrainConfig& config, bool masks, Labels labels);

    at::Tensor forward(const at::Tensor& images) override;
    // Mosaics stop for the last transform_args.mosaic.close_fraction of the epochs.
    void start_epoch(std::int64_t epoch, std::int64_t epochs) override;
    Validation validate(const ValidationContext& context) override;
    void save(models::Archive& archive) override;
    void load(const models::Archive& archive) override;

    // The detections of a batch from forward()'s `output` for images of `view_height` x
    // `view_width`, in each image's own pixels, as COCO results (category ids as in the
    // training annotations): up to 100 per image, masks encoded on up to `threads` threads.
    std::vector<std::vector<coco::Annotation>>
    detections(const at::Tensor& output, std::int64_t view_height, std::int64_t view_width,
               const std::vector<ImageRef>& images, int threads) const;
    // The COCO category id of each class.
    const std::vector<std::int64_t>& category_ids() const { return category_ids_; }

private:
    at::Tensor loss(const at::Tensor& output, const at::Tensor& targets) override;
    // The objects of a batch's target records (DetectedSamples'), for the loss.
    DetectionTargets targets_of(const at::Tensor& record) const;
    std::vector<std::string> metric_names() const override;
    // The first validation images' boxes and the detections `found` in them.
    PredictionPreviews preview_detections(const std::vector<coco::Annotation>& found) const;

    models::Detector model_{nullptr};
    bool masks_;
    std::vector<std::int64_t> category_ids_;
    std::shared_ptr<const data::DetectedSamples> train_;
    std::shared_ptr<const data::DetectedSamples> val_;
    std::int64_t view_height_ = 0; // the size images are trained and validated at
    std::int64_t view_width_ = 0;
    double close_mosaic_fraction_ = 0.0;
    bool synchronous_ = false;
    bool classwise_ = false;
};

} // namespace kiln::train
