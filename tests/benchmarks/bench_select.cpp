// Which images to label: the pretrain -> select -> fine-tune loop on Fashion-MNIST. A Kiln
// SimCLR run on the 60,000 training images without their labels gives embeddings; each
// strategy of `kiln select` picks 1% (600) and 0.5% (300) of them; the same model fine-tunes
// from the same backbone on each pick with the same recipe; top-1 on the 10,000 test images,
// per seed (the seed drives the pick and the fine-tuning), with each pick's class coverage.
//
//   bench_select [--pretrained RUN_DIR] [--pretrain-seconds 300] [--seeds 3] [--dir DIR]
//                [--strategies random,typical,diverse,balanced] [--counts 600,300]
//                [--whiten 1]   (pick in PCA-whitened space: select's whiten=true)
//                [--random-init 1]   (also the random picks fine-tuned from random init)
//                [--model smallcnn]   (without --pretrained; with it, the run's model)
//   (without --pretrained: SimCLR of --model at 32 px for --pretrain-seconds, made here)
//
// Speed and memory of the selection itself, on seeded synthetic embeddings (clusters of unit
// vectors with noise), no Fashion-MNIST needed:
//   bench_select --speed ROWS [--dim 512] [--count 10000] [--strategies diverse,random,...]

#include "config/run_config.h"
#include "core/log.h"
#include "data/idx_import.h"
#include "embed/embedder.h"
#include "embed/selection.h"
#include "embed/writers.h"
#include "seed_statistics.h"
#include "track/run_directory.h"
#include "train/trainer.h"
#include "training_measure.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <thread>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using kiln::bench::kFashionMnist;

kiln::ResolveContext cpu_context() {
    kiln::ResolveContext context;
    context.hardware.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
    return context;
}

void import_split(const std::string& split, const fs::path& folder) {
    if (fs::exists(folder)) {
        return;
    }
    kiln::data::IdxImportOptions options;
    options.images = kFashionMnist / (split + "-images-idx3-ubyte.gz");
    options.labels = kFashionMnist / (split + "-labels-idx1-ubyte.gz");
    options.out = folder;
    kiln::data::import_idx(options);
}

fs::path pretrain(const fs::path& train, const fs::path& out, const std::string& model,
                  double seconds) {
    if (fs::exists(kiln::track::RunDirectory(out).exported_last())) {
        return out;
    }
    const json settings = {
        {"out", out.string()},  {"data", train.string()}, {"model", model},
        {"method", "simclr"},   {"batch_size", 256},      {"max_time", seconds},
        {"accelerator", "cpu"}, {"overwrite", true},      {"transform_args", {{"image_size", 32}}}};
    kiln::train::TrainObserver quiet;
    kiln::train::train(kiln::resolve_train_config(settings, cpu_context()), quiet);
    return out;
}

// The embeddings of `train` by `run`'s exported backbone, written to `file` once per backbone:
// `file`.source names the model file and its time, so a --dir reused with another run
// (or a run trained again) embeds again instead of picking from the old backbone's rows.
kiln::embed::EmbeddingFile embeddings_of(const fs::path& run, const fs::path& train,
                                         const fs::path& file) {
    const fs::path model = fs::absolute(kiln::track::RunDirectory(run).exported_last());
    const std::string source =
        model.string() + " " +
        std::to_string(fs::last_write_time(model).time_since_epoch().count());
    const fs::path source_file = fs::path(file) += ".source";
    std::string cached;
    std::getline(std::ifstream(source_file), cached);
    if (!fs::exists(file) || cached != source) {
        json settings = {{"out", file.string()},         {"data", train.string()},
                         {"checkpoint", model.string()}, {"image_size", 32},
                         {"accelerator", "cpu"},         {"overwrite", true}};
        kiln::embed::run_embedding(kiln::resolve_embed_config(settings, cpu_context()));
        std::ofstream(source_file) << source << "\n";
    }
    return kiln::embed::read_embeddings(file);
}

// The picked images linked into class folders (their names are class/NNNNN.png).
int link_pick(const std::vector<std::string>& names, const std::vector<std::int64_t>& rows,
              const fs::path& train, const fs::path& subset) {
    fs::remove_all(subset);
    std::set<std::string> classes;
    for (const std::int64_t row : rows) {
        const fs::path name = names[std::size_t(row)];
        fs::create_directories(subset / name.parent_path());
        fs::create_symlink(fs::absolute(train / name), subset / name);
        classes.insert(name.parent_path().string());
    }
    return static_cast<int>(classes.size());
}

