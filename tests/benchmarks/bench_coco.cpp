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
#include "support/coco_sets.h"
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
        const kiln::test::CocoShape shape =
            kiln::test::random_coco_shape(random, unit(random) * kWidth, unit(random) * kHeight,
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
    for (int i = 1; i < argc; i += 2) {
        // A flag without its value (--help among them) matches none and gets the usage.
        const std::string flag = i + 1 < argc ? argv[i] : "";
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
        const double seconds = seconds_of([&] { kiln::test::write_coco_set(set, images); });
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
