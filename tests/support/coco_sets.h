#pragma once

// A seeded COCO-style set like COCO val2017, for the COCO benchmark and tests: images with 80
// non-contiguous category ids, ground-truth objects as polygons with about 1% crowd regions as
// uncompressed RLE, and 100 detections per image (boxes and RLE masks, scores rounded to 3
// decimals) that mostly rank copies of the objects first. Written as gt.json, bbox.json and
// segm.json.

#include "eval/coco/coco_eval.h"
#include "eval/coco/rle.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace kiln::test {

namespace coco = kiln::coco;

// COCO's own 80 category ids, 1..90 with gaps.
inline std::vector<int> coco_category_ids() {
    std::vector<int> ids;
    for (int id = 1; id <= 90; ++id) {
        if (id != 12 && id != 26 && id != 29 && id != 30 && id != 45 && id != 66 && id != 68 &&
            id != 69 && id != 71 && id != 83) {
            ids.push_back(id);
        }
    }
    return ids;
}

struct CocoShape {
    std::vector<double> polygon; // x0, y0, x1, y1, ...
    coco::Box box;
    double area;
};

// A polygon with its bounding box and area, as COCO files give them.
inline CocoShape shape_of(std::vector<double> polygon) {
    CocoShape shape;
    shape.polygon = std::move(polygon);
    const std::size_t vertices = shape.polygon.size() / 2;
    double x_min = 1e9, y_min = 1e9, x_max = -1e9, y_max = -1e9, twice_area = 0;
    for (std::size_t v = 0; v < vertices; ++v) {
        const double x = shape.polygon[2 * v], y = shape.polygon[2 * v + 1];
        const std::size_t n = (v + 1) % vertices;
        twice_area += x * shape.polygon[2 * n + 1] - shape.polygon[2 * n] * y;
        x_min = std::min(x_min, x);
        y_min = std::min(y_min, y);
        x_max = std::max(x_max, x);
        y_max = std::max(y_max, y);
    }
    shape.area = std::abs(twice_area) / 2;
    shape.box = {x_min, y_min, x_max - x_min, y_max - y_min};
    return shape;
}

// A star-shaped polygon of 8-20 vertices around (cx, cy) with mean radius `radius`.
inline CocoShape random_coco_shape(std::mt19937& random, double cx, double cy, double radius,
                                   int width, int height) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const int vertices = 8 + static_cast<int>(random() % 13);
    std::vector<double> polygon;
    for (int v = 0; v < vertices; ++v) {
        const double angle = 2 * M_PI * v / vertices;
        const double r = radius * (0.7 + 0.6 * unit(random));
        polygon.push_back(std::round(std::clamp(cx + r * std::cos(angle), 0.0, width - 1.0) * 100) /
                          100);
        polygon.push_back(
            std::round(std::clamp(cy + r * std::sin(angle), 0.0, height - 1.0) * 100) / 100);
    }
    return shape_of(std::move(polygon));
}

// COCO's RLE alphabet includes the backslash, which JSON escapes.
inline std::string json_escaped(const std::string& counts) {
    std::string text;
    for (char c : counts) {
        if (c == '\\') {
            text += '\\';
        }
        text += c;
    }
    return text;
}

inline void write_numbers(std::FILE* file, const std::vector<double>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::fprintf(file, i == 0 ? "%.2f" : ",%.2f", values[i]);
    }
}

