#pragma once

#include "data/augment.h"
#include "data/dataset_index.h"
#include "data/view_transform.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace kiln::data {

struct ViewShape {
    int channels = 3;
    int height = 0;
    int width = 0;
};

// The shape of each view `transform` makes of an image.
std::vector<ViewShape> view_shapes(const TransformArgs& transform);

// What a Loader batches: the samples of one split, each made from its decoded image into one
// or more float views and, for labelled data, a target (a class id, or a mask of class ids).
// The loader reads and decodes the image (skipping unreadable files); the source does the rest.
// make() runs on the loader's worker threads at once, so it must not change the source.
class SampleSource {
public:
    virtual ~SampleSource() = default;

    virtual std::int64_t size() const = 0;
    virtual std::filesystem::path image_path(std::int64_t index) const = 0;
    virtual std::vector<ViewShape> view_shapes() const = 0;
    // The shape of one sample's int64 target ({} for a class id, {H, W} for a mask); nullopt
    // when the samples have none.
    virtual std::optional<std::vector<std::int64_t>> target_shape() const { return std::nullopt; }
    // The shorter side a decoded image needs: decoding may shrink larger ones to it.
    virtual int min_decode_side() const = 0;
    // Writes sample `index`, from its decoded BGR `image`, into `views` (one C x H x W float
    // buffer per view) and `target` (target_shape() int64 values; null without targets).
    // Failures are kiln::Errors naming the file.
    virtual void make(std::int64_t index, const cv::Mat& image, Rng& rng,
                      const std::vector<float*>& views, std::int64_t* target) const = 0;
    // The `count` samples a validation shows as previews, the same at every validation: the
    // first ones, or for labelled samples one of each class in turn (stratified_picks).
    virtual std::vector<std::int64_t> preview_indices(std::size_t count) const;
};

// Up to `count` indices of samples taken one class at a time, in turn: the classes in order of
// their first sample, each class's samples in order. `class_of[i]` is sample i's class (any
// value; -1 for none is a class too).
std::vector<std::int64_t> stratified_picks(const std::vector<std::int64_t>& class_of,
                                           std::size_t count);

// Unlabelled images as a method's views: pretraining and embedding.
class ViewSource : public SampleSource {
public:
    // `index` must outlive the source.
    ViewSource(const DatasetIndex& index, TransformArgs transform);

    std::int64_t size() const override { return static_cast<std::int64_t>(index_.size()); }
    std::filesystem::path image_path(std::int64_t index) const override;
    std::vector<ViewShape> view_shapes() const override;
    int min_decode_side() const override { return transform_.min_decode_side(); }
    void make(std::int64_t index, const cv::Mat& image, Rng& rng, const std::vector<float*>& views,
              std::int64_t* target) const override;

private:
    const DatasetIndex& index_;
    TransformArgs transform_;
};

} // namespace kiln::data
