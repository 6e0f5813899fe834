// Object detection and instance segmentation against Ultralytics YOLO11n and YOLO11n-seg on
// generated Fashion-MNIST scenes (600 train / 100 val at 96 px, 10 classes, 1-4 garments each):
// each trains for the same wall time from random initialisation on the same images, for each
// seed; each run's last weights are scored on the same val images (Kiln's by its own evaluator,
// which gives pycocotools' numbers bit for bit; YOLO's by pycocotools, tests/benchmarks/
// ultralytics_peer.py). Kiln runs as a user would run it: its defaults for the task (cspnet_n,
// image_size auto, mosaic, weight average), batch 16 like YOLO's, max_time. With --pretrained,
// Kiln also fine-tunes from that run's backbone (a cspnet_n pretraining run); with
// --pretrain-seconds S the benchmark makes that run itself, as a user with many unlabelled
// images would: --pretrain-scenes N (6,000) more scenes (another seed, labels unused), SimCLR
// of cspnet_n on them for S seconds at 96 px. With --evaluators, Kiln's COCO evaluator is timed
// against pycocotools and faster-coco-eval on the last run's results.
//
//   bench_detection [--seconds 300] [--seeds 3] [--dir DIR] [--pretrained RUN_DIR]
//                   [--pretrain-seconds 600] [--pretrain-scenes 6000]
//                   [--rows default,peer,pretrained] (which rows to train; all by default)
//                   [--tasks detect,segment] [--evaluators]

#include "coco_peer_comparison.h"
#include "config/run_config.h"
#include "core/log.h"
#include "data/scene_generator.h"
#include "eval/coco/coco_eval.h"
#include "predict/predictor.h"
#include "seed_statistics.h"
#include "track/run_directory.h"
#include "train/trainer.h"
#include "training_measure.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using kiln::TaskKind;
using kiln::bench::kFashionMnist;
using kiln::bench::mean_sd;
using kiln::bench::MeanSd;

struct Score {
    double map = -1, map_50 = -1, map_75 = -1;
    double box_map = -1; // instance segmentation: the box mAP of the same detections
    double images_per_second = 0;
    double seconds = 0;
    long long steps = 0;
};

json split_data(const fs::path& scenes) {
    const auto split = [&](const char* name) {
        return json{{"annotations", (scenes / name / "annotations.json").string()},
                    {"images", (scenes / name / "images").string()}};
    };
    return {{"train", split("train")}, {"val", split("val")}};
}

// The val set's COCO stats of a run's last checkpoint (`kiln predict` with the annotations).
std::array<double, kiln::coco::kStatCount> evaluate(const fs::path& run, const fs::path& scenes,
                                                    bool masks, double* box_map) {
    kiln::PredictConfig predict;
    predict.out = run / "val-results.json";
    predict.data = {scenes / "val" / "images"};
    predict.annotations = scenes / "val" / "annotations.json";
    predict.checkpoint = kiln::track::RunDirectory(run).last_checkpoint();
    predict.batch_size = 32;
    predict.num_workers = 1;
    predict.accelerator = kiln::Accelerator::Cpu;
    predict.overwrite = true;
    kiln::predict::run_prediction(predict);
    const auto truth = kiln::coco::GroundTruth::load(*predict.annotations);
    const auto type = masks ? kiln::coco::IouType::Mask : kiln::coco::IouType::Box;
    const auto detections = kiln::coco::Detections::load(predict.out, truth, type);
    kiln::coco::EvalParams params;
    params.iou_type = type;
    const auto stats = kiln::coco::evaluate(truth, detections, params).stats;
    if (masks && box_map != nullptr) {
        params.iou_type = kiln::coco::IouType::Box;
        *box_map = kiln::coco::evaluate(truth, detections, params).stats[0];
    }
    return stats;
}

Score run_kiln(TaskKind task, const fs::path& scenes, const fs::path& out, double seconds, int seed,
               const std::string& pretrained) {
    json settings = {{"out", out.string()},  {"data", split_data(scenes)}, {"model", "cspnet_n"},
                     {"batch_size", 16},     {"max_time", seconds},        {"seed", seed},
                     {"accelerator", "cpu"}, {"overwrite", true}};
    if (!pretrained.empty()) {
        settings["model_args"] = {{"backbone_weights", pretrained}};
    }
    kiln::ResolveContext context;
    context.hardware.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
    const kiln::TrainConfig config = kiln::resolve_train_config(settings, context, task);
    kiln::bench::TrainingMeasure measure;
    const kiln::train::RunSummary summary = kiln::train::train(config, measure);
    Score score;
    const bool masks = task == TaskKind::InstanceSegmentation;
    const auto stats = evaluate(out, scenes, masks, &score.box_map);
    score.map = stats[0];
    score.map_50 = stats[1];
    score.map_75 = stats[2];
    if (!masks) {
        score.box_map = score.map;
    }
    score.images_per_second = measure.images_per_second();
    score.seconds = summary.seconds;
    score.steps = summary.steps;
    return score;
}

