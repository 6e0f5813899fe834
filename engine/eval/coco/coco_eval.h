#pragma once

#include "eval/coco/coco_data.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

// COCO mAP as pycocotools' COCOeval computes it (evaluate, accumulate, summarize), to the last
// bit: the same thresholds, sorting, matching, interpolation and numpy's way of averaging.
namespace kiln::coco {

constexpr int kIouThresholdCount = 10;
constexpr int kRecallThresholdCount = 101;
constexpr int kAreaRangeCount = 4;
constexpr int kStatCount = 12;

// numpy.linspace(.5, .95, 10) and numpy.linspace(0, 1, 101), value for value.
const std::array<double, kIouThresholdCount>& iou_thresholds();
const std::array<double, kRecallThresholdCount>& recall_thresholds();

// all, small, medium, large: [0, 1e10], [0, 32^2], [32^2, 96^2], [96^2, 1e10], ends inclusive.
struct AreaRange {
    const char* label;
    double low;
    double high;
};
const std::array<AreaRange, kAreaRangeCount>& area_ranges();

struct EvalParams {
    IouType iou_type = IouType::Box;
    std::array<int, 3> max_detections{1, 10, 100}; // sorted ascending, as COCOeval sorts them
    int threads = 1;
};

struct CategoryAp {
    std::int64_t category_id = 0;
    std::string name;
    double ap = -1; // AP@[.5:.95], all areas, the largest maxDets; -1 without ground truth
};

struct EvalResult {
    EvalParams params;
    // AP@[.5:.95], AP@.5, AP@.75, AP small/medium/large, AR@1, AR@10, AR@100, AR small/medium/
    // large, as COCOeval.stats; -1 where nothing could be measured.
    std::array<double, kStatCount> stats{};
    std::vector<CategoryAp> per_category;
    // COCOeval.eval['precision'] [T][R][K][A][M] and ['recall'] [T][K][A][M], C order, over the
    // evaluated categories: those with ground truth (the others' are -1 throughout in COCOeval).
    std::vector<double> precision;
    std::vector<double> recall;
    std::size_t category_count = 0;            // the ground truth's categories
    std::vector<std::int64_t> evaluated_index; // per category: its K above, -1 when not evaluated
    std::size_t evaluated_count = 0;
};

// Precision and recall take 12,240 values (98 KB) per evaluated category: at most this many.
inline constexpr std::size_t kMaxEvaluatedCategories = 20000;

// Evaluates one set of detections. Throws kiln::Error when an annotation lacks what the IoU type
// needs (a box, a segmentation). Deterministic whatever the thread count.
EvalResult evaluate(const GroundTruth& ground_truth, const Detections& detections,
                    const EvalParams& params);

// Category `k`'s precision at the 101 recall thresholds at IoU 0.5, all areas and the largest
// maxDets: its precision-recall curve as COCOeval.eval['precision'] holds it (-1 throughout
// for a category without ground truth, 0 at recalls never reached).
std::vector<double> precision_at_recalls(const EvalResult& result, std::size_t k);

// COCOeval.summarize()'s twelve lines, byte for byte.
std::string summary_table(const EvalResult& result);

// numpy.mean of a contiguous float64 vector as NumPy 2.3 and newer compute it: pairwise
// summation over the whole vector (8 partial sums up to 128 values, split in halves above),
// then divided by the count. The last digits of COCO's stats depend on it: NumPy before 2.3
// summed buffers of 8192 values one after another, so with an older NumPy pycocotools' stats
// can differ from these in the last bit.
double numpy_mean(const std::vector<double>& values);

} // namespace kiln::coco