inline void write_coco_set(const std::filesystem::path& dir, int image_count) {
    std::filesystem::create_directories(dir);
    std::mt19937 random(2017);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const std::vector<int> categories = coco_category_ids();
    std::FILE* truth = std::fopen((dir / "gt.json").c_str(), "w");
    std::FILE* boxes = std::fopen((dir / "bbox.json").c_str(), "w");
    std::FILE* masks = std::fopen((dir / "segm.json").c_str(), "w");
    std::fprintf(truth, "{\"images\": [");
    std::vector<std::pair<int, int>> sizes;
    for (int i = 0; i < image_count; ++i) {
        const int width = 480 + static_cast<int>(random() % 161);
        const int height = 360 + static_cast<int>(random() % 121);
        sizes.emplace_back(width, height);
        std::fprintf(truth,
                     "%s{\"id\": %d, \"width\": %d, \"height\": %d, \"file_name\": \"%012d.jpg\"}",
                     i == 0 ? "" : ", ", 100000 + i * 7, width, height, 100000 + i * 7);
    }
    std::fprintf(truth, "], \"categories\": [");
    for (std::size_t k = 0; k < categories.size(); ++k) {
        std::fprintf(truth, "%s{\"id\": %d, \"name\": \"class%d\"}", k == 0 ? "" : ", ",
                     categories[k], categories[k]);
    }
    std::fprintf(truth, "], \"annotations\": [");
    std::fprintf(boxes, "[");
    std::fprintf(masks, "[");
    int annotation_id = 1;
    bool first_detection = true;
    for (int i = 0; i < image_count; ++i) {
        const int image_id = 100000 + i * 7;
        const auto [width, height] = sizes[i];
        // ~7.3 objects per image, sizes log-uniform from 6 to 250 pixels across.
        const int objects = 1 + static_cast<int>(random() % 13);
        std::vector<std::pair<int, CocoShape>> truth_shapes;
        for (int o = 0; o < objects; ++o) {
            const int category = categories[random() % 40 + (random() % 2) * 40];
            const double radius = std::exp(std::log(3.0) + unit(random) * std::log(125.0 / 3.0));
            CocoShape shape = random_coco_shape(random, unit(random) * width, unit(random) * height,
                                                radius, width, height);
            const bool crowd = random() % 100 == 0;
            std::fprintf(truth, "%s{\"id\": %d, \"image_id\": %d, \"category_id\": %d, ",
                         annotation_id == 1 ? "" : ", ", annotation_id, image_id, category);
            if (crowd) {
                const coco::Rle rle = coco::rle_from_polygon(
                    shape.polygon.data(), shape.polygon.size() / 2, height, width);
                std::fprintf(truth, "\"segmentation\": {\"size\": [%d, %d], \"counts\": [", height,
                             width);
                for (std::size_t c = 0; c < rle.counts.size(); ++c) {
                    std::fprintf(truth, c == 0 ? "%u" : ",%u", rle.counts[c]);
                }
                std::fprintf(truth, "]}, \"area\": %llu, ",
                             static_cast<unsigned long long>(coco::area(rle)));
            } else {
                std::fprintf(truth, "\"segmentation\": [[");
                write_numbers(truth, shape.polygon);
                std::fprintf(truth, "]], \"area\": %.4f, ", shape.area);
            }
            std::fprintf(truth, "\"bbox\": [%.2f,%.2f,%.2f,%.2f], \"iscrowd\": %d}", shape.box[0],
                         shape.box[1], shape.box[2], shape.box[3], crowd ? 1 : 0);
            truth_shapes.emplace_back(category, std::move(shape));
            ++annotation_id;
        }
        // 100 detections: jittered copies of the objects (some with the wrong class), the rest
        // anywhere.
        for (int d = 0; d < 100; ++d) {
            int category;
            CocoShape shape;
            const bool copy = d < static_cast<int>(truth_shapes.size()) * 3 && unit(random) < 0.8;
            if (copy) {
                const auto& [truth_category, truth_shape] = truth_shapes[d % truth_shapes.size()];
                category = unit(random) < 0.85 ? truth_category : categories[random() % 80];
                // The object's outline, shifted and with every vertex moved a little.
                const double size = std::sqrt(truth_shape.box[2] * truth_shape.box[3]);
                const double dx = (unit(random) - 0.5) * size * 0.3;
                const double dy = (unit(random) - 0.5) * size * 0.3;
                std::vector<double> polygon = truth_shape.polygon;
                for (std::size_t v = 0; v < polygon.size(); ++v) {
                    const double limit = v % 2 == 0 ? width - 1.0 : height - 1.0;
                    const double moved =
                        polygon[v] + (v % 2 == 0 ? dx : dy) + (unit(random) - 0.5) * size * 0.15;
                    polygon[v] = std::round(std::clamp(moved, 0.0, limit) * 100) / 100;
                }
                shape = shape_of(std::move(polygon));
            } else {
                category = categories[random() % 80];
                shape = random_coco_shape(random, unit(random) * width, unit(random) * height,
                                          std::exp(std::log(3.0) + unit(random) * std::log(40.0)),
                                          width, height);
            }
            // Scores that mostly rank the copies of objects first, as a trained detector's do.
            const double score =
                std::round((copy ? 0.3 + 0.7 * unit(random) : 0.6 * unit(random)) * 1000) / 1000;
            const char* separator = first_detection ? "" : ", ";
            first_detection = false;
            std::fprintf(boxes,
                         "%s{\"image_id\": %d, \"category_id\": %d, \"bbox\": "
                         "[%.2f,%.2f,%.2f,%.2f], \"score\": %.3f}",
                         separator, image_id, category, shape.box[0], shape.box[1], shape.box[2],
                         shape.box[3], score);
            const coco::Rle rle = coco::rle_from_polygon(shape.polygon.data(),
                                                         shape.polygon.size() / 2, height, width);
            std::fprintf(masks,
                         "%s{\"image_id\": %d, \"category_id\": %d, \"segmentation\": {\"size\": "
                         "[%d, %d], \"counts\": \"%s\"}, \"score\": %.3f}",
                         separator, image_id, category, height, width,
                         json_escaped(coco::encode_counts_string(rle)).c_str(), score);
        }
    }
    std::fprintf(truth, "]}\n");
    std::fprintf(boxes, "]\n");
    std::fprintf(masks, "]\n");
    std::fclose(truth);
    std::fclose(boxes);
    std::fclose(masks);
}

} // namespace kiln::test
