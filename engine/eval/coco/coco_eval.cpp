#include "eval/coco/coco_eval.h"

#include "core/error.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

// Built with -ffp-contract=off: thresholds and IoUs must round exactly as numpy and maskApi do.
namespace kiln::coco {
namespace {

// np.spacing(1)
constexpr double kEpsilon = 2.220446049250313e-16;
constexpr std::size_t kPairwiseBlock = 128;

using Bits = std::uint16_t; // one bit per IoU threshold
static_assert(kIouThresholdCount <= 16, "IoU thresholds must fit the bit masks");

double pairwise_sum(const double* values, std::size_t count) {
    if (count < 8) {
        double sum = 0.;
        for (std::size_t i = 0; i < count; ++i) {
            sum += values[i];
        }
        return sum;
    }
    if (count <= kPairwiseBlock) {
        double partial[8];
        for (int j = 0; j < 8; ++j) {
            partial[j] = values[j];
        }
        std::size_t i = 8;
        for (; i < count - count % 8; i += 8) {
            for (int j = 0; j < 8; ++j) {
                partial[j] += values[i + j];
            }
        }
        double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
                     ((partial[4] + partial[5]) + (partial[6] + partial[7]));
        for (; i < count; ++i) {
            sum += values[i];
        }
        return sum;
    }
    std::size_t half = count / 2;
    half -= half % 8;
    return pairwise_sum(values, half) + pairwise_sum(values + half, count - half);
}

// The (category, image) pairs that hold an annotation of an evaluated category (one with ground
// truth), sorted by category then image: the cells pycocotools' _gts / _dts dictionaries key.
// Only the pairs present, so that neither many images nor many categories cost their product.
struct CellKeys {
    std::size_t images = 0;
    std::vector<std::uint64_t> keys;         // evaluated category * images + image
    std::vector<std::size_t> category_begin; // evaluated categories + 1
};

// An annotation's cell key, or nullopt for a category without ground truth.
std::optional<std::uint64_t> cell_key(const Annotation& annotation, const GroundTruth& truth,
                                      const std::vector<std::int64_t>& evaluated_index) {
    const std::int64_t category =
        evaluated_index[std::size_t(truth.category_index(annotation.category_id))];
    if (category < 0) {
        return std::nullopt;
    }
    return std::uint64_t(category) * truth.images().size() +
           std::uint64_t(truth.image_index(annotation.image_id));
}

CellKeys cell_keys(const GroundTruth& truth, const Detections& detections,
                   const std::vector<std::int64_t>& evaluated_index, std::size_t evaluated) {
    CellKeys cells;
    cells.images = truth.images().size();
    for (const auto* annotations : {&truth.annotations(), &detections.annotations()}) {
        for (const Annotation& annotation : *annotations) {
            if (const auto key = cell_key(annotation, truth, evaluated_index)) {
                cells.keys.push_back(*key);
            }
        }
    }
    std::sort(cells.keys.begin(), cells.keys.end());
    cells.keys.erase(std::unique(cells.keys.begin(), cells.keys.end()), cells.keys.end());
    for (std::size_t k = 0; k <= evaluated; ++k) {
        cells.category_begin.push_back(
            std::size_t(std::lower_bound(cells.keys.begin(), cells.keys.end(),
                                         std::uint64_t(k) * cells.images) -
                        cells.keys.begin()));
    }
    return cells;
}

// Annotations grouped by cell, each group in file order; those of categories without ground
// truth are left out.
struct Cells {
    std::vector<std::uint32_t> begin; // cells + 1
    std::vector<std::uint32_t> members;
};

Cells group_by_cell(const std::vector<Annotation>& annotations, const GroundTruth& truth,
                    const std::vector<std::int64_t>& evaluated_index, const CellKeys& keys) {
    const std::size_t cell_count = keys.keys.size();
    Cells cells;
    cells.begin.assign(cell_count + 1, 0);
    constexpr std::uint32_t kNoCell = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> cell_of(annotations.size(), kNoCell);
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        if (const auto key = cell_key(annotations[i], truth, evaluated_index)) {
            cell_of[i] = static_cast<std::uint32_t>(
                std::lower_bound(keys.keys.begin(), keys.keys.end(), *key) - keys.keys.begin());
            ++cells.begin[cell_of[i] + 1];
        }
    }
    for (std::size_t c = 0; c < cell_count; ++c) {
        cells.begin[c + 1] += cells.begin[c];
    }
    cells.members.resize(cells.begin[cell_count]);
    std::vector<std::uint32_t> next(cells.begin.begin(), cells.begin.end() - 1);
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        if (cell_of[i] != kNoCell) {
            cells.members[next[cell_of[i]]++] = static_cast<std::uint32_t>(i);
        }
    }
    return cells;
}

