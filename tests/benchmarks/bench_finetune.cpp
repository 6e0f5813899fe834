// Does pretraining pay off when labels are few? Fashion-MNIST classification with 1% and 10%
// of the training labels (class-balanced), top-1 on the 10,000 test images after the last
// epoch: a small CNN from random initialisation against the same CNN starting from a Kiln
// SimCLR backbone pretrained on all 60,000 training images without their labels. With 100% of
// the labels, Kiln against a plain PyTorch baseline of the same model, augmentation, optimizer
// and schedule, in the same run (tests/benchmarks/torch_finetune.py). Semantic segmentation on
// generated garment scenes: mIoU from random initialisation against pretrained.
//
//   bench_finetune --pretrained RUN_DIR [--dir DIR] [--full-epochs 5] [--scenes 1000]
//   (RUN_DIR: a `kiln train` run of smallcnn on Fashion-MNIST train at image_size 32, e.g.
//    kiln train out=RUN_DIR data=DIR/train model=smallcnn epochs=10 batch_size=256
//    transform_args.image_size=32)
//   bench_finetune --pretrained RUN_DIR --model vit_tiny --layer-decay 0.75 [--lr 1e-3]
//   [--seeds 0,1,2] only fine-tunes with 600 labels, per seed (the seed draws the head, the crops
//   and the batches): the model from random init with its own recipe, and the backbone as the
//   pretrained classifier's recipe has it (or at --lr) without and with optim_args.layer_decay.

#include "config/run_config.h"
#include "core/log.h"
#include "core/text.h"
#include "data/idx_import.h"
#include "data/scene_generator.h"
#include "seed_statistics.h"
#include "train/trainer.h"
#include "training_measure.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using kiln::bench::kFashionMnist;
using Measure = kiln::bench::TrainingMeasure;

// The first `per_class` images of each class folder, linked into `subset`.
void link_subset(const fs::path& train, const fs::path& subset, int per_class) {
    if (fs::exists(subset)) {
        return;
    }
    for (const auto& folder : fs::directory_iterator(train)) {
        std::vector<fs::path> files;
        for (const auto& file : fs::directory_iterator(folder.path())) {
            files.push_back(file.path());
        }
        std::sort(files.begin(), files.end());
        fs::create_directories(subset / folder.path().filename());
        for (int i = 0; i < per_class && i < static_cast<int>(files.size()); ++i) {
            fs::create_symlink(fs::absolute(files[static_cast<std::size_t>(i)]),
                               subset / folder.path().filename() / files[i].filename());
        }
    }
}

struct Result {
    double metric = 0.0;
    double images_per_second = 0.0;
    double seconds = 0.0;
};

// Trains to the end and validates once there.
Result finetune(kiln::TaskKind task, json settings, const std::string& metric) {
    kiln::ResolveContext context;
    context.hardware.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
    settings["accelerator"] = "cpu";
    settings["overwrite"] = true;
    Measure measure;
    const kiln::TrainConfig config = kiln::resolve_train_config(settings, context, task);
    const auto summary = kiln::train::train(config, measure);
    return {measure.last.at(metric), measure.seconds > 0 ? measure.images / measure.seconds : 0.0,
            summary.seconds};
}

json classification(const fs::path& out, const fs::path& train, const fs::path& test, int epochs,
                    const fs::path& pretrained, bool linear_probe = false,
                    const std::string& model = "smallcnn") {
    json settings = {{"out", out.string()},
                     {"data", {{"train", train.string()}, {"val", test.string()}}},
                     {"model", model},
                     {"epochs", epochs},
                     {"batch_size", 128},
                     {"val_every_n_steps", 1 << 30},
                     {"transform_args", {{"image_size", 32}}}};
    if (!pretrained.empty()) {
        settings["model_args"] = {{"backbone_weights", pretrained.string()},
                                  {"freeze_backbone", linear_probe},
                                  {"head", linear_probe ? "linear" : "mlp"}};
    }
    return settings;
}

std::optional<json> run_torch_baseline(const fs::path& train, const fs::path& test, int epochs,
                                       int workers) {
    if (std::string(KILN_BENCHMARK_PYTHON).empty()) {
        return std::nullopt;
    }
    const std::string command = std::string(KILN_BENCHMARK_PYTHON) +
                                " " KILN_BENCHMARK_DIR "/torch_finetune.py " + train.string() +
                                " " + test.string() + " --epochs " + std::to_string(epochs) +
                                " --batch-size 128 --workers " + std::to_string(workers);
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return std::nullopt;
    }
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
        output += buffer;
    }
    if (::pclose(pipe) != 0 || output.empty()) {
        return std::nullopt;
    }
    return json::parse(output.substr(output.rfind('{')));
}

