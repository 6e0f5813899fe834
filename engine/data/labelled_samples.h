#pragma once

#include "data/labelled_data.h"
#include "data/sample_source.h"

namespace kiln::data {

// Images with their class ids, in one view of finetune_transform(). The target is the class id,
// or for a multilabel set (multilabel_classes > 0) a multi-hot vector of that many 0s and 1s.
class ClassifiedSamples : public SampleSource {
public:
    ClassifiedSamples(ClassifiedImages images, TransformArgs transform,
                      std::int64_t multilabel_classes = 0);

    std::int64_t size() const override { return static_cast<std::int64_t>(images_.paths.size()); }
    std::filesystem::path image_path(std::int64_t index) const override;
    std::vector<ViewShape> view_shapes() const override;
    std::optional<std::vector<std::int64_t>> target_shape() const override;
    int min_decode_side() const override { return transform_.min_decode_side(); }
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

    const ClassifiedImages& images() const { return images_; }

private:
    ClassifiedImages images_;
    TransformArgs transform_;
    std::int64_t multilabel_classes_;
};

// Images with a mask each: one crop and flip cut both (the mask by nearest neighbour), and
// the mask's values become the target, with the ignore index as -1.
class SegmentedSamples : public SampleSource {
public:
    SegmentedSamples(SegmentedImages images, int ignore_index, TransformArgs transform);

    std::int64_t size() const override { return static_cast<std::int64_t>(images_.paths.size()); }
    std::filesystem::path image_path(std::int64_t index) const override;
    std::vector<ViewShape> view_shapes() const override;
    std::optional<std::vector<std::int64_t>> target_shape() const override;
    int min_decode_side() const override { return transform_.min_decode_side(); }
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

    const SegmentedImages& images() const { return images_; }

private:
    SegmentedImages images_;
    int ignore_index_;
    TransformArgs transform_;
};

// Images without labels, for prediction: the whole image resized.
class ImageSamples : public SampleSource {
public:
    ImageSamples(std::vector<std::filesystem::path> paths, TransformArgs transform);

    std::int64_t size() const override { return static_cast<std::int64_t>(paths_.size()); }
    std::filesystem::path image_path(std::int64_t index) const override;
    std::vector<ViewShape> view_shapes() const override;
    int min_decode_side() const override { return transform_.min_decode_side(); }
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

private:
    std::vector<std::filesystem::path> paths_;
    TransformArgs transform_;
};

} // namespace kiln::data