// The model a `kiln train` run trained, from its config.json.
std::string model_of(const fs::path& run) {
    std::ifstream in(run / "config.json");
    return json::parse(in).at("model").get<std::string>();
}

// Fine-tunes `model` on `subset`: from the backbone of `run`, or from random initialisation
// when `run` is empty.
double finetune(const fs::path& subset, const fs::path& test, const std::string& model,
                const fs::path& run, const fs::path& out, int seed) {
    json settings = {{"out", out.string()},
                     {"data", {{"train", subset.string()}, {"val", test.string()}}},
                     {"model", model},
                     {"epochs", 60},
                     {"batch_size", 128},
                     {"seed", seed},
                     {"val_every_n_steps", 1 << 30},
                     {"accelerator", "cpu"},
                     {"overwrite", true},
                     {"transform_args", {{"image_size", 32}}}};
    if (!run.empty()) {
        settings["model_args"] = {
            {"backbone_weights", kiln::track::RunDirectory(run).exported_last().string()}};
    }
    kiln::bench::TrainingMeasure measure;
    kiln::train::train(
        kiln::resolve_train_config(settings, cpu_context(), kiln::TaskKind::ImageClassification),
        measure);
    return measure.last.at("val_metric/top1_acc_micro");
}

struct Row {
    std::vector<double> top1;
    std::vector<int> classes;
};

struct Loop {
    const kiln::embed::EmbeddingFile& file;
    int count;
    int seeds;
    bool whiten;
    std::string model;
    fs::path train, test, root;
};

// Each seed's pick of `loop.count` by `strategy`, fine-tuned from `run` (random init when
// empty): top-1 and the classes the pick covers.
Row measure(const Loop& loop, const std::string& strategy, const fs::path& run) {
    Row row;
    for (int seed = 0; seed < loop.seeds; ++seed) {
        kiln::embed::SelectionOptions options;
        options.count = loop.count;
        options.strategy = kiln::embed::selection_strategy(strategy);
        options.seed = static_cast<std::uint64_t>(seed);
        options.whiten = loop.whiten;
        const auto picked = kiln::embed::select_rows(loop.file.embeddings, options);
        const fs::path subset = loop.root / ("pick-" + strategy);
        row.classes.push_back(link_pick(loop.file.filenames, picked.rows, loop.train, subset));
        row.top1.push_back(
            finetune(subset, loop.test, loop.model, run, loop.root / "finetune", seed));
    }
    return row;
}

void print(const std::string& label, const Row& row) {
    const kiln::bench::MeanSd top1 = kiln::bench::mean_sd(row.top1);
    std::string seeds, coverage;
    for (std::size_t i = 0; i < row.top1.size(); ++i) {
        char text[32];
        std::snprintf(text, sizeof text, "%s%.2f", i ? " " : "", 100 * row.top1[i]);
        seeds += text;
        coverage += (i ? "/" : "") + std::to_string(row.classes[i]);
    }
    std::printf("  %-22s top-1 %6.2f%% (sd %.2f)  seeds: %s  classes covered: %s\n", label.c_str(),
                100 * top1.mean, 100 * top1.sd, seeds.c_str(), coverage.c_str());
    std::fflush(stdout);
}

// The process's peak resident memory so far, in MiB.
double peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

// `rows` embeddings of `dim` dimensions around 1,000 seeded random directions.
at::Tensor synthetic_embeddings(std::int64_t rows, std::int64_t dim) {
    const at::Generator generator = at::detail::createCPUGenerator(0);
    const at::Tensor centres = at::randn({1000, dim}, generator);
    const at::Tensor which = at::randint(1000, {rows}, generator);
    return centres.index_select(0, which) + 0.5 * at::randn({rows, dim}, generator);
}

// "a,b,c" -> {"a", "b", "c"}
std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> items;
    std::istringstream stream(list);
    for (std::string item; std::getline(stream, item, ',');) {
        if (!item.empty()) {
            items.push_back(item);
        }
    }
    return items;
}