// What evaluateImg() records for every cell: the kept detections (sorted by score, cut at the
// largest maxDets) and, per area range, which matched a ground truth and which are ignored.
struct Matches {
    std::vector<std::uint32_t> kept_begin; // cells + 1
    std::vector<double> scores;
    std::array<std::vector<Bits>, kAreaRangeCount> hit; // matched a ground truth with id != 0
    std::array<std::vector<Bits>, kAreaRangeCount>
        ignored; // matched an ignored one, or out of area
    std::array<std::vector<std::uint32_t>, kAreaRangeCount> positives; // non-ignored ground truth
};

struct MaskInputs {
    const MaskSet* truth = nullptr;
    std::vector<Rle> converted; // detections whose mask had to be made
    std::vector<const Rle*> detection_masks;
    std::vector<Box> detection_boxes;
};

MaskInputs prepare_masks(const GroundTruth& truth, const Detections& detections, int threads) {
    MaskInputs inputs;
    inputs.truth = &truth.masks(threads);
    const std::vector<Annotation>& annotations = detections.annotations();
    inputs.converted.resize(annotations.size());
    inputs.detection_masks.resize(annotations.size());
    inputs.detection_boxes.resize(annotations.size());
    parallel_for(annotations.size(), threads, 1024, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const Annotation& detection = annotations[i];
            if (detection.segmentation.kind == Segmentation::Kind::Mask) {
                inputs.detection_masks[i] = &detection.segmentation.mask;
            } else {
                const Image& image = truth.images()[truth.image_index(detection.image_id)];
                Segmentation segmentation = detection.segmentation;
                if (segmentation.kind == Segmentation::Kind::None) {
                    // loadRes() gives a box-only detection the polygon of its box.
                    segmentation.kind = Segmentation::Kind::Boxes;
                    segmentation.parts = {
                        {detection.box[0], detection.box[1], detection.box[2], detection.box[3]}};
                }
                inputs.converted[i] =
                    mask_of(segmentation, image, detections.describe_annotation(i));
                inputs.detection_masks[i] = &inputs.converted[i];
            }
            inputs.detection_boxes[i] = bounding_box(*inputs.detection_masks[i]);
        }
    });
    return inputs;
}

bool outside(double area, const AreaRange& range) {
    return area < range.low || area > range.high;
}

struct CellScratch {
    std::vector<std::uint32_t> detections; // sorted, cut
    std::vector<double> ious;              // detections x ground truth (file order)
    std::vector<std::uint32_t> truth_order;
    std::vector<char> truth_ignored;
    std::vector<char> truth_taken;
};

