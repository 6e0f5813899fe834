#include "data/labelled_samples.h"

#include "core/error.h"
#include "data/image_decode.h"

#include <algorithm>
#include <numeric>
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

std::vector<std::int64_t> ClassifiedSamples::preview_indices(std::size_t count) const {
    std::vector<std::int64_t> class_of;
    for (const std::vector<std::int64_t>& labels : labels_) {
        class_of.push_back(labels.empty() ? -1 : labels.front());
    }
    return stratified_picks(class_of, count);
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
                                   TransformArgs transform, std::int64_t max_mask_pixels)
    : ImageSamples(std::move(images.paths), std::move(transform)), masks_(std::move(images.masks)),
      ignore_index_(ignore_index), max_mask_pixels_(max_mask_pixels) {}

std::optional<std::vector<std::int64_t>> SegmentedSamples::target_shape() const {
    const ViewArgs& view = transform().views.front();
    return std::vector<std::int64_t>{view.height, view.width};
}

void SegmentedSamples::make(std::int64_t index, const cv::Mat& decoded, Rng& rng,
                            const std::vector<float*>& views, std::int64_t* target) const {
    const ViewArgs& view = transform().views.front();
    cv::Mat mask = read_mask(masks_[static_cast<std::size_t>(index)], max_mask_pixels_);
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

DetectedSamples::DetectedSamples(DetectionImages images, bool masks, TransformArgs transform)
    : ImageSamples(images.paths, std::move(transform)), images_(std::move(images)), masks_(masks) {}

std::vector<std::int64_t> DetectedSamples::preview_indices(std::size_t count) const {
    std::vector<std::int64_t> class_of;
    for (const std::vector<LabelledObject>& objects : images_.objects) {
        class_of.push_back(objects.empty() ? -1 : objects.front().class_id);
    }
    return stratified_picks(class_of, count);
}

std::optional<std::vector<std::int64_t>> DetectedSamples::target_shape() const {
    const ViewArgs& view = transform().views.front();
    return std::vector<std::int64_t>{kMaxObjects * kObjectFields +
                                     (masks_ ? std::int64_t(view.height) * view.width : 0)};
}

namespace {

// Paints each object's mask into a 16-bit map of 1 + its index, larger objects first so that
// smaller ones stay visible where masks overlap.
cv::Mat instance_map(const std::vector<LabelledObject>& objects, const coco::MaskSet& masks,
                     cv::Size size) {
    cv::Mat map = cv::Mat::zeros(size, CV_16U);
    std::vector<std::size_t> order(objects.size());
    std::iota(order.begin(), order.end(), 0);
    std::vector<std::uint64_t> areas(objects.size());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        areas[i] = coco::area(masks.masks[objects[i].annotation]);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return areas[a] > areas[b]; });
    for (const std::size_t i : order) {
        const coco::Rle& rle = masks.masks[objects[i].annotation];
        // At most the image's size before a JPEG decoded at 1/8 (an annotation file's sizes
        // are not the image's, and each mask pixel takes a byte here).
        if (std::uint64_t{rle.height} * rle.width > 64 * std::uint64_t(size.area())) {
            throw Error("an object's mask is " + std::to_string(rle.height) + " x " +
                        std::to_string(rle.width) + " pixels, far more than its " +
                        std::to_string(size.height) + " x " + std::to_string(size.width) +
                        " image; give the annotations the images' own height and width");
        }
        std::vector<std::uint8_t> pixels = coco::decode_to_pixels(rle);
        cv::Mat mask(int(rle.height), int(rle.width), CV_8U, pixels.data());
        if (mask.size() != size) {
            cv::resize(mask, mask, size, 0, 0, cv::INTER_NEAREST);
        }
        map.setTo(cv::Scalar(double(i + 1)), mask);
    }
    return map;
}

} // namespace

LabelledScene DetectedSamples::scene(std::int64_t index, const cv::Mat& decoded) const {
    const auto sample = static_cast<std::size_t>(index);
    // Boxes and masks follow a smaller decode, but a validation's masks are drawn at the
    // annotations' size. Checked as the data was read too, where a header told the size.
    if (masks_) {
        require_annotated_size(images_, sample, {decoded.cols, decoded.rows});
    }
    LabelledScene scene;
    scene.image = decoded;
    // Decoding may have shrunk a large JPEG: boxes and masks follow.
    const double shrink_x = double(decoded.cols) / images_.sizes[sample][0];
    const double shrink_y = double(decoded.rows) / images_.sizes[sample][1];
    for (const LabelledObject& object : images_.objects[sample]) {
        scene.boxes.push_back({object.box[0] * shrink_x, object.box[1] * shrink_y,
                               object.box[2] * shrink_x, object.box[3] * shrink_y});
        const auto& box = scene.boxes.back();
        scene.classes.push_back(object.class_id);
        scene.areas.push_back((box[2] - box[0]) * (box[3] - box[1]));
    }
    if (masks_) {
        scene.instances =
            instance_map(images_.objects[sample], images_.ground_truth->masks(1), decoded.size());
    }
    return scene;
}

