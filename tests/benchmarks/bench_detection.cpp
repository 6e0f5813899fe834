// Object detection and instance segmentation on generated Fashion-MNIST scenes: box and mask
// mAP after the same number of steps from random initialisation and (with --pretrained) from a
// Kiln-pretrained backbone; training images/s; and the wall time of one run with validation
// every N steps in sync mode against async mode (the numbers are the same; async spends its
// mAP time beside training instead of in it). Then the same checkpoint's detections on the
// val set, evaluated by Kiln's evaluator against pycocotools and faster-coco-eval (from the
// build's Python, tests/benchmarks/coco_peers.py): time for load + evaluate, and whether their
// twelve stats equal Kiln's bit for bit.
//
// With --seconds S, the runs from random and pretrained weights each train for the same wall
// time instead (stopped after the step that reaches S seconds, on a schedule of --steps), and
// their last checkpoints are evaluated on the val set.
//
//   bench_detection [--pretrained RUN_DIR] [--dir DIR] [--steps 300] [--scenes 1000]
//                   [--seconds S]
//   (RUN_DIR: a `kiln train` run of smallcnn on Fashion-MNIST at image_size 32)

#include "coco_peer_comparison.h"
#include "config/run_config.h"
#include "core/log.h"
#include "data/scene_generator.h"
#include "eval/coco/coco_eval.h"
#include "predict/predictor.h"
#include "track/run_directory.h"
#include "train/trainer.h"
#include "training_measure.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using kiln::bench::kFashionMnist;
using Measure = kiln::bench::TrainingMeasure;

// Stops a run once its steps have taken `seconds` of wall time (0: never).
class Budget : public Measure {
public:
    explicit Budget(double seconds) : seconds_(seconds) {}
    kiln::StopToken stop;
    std::int64_t steps = 0;

    void on_step(const kiln::train::StepMetrics& metrics) override {
        Measure::on_step(metrics);
        steps = metrics.step;
        if (seconds_ > 0 && Measure::seconds >= seconds_) {
            stop.request_stop();
        }
    }

private:
    double seconds_;
};

struct Result {
    Budget measure{0.0};
    double wall_seconds = 0.0;
};