void evaluate_cell(std::size_t cell, const GroundTruth& truth, const Detections& detections,
                   const Cells& truth_cells, const Cells& detection_cells, const MaskInputs* masks,
                   const EvalParams& params, Matches& matches, CellScratch& scratch) {
    const std::vector<Annotation>& gts = truth.annotations();
    const std::vector<Annotation>& dts = detections.annotations();
    const std::uint32_t* gt = truth_cells.members.data() + truth_cells.begin[cell];
    const std::size_t g_count = truth_cells.begin[cell + 1] - truth_cells.begin[cell];
    const std::uint32_t* dt_all = detection_cells.members.data() + detection_cells.begin[cell];
    const std::size_t dt_all_count = detection_cells.begin[cell + 1] - detection_cells.begin[cell];

    scratch.detections.assign(dt_all, dt_all + dt_all_count);
    std::stable_sort(scratch.detections.begin(), scratch.detections.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return dts[a].score > dts[b].score; });
    const std::size_t kept = matches.kept_begin[cell + 1] - matches.kept_begin[cell];
    scratch.detections.resize(kept);
    const std::uint32_t* dt = scratch.detections.data();
    const std::size_t out = matches.kept_begin[cell];
    for (std::size_t d = 0; d < kept; ++d) {
        matches.scores[out + d] = dts[dt[d]].score;
    }

    scratch.ious.assign(kept * g_count, 0.0);
    for (std::size_t g = 0; g < g_count; ++g) {
        const Annotation& truth_object = gts[gt[g]];
        if (params.iou_type == IouType::Box && !truth_object.has_box) {
            throw Error(truth.describe_annotation(gt[g]) + " has no 'bbox'; bbox evaluation "
                                                           "needs one for every annotation");
        }
        for (std::size_t d = 0; d < kept; ++d) {
            double& iou = scratch.ious[d * g_count + g];
            if (params.iou_type == IouType::Box) {
                iou = box_iou(dts[dt[d]].box, truth_object.box, truth_object.crowd);
            } else if (box_iou(masks->detection_boxes[dt[d]], masks->truth->boxes[gt[g]], false) >
                       0) {
                iou = mask_iou_of_overlapping(*masks->detection_masks[dt[d]],
                                              masks->truth->masks[gt[g]], truth_object.crowd);
            }
        }
    }

    const auto& thresholds = iou_thresholds();
    for (int a = 0; a < kAreaRangeCount; ++a) {
        const AreaRange& range = area_ranges()[a];
        // Ground truth stably sorted so that ignored objects come last.
        scratch.truth_order.clear();
        std::uint32_t positives = 0;
        for (int pass = 0; pass < 2; ++pass) {
            for (std::size_t g = 0; g < g_count; ++g) {
                const Annotation& object = gts[gt[g]];
                const bool ignored = object.crowd || outside(object.area, range);
                if (ignored == (pass == 1)) {
                    scratch.truth_order.push_back(static_cast<std::uint32_t>(g));
                    positives += ignored ? 0 : 1;
                }
            }
        }
        matches.positives[a][cell] = positives;
        scratch.truth_ignored.resize(g_count);
        for (std::size_t g = 0; g < g_count; ++g) {
            scratch.truth_ignored[g] = g >= positives;
        }
        Bits* hit = matches.hit[a].data() + out;
        Bits* ignored = matches.ignored[a].data() + out;
        std::fill(hit, hit + kept, Bits{0});
        std::fill(ignored, ignored + kept, Bits{0});
        for (int t = 0; t < kIouThresholdCount; ++t) {
            scratch.truth_taken.assign(g_count, 0);
            for (std::size_t d = 0; d < kept; ++d) {
                double best = std::min(thresholds[t], 1 - 1e-10);
                std::ptrdiff_t match = -1;
                for (std::size_t g = 0; g < g_count; ++g) {
                    const std::uint32_t original = scratch.truth_order[g];
                    if (scratch.truth_taken[g] && !gts[gt[original]].crowd) {
                        continue;
                    }
                    if (match > -1 && !scratch.truth_ignored[match] && scratch.truth_ignored[g]) {
                        break;
                    }
                    const double iou = scratch.ious[d * g_count + original];
                    if (iou < best) {
                        continue;
                    }
                    best = iou;
                    match = static_cast<std::ptrdiff_t>(g);
                }
                if (match == -1) {
                    continue;
                }
                const Bits bit = static_cast<Bits>(1u << t);
                if (scratch.truth_ignored[match]) {
                    ignored[d] |= bit;
                }
                // pycocotools records the match by the ground truth's id, so id 0 reads as none.
                if (gts[gt[scratch.truth_order[match]]].id != 0) {
                    hit[d] |= bit;
                }
                scratch.truth_taken[match] = 1;
            }
        }
        for (std::size_t d = 0; d < kept; ++d) {
            if (outside(dts[dt[d]].area, range)) {
                ignored[d] |= static_cast<Bits>(~hit[d]);
            }
        }
    }
}

std::size_t precision_index(std::size_t t, std::size_t r, std::size_t k, std::size_t a,
                            std::size_t m, std::size_t categories) {
    return (((t * kRecallThresholdCount + r) * categories + k) * kAreaRangeCount + a) * 3 + m;
}

std::size_t recall_index(std::size_t t, std::size_t k, std::size_t a, std::size_t m,
                         std::size_t categories) {
    return ((t * categories + k) * kAreaRangeCount + a) * 3 + m;
}

