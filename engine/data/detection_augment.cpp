#include "data/detection_augment.h"

#include <algorithm>
#include <opencv2/imgproc.hpp>

namespace kiln::data {
namespace {

const cv::Scalar kPadding(114, 114, 114); // the grey Ultralytics pads mosaics with

// The pieces of a mosaic: where tile `corner` (0 top-left, 1 top-right, 2 bottom-left,
// 3 bottom-right) of size `tile` lands on the canvas around `centre`, and which part of it.
struct Placement {
    cv::Rect on_canvas;
    cv::Rect of_tile;
};

Placement place(int corner, cv::Size tile, cv::Point centre, cv::Size canvas) {
    const bool left = corner % 2 == 0, top = corner < 2;
    const int x0 = left ? std::max(centre.x - tile.width, 0) : centre.x;
    const int x1 = left ? centre.x : std::min(centre.x + tile.width, canvas.width);
    const int y0 = top ? std::max(centre.y - tile.height, 0) : centre.y;
    const int y1 = top ? centre.y : std::min(centre.y + tile.height, canvas.height);
    const int width = x1 - x0, height = y1 - y0;
    return {{x0, y0, width, height},
            {left ? tile.width - width : 0, top ? tile.height - height : 0, width, height}};
}

// Keeps the objects `keep` marks, renumbering the instance map.
void keep_objects(LabelledScene& scene, const std::vector<bool>& keep) {
    std::vector<std::uint16_t> renumbered(scene.boxes.size() + 1, 0);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
        if (keep[i]) {
            scene.boxes[kept] = scene.boxes[i];
            scene.classes[kept] = scene.classes[i];
            scene.areas[kept] = scene.areas[i];
            renumbered[i + 1] = static_cast<std::uint16_t>(++kept);
        }
    }
    scene.boxes.resize(kept);
    scene.classes.resize(kept);
    scene.areas.resize(kept);
    if (!scene.instances.empty()) {
        for (int y = 0; y < scene.instances.rows; ++y) {
            auto* row = scene.instances.ptr<std::uint16_t>(y);
            for (int x = 0; x < scene.instances.cols; ++x) {
                row[x] = row[x] < renumbered.size() ? renumbered[row[x]] : 0;
            }
        }
    }
}

// Adds `from`'s instance map into `to` at `at`, its ids shifted by `offset`.
void paste_instances(const cv::Mat& from, cv::Mat& to, const Placement& where,
                     std::uint16_t offset) {
    const cv::Mat source = from(where.of_tile);
    cv::Mat target = to(where.on_canvas);
    for (int y = 0; y < source.rows; ++y) {
        const auto* in = source.ptr<std::uint16_t>(y);
        auto* out = target.ptr<std::uint16_t>(y);
        for (int x = 0; x < source.cols; ++x) {
            out[x] = in[x] == 0 ? 0 : static_cast<std::uint16_t>(in[x] + offset);
        }
    }
}

double beta_32(Rng& rng) {
    std::gamma_distribution<double> gamma(32.0, 1.0);
    const double a = gamma(rng), b = gamma(rng);
    return a / (a + b);
}

} // namespace

void drop_slivers(LabelledScene& scene) {
    std::vector<bool> keep(scene.boxes.size());
    for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
        const auto& box = scene.boxes[i];
        const double width = box[2] - box[0], height = box[3] - box[1];
        keep[i] = width >= 2.0 && height >= 2.0 && width * height >= 0.1 * scene.areas[i];
    }
    keep_objects(scene, keep);
}

LabelledScene mosaic(const std::array<const LabelledScene*, 4>& scenes, cv::Size view,
                     const DetectionAugmentation& augmentation, Rng& rng) {
    const cv::Size canvas_size(2 * view.width, 2 * view.height);
    const bool masks = !scenes[0]->instances.empty();
    LabelledScene canvas;
    canvas.image = cv::Mat(canvas_size, CV_8UC3, kPadding);
    if (masks) {
        canvas.instances = cv::Mat::zeros(canvas_size, CV_16U);
    }
    const cv::Point centre(int(uniform(rng, view.width / 2.0, 1.5 * view.width)),
                           int(uniform(rng, view.height / 2.0, 1.5 * view.height)));
    for (int corner = 0; corner < 4; ++corner) {
        const LabelledScene& scene = *scenes[std::size_t(corner)];
        const double r =
            std::min(double(view.height) / scene.image.rows, double(view.width) / scene.image.cols);
        const cv::Size tile(std::max(1, int(scene.image.cols * r)),
                            std::max(1, int(scene.image.rows * r)));
        const Placement where = place(corner, tile, centre, canvas_size);
        if (where.on_canvas.area() <= 0) {
            continue;
        }
        resize(scene.image, tile.height, tile.width)(where.of_tile)
            .copyTo(canvas.image(where.on_canvas));
        const auto offset = static_cast<std::uint16_t>(canvas.boxes.size());
        if (masks) {
            cv::Mat instances;
            cv::resize(scene.instances, instances, tile, 0, 0, cv::INTER_NEAREST);
            paste_instances(instances, canvas.instances, where, offset);
        }
        const double dx = where.on_canvas.x - where.of_tile.x,
                     dy = where.on_canvas.y - where.of_tile.y;
        const cv::Rect& area = where.on_canvas;
        for (std::size_t i = 0; i < scene.boxes.size(); ++i) {
            const auto& box = scene.boxes[i];
            canvas.boxes.push_back(
                {std::clamp(box[0] * r + dx, double(area.x), double(area.x + area.width)),
                 std::clamp(box[1] * r + dy, double(area.y), double(area.y + area.height)),
                 std::clamp(box[2] * r + dx, double(area.x), double(area.x + area.width)),
                 std::clamp(box[3] * r + dy, double(area.y), double(area.y + area.height))});
            canvas.classes.push_back(scene.classes[i]);
            canvas.areas.push_back(scene.areas[i] * r * r);
        }
    }
    // Scaled about the canvas's centre and moved, then cut to the view.
    const double s = uniform(rng, 1.0 - augmentation.scale, 1.0 + augmentation.scale);
    const double tx = uniform(rng, -augmentation.translate, augmentation.translate) * view.width;
    const double ty = uniform(rng, -augmentation.translate, augmentation.translate) * view.height;
    const double ox = view.width / 2.0 + tx - s * view.width;
    const double oy = view.height / 2.0 + ty - s * view.height;
    const cv::Mat affine = (cv::Mat_<double>(2, 3) << s, 0, ox, 0, s, oy);
    LabelledScene result;
    cv::warpAffine(canvas.image, result.image, affine, view, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
                   kPadding);
    if (masks) {
        cv::warpAffine(canvas.instances, result.instances, affine, view, cv::INTER_NEAREST,
                       cv::BORDER_CONSTANT, cv::Scalar(0));
    }
    for (std::size_t i = 0; i < canvas.boxes.size(); ++i) {
        const auto& box = canvas.boxes[i];
        result.boxes.push_back({std::clamp(box[0] * s + ox, 0.0, double(view.width)),
                                std::clamp(box[1] * s + oy, 0.0, double(view.height)),
                                std::clamp(box[2] * s + ox, 0.0, double(view.width)),
                                std::clamp(box[3] * s + oy, 0.0, double(view.height))});
        result.classes.push_back(canvas.classes[i]);
        result.areas.push_back(canvas.areas[i] * s * s);
    }
    drop_slivers(result);
    return result;
}

