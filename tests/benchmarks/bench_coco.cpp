// COCO evaluation at COCO-val size, and the mask encoder that instance segmentation spends its
// metric time in.
//
// A seeded generator writes a set like COCO val2017 (5,000 images, 80 non-contiguous category
// ids, ~36k ground-truth objects as polygons with ~1% crowd regions as uncompressed RLE, 100
// detections per image with scores rounded to 3 decimals) into DIR, once. Then it times
// load + evaluate + accumulate + summarize for bbox and segm on 1 thread and on every core, and
// encodes 1,000 masks of 640x480 with Kiln's encoder against pycocotools' rleEncode algorithm
// (one pixel at a time over the column-major copy that pycocotools needs), in the same run.
// The real pycocotools and faster-coco-eval, where the build's Python has them, evaluate the
// same files: their times, and whether their stats equal Kiln's bit for bit.
//
//   bench_coco [--dir DIR] [--images N]

#include "coco_peer_comparison.h"
#include "eval/coco/coco_eval.h"
#include "eval/coco/rle.h"
#include "system/hardware.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace coco = kiln::coco;

namespace {

double seconds_of(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// COCO's own 80 category ids, 1..90 with gaps.
std::vector<int> coco_category_ids() {
    std::vector<int> ids;
    for (int id = 1; id <= 90; ++id) {
        if (id != 12 && id != 26 && id != 29 && id != 30 && id != 45 && id != 66 && id != 68 &&
            id != 69 && id != 71 && id != 83) {
            ids.push_back(id);
        }
    }
    return ids;
}

struct Shape {
    std::vector<double> polygon; // x0, y0, x1, y1, ...
    coco::Box box;
    double area;
};

// A polygon with its bounding box and area, as COCO files give them.
Shape shape_of(std::vector<double> polygon) {
    Shape shape;
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
Shape random_shape(std::mt19937& random, double cx, double cy, double radius, int width,
                   int height) {
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
std::string json_escaped(const std::string& counts) {
    std::string text;
    for (char c : counts) {
        if (c == '\\') {
            text += '\\';
        }
        text += c;
    }
    return text;
}

void write_numbers(std::FILE* file, const std::vector<double>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::fprintf(file, i == 0 ? "%.2f" : ",%.2f", values[i]);
    }
}

void generate(const std::filesystem::path& dir, int image_count) {
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
        std::vector<std::pair<int, Shape>> truth_shapes;
        for (int o = 0; o < objects; ++o) {
            const int category = categories[random() % 40 + (random() % 2) * 40];
            const double radius = std::exp(std::log(3.0) + unit(random) * std::log(125.0 / 3.0));
            Shape shape = random_shape(random, unit(random) * width, unit(random) * height, radius,
                                       width, height);
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
            Shape shape;
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
                shape = random_shape(random, unit(random) * width, unit(random) * height,
                                     std::exp(std::log(3.0) + unit(random) * std::log(40.0)), width,
                                     height);
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

coco::EvalResult time_evaluation(const std::filesystem::path& dir, const char* results,
                                 coco::IouType type, int threads) {
    double load_truth = 0, load_results = 0, evaluate = 0;
    coco::EvalResult result;
    const double total = seconds_of([&] {
        load_truth = seconds_of([] {});
        auto start = std::chrono::steady_clock::now();
        const auto truth = coco::GroundTruth::load(dir / "gt.json");
        load_truth =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        start = std::chrono::steady_clock::now();
        const auto detections = coco::Detections::load(dir / results, truth, type, threads);
        load_results =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        coco::EvalParams params;
        params.iou_type = type;
        params.threads = threads;
        evaluate = seconds_of([&] { result = coco::evaluate(truth, detections, params); });
    });
    std::printf("  %s, %d thread%s: %6.2f s (load ground truth %.2f s, results %.2f s, evaluate "
                "+ accumulate + summarize %.2f s)  AP %.3f\n",
                coco::iou_type_name(type), threads, threads == 1 ? " " : "s", total, load_truth,
                load_results, evaluate, result.stats[0]);
    return result;
}

// pycocotools' path from an H x W array: np.asfortranarray, then rleEncode's per-pixel loop.
coco::Rle encode_like_pycocotools(const std::uint8_t* pixels, std::uint32_t height,
                                  std::uint32_t width, std::vector<std::uint8_t>& column_major,
                                  std::vector<std::uint32_t>& counts) {
    column_major.resize(std::size_t{height} * width);
    for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
            column_major[std::size_t{x} * height + y] = pixels[std::size_t{y} * width + x];
        }
    }
    counts.resize(column_major.size() + 1);
    std::size_t k = 0;
    std::uint8_t previous = 0;
    std::uint32_t run = 0;
    for (std::uint8_t value : column_major) {
        if (value != previous) {
            counts[k++] = run;
            run = 0;
            previous = value;
        }
        ++run;
    }
    counts[k++] = run;
    return coco::Rle{height, width, std::vector<std::uint32_t>(counts.begin(), counts.begin() + k)};
}

void time_mask_encoding() {
    constexpr int kMasks = 1000;
    constexpr std::uint32_t kHeight = 480, kWidth = 640;
    std::mt19937 random(5);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<std::vector<std::uint8_t>> masks;
    std::uint64_t foreground = 0;
    for (int m = 0; m < kMasks; ++m) {
        const Shape shape = random_shape(random, unit(random) * kWidth, unit(random) * kHeight,
                                         5 + unit(random) * 150, kWidth, kHeight);
        const coco::Rle rle =
            coco::rle_from_polygon(shape.polygon.data(), shape.polygon.size() / 2, kHeight, kWidth);
        masks.push_back(coco::decode_to_pixels(rle));
        foreground += coco::area(rle);
    }
    std::vector<coco::Rle> reference(kMasks), encoded(kMasks);
    std::vector<std::uint8_t> column_major;
    std::vector<std::uint32_t> counts;
    const double baseline = seconds_of([&] {
        for (int m = 0; m < kMasks; ++m) {
            reference[m] =
                encode_like_pycocotools(masks[m].data(), kHeight, kWidth, column_major, counts);
        }
    });
    const double kiln_seconds = seconds_of([&] {
        for (int m = 0; m < kMasks; ++m) {
            encoded[m] = coco::encode_mask(masks[m].data(), kHeight, kWidth, kWidth);
        }
    });
    const bool same = encoded == reference;
    std::printf("encode %d masks of %ux%u (%.1f%% foreground), 1 thread:\n", kMasks, kWidth,
                kHeight, 100.0 * foreground / (double(kMasks) * kHeight * kWidth));
    std::printf("  pycocotools' algorithm (Fortran copy + per-pixel rleEncode): %7.1f ms, %7.0f "
                "masks/s\n",
                baseline * 1e3, kMasks / baseline);
    std::printf("  Kiln encode_mask:                                           %7.1f ms, %7.0f "
                "masks/s  (%.1fx, identical output: %s)\n",
                kiln_seconds * 1e3, kMasks / kiln_seconds, baseline / kiln_seconds,
                same ? "yes" : "NO");
}

} // namespace

int main(int argc, char** argv) {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "kiln-coco-bench";
    int images = 5000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--dir") {
            dir = argv[i + 1];
        } else if (flag == "--images") {
            images = std::stoi(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: bench_coco [--dir DIR] [--images N]\n");
            return 2;
        }
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const std::filesystem::path set = dir / ("val-" + std::to_string(images));
    if (!std::filesystem::exists(set / "segm.json")) {
        const double seconds = seconds_of([&] { generate(set, images); });
        std::printf("generated %s in %.1f s\n", set.c_str(), seconds);
    }
    std::printf("COCO evaluation of %s (gt %.1f MB, bbox %.1f MB, segm %.1f MB)\n", set.c_str(),
                std::filesystem::file_size(set / "gt.json") / 1e6,
                std::filesystem::file_size(set / "bbox.json") / 1e6,
                std::filesystem::file_size(set / "segm.json") / 1e6);
    const int cores = kiln::system::usable_cpu_cores();
    for (const auto& [results, type] : {std::pair{"bbox.json", coco::IouType::Box},
                                        std::pair{"segm.json", coco::IouType::Mask}}) {
        const coco::EvalResult result = time_evaluation(set, results, type, 1);
        if (cores > 1) {
            time_evaluation(set, results, type, cores);
        }
        kiln::bench::print_coco_peers(set / "gt.json", set / results, type, result.stats);
    }
    time_mask_encoding();
    return 0;
}