void accumulate_category(std::size_t k, const CellKeys& cells, const Matches& matches,
                         const EvalParams& params, EvalResult& result) {
    struct Entry {
        double score;
        std::uint32_t rank; // position within its image's sorted detections
        std::uint32_t index;
    };
    std::vector<Entry> entries;
    const std::size_t first_cell = cells.category_begin[k], end_cell = cells.category_begin[k + 1];
    for (std::size_t cell = first_cell; cell < end_cell; ++cell) {
        for (std::uint32_t j = matches.kept_begin[cell]; j < matches.kept_begin[cell + 1]; ++j) {
            entries.push_back({matches.scores[j], j - matches.kept_begin[cell], j});
        }
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.score > b.score; });
    // COCOeval computes recall and precision after every detection, takes the running maximum
    // of precision from the right and samples it where recall first reaches each threshold.
    // Both curves only rise where a true positive is added, and precision only falls elsewhere,
    // so the same samples come from those points alone: one division per true positive.
    struct TruePositive {
        double recall;
        double precision;
    };
    std::vector<TruePositive> curve;
    std::vector<Bits> hit(entries.size());
    std::vector<Bits> ignored(entries.size());
    const auto& recall_thresholds_ = recall_thresholds();
    const std::size_t categories = result.evaluated_count;
    for (int a = 0; a < kAreaRangeCount; ++a) {
        std::uint64_t positives = 0;
        for (std::size_t cell = first_cell; cell < end_cell; ++cell) {
            positives += matches.positives[a][cell];
        }
        if (positives == 0) {
            continue;
        }
        const double npig = static_cast<double>(positives);
        // This area range's bits in score order, so the passes below read them sequentially.
        for (std::size_t j = 0; j < entries.size(); ++j) {
            hit[j] = matches.hit[a][entries[j].index];
            ignored[j] = matches.ignored[a][entries[j].index];
        }
        for (int m = 0; m < 3; ++m) {
            const auto max_detections = static_cast<std::uint32_t>(params.max_detections[m]);
            for (int t = 0; t < kIouThresholdCount; ++t) {
                const Bits bit = static_cast<Bits>(1u << t);
                double tp = 0, fp = 0;
                std::size_t count = 0;
                curve.clear();
                for (std::size_t j = 0; j < entries.size(); ++j) {
                    if (entries[j].rank >= max_detections) {
                        continue;
                    }
                    ++count;
                    if (ignored[j] & bit) {
                        continue;
                    }
                    if (hit[j] & bit) {
                        tp += 1;
                        curve.push_back({tp / npig, tp / (fp + tp + kEpsilon)});
                    } else {
                        fp += 1;
                    }
                }
                result.recall[recall_index(t, k, a, m, categories)] = count > 0 ? tp / npig : 0;
                for (std::size_t i = curve.size() - (curve.empty() ? 0 : 1); i > 0; --i) {
                    if (curve[i].precision > curve[i - 1].precision) {
                        curve[i - 1].precision = curve[i].precision;
                    }
                }
                std::size_t position = 0;
                for (int r = 0; r < kRecallThresholdCount; ++r) {
                    while (position < curve.size() &&
                           curve[position].recall < recall_thresholds_[r]) {
                        ++position;
                    }
                    result.precision[precision_index(t, r, k, a, m, categories)] =
                        position < curve.size() ? curve[position].precision : 0;
                }
            }
        }
    }
}

// One line of COCOeval.summarize(): the mean of the values > -1 picked by its arguments.
double summarize(const EvalResult& result, bool precision, double iou_threshold,
                 const char* area_label, int max_detections) {
    std::vector<int> thresholds;
    for (int t = 0; t < kIouThresholdCount; ++t) {
        if (iou_threshold < 0 || iou_thresholds()[t] == iou_threshold) {
            thresholds.push_back(t);
        }
    }
    int area = 0;
    while (std::string(area_ranges()[area].label) != area_label) {
        ++area;
    }
    std::vector<int> max_indices;
    for (int m = 0; m < 3; ++m) {
        if (result.params.max_detections[m] == max_detections) {
            max_indices.push_back(m);
        }
    }
    const std::size_t categories = result.evaluated_count;
    std::vector<double> values;
    auto take = [&](double value) {
        if (value > -1) {
            values.push_back(value);
        }
    };
    for (int t : thresholds) {
        if (precision) {
            for (int r = 0; r < kRecallThresholdCount; ++r) {
                for (std::size_t k = 0; k < categories; ++k) {
                    for (int m : max_indices) {
                        take(result.precision[precision_index(t, r, k, area, m, categories)]);
                    }
                }
            }
        } else {
            for (std::size_t k = 0; k < categories; ++k) {
                for (int m : max_indices) {
                    take(result.recall[recall_index(t, k, area, m, categories)]);
                }
            }
        }
    }
    return values.empty() ? -1 : numpy_mean(values);
}

