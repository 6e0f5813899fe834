// Does pretraining learn anything? SimCLR and DINO pretrain a small CNN on Fashion-MNIST train
// images (labels unused); a weighted kNN (k=20, T=0.07) on the embeddings classifies the test
// images. Baselines from the same run: the same backbone at random initialisation, and kNN on
// raw pixels.
//
//   bench_pretrain [--train N] [--test N] [--epochs E] [--dir DIR] [--methods simclr,dino]
//                  [key=value ...]   (training settings, e.g.
//                  transform_args.random_resize.min_scale=0.3)

#include "config/command_settings.h"
#include "config/config_overrides.h"
#include "config/run_config.h"
#include "core/log.h"
#include "fashion_mnist_knn.h"
#include "models/backbone.h"
#include "train/trainer.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <torch/types.h>
#include <torch/utils.h>

namespace fs = std::filesystem;

namespace {

// Raw pixels as features: the no-learning baseline.
class PixelsImpl : public kiln::models::BackboneImpl {
public:
    torch::Tensor forward(const torch::Tensor& images) override { return images.flatten(1); }
    std::int64_t feature_dim() const override { return 3 * 28 * 28; }
};

class Quiet : public kiln::train::TrainObserver {};

} // namespace

int main(int argc, char** argv) {
    long long train_images = 10000;
    long long test_images = 10000;
    int epochs = 5;
    fs::path root = fs::temp_directory_path() / "kiln-bench-pretrain";
    std::vector<std::string> methods = {"simclr", "dino"};
    std::vector<std::string> overrides;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--train" && i + 1 < argc) {
            train_images = std::stoll(argv[++i]);
        } else if (argument == "--test" && i + 1 < argc) {
            test_images = std::stoll(argv[++i]);
        } else if (argument == "--epochs" && i + 1 < argc) {
            epochs = std::stoi(argv[++i]);
        } else if (argument == "--dir" && i + 1 < argc) {
            root = argv[++i];
        } else if (argument == "--methods" && i + 1 < argc) {
            methods.clear();
            std::stringstream list(argv[++i]);
            for (std::string method; std::getline(list, method, ',');) {
                methods.push_back(method);
            }
        } else if (argument.find('=') != std::string::npos) {
            overrides.push_back(argument);
        } else {
            std::fprintf(stderr,
                         "usage: bench_pretrain [--train N] [--test N] [--epochs E] [--dir DIR]\n");
            return 2;
        }
    }
    if (!fs::exists(kiln::bench::kFashionMnist / "train-images-idx3-ubyte.gz")) {
        std::fprintf(stderr, "Fashion-MNIST is missing: apt-get install dataset-fashion-mnist\n");
        return 1;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    fs::remove_all(root);
    const auto sets = kiln::bench::import_fashion_mnist(root, train_images, test_images);
    std::printf(
        "Fashion-MNIST: pretrain on %zu train images (labels unused), kNN on %zu test images\n",
        sets.train.size(), sets.test.size());
    std::printf("  %-34s %8s %8s %10s\n", "features", "top-1", "top-5", "pretrain");

    PixelsImpl pixels;
    const auto raw = kiln::bench::knn_evaluate(pixels, sets, 28);
    std::printf("  %-34s %7.1f%% %7.1f%% %10s\n", "raw pixels", 100 * raw.top1, 100 * raw.top5,
                "-");
    torch::manual_seed(0);
    const kiln::models::Backbone random = kiln::models::make_backbone("smallcnn");
    const auto untrained = kiln::bench::knn_evaluate(*random, sets, 32);
    std::printf("  %-34s %7.1f%% %7.1f%% %10s\n", "smallcnn, random init", 100 * untrained.top1,
                100 * untrained.top5, "-");

    for (const std::string& method : methods) {
        nlohmann::json settings = {{"out", (root / ("run-" + method)).string()},
                                   {"data", (root / "train").string()},
                                   {"model", "smallcnn"},
                                   {"method", method},
                                   {"epochs", epochs},
                                   {"batch_size", 256},
                                   {"accelerator", "cpu"},
                                   {"transform_args", {{"image_size", {32, 32}}}}};
        if (method == "dino") {
            settings["transform_args"]["local_view"] = {{"view_size", {16, 16}}};
        }
        settings = kiln::config::apply_overrides(settings, overrides, kiln::config::train_schema());
        kiln::ResolveContext context;
        context.hardware.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
        Quiet observer;
        const auto summary =
            kiln::train::train(kiln::resolve_train_config(settings, context), observer);
        const kiln::models::Backbone trained = kiln::models::make_backbone("smallcnn");
        kiln::models::load_backbone_weights(*trained, summary.exported_model);
        const auto accuracy = kiln::bench::knn_evaluate(*trained, sets, 32);
        char label[64];
        std::snprintf(label, sizeof label, "smallcnn, %s, %d epochs", method.c_str(), epochs);
        char took[32];
        std::snprintf(took, sizeof took, "%.0f s", summary.seconds);
        std::printf("  %-34s %7.1f%% %7.1f%% %10s\n", label, 100 * accuracy.top1,
                    100 * accuracy.top5, took);
        std::fflush(stdout);
    }
    return 0;
}