// With 600 labels: the pretrained `model` fine-tuned with and without layer-wise decay, and the
// same model from random initialisation with its own recipe.
void compare_layer_decay(const fs::path& root, const fs::path& train, const fs::path& test,
                         const fs::path& pretrained, const std::string& model, double decay,
                         std::optional<double> lr, const std::vector<int>& seeds) {
    const fs::path subset = root / "labels-600";
    link_subset(train, subset, 60);
    std::printf("600 labels, %s from %s, 60 epochs, the pretrained at lr %s, top-1 on the "
                "10,000 test images\n",
                model.c_str(), pretrained.string().c_str(),
                lr ? kiln::number_text(*lr).c_str() : "the recipe's");
    std::printf("  %-5s %-30s %8s %7s\n", "seed", "initialisation", "top-1", "time");
    const std::string random = "random init, its recipe";
    const std::vector<std::string> rows = {random, "pretrained, layer_decay 1",
                                           "pretrained, layer_decay " + kiln::number_text(decay)};
    std::map<std::string, std::vector<double>> results;
    for (const int seed : seeds) {
        for (const std::string& row : rows) {
            json settings = classification(root / "run", subset, test, 60,
                                           row == random ? fs::path() : pretrained, false, model);
            settings["seed"] = seed;
            if (row != random) {
                settings["optim_args"] = {{"layer_decay", row == rows[1] ? 1.0 : decay}};
                if (lr) {
                    settings["optim_args"]["lr"] = *lr;
                }
            }
            const Result result = finetune(kiln::TaskKind::ImageClassification, settings,
                                           "val_metric/top1_acc_micro");
            results[row].push_back(result.metric);
            std::printf("  %-5d %-30s %7.2f%% %6.0fs\n", seed, row.c_str(), 100 * result.metric,
                        result.seconds);
            std::fflush(stdout);
        }
    }
    for (const std::string& row : rows) {
        const kiln::bench::MeanSd figure = kiln::bench::mean_sd(results[row]);
        std::printf("  mean  %-30s %7.2f%% (sd %.2f)\n", row.c_str(), 100 * figure.mean,
                    100 * figure.sd);
    }
}

} // namespace