struct StatSpec {
    bool precision;
    double iou_threshold; // -1: all
    const char* area;
    int max_index; // index into max_detections; -1: the literal 100 COCOeval uses for stats[0]
};

constexpr std::array<StatSpec, kStatCount> kStats{{
    {true, -1, "all", -1},
    {true, .5, "all", 2},
    {true, .75, "all", 2},
    {true, -1, "small", 2},
    {true, -1, "medium", 2},
    {true, -1, "large", 2},
    {false, -1, "all", 0},
    {false, -1, "all", 1},
    {false, -1, "all", 2},
    {false, -1, "small", 2},
    {false, -1, "medium", 2},
    {false, -1, "large", 2},
}};

int stat_max_detections(const StatSpec& spec, const EvalParams& params) {
    return spec.max_index < 0 ? 100 : params.max_detections[spec.max_index];
}

} // namespace

const std::array<double, kIouThresholdCount>& iou_thresholds() {
    static const std::array<double, kIouThresholdCount> thresholds = [] {
        // numpy.linspace: step = (stop - start) / (num - 1); y = i * step + start; y[-1] = stop.
        std::array<double, kIouThresholdCount> values{};
        const double step = (.95 - .5) / (kIouThresholdCount - 1);
        for (int i = 0; i < kIouThresholdCount; ++i) {
            const double scaled = i * step;
            values[i] = scaled + .5;
        }
        values[kIouThresholdCount - 1] = .95;
        return values;
    }();
    return thresholds;
}

const std::array<double, kRecallThresholdCount>& recall_thresholds() {
    static const std::array<double, kRecallThresholdCount> thresholds = [] {
        std::array<double, kRecallThresholdCount> values{};
        const double step = 1.0 / (kRecallThresholdCount - 1);
        for (int i = 0; i < kRecallThresholdCount; ++i) {
            values[i] = i * step + 0.0;
        }
        values[kRecallThresholdCount - 1] = 1.0;
        return values;
    }();
    return thresholds;
}

const std::array<AreaRange, kAreaRangeCount>& area_ranges() {
    static const std::array<AreaRange, kAreaRangeCount> ranges{{
        {"all", 0, 1e10},
        {"small", 0, 32 * 32},
        {"medium", 32 * 32, 96 * 96},
        {"large", 96 * 96, 1e10},
    }};
    return ranges;
}

double numpy_mean(const std::vector<double>& values) {
    return pairwise_sum(values.data(), values.size()) / static_cast<double>(values.size());
}

