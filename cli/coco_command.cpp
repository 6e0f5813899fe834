#include "command.h"
#include "core/error.h"
#include "eval/coco/coco_eval.h"
#include "system/hardware.h"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace kiln::cli {
namespace {

struct CocoArguments {
    std::string ground_truth;
    std::string results;
    std::string iou_type = "bbox";
    std::vector<int> max_dets{1, 10, 100};
    bool per_class = false;
    bool json = false;
    int threads = 0; // 0: every usable core
};

constexpr std::array<const char*, coco::kStatCount> kStatNames{
    "AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"};

std::string full_precision(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void write_json(const coco::EvalResult& result, std::ostream& out) {
    out << "{\n  \"iou_type\": \"" << coco::iou_type_name(result.params.iou_type) << "\",\n";
    out << "  \"max_dets\": [" << result.params.max_detections[0] << ", "
        << result.params.max_detections[1] << ", " << result.params.max_detections[2] << "],\n";
    out << "  \"stats\": {";
    for (int s = 0; s < coco::kStatCount; ++s) {
        out << (s == 0 ? "\n" : ",\n") << "    \"" << kStatNames[s]
            << "\": " << full_precision(result.stats[s]);
    }
    out << "\n  },\n  \"per_class\": [";
    for (std::size_t k = 0; k < result.per_category.size(); ++k) {
        const coco::CategoryAp& category = result.per_category[k];
        out << (k == 0 ? "\n" : ",\n") << "    {\"category_id\": " << category.category_id
            << ", \"name\": " << nlohmann::json(category.name).dump()
            << ", \"AP\": " << full_precision(category.ap) << "}";
    }
    out << "\n  ]\n}\n";
}

void write_per_class(const coco::EvalResult& result, std::ostream& out) {
    out << "\nPer-class AP @[ IoU=0.50:0.95 | area=   all | maxDets=" << std::setw(3)
        << result.params.max_detections[2] << " ] (-1: no ground truth)\n";
    std::size_t name_width = 4;
    for (const coco::CategoryAp& category : result.per_category) {
        name_width = std::max(name_width, category.name.size());
    }
    char line[256];
    std::snprintf(line, sizeof line, "%8s  %-*s  %s\n", "id", static_cast<int>(name_width), "name",
                  "AP");
    out << line;
    for (const coco::CategoryAp& category : result.per_category) {
        std::snprintf(line, sizeof line, "%8lld  %-*s  %0.3f\n",
                      static_cast<long long>(category.category_id), static_cast<int>(name_width),
                      category.name.c_str(), category.ap);
        out << line;
    }
}

int run_eval_coco(const CocoArguments& arguments, std::ostream& out) {
    coco::EvalParams params;
    params.iou_type = coco::parse_iou_type(arguments.iou_type);
    if (arguments.max_dets.size() != 3) {
        throw Error("--max-dets takes three numbers, such as 1,10,100; got " +
                    std::to_string(arguments.max_dets.size()));
    }
    std::copy(arguments.max_dets.begin(), arguments.max_dets.end(), params.max_detections.begin());
    params.threads = arguments.threads > 0 ? arguments.threads : system::usable_cpu_cores();

    const auto start = std::chrono::steady_clock::now();
    const coco::GroundTruth truth = coco::GroundTruth::load(arguments.ground_truth);
    const double truth_seconds = seconds_since(start);
    const coco::Detections detections =
        coco::Detections::load(arguments.results, truth, params.iou_type, params.threads);
    const double load_seconds = seconds_since(start);
    const coco::EvalResult result = coco::evaluate(truth, detections, params);
    const double total_seconds = seconds_since(start);
    for (const std::string& warning : truth.warnings()) {
        std::cerr << "warning: " << warning << "\n";
    }
    std::fprintf(stderr,
                 "kiln: %zu images, %zu ground-truth objects, %zu detections (%s); loaded in "
                 "%.2f s + %.2f s, evaluated in %.2f s on %d threads\n",
                 truth.images().size(), truth.annotations().size(), detections.annotations().size(),
                 coco::iou_type_name(params.iou_type), truth_seconds, load_seconds - truth_seconds,
                 total_seconds - load_seconds, params.threads);

    if (arguments.json) {
        write_json(result, out);
        return 0;
    }
    out << coco::summary_table(result);
    if (arguments.per_class) {
        write_per_class(result, out);
    }
    return 0;
}

} // namespace

void add_coco_command(CLI::App& evaluate, Commands& commands) {
    auto coco_arguments = std::make_shared<CocoArguments>();
    CocoArguments& arguments = *coco_arguments;
    CLI::App* coco =
        evaluate.add_subcommand("coco", "COCO mAP of detections (pycocotools' numbers, faster)");
    coco->add_option("--gt", arguments.ground_truth, "COCO annotation file (ground truth)")
        ->required()
        ->check(CLI::ExistingFile);
    coco->add_option("--dt", arguments.results, "results file: a list of detections")
        ->required()
        ->check(CLI::ExistingFile);
    coco->add_option("--iou-type", arguments.iou_type, "bbox or segm")
        ->check(CLI::IsMember({"bbox", "segm"}))
        ->capture_default_str();
    coco->add_option("--max-dets", arguments.max_dets, "three detection limits per image")
        ->delimiter(',')
        ->expected(3)
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    coco->add_flag("--per-class", arguments.per_class, "also print AP per category");
    coco->add_flag("--json", arguments.json,
                   "print the 12 stats and per-class AP as JSON, full precision");
    coco->add_option("--threads", arguments.threads, "threads (default: every usable core)")
        ->check(CLI::Range(1, 1024));
    commands.add(
        coco, [coco_arguments](std::ostream& out) { return run_eval_coco(*coco_arguments, out); });
}

} // namespace kiln::cli