int run_speed(std::int64_t rows, std::int64_t dim, std::int64_t count,
              const std::vector<std::string>& strategies) {
    const at::Tensor embeddings = synthetic_embeddings(rows, dim);
    std::printf("selection speed: %lld embeddings of %lld dimensions (%.0f MiB of float32), "
                "picking %lld, %d threads; peak memory before picking %.0f MiB\n",
                static_cast<long long>(rows), static_cast<long long>(dim),
                double(rows * dim * 4) / 1048576.0, static_cast<long long>(count),
                at::get_num_threads(), peak_rss_mib());
    for (const std::string& name : strategies) {
        kiln::embed::SelectionOptions options;
        options.count = count;
        options.strategy = kiln::embed::selection_strategy(name);
        const auto started = std::chrono::steady_clock::now();
        const kiln::embed::Selection picked = kiln::embed::select_rows(embeddings, options);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::printf("  %-9s %8.1f s  %zu picks  peak memory %.0f MiB\n", name.c_str(), seconds,
                    picked.rows.size(), peak_rss_mib());
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    fs::path root = fs::temp_directory_path() / "kiln-bench-select";
    fs::path run;
    double pretrain_seconds = 300;
    int seeds = 3;
    bool whiten = false, random_init = false;
    std::int64_t speed_rows = 0, dim = 512, count = 10000;
    std::string strategies = "random,typical,diverse,balanced", counts = "600,300";
    std::string model = "smallcnn";
    for (int i = 1; i < argc; i += 2) {
        // A flag without its value (--help among them) matches none and gets the usage.
        const std::string flag = i + 1 < argc ? argv[i] : "";
        if (flag == "--speed") {
            speed_rows = std::stoll(argv[i + 1]);
        } else if (flag == "--dim") {
            dim = std::stoll(argv[i + 1]);
        } else if (flag == "--count") {
            count = std::stoll(argv[i + 1]);
        } else if (flag == "--strategies") {
            strategies = argv[i + 1];
        } else if (flag == "--counts") {
            counts = argv[i + 1];
        } else if (flag == "--dir") {
            root = argv[i + 1];
        } else if (flag == "--pretrained") {
            run = argv[i + 1];
        } else if (flag == "--model") {
            model = argv[i + 1];
        } else if (flag == "--pretrain-seconds") {
            pretrain_seconds = std::stod(argv[i + 1]);
        } else if (flag == "--seeds") {
            seeds = std::stoi(argv[i + 1]);
        } else if (flag == "--whiten") {
            whiten = std::stoi(argv[i + 1]) != 0;
        } else if (flag == "--random-init") { // also the random picks from random init
            random_init = std::stoi(argv[i + 1]) != 0;
        } else {
            std::fprintf(
                stderr,
                "usage: bench_select [--dir DIR] [--pretrained RUN | --pretrain-seconds S] "
                "[--model NAME] [--strategies LIST] [--counts LIST] [--seeds N] "
                "[--whiten 0|1] [--random-init 0|1] | --speed ROWS [--dim D] [--count N]\n");
            return 2;
        }
    }
    if (speed_rows > 0) {
        return run_speed(speed_rows, dim, count, split_list(strategies));
    }
    if (!fs::exists(kFashionMnist)) {
        std::printf("skipped: Fashion-MNIST is not at %s\n", kFashionMnist.c_str());
        return 0;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    fs::create_directories(root);
    const fs::path train = root / "train", test = root / "t10k";
    import_split("train", train);
    import_split("t10k", test);
    if (run.empty()) {
        run = pretrain(train, root / "simclr", model, pretrain_seconds);
    }
    model = model_of(run);
    const kiln::embed::EmbeddingFile file = embeddings_of(run, train, root / "embeddings.pt");
    std::printf("picking from %s embeddings\n", whiten ? "PCA-whitened" : "the raw");
    std::printf("Fashion-MNIST: %zu training images embedded by %s (no labels used); each pick "
                "fine-tunes %s from that backbone, 60 epochs at 32 px, top-1 on the 10,000 "
                "test images\n",
                file.filenames.size(), run.string().c_str(), model.c_str());
    for (const std::string& labels : split_list(counts)) {
        const int count = std::stoi(labels);
        std::printf("%d labels (%.2g%%):\n", count, 100.0 * count / double(file.filenames.size()));
        for (const std::string& strategy : split_list(strategies)) {
            print(strategy,
                  measure({file, count, seeds, whiten, model, train, test, root}, strategy, run));
        }
        if (random_init) { // the same random picks: they do not depend on the embeddings
            print("random, from random init",
                  measure({file, count, seeds, whiten, model, train, test, root}, "random", {}));
        }
    }
    return 0;
}