EvalResult evaluate(const GroundTruth& ground_truth, const Detections& detections,
                    const EvalParams& params) {
    EvalResult result;
    result.params = params;
    std::sort(result.params.max_detections.begin(), result.params.max_detections.end());
    if (result.params.max_detections[0] < 1) {
        throw Error("max detections must be at least 1");
    }
    const int threads = std::max(1, params.threads);
    const std::size_t categories = ground_truth.categories().size();
    result.category_count = categories;
    // Categories without ground truth have no precision or recall (-1), as in COCOeval: only
    // the others are evaluated and stored.
    result.evaluated_index.assign(categories, -1);
    for (const Annotation& annotation : ground_truth.annotations()) {
        result.evaluated_index[std::size_t(ground_truth.category_index(annotation.category_id))] =
            0;
    }
    for (std::int64_t& index : result.evaluated_index) {
        index = index < 0 ? -1 : std::int64_t(result.evaluated_count++);
    }
    if (result.evaluated_count > kMaxEvaluatedCategories) {
        throw Error(ground_truth.source() + " has ground truth in " +
                    std::to_string(result.evaluated_count) +
                    " categories; Kiln evaluates at most " +
                    std::to_string(kMaxEvaluatedCategories) +
                    " at once (98 KB of precision and recall each): evaluate them in parts");
    }
    const CellKeys keys =
        cell_keys(ground_truth, detections, result.evaluated_index, result.evaluated_count);
    const std::size_t cell_count = keys.keys.size();

    const Cells truth_cells =
        group_by_cell(ground_truth.annotations(), ground_truth, result.evaluated_index, keys);
    const Cells detection_cells =
        group_by_cell(detections.annotations(), ground_truth, result.evaluated_index, keys);
    MaskInputs masks;
    if (result.params.iou_type == IouType::Mask) {
        masks = prepare_masks(ground_truth, detections, threads);
    }

    Matches matches;
    matches.kept_begin.assign(cell_count + 1, 0);
    const auto largest = static_cast<std::uint32_t>(result.params.max_detections[2]);
    for (std::size_t cell = 0; cell < cell_count; ++cell) {
        const std::uint32_t count = detection_cells.begin[cell + 1] - detection_cells.begin[cell];
        matches.kept_begin[cell + 1] = matches.kept_begin[cell] + std::min(count, largest);
    }
    const std::size_t kept_total = matches.kept_begin[cell_count];
    matches.scores.resize(kept_total);
    for (int a = 0; a < kAreaRangeCount; ++a) {
        matches.hit[a].resize(kept_total);
        matches.ignored[a].resize(kept_total);
        matches.positives[a].assign(cell_count, 0);
    }
    parallel_for(cell_count, threads, 512, [&](std::size_t begin, std::size_t end) {
        CellScratch scratch;
        for (std::size_t cell = begin; cell < end; ++cell) {
            if (truth_cells.begin[cell] != truth_cells.begin[cell + 1] ||
                matches.kept_begin[cell] != matches.kept_begin[cell + 1]) {
                evaluate_cell(cell, ground_truth, detections, truth_cells, detection_cells, &masks,
                              result.params, matches, scratch);
            }
        }
    });

    const std::size_t evaluated = result.evaluated_count;
    result.precision.assign(std::size_t{kIouThresholdCount} * kRecallThresholdCount * evaluated *
                                kAreaRangeCount * 3,
                            -1.0);
    result.recall.assign(std::size_t{kIouThresholdCount} * evaluated * kAreaRangeCount * 3, -1.0);
    parallel_for(evaluated, threads, 1, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            accumulate_category(k, keys, matches, result.params, result);
        }
    });

    for (int s = 0; s < kStatCount; ++s) {
        const StatSpec& spec = kStats[s];
        result.stats[s] = summarize(result, spec.precision, spec.iou_threshold, spec.area,
                                    stat_max_detections(spec, result.params));
    }
    for (std::size_t k = 0; k < categories; ++k) {
        std::vector<double> values;
        const std::int64_t evaluated_k = result.evaluated_index[k];
        for (int t = 0; t < kIouThresholdCount && evaluated_k >= 0; ++t) {
            for (int r = 0; r < kRecallThresholdCount; ++r) {
                const double value = result.precision[precision_index(
                    t, r, std::size_t(evaluated_k), 0, 2, evaluated)];
                if (value > -1) {
                    values.push_back(value);
                }
            }
        }
        const Category& category = ground_truth.categories()[k];
        result.per_category.push_back(
            {category.id, category.name, values.empty() ? -1 : numpy_mean(values)});
    }
    return result;
}

std::vector<double> precision_at_recalls(const EvalResult& result, std::size_t k) {
    const std::int64_t evaluated_k = result.evaluated_index.at(k);
    std::vector<double> curve(std::size_t{kRecallThresholdCount}, -1.0);
    for (std::size_t r = 0; r < curve.size() && evaluated_k >= 0; ++r) {
        curve[r] = result.precision[precision_index(0, r, std::size_t(evaluated_k), 0, 2,
                                                    result.evaluated_count)];
    }
    return curve;
}

std::string summary_table(const EvalResult& result) {
    std::string table;
    const auto& thresholds = iou_thresholds();
    for (int s = 0; s < kStatCount; ++s) {
        const StatSpec& spec = kStats[s];
        char iou[32];
        if (spec.iou_threshold < 0) {
            std::snprintf(iou, sizeof iou, "%0.2f:%0.2f", thresholds.front(), thresholds.back());
        } else {
            std::snprintf(iou, sizeof iou, "%0.2f", spec.iou_threshold);
        }
        char line[160];
        std::snprintf(line, sizeof line,
                      " %-18s %s @[ IoU=%-9s | area=%6s | maxDets=%3d ] = %0.3f\n",
                      spec.precision ? "Average Precision" : "Average Recall",
                      spec.precision ? "(AP)" : "(AR)", iou, spec.area,
                      stat_max_detections(spec, result.params), result.stats[s]);
        table += line;
    }
    return table;
}

} // namespace kiln::coco
