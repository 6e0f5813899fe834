// Data pipeline throughput: decode, decode + SimCLR views, decode + DINO multi-crop, at 1 and 2
// workers, on a generated JPEG set and the same set as PNG; reduced-size JPEG decoding; the
// index of 200,000 paths. Every figure is printed with its ratio to a baseline measured in the
// same run.
//
//   bench_data [--images N] [--workers-max W] [--dir DIR] [--skip-index]

#include "core/log.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"
#include "data/loader.h"
#include "data/view_transform.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long resident_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            return std::stol(line.substr(6));
        }
    }
    return 0;
}

// A photo-like 500x375 image: smooth gradients, shapes and sensor noise, so that JPEG and PNG
// sizes are realistic (about 40-60 KB and 300-400 KB).
cv::Mat photo_like(int seed) {
    std::mt19937 rng(static_cast<unsigned>(seed));
    cv::Mat image(375, 500, CV_8UC3);
    const cv::Vec3f a(rng() % 256, rng() % 256, rng() % 256);
    const cv::Vec3f b(rng() % 256, rng() % 256, rng() % 256);
    for (int y = 0; y < image.rows; ++y) {
        for (int x = 0; x < image.cols; ++x) {
            const float t = (x + y) / float(image.rows + image.cols);
            const cv::Vec3f c = a * (1 - t) + b * t;
            image.at<cv::Vec3b>(y, x) =
                cv::Vec3b(cv::saturate_cast<uchar>(c[0]), cv::saturate_cast<uchar>(c[1]),
                          cv::saturate_cast<uchar>(c[2]));
        }
    }
    for (int shape = 0; shape < 12; ++shape) {
        const cv::Scalar colour(rng() % 256, rng() % 256, rng() % 256);
        const cv::Point centre(rng() % 500, rng() % 375);
        if (shape % 2 == 0) {
            cv::circle(image, centre, 10 + rng() % 80, colour, -1, cv::LINE_AA);
        } else {
            cv::rectangle(image, centre, centre + cv::Point(20 + rng() % 120, 20 + rng() % 90),
                          colour, -1, cv::LINE_AA);
        }
    }
    cv::Mat noise(image.size(), CV_8UC3);
    cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(6));
    cv::GaussianBlur(image, image, cv::Size(3, 3), 0.8);
    image += noise;
    return image;
}

void generate(const fs::path& folder, int count, const std::string& extension) {
    if (fs::exists(folder) && std::distance(fs::directory_iterator(folder), {}) >= count) {
        return;
    }
    fs::create_directories(folder);
    for (int i = 0; i < count; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "%05d%s", i, extension.c_str());
        cv::imwrite((folder / name).string(), photo_like(i),
                    extension == ".jpg" ? std::vector<int>{cv::IMWRITE_JPEG_QUALITY, 90}
                                        : std::vector<int>{});
    }
}

// Pure decode on `workers` threads: the baseline every pipeline figure is compared with.
double decode_rate(const kiln::data::DatasetIndex& index, int workers, int min_side = 0) {
    std::atomic<std::size_t> next{0};
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < index.size(); i = next++) {
                kiln::data::decode_image(index.path(i), min_side);
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    return index.size() / seconds_since(start);
}

// The loader as training uses it: batches of 64 views, in order, one epoch.
double loader_rate(const kiln::data::DatasetIndex& index, const kiln::data::TransformArgs& views,
                   int workers) {
    kiln::data::LoaderOptions options;
    options.batch_size = 64;
    options.num_workers = workers;
    options.drop_last = false;
    kiln::data::Loader loader(index, views, options);
    const auto start = std::chrono::steady_clock::now();
    loader.start_epoch(0);
    std::size_t images = 0;
    while (auto batch = loader.next()) {
        images += batch->indices.size();
    }
    return images / seconds_since(start);
}

// PyTorch's DataLoader with torchvision SimCLR views on the same images, when the build's
// Python (KILN_PYTHON) has torch and torchvision; 0 otherwise.
double torch_dataloader_rate(const fs::path& folder, int workers) {
    if (std::string(KILN_BENCHMARK_PYTHON).empty()) {
        return 0.0;
    }
    const std::string command = KILN_BENCHMARK_PYTHON " " KILN_BENCHMARK_DIR
                                                      "/torch_dataloader.py '" +
                                folder.string() + "' " + std::to_string(workers) + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return 0.0;
    }
    double rate = 0.0;
    if (std::fscanf(pipe, "%lf", &rate) != 1) {
        rate = 0.0;
    }
    ::pclose(pipe);
    return rate;
}

// OpenCV's own decoder (cv::imdecode), for comparison with Kiln's TurboJPEG path.
double opencv_decode_rate(const kiln::data::DatasetIndex& index) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < index.size(); ++i) {
        cv::imdecode(kiln::data::read_file(index.path(i)), cv::IMREAD_COLOR);
    }
    return index.size() / seconds_since(start);
}

