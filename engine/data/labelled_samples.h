#pragma once

#include "data/detection_augment.h"
#include "data/detection_data.h"
#include "data/labelled_data.h"
#include "data/sample_source.h"

#include <atomic>

namespace kiln::data {

// Image files in one view of finetune_transform() each, without targets: what prediction
// runs on, and the base of the labelled sources.
class ImageSamples : public SampleSource {
public:
    ImageSamples(std::vector<std::filesystem::path> paths, TransformArgs transform);

    std::int64_t size() const override { return static_cast<std::int64_t>(paths_.size()); }
    std::filesystem::path image_path(std::int64_t index) const override;
    std::vector<ViewShape> view_shapes() const override;
    int min_decode_side() const override { return transform_.min_decode_side(); }
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

protected:
    const TransformArgs& transform() const { return transform_; }
    // Normalises a finished view into the batch.
    void write_view(const cv::Mat& view, float* out) const;

private:
    std::vector<std::filesystem::path> paths_;
    TransformArgs transform_;
};

// Images with their class ids. The target is the class id, or for a multilabel set
// (multilabel_classes > 0) a multi-hot vector of that many 0s and 1s.
class ClassifiedSamples : public ImageSamples {
public:
    ClassifiedSamples(ClassifiedImages images, TransformArgs transform,
                      std::int64_t multilabel_classes = 0);

    std::optional<std::vector<std::int64_t>> target_shape() const override;
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;
    // Stratified by each image's (first) class.
    std::vector<std::int64_t> preview_indices(std::size_t count) const override;

private:
    std::vector<std::vector<std::int64_t>> labels_;
    std::int64_t multilabel_classes_;
};

// Images with a mask each: one crop and flip cut both (the mask by nearest neighbour), the
// photometric augmentations touch the image only, and the mask's values become the target,
// with the ignore index as -1.
class SegmentedSamples : public ImageSamples {
public:
    SegmentedSamples(SegmentedImages images, int ignore_index, TransformArgs transform,
                     std::int64_t max_mask_pixels);

    std::optional<std::vector<std::int64_t>> target_shape() const override;
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

private:
    std::vector<std::filesystem::path> masks_;
    int ignore_index_;
    std::int64_t max_mask_pixels_;
};

// Images with the objects to detect: one crop and flip cut the image, the boxes (clipped; an
// object with less than a pixel or a tenth of its area left in the view is dropped) and, with
// `masks`, each object's mask. The target is a fixed-size int64 record:
//   kMaxObjects rows of (class, x0, y0, x1, y1): the class id, or -1 for an unused row, and
//       the box in view pixels times kBoxScale;
//   with masks, then height x width instance ids: 1 + the row of the object seen, 0 for none.
class DetectedSamples : public ImageSamples {
public:
    static constexpr std::int64_t kMaxObjects = 100;
    static constexpr std::int64_t kObjectFields = 5;
    static constexpr double kBoxScale = 16.0;

    // `images.ground_truth` must have its masks built when `masks` is set.
    DetectedSamples(DetectionImages images, bool masks, TransformArgs transform);

    std::optional<std::vector<std::int64_t>> target_shape() const override;
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

    const DetectionImages& images() const { return images_; }
    // Stratified by the class of each image's first object.
    std::vector<std::int64_t> preview_indices(std::size_t count) const override;
    // Mosaics (transform.detection.mosaic_prob) on or off, from the next sample made: the
    // detection task turns them off for the last part of the run, between epochs.
    void set_mosaic(bool on) const { mosaic_.store(on); }

private:
    LabelledScene scene(std::int64_t index, const cv::Mat& decoded) const;
    LabelledScene random_scene(const LabelledScene& fallback, Rng& rng) const;
    LabelledScene mosaic_of(const LabelledScene& first, Rng& rng) const;
    LabelledScene cropped(LabelledScene scene, Rng& rng) const;

    DetectionImages images_;
    bool masks_;
    mutable std::atomic<bool> mosaic_{true};
};

} // namespace kiln::data
