#include "data/labelled_samples.h"

#include "core/error.h"

#include <algorithm>
#include <opencv2/imgproc.hpp>

namespace kiln::data {

ImageSamples::ImageSamples(std::vector<std::filesystem::path> paths, TransformArgs transform)
    : paths_(std::move(paths)), transform_(std::move(transform)) {}

std::filesystem::path ImageSamples::image_path(std::int64_t index) const {
    return paths_[static_cast<std::size_t>(index)];
}

std::vector<ViewShape> ImageSamples::view_shapes() const {
    const ViewArgs& view = transform_.views.front();
    return {{transform_.num_channels, view.height, view.width}};
}

void ImageSamples::write_view(const cv::Mat& view, float* out) const {
    write_normalized(view, transform_.num_channels, transform_.mean.data(), transform_.std.data(),
                     out);
}

void ImageSamples::make(std::int64_t, const cv::Mat& image, Rng& rng,
                        const std::vector<float*>& views, std::int64_t*) const {
    write_view(make_view(image, transform_.views.front(), transform_.num_channels, rng),
               views.front());
}

ClassifiedSamples::ClassifiedSamples(ClassifiedImages images, TransformArgs transform,
                                     std::int64_t multilabel_classes)
    : ImageSamples(std::move(images.paths), std::move(transform)),
      labels_(std::move(images.labels)), multilabel_classes_(multilabel_classes) {}

std::optional<std::vector<std::int64_t>> ClassifiedSamples::target_shape() const {
    return multilabel_classes_ > 0 ? std::vector<std::int64_t>{multilabel_classes_}
                                   : std::vector<std::int64_t>{};
}

void ClassifiedSamples::make(std::int64_t index, const cv::Mat& image, Rng& rng,
                             const std::vector<float*>& views, std::int64_t* target) const {
    ImageSamples::make(index, image, rng, views, nullptr);
    const std::vector<std::int64_t>& labels = labels_[static_cast<std::size_t>(index)];
    if (multilabel_classes_ == 0) {
        *target = labels.front();
        return;
    }
    std::fill(target, target + multilabel_classes_, 0);
    for (const std::int64_t label : labels) {
        target[label] = 1;
    }
}

SegmentedSamples::SegmentedSamples(SegmentedImages images, int ignore_index,
                                   TransformArgs transform)
    : ImageSamples(std::move(images.paths), std::move(transform)), masks_(std::move(images.masks)),
      ignore_index_(ignore_index) {}

std::optional<std::vector<std::int64_t>> SegmentedSamples::target_shape() const {
    const ViewArgs& view = transform().views.front();
    return std::vector<std::int64_t>{view.height, view.width};
}

void SegmentedSamples::make(std::int64_t index, const cv::Mat& decoded, Rng& rng,
                            const std::vector<float*>& views, std::int64_t* target) const {
    const ViewArgs& view = transform().views.front();
    cv::Mat mask = read_mask(masks_[static_cast<std::size_t>(index)]);
    cv::Mat image = decoded;
    // Decoding may have shrunk a large JPEG: the mask follows, keeping its ids.
    if (mask.size() != image.size()) {
        cv::resize(mask, mask, image.size(), 0, 0, cv::INTER_NEAREST);
    }
    if (view.random_crop) {
        const cv::Rect box = random_crop_box(image.size(), rng, view.min_scale, view.max_scale);
        image = image(box);
        mask = mask(box);
    }
    image = resize(image, view.height, view.width);
    cv::resize(mask, mask, cv::Size(view.width, view.height), 0, 0, cv::INTER_NEAREST);
    if (chance(rng, view.horizontal_flip_prob)) {
        horizontal_flip(image);
        cv::flip(mask, mask, 1);
    }
    if (chance(rng, view.vertical_flip_prob)) {
        vertical_flip(image);
        cv::flip(mask, mask, 0);
    }
    apply_photometric(image, view, transform().num_channels, rng);
    write_view(image, views.front());
    cv::Mat ids;
    mask.convertTo(ids, CV_32S);
    for (int y = 0; y < ids.rows; ++y) {
        const int* row = ids.ptr<int>(y);
        for (int x = 0; x < ids.cols; ++x) {
            *target++ = row[x] == ignore_index_ ? -1 : row[x];
        }
    }
}

} // namespace kiln::data