void throughput(const std::string& label, const fs::path& folder, int max_workers) {
    const auto index = kiln::data::DatasetIndex::scan({folder});
    std::vector<kiln::ConfigIssue> issues;
    const auto simclr = kiln::data::simclr_transform(nullptr, issues);
    const auto dino = kiln::data::dino_transform(nullptr, issues);
    std::printf("\n%s: %zu images of 500x375\n", label.c_str(), index.size());
    std::printf("  %-8s %14s %24s %24s\n", "workers", "decode img/s", "+ SimCLR views img/s",
                "+ DINO 2x224+6x96 img/s");
    for (int workers = 1; workers <= max_workers; ++workers) {
        decode_rate(index, workers); // warm the page cache
        const double decode = decode_rate(index, workers);
        const double with_simclr = loader_rate(index, simclr, workers);
        const double with_dino = loader_rate(index, dino, workers);
        std::printf("  %-8d %14.0f %15.0f (%5.1f%%) %15.0f (%5.1f%%)\n", workers, decode,
                    with_simclr, 100 * with_simclr / decode, with_dino, 100 * with_dino / decode);
    }
    std::printf("  OpenCV's imdecode, 1 thread: %.0f img/s\n", opencv_decode_rate(index));
    for (int workers = 1; workers <= max_workers; ++workers) {
        const double kiln = loader_rate(index, simclr, workers);
        const double torch = torch_dataloader_rate(folder, workers);
        if (torch <= 0) {
            std::printf("  PyTorch DataLoader: skipped (configure with KILN_PYTHON "
                        "set to a Python with torch and torchvision to compare)\n");
            break;
        }
        std::printf("  SimCLR views, %d worker(s): Kiln %.0f img/s, PyTorch DataLoader + "
                    "torchvision %.0f img/s: %.1fx\n",
                    workers, kiln, torch, kiln / torch);
    }
}

void reduced_decode(const fs::path& root) {
    const fs::path folder = root / "large_jpeg";
    if (!fs::exists(folder)) {
        fs::create_directories(folder);
        for (int i = 0; i < 100; ++i) {
            cv::Mat image;
            cv::resize(photo_like(i), image, cv::Size(2000, 1500), 0, 0, cv::INTER_CUBIC);
            cv::imwrite((folder / (std::to_string(i) + ".jpg")).string(), image);
        }
    }
    const auto large = kiln::data::DatasetIndex::scan({folder});
    const auto small = kiln::data::DatasetIndex::scan({root / "jpeg"});
    std::printf("\nreduced-size JPEG decoding (1 thread)\n");
    for (const auto& [label, index, side] :
         {std::tuple{"2000x1500 for 224 views (1/4)", &large, 224},
          std::tuple{"2000x1500 for 96 views (1/8)", &large, 96},
          std::tuple{"500x375 for 96 views (1/2)", &small, 96}}) {
        decode_rate(*index, 1, side);
        const double full = decode_rate(*index, 1);
        const double reduced = decode_rate(*index, 1, side);
        std::printf("  %-32s full %7.0f img/s, reduced %7.0f img/s: %.2fx\n", label, full, reduced,
                    reduced / full);
    }
}

void index_scale(const fs::path& root) {
    const fs::path folder = root / "index_200k";
    constexpr int kFolders = 200;
    constexpr int kPerFolder = 1000;
    if (!fs::exists(folder / "199" / "image_000999.jpg")) {
        for (int f = 0; f < kFolders; ++f) {
            fs::create_directories(folder / std::to_string(f));
            for (int i = 0; i < kPerFolder; ++i) {
                char name[32];
                std::snprintf(name, sizeof name, "image_%06d.jpg", i);
                std::ofstream(folder / std::to_string(f) / name);
            }
        }
    }
    const long before = resident_kib();
    const auto start = std::chrono::steady_clock::now();
    const auto index = kiln::data::DatasetIndex::scan({folder});
    const double scan = seconds_since(start);
    const long after = resident_kib();
    // Baseline in the same run: the same paths as a std::vector<std::filesystem::path>.
    const auto naive_start = std::chrono::steady_clock::now();
    std::vector<fs::path> naive;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (entry.is_regular_file()) {
            naive.push_back(entry.path());
        }
    }
    std::sort(naive.begin(), naive.end());
    const double naive_scan = seconds_since(naive_start);
    const long naive_after = resident_kib();
    std::printf("\nindex of %zu paths: %.2f s, %.1f MiB resident growth "
                "(std::filesystem walk into vector<path>: %.2f s, %.1f MiB more)\n",
                index.size(), scan, (after - before) / 1024.0, naive_scan,
                (naive_after - after) / 1024.0);
}

} // namespace

int main(int argc, char** argv) {
    int images = 2000;
    int max_workers = 2;
    bool skip_index = false;
    fs::path root = fs::temp_directory_path() / "kiln-bench-data";
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--images" && i + 1 < argc) {
            images = std::stoi(argv[++i]);
        } else if (argument == "--workers-max" && i + 1 < argc) {
            max_workers = std::stoi(argv[++i]);
        } else if (argument == "--dir" && i + 1 < argc) {
            root = argv[++i];
        } else if (argument == "--skip-index") {
            skip_index = true;
        } else {
            std::fprintf(stderr, "usage: bench_data [--images N] [--workers-max W] [--dir DIR] "
                                 "[--skip-index]\n");
            return 2;
        }
    }
    std::printf("generating %d JPEG and %d PNG images under %s (kept for later runs)\n", images,
                images, root.c_str());
    generate(root / "jpeg", images, ".jpg");
    generate(root / "png", images, ".png");
    throughput("JPEG", root / "jpeg", max_workers);
    throughput("PNG", root / "png", max_workers);
    reduced_decode(root);
    if (!skip_index) {
        index_scale(root);
    }
    return 0;
}