Result run(kiln::TaskKind task, const fs::path& scenes, const fs::path& out, int steps,
           int validate_every, const std::string& mode, const std::string& pretrained,
           double budget_seconds = 0.0) {
    json settings = {
        {"out", out.string()},
        {"data",
         {{"train",
           {{"annotations", (scenes / "train" / "annotations.json").string()},
            {"images", (scenes / "train" / "images").string()}}},
          {"val",
           {{"annotations", (scenes / "val" / "annotations.json").string()},
            {"images", (scenes / "val" / "images").string()}}}}},
        {"model", "smallcnn"},
        {"steps", steps},
        {"val_every_n_steps", validate_every},
        {"batch_size", 32},
        {"accelerator", "cpu"},
        {"overwrite", true},
        {"optim_args", {{"lr", 0.003}}},
        {"transform_args", {{"image_size", 96}}},
        {"metric_args", {{"map", {{"mode", mode}}}}},
    };
    if (!pretrained.empty()) {
        settings["model_args"] = {{"backbone_weights", pretrained}};
    }
    kiln::ResolveContext context;
    context.hardware.cpu_cores = static_cast<int>(std::thread::hardware_concurrency());
    const kiln::TrainConfig config = kiln::resolve_train_config(settings, context, task);
    Result result{Budget(budget_seconds)};
    const auto started = std::chrono::steady_clock::now();
    kiln::train::train(config, result.measure, result.measure.stop);
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

void print(const char* label, const Result& result, bool masks) {
    const Measure& m = result.measure;
    std::printf("%-34s map %.4f  map_50 %.4f%s  %6.1f img/s  wall %6.1f s\n", label,
                m.last.count("val_metric/map") ? m.last.at("val_metric/map") : -1.0,
                m.last.count("val_metric/map_50") ? m.last.at("val_metric/map_50") : -1.0,
                masks ? ("  box_map " + std::to_string(m.last.count("val_metric/box_map")
                                                           ? m.last.at("val_metric/box_map")
                                                           : -1.0))
                            .c_str()
                      : "",
                m.images_per_second(), result.wall_seconds);
    std::fflush(stdout);
}

double seconds_since(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// The val set's COCO results from a run's last checkpoint (`kiln predict` with the val
// annotations), and Kiln's stats of them with the time load + evaluate took.
struct Evaluated {
    fs::path results;
    std::array<double, kiln::coco::kStatCount> stats{};
    double box_map = -1; // masks: the box mAP of the same detections
    double seconds = 0;
};

Evaluated evaluate_last_checkpoint(const fs::path& run, const fs::path& scenes, bool masks) {
    kiln::PredictConfig predict;
    predict.out = run / "val-results.json";
    predict.data = {scenes / "val" / "images"};
    predict.annotations = scenes / "val" / "annotations.json";
    predict.checkpoint = kiln::track::RunDirectory(run).last_checkpoint();
    predict.batch_size = 32;
    predict.num_workers = 1;
    predict.accelerator = kiln::Accelerator::Cpu;
    kiln::predict::run_prediction(predict);
    Evaluated evaluated;
    evaluated.results = predict.out;
    const auto type = masks ? kiln::coco::IouType::Mask : kiln::coco::IouType::Box;
    const auto started = std::chrono::steady_clock::now();
    const auto truth = kiln::coco::GroundTruth::load(*predict.annotations);
    const auto detections = kiln::coco::Detections::load(predict.out, truth, type);
    kiln::coco::EvalParams params;
    params.iou_type = type;
    evaluated.stats = kiln::coco::evaluate(truth, detections, params).stats;
    evaluated.seconds = seconds_since(started);
    if (masks) {
        params.iou_type = kiln::coco::IouType::Box;
        evaluated.box_map = kiln::coco::evaluate(truth, detections, params).stats[0];
    }
    return evaluated;
}

void compare_evaluators(const fs::path& run, const fs::path& scenes, bool masks) {
    const Evaluated evaluated = evaluate_last_checkpoint(run, scenes, masks);
    std::printf("  %-18s %8.3f s\n", "Kiln", evaluated.seconds);
    kiln::bench::print_coco_peers(scenes / "val" / "annotations.json", evaluated.results,
                                  masks ? kiln::coco::IouType::Mask : kiln::coco::IouType::Box,
                                  evaluated.stats);
}

} // namespace

int main(int argc, char** argv) {
    fs::path dir = fs::temp_directory_path() / "kiln-bench-detection";
    std::string pretrained;
    int steps = 300;
    int scenes = 1000;
    double seconds = 0.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--dir") {
            dir = argv[i + 1];
        } else if (flag == "--pretrained") {
            pretrained = argv[i + 1];
        } else if (flag == "--steps") {
            steps = std::stoi(argv[i + 1]);
        } else if (flag == "--scenes") {
            scenes = std::stoi(argv[i + 1]);
        } else if (flag == "--seconds") {
            seconds = std::stod(argv[i + 1]);
        }
    }
    if (!fs::exists(kFashionMnist)) {
        std::printf("skipped: Fashion-MNIST is not at %s\n", kFashionMnist.c_str());
        return 0;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    for (const auto& [split, count, seed, file] :
         {std::tuple{"train", scenes, 1, "train"}, std::tuple{"val", scenes / 5, 2, "t10k"}}) {
        if (fs::exists(dir / split / "annotations.json")) {
            continue;
        }
        kiln::data::SceneOptions options;
        options.images = kFashionMnist / (std::string(file) + "-images-idx3-ubyte.gz");
        options.labels = kFashionMnist / (std::string(file) + "-labels-idx1-ubyte.gz");
        options.out = dir / split;
        options.scenes = count;
        options.size = 96;
        options.seed = std::uint64_t(seed);
        kiln::data::generate_scenes(options);
    }
    std::printf("generated scenes: %d train, %d val at 96 px; %d steps of 32 images\n", scenes,
                scenes / 5, steps);
    using kiln::TaskKind;
    if (seconds > 0) {
        std::printf("each run trains for %.0f s (on a schedule of %d steps); its last checkpoint "
                    "on the val set:\n",
                    seconds, steps);
        for (const auto& [task, masks, name] :
             {std::tuple{TaskKind::ObjectDetection, false, "detection"},
              std::tuple{TaskKind::InstanceSegmentation, true, "instance seg."}}) {
            for (const std::string& weights : {std::string(), pretrained}) {
                const std::string label =
                    std::string(name) + (weights.empty() ? ", random init" : ", pretrained");
                const fs::path out = dir / ("budget-" + std::to_string(int(masks)) +
                                            (weights.empty() ? "-random" : "-pretrained"));
                const Result result = run(task, dir, out, steps, steps, "sync", weights, seconds);
                const Evaluated evaluated = evaluate_last_checkpoint(out, dir, masks);
                std::printf("%-34s %4lld steps  map %.4f  map_50 %.4f  box_map %.4f  %6.1f "
                            "img/s\n",
                            label.c_str(), static_cast<long long>(result.measure.steps),
                            evaluated.stats[0], evaluated.stats[1],
                            masks ? evaluated.box_map : evaluated.stats[0],
                            result.measure.images_per_second());
                std::fflush(stdout);
                if (pretrained.empty()) {
                    break;
                }
            }
        }
        return 0;
    }
    print("detection, random init",
          run(TaskKind::ObjectDetection, dir, dir / "det-random", steps, steps, "sync", ""), false);
    if (!pretrained.empty()) {
        print("detection, pretrained backbone",
              run(TaskKind::ObjectDetection, dir, dir / "det-pretrained", steps, steps, "sync",
                  pretrained),
              false);
    }
    print("instance seg., random init",
          run(TaskKind::InstanceSegmentation, dir, dir / "inst-random", steps, steps, "sync", ""),
          true);
    if (!pretrained.empty()) {
        print("instance seg., pretrained backbone",
              run(TaskKind::InstanceSegmentation, dir, dir / "inst-pretrained", steps, steps,
                  "sync", pretrained),
              true);
    }
    std::printf("evaluating the last checkpoint's detections on the val set (boxes):\n");
    compare_evaluators(dir / "det-random", dir, false);
    std::printf("evaluating the last checkpoint's detections on the val set (masks):\n");
    compare_evaluators(dir / "inst-random", dir, true);
    const int every = std::max(1, steps / 10);
    std::printf("validation every %d steps:\n", every);
    print("  instance seg., map sync",
          run(TaskKind::InstanceSegmentation, dir, dir / "sync", steps, every, "sync", ""), true);
    print("  instance seg., map async",
          run(TaskKind::InstanceSegmentation, dir, dir / "async", steps, every, "async", ""), true);
    return 0;
}