int main(int argc, char** argv) {
    fs::path root = fs::temp_directory_path() / "kiln-bench-finetune";
    fs::path pretrained;
    int full_epochs = 5;
    long long scenes = 1000;
    std::string model = "smallcnn";
    std::optional<double> layer_decay;
    std::optional<double> lr;
    std::vector<int> seeds{0, 1, 2};
    for (int i = 1; i < argc; i += 2) {
        // A flag without its value (--help among them) matches none and gets the usage.
        const std::string flag = i + 1 < argc ? argv[i] : "";
        if (flag == "--dir") {
            root = argv[i + 1];
        } else if (flag == "--pretrained") {
            pretrained = argv[i + 1];
        } else if (flag == "--full-epochs") {
            full_epochs = std::stoi(argv[i + 1]);
        } else if (flag == "--scenes") {
            scenes = std::stoll(argv[i + 1]);
        } else if (flag == "--model") {
            model = argv[i + 1];
        } else if (flag == "--layer-decay") {
            layer_decay = std::stod(argv[i + 1]);
        } else if (flag == "--lr") {
            lr = std::stod(argv[i + 1]);
        } else if (flag == "--seeds") {
            seeds.clear();
            std::stringstream list(argv[i + 1]);
            for (std::string seed; std::getline(list, seed, ',');) {
                seeds.push_back(std::stoi(seed));
            }
        } else {
            std::fprintf(stderr, "usage: bench_finetune [--dir DIR] [--pretrained RUN] "
                                 "[--full-epochs E] [--scenes N] [--model M --layer-decay D "
                                 "[--lr L] [--seeds 0,1,2]]\n");
            return 2;
        }
    }
    if (pretrained.empty() || !fs::exists(kFashionMnist)) {
        std::fprintf(stderr, "give --pretrained RUN_DIR (a smallcnn SimCLR run on Fashion-MNIST "
                             "train) and install dataset-fashion-mnist\n");
        return 2;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    fs::create_directories(root);
    const fs::path train = root / "train", test = root / "t10k";
    for (const auto& [split, folder] :
         {std::pair<std::string, fs::path>{"train", train}, {"t10k", test}}) {
        if (!fs::exists(folder)) {
            kiln::data::IdxImportOptions options;
            options.images = kFashionMnist / (split + "-images-idx3-ubyte.gz");
            options.labels = kFashionMnist / (split + "-labels-idx1-ubyte.gz");
            options.out = folder;
            kiln::data::import_idx(options);
        }
    }
    if (layer_decay) {
        compare_layer_decay(root, train, test, pretrained, model, *layer_decay, lr, seeds);
        return 0;
    }

    std::printf("Fashion-MNIST classification, smallcnn at 32 px, top-1 on the 10,000 test "
                "images after the last epoch;\nSimCLR backbone: Kiln SimCLR on all 60,000 "
                "training images without their labels (%s)\n",
                pretrained.string().c_str());
    std::printf("  %-7s %-34s %6s %8s %9s %8s\n", "labels", "initialisation", "epochs", "top-1",
                "img/s", "time");
    const auto row = [](const char* labels, const std::string& init, int epochs,
                        const Result& result) {
        std::printf("  %-7s %-34s %6d %7.2f%% %9.0f %7.0fs\n", labels, init.c_str(), epochs,
                    100 * result.metric, result.images_per_second, result.seconds);
        std::fflush(stdout);
    };
    const std::string top1 = "val_metric/top1_acc_micro";
    for (const auto& [labels, per_class, epochs] :
         {std::tuple<const char*, int, int>{"600", 60, 60}, {"6000", 600, 15}}) {
        const fs::path subset = root / ("labels-" + std::string(labels));
        link_subset(train, subset, per_class);
        row(labels, "random", epochs,
            finetune(kiln::TaskKind::ImageClassification,
                     classification(root / "run", subset, test, epochs, {}), top1));
        // The pretrained recipe's head rate for the whole random model: a fair comparison.
        json faster = classification(root / "run", subset, test, epochs, {});
        faster["optim_args"] = {{"lr", 1e-2}};
        row(labels, "random, lr 1e-2", epochs,
            finetune(kiln::TaskKind::ImageClassification, faster, top1));
        row(labels, "SimCLR backbone, fine-tuned", epochs,
            finetune(kiln::TaskKind::ImageClassification,
                     classification(root / "run", subset, test, epochs, pretrained), top1));
        row(labels, "SimCLR backbone, linear probe", epochs,
            finetune(kiln::TaskKind::ImageClassification,
                     classification(root / "run", subset, test, epochs, pretrained, true), top1));
    }
    const Result kiln_full =
        finetune(kiln::TaskKind::ImageClassification,
                 classification(root / "run", train, test, full_epochs, {}), top1);
    row("60000", "random, Kiln", full_epochs, kiln_full);
    const int workers = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    if (const auto torch = run_torch_baseline(train, test, full_epochs, std::min(workers, 8))) {
        row("60000", "random, PyTorch eager (same model)", full_epochs,
            {(*torch)["top1"].get<double>(), (*torch)["images_per_second"].get<double>(),
             (*torch)["seconds"].get<double>()});
    } else {
        std::printf("  (PyTorch baseline skipped: no KILN_PYTHON with torchvision)\n");
    }

    const fs::path seg = root / "scenes";
    for (const auto& [split, count] :
         {std::pair<std::string, long long>{"train", scenes}, {"t10k", scenes / 4}}) {
        if (!fs::exists(seg / split)) {
            kiln::data::SceneOptions options;
            options.images = kFashionMnist / (split + "-images-idx3-ubyte.gz");
            options.labels = kFashionMnist / (split + "-labels-idx1-ubyte.gz");
            options.out = seg / split;
            options.scenes = count;
            options.seed = split == "train" ? 0 : 1;
            kiln::data::generate_scenes(options);
        }
    }
    std::printf("\nSemantic segmentation of generated garment scenes (64 px, %lld train, %lld "
                "val, 11 classes), smallcnn + FPN decoder\n",
                scenes, scenes / 4);
    std::printf("  %-42s %6s %8s %9s %8s\n", "initialisation", "epochs", "mIoU", "img/s", "time");
    for (const bool from_pretrained : {false, true}) {
        json settings = {{"out", (root / "seg-run").string()},
                         {"data",
                          {{"train",
                            {{"images", (seg / "train/images").string()},
                             {"masks", (seg / "train/masks").string()}}},
                           {"val",
                            {{"images", (seg / "t10k/images").string()},
                             {"masks", (seg / "t10k/masks").string()}}},
                           {"classes", (seg / "train/classes.json").string()}}},
                         {"model", "smallcnn"},
                         {"epochs", 8},
                         {"batch_size", 32},
                         {"val_every_n_steps", 1 << 30},
                         {"transform_args", {{"image_size", 64}}}};
        if (from_pretrained) {
            settings["model_args"] = {{"backbone_weights", pretrained.string()}};
        }
        const Result result =
            finetune(kiln::TaskKind::SemanticSegmentation, settings, "val_metric/miou");
        std::printf("  %-42s %6d %7.2f%% %9.0f %7.0fs\n",
                    from_pretrained ? "SimCLR backbone, fine-tuned" : "random", 8,
                    100 * result.metric, result.images_per_second, result.seconds);
        std::fflush(stdout);
    }
    return 0;
}