namespace {

// The share of `box`'s area that `other` covers.
double covered_share(const std::array<double, 4>& other, const std::array<double, 4>& box) {
    const double w = std::min(other[2], box[2]) - std::max(other[0], box[0]);
    const double h = std::min(other[3], box[3]) - std::max(other[1], box[1]);
    const double area = (box[2] - box[0]) * (box[3] - box[1]);
    return w > 0 && h > 0 && area > 0 ? w * h / area : 0.0;
}

} // namespace

LabelledScene copy_paste(LabelledScene scene, double prob, Rng& rng) {
    if (scene.instances.empty() || scene.boxes.empty() || prob <= 0) {
        return scene;
    }
    const int width = scene.image.cols;
    cv::Mat mirror_image, mirror_instances;
    cv::flip(scene.image, mirror_image, 1);
    cv::flip(scene.instances, mirror_instances, 1);
    const std::size_t originals = scene.boxes.size();
    std::vector<std::uint16_t> pasted_as(originals + 1, 0); // mirror instance -> new instance
    for (std::size_t j = 0; j < originals; ++j) {
        const auto& box = scene.boxes[j];
        const std::array<double, 4> mirrored = {width - box[2], box[1], width - box[0], box[3]};
        bool free = true;
        for (std::size_t i = 0; i < originals && free; ++i) {
            free = covered_share(mirrored, scene.boxes[i]) < 0.3;
        }
        if (!free || !chance(rng, prob) || scene.boxes.size() >= 0xFFFF) {
            continue;
        }
        scene.boxes.push_back(mirrored);
        scene.classes.push_back(scene.classes[j]);
        scene.areas.push_back(scene.areas[j]);
        pasted_as[j + 1] = static_cast<std::uint16_t>(scene.boxes.size());
    }
    for (int y = 0; y < scene.image.rows; ++y) {
        const auto* from = mirror_instances.ptr<std::uint16_t>(y);
        auto* to = scene.instances.ptr<std::uint16_t>(y);
        const auto* pixels = mirror_image.ptr<cv::Vec3b>(y);
        auto* image = scene.image.ptr<cv::Vec3b>(y);
        for (int x = 0; x < scene.image.cols; ++x) {
            if (from[x] != 0 && pasted_as[from[x]] != 0) {
                to[x] = pasted_as[from[x]];
                image[x] = pixels[x];
            }
        }
    }
    return scene;
}

LabelledScene mixup(const LabelledScene& a, const LabelledScene& b, Rng& rng) {
    const double ratio = beta_32(rng);
    LabelledScene result = a;
    cv::addWeighted(a.image, ratio, b.image, 1.0 - ratio, 0.0, result.image);
    const auto offset = static_cast<std::uint16_t>(a.boxes.size());
    result.boxes.insert(result.boxes.end(), b.boxes.begin(), b.boxes.end());
    result.classes.insert(result.classes.end(), b.classes.begin(), b.classes.end());
    result.areas.insert(result.areas.end(), b.areas.begin(), b.areas.end());
    if (!a.instances.empty()) {
        result.instances = a.instances.clone();
        for (int y = 0; y < b.instances.rows; ++y) {
            const auto* from = b.instances.ptr<std::uint16_t>(y);
            auto* to = result.instances.ptr<std::uint16_t>(y);
            for (int x = 0; x < b.instances.cols; ++x) {
                if (to[x] == 0 && from[x] != 0) {
                    to[x] = static_cast<std::uint16_t>(from[x] + offset);
                }
            }
        }
    }
    return result;
}

} // namespace kiln::data