Score run_ultralytics(TaskKind task, const fs::path& scenes, const fs::path& out, double seconds,
                      int seed) {
    const std::string python = KILN_BENCHMARK_PYTHON;
    std::ostringstream command;
    command << python << " " << KILN_BENCHMARK_DIR << "/ultralytics_peer.py"
            << " --train-annotations " << (scenes / "train" / "annotations.json")
            << " --train-images " << (scenes / "train" / "images") << " --val-annotations "
            << (scenes / "val" / "annotations.json") << " --val-images "
            << (scenes / "val" / "images") << " --task "
            << (task == TaskKind::InstanceSegmentation ? "segment" : "detect")
            << " --imgsz 96 --batch 16 --seconds " << seconds << " --seed " << seed << " --out "
            << out << " 2>/dev/null";
    FILE* pipe = ::popen(command.str().c_str(), "r");
    std::string last;
    char line[8192];
    while (pipe != nullptr && std::fgets(line, sizeof line, pipe) != nullptr) {
        last = line;
    }
    if (pipe == nullptr || ::pclose(pipe) != 0 || last.empty()) {
        std::printf("  (Ultralytics did not run: %s)\n", command.str().c_str());
        return {};
    }
    const json result = json::parse(last);
    const bool masks = task == TaskKind::InstanceSegmentation;
    Score score;
    score.map = result[masks ? "mask_map" : "box_map"].get<double>();
    score.map_50 = result[masks ? "mask_map50" : "box_map50"].get<double>();
    score.map_75 = result[masks ? "mask_map75" : "box_map75"].get<double>();
    score.box_map = result["box_map"].get<double>();
    score.images_per_second = result["images_per_second"].get<double>();
    score.seconds = result["train_seconds"].get<double>();
    return score;
}

void print(const std::string& label, int seed, const Score& score) {
    std::printf("  %-34s seed %d  map %.4f  map_50 %.4f  map_75 %.4f  box_map %.4f  %6.1f img/s  "
                "%5.0f s\n",
                label.c_str(), seed, score.map, score.map_50, score.map_75, score.box_map,
                score.images_per_second, score.seconds);
    std::fflush(stdout);
}

// `count` scenes of 96 px into dir/split, from the IDX set `file` (train or t10k), unless there.
void generate_split(const fs::path& dir, const std::string& split, long long count, int seed,
                    const std::string& file) {
    if (fs::exists(dir / split / "annotations.json")) {
        return;
    }
    kiln::data::SceneOptions options;
    options.images = kFashionMnist / (file + "-images-idx3-ubyte.gz");
    options.labels = kFashionMnist / (file + "-labels-idx1-ubyte.gz");
    options.out = dir / split;
    options.scenes = count;
    options.size = 96;
    options.seed = std::uint64_t(seed);
    kiln::data::generate_scenes(options);
}

void generate(const fs::path& dir) {
    generate_split(dir, "train", 600, 0, "train");
    generate_split(dir, "val", 100, 1, "t10k");
}

// SimCLR of cspnet_n for `seconds` on `scenes` unlabelled scenes (seed 7, their labels unused):
// the run folder, for --pretrained.
fs::path pretrain(const fs::path& dir, long long scenes, double seconds) {
    generate_split(dir, "unlabelled", scenes, 7, "train");
    const fs::path out = dir / "pretraining";
    const json settings = {
        {"out", out.string()}, {"data", (dir / "unlabelled" / "images").string()},
        {"model", "cspnet_n"}, {"method", "simclr"},
        {"batch_size", 64},    {"max_time", seconds},
        {"seed", 0},           {"accelerator", "cpu"},
        {"overwrite", true},   {"transform_args", {{"image_size", 96}}}};
    kiln::ResolveContext context;
    context.hardware.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
    kiln::bench::TrainingMeasure measure;
    const kiln::train::RunSummary summary =
        kiln::train::train(kiln::resolve_train_config(settings, context), measure);
    std::printf("pretraining: SimCLR of cspnet_n on %lld unlabelled scenes, %.0f s, %lld steps, "
                "%.1f img/s\n",
                scenes, summary.seconds, static_cast<long long>(summary.steps),
                measure.images_per_second());
    return out;
}

} // namespace

