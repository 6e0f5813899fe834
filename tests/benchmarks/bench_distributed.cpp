// Scaling of distributed data parallel on this machine: the same run with 1 and 2 processes
// (Gloo on the loopback), same global batch. Reports end-to-end throughput (images between the
// first and the last step over the wall time between them), the median step time and the
// median time spent averaging gradients.
//
//   bench_distributed [--images N] [--epochs E] [--dir DIR] [--models smallcnn,resnet18]

#include "config/run_config.h"
#include "core/log.h"
#include "distributed/launcher.h"
#include "train/trainer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

class Quiet : public kiln::train::TrainObserver {};

double median(std::vector<double> values) {
    if (values.empty()) {
        return 0.0;
    }
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

struct Figures {
    double images_per_second = 0;
    double batch_time = 0;
    double allreduce_time = 0;
};

// From the run's metrics.jsonl; the first step (start-up) is left out.
Figures read_figures(const fs::path& out, int batch_size) {
    std::ifstream lines(out / "metrics.jsonl");
    std::vector<double> times, batch_times, allreduce_times;
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json row = nlohmann::json::parse(line);
        times.push_back(row.at("time").get<double>());
        if (times.size() > 1) {
            batch_times.push_back(row.at("profiling/batch_time").get<double>());
            if (row.contains("profiling/allreduce_time")) {
                allreduce_times.push_back(row.at("profiling/allreduce_time").get<double>());
            }
        }
    }
    Figures figures;
    if (times.size() > 1) {
        figures.images_per_second =
            double(batch_size) * double(times.size() - 1) / (times.back() - times.front());
    }
    figures.batch_time = median(batch_times);
    figures.allreduce_time = median(allreduce_times);
    return figures;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], kiln::distributed::kRankProcessArgument) == 0) {
        return kiln::train::rank_process_main(); // the second process of a 2-process run
    }
    int image_count = 2048;
    int epochs = 2;
    fs::path root = fs::temp_directory_path() / "kiln-bench-distributed";
    std::vector<std::string> models = {"smallcnn", "resnet18"};
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--images" && i + 1 < argc) {
            image_count = std::stoi(argv[++i]);
        } else if (argument == "--epochs" && i + 1 < argc) {
            epochs = std::stoi(argv[++i]);
        } else if (argument == "--dir" && i + 1 < argc) {
            root = argv[++i];
        } else if (argument == "--models" && i + 1 < argc) {
            models.clear();
            std::stringstream list(argv[++i]);
            for (std::string model; std::getline(list, model, ',');) {
                models.push_back(model);
            }
        } else {
            std::fprintf(stderr, "usage: bench_distributed [--images N] [--epochs E] [--dir DIR] "
                                 "[--models a,b]\n");
            return 2;
        }
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    fs::remove_all(root);
    fs::create_directories(root / "images");
    cv::RNG random(1);
    for (int i = 0; i < image_count; ++i) {
        cv::Mat image(64, 64, CV_8UC3);
        random.fill(image, cv::RNG::UNIFORM, 0, 255);
        cv::imwrite((root / "images" / (std::to_string(i) + ".png")).string(), image);
    }
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    std::printf("%d random 64 px images, SimCLR, %d epochs, global batch 64, %d CPU cores, Gloo "
                "on the loopback\n",
                image_count, epochs, cores);
    std::printf("  %-10s %-22s %10s %12s %12s %9s\n", "model", "processes", "images/s",
                "step (med)", "all-reduce", "speed-up");
    // 1 process with the automatic loader workers (what a user gets), 1 process computing on
    // every core, 2 processes.
    struct Variant {
        int devices;
        std::optional<int> num_workers;
        const char* label;
    };
    const std::vector<Variant> variants = {{1, std::nullopt, "1 (auto workers)"},
                                           {1, 0, "1 (0 workers)"},
                                           {2, std::nullopt, "2 (auto workers)"}};
    for (const std::string& model : models) {
        double single = 0;
        for (std::size_t v = 0; v < variants.size(); ++v) {
            const Variant& variant = variants[v];
            const fs::path out = root / (model + "-" + std::to_string(v));
            nlohmann::json settings = {{"out", out.string()},
                                       {"data", (root / "images").string()},
                                       {"model", model},
                                       {"method", "simclr"},
                                       {"epochs", epochs},
                                       {"batch_size", 64},
                                       {"accelerator", "cpu"},
                                       {"devices", variant.devices},
                                       {"transform_args", {{"image_size", {64, 64}}}}};
            if (variant.num_workers) {
                settings["num_workers"] = *variant.num_workers;
            }
            kiln::ResolveContext context;
            context.hardware.cpu_cores = cores;
            Quiet observer;
            kiln::train::train(kiln::resolve_train_config(settings, context), observer);
            const Figures figures = read_figures(out, 64);
            if (v == 0) {
                single = figures.images_per_second;
            }
            char allreduce[32] = "-";
            if (variant.devices > 1) {
                std::snprintf(allreduce, sizeof allreduce, "%.1f ms",
                              1000 * figures.allreduce_time);
            }
            std::printf("  %-10s %-22s %10.0f %9.1f ms %12s %8.2fx\n", model.c_str(), variant.label,
                        figures.images_per_second, 1000 * figures.batch_time, allreduce,
                        single > 0 ? figures.images_per_second / single : 0.0);
            std::fflush(stdout);
        }
    }
    return 0;
}