// Another image of the set, drawn from the sample's stream, for a mosaic tile; the sample's own
// when that one cannot be read (the loader counts unreadable files when it reaches them).
LabelledScene DetectedSamples::random_scene(const LabelledScene& fallback, Rng& rng) const {
    std::uniform_int_distribution<std::size_t> pick(0, images_.paths.size() - 1);
    const std::size_t other = pick(rng);
    try {
        return scene(std::int64_t(other),
                     decode_image(images_.paths[other], transform().min_decode_side()));
    } catch (const Error&) {
        return fallback;
    }
}

// A mosaic of the sample and three other images, and with mixup blended with another.
LabelledScene DetectedSamples::mosaic_of(const LabelledScene& first, Rng& rng) const {
    const ViewArgs& view = transform().views.front();
    const DetectionAugmentation& augmentation = transform().detection;
    const cv::Size size(view.width, view.height);
    const auto four = [&](const LabelledScene& start) {
        const std::array<LabelledScene, 3> others = {
            random_scene(start, rng), random_scene(start, rng), random_scene(start, rng)};
        return data::mosaic({&start, &others[0], &others[1], &others[2]}, size, augmentation, rng);
    };
    LabelledScene result = four(first);
    if (chance(rng, augmentation.mixup_prob)) {
        result = mixup(result, four(random_scene(first, rng)), rng);
    }
    return result;
}

// A random resized crop of the sample (or the whole image), resized to the view.
LabelledScene DetectedSamples::cropped(LabelledScene scene, Rng& rng) const {
    const ViewArgs& view = transform().views.front();
    if (view.random_crop) {
        const cv::Rect crop =
            random_crop_box(scene.image.size(), rng, view.min_scale, view.max_scale);
        scene.image = scene.image(crop);
        if (!scene.instances.empty()) {
            scene.instances = scene.instances(crop);
        }
        for (auto& box : scene.boxes) {
            box = {std::clamp(box[0] - crop.x, 0.0, double(crop.width)),
                   std::clamp(box[1] - crop.y, 0.0, double(crop.height)),
                   std::clamp(box[2] - crop.x, 0.0, double(crop.width)),
                   std::clamp(box[3] - crop.y, 0.0, double(crop.height))};
        }
    }
    const double scale_x = double(view.width) / scene.image.cols;
    const double scale_y = double(view.height) / scene.image.rows;
    scene.image = resize(scene.image, view.height, view.width);
    if (!scene.instances.empty()) {
        cv::resize(scene.instances, scene.instances, cv::Size(view.width, view.height), 0, 0,
                   cv::INTER_NEAREST);
    }
    for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
        auto& box = scene.boxes[i];
        box = {box[0] * scale_x, box[1] * scale_y, box[2] * scale_x, box[3] * scale_y};
        scene.areas[i] *= scale_x * scale_y;
    }
    drop_slivers(scene);
    return scene;
}

void DetectedSamples::make(std::int64_t index, const cv::Mat& decoded, Rng& rng,
                           const std::vector<float*>& views, std::int64_t* target) const {
    const ViewArgs& view = transform().views.front();
    LabelledScene scene = this->scene(index, decoded);
    scene = mosaic_.load() && chance(rng, transform().detection.mosaic_prob)
                ? mosaic_of(scene, rng)
                : cropped(std::move(scene), rng);
    scene = copy_paste(std::move(scene), transform().detection.copy_paste_prob, rng);
    const bool flip_x = chance(rng, view.horizontal_flip_prob);
    const bool flip_y = chance(rng, view.vertical_flip_prob);
    if (flip_x) {
        horizontal_flip(scene.image);
    }
    if (flip_y) {
        vertical_flip(scene.image);
    }
    if (!scene.instances.empty() && (flip_x || flip_y)) {
        cv::flip(scene.instances, scene.instances, flip_x && flip_y ? -1 : (flip_x ? 1 : 0));
    }
    apply_photometric(scene.image, view, transform().num_channels, rng);
    write_view(scene.image, views.front());

    std::fill(target, target + kMaxObjects * kObjectFields, 0);
    const std::size_t rows = std::min<std::size_t>(scene.boxes.size(), kMaxObjects);
    for (std::size_t i = 0; i < rows; ++i) {
        auto [x0, y0, x1, y1] = scene.boxes[i];
        if (flip_x) {
            std::tie(x0, x1) = std::pair(view.width - x1, view.width - x0);
        }
        if (flip_y) {
            std::tie(y0, y1) = std::pair(view.height - y1, view.height - y0);
        }
        std::int64_t* out = target + std::int64_t(i) * kObjectFields;
        out[0] = scene.classes[i];
        out[1] = std::llround(x0 * kBoxScale);
        out[2] = std::llround(y0 * kBoxScale);
        out[3] = std::llround(x1 * kBoxScale);
        out[4] = std::llround(y1 * kBoxScale);
    }
    for (auto r = std::int64_t(rows); r < kMaxObjects; ++r) {
        target[r * kObjectFields] = -1;
    }
    if (masks_) {
        std::int64_t* out = target + kMaxObjects * kObjectFields;
        for (int y = 0; y < scene.instances.rows; ++y) {
            const std::uint16_t* source = scene.instances.ptr<std::uint16_t>(y);
            for (int x = 0; x < scene.instances.cols; ++x) {
                // Objects past the record's rows are left out of the masks too.
                *out++ = source[x] <= rows ? source[x] : 0;
            }
        }
    }
}

} // namespace kiln::data