int main(int argc, char** argv) {
    fs::path dir = fs::temp_directory_path() / "kiln-bench-detection";
    std::string pretrained;
    std::string tasks = "detect,segment";
    std::string rows = "default,peer,pretrained";
    double seconds = 300;
    double pretrain_seconds = 0;
    long long pretrain_scenes = 6000;
    int seeds = 3;
    bool evaluators = false;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        const std::string value = i + 1 < argc ? argv[i + 1] : "";
        if (flag == "--evaluators") {
            evaluators = true;
            continue;
        }
        ++i;
        if (flag == "--dir") {
            dir = value;
        } else if (flag == "--pretrained") {
            pretrained = value;
        } else if (flag == "--pretrain-seconds") {
            pretrain_seconds = std::stod(value);
        } else if (flag == "--pretrain-scenes") {
            pretrain_scenes = std::stoll(value);
        } else if (flag == "--seconds") {
            seconds = std::stod(value);
        } else if (flag == "--seeds") {
            seeds = std::stoi(value);
        } else if (flag == "--tasks") {
            tasks = value;
        } else if (flag == "--rows") {
            rows = value;
        }
    }
    if (!fs::exists(kFashionMnist)) {
        std::printf("skipped: Fashion-MNIST is not at %s\n", kFashionMnist.c_str());
        return 0;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    generate(dir);
    std::printf("generated scenes: 600 train, 100 val at 96 px; every run trains %.0f s on this "
                "machine's %u cores, its last weights scored on the val set\n",
                seconds, std::thread::hardware_concurrency());
    if (pretrain_seconds > 0) {
        pretrained = pretrain(dir, pretrain_scenes, pretrain_seconds).string();
    }
    for (const auto& [task, name] : {std::pair{TaskKind::ObjectDetection, "detect"},
                                     std::pair{TaskKind::InstanceSegmentation, "segment"}}) {
        if (tasks.find(name) == std::string::npos) {
            continue;
        }
        const bool masks = task == TaskKind::InstanceSegmentation;
        std::printf("%s (%s mAP):\n", masks ? "instance segmentation" : "object detection",
                    masks ? "mask" : "box");
        std::vector<double> kiln_maps, peer_maps, pretrained_maps;
        const auto row = [&rows](const char* which) {
            return rows.find(which) != std::string::npos;
        };
        for (int seed = 0; seed < seeds; ++seed) {
            if (row("default")) {
                const Score kiln =
                    run_kiln(task, dir, dir / ("kiln-" + std::string(name)), seconds, seed, "");
                print("Kiln, cspnet_n, defaults", seed, kiln);
                kiln_maps.push_back(kiln.map);
            }
            if (row("peer")) {
                const Score peer =
                    run_ultralytics(task, dir, dir / ("yolo-" + std::string(name)), seconds, seed);
                print(masks ? "Ultralytics YOLO11n-seg" : "Ultralytics YOLO11n", seed, peer);
                peer_maps.push_back(peer.map);
            }
            if (!pretrained.empty() && row("pretrained")) {
                const Score tuned = run_kiln(task, dir, dir / ("kiln-pre-" + std::string(name)),
                                             seconds, seed, pretrained);
                print("Kiln, pretrained cspnet_n", seed, tuned);
                pretrained_maps.push_back(tuned.map);
            }
        }
        const MeanSd kiln = mean_sd(kiln_maps), peer = mean_sd(peer_maps);
        if (!kiln_maps.empty() && !peer_maps.empty()) {
            std::printf("  mean over %d seeds: Kiln %.4f (sd %.4f), Ultralytics %.4f (sd %.4f): "
                        "Kiln %.2fx\n",
                        seeds, kiln.mean, kiln.sd, peer.mean, peer.sd,
                        peer.mean > 0 ? kiln.mean / peer.mean : 0.0);
        }
        if (!pretrained_maps.empty()) {
            const MeanSd tuned = mean_sd(pretrained_maps);
            std::printf("  pretrained backbone: %.4f (sd %.4f)", tuned.mean, tuned.sd);
            if (!kiln_maps.empty()) {
                std::printf(", %+.4f over random init", tuned.mean - kiln.mean);
            }
            std::printf("\n");
        }
        if (evaluators) {
            const fs::path run = dir / ("kiln-" + std::string(name));
            const auto truth = dir / "val" / "annotations.json";
            const auto type = masks ? kiln::coco::IouType::Mask : kiln::coco::IouType::Box;
            kiln::bench::print_coco_peers(truth, run / "val-results.json", type,
                                          evaluate(run, dir, masks, nullptr));
        }
    }
    return 0;
}
