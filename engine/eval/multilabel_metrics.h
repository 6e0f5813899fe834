#pragma once

#include <cstdint>
#include <vector>

namespace kiln::eval {

// Multilabel classification metrics from counts that sum over batches and ranks. Per class:
// true positives, false positives and false negatives at a score threshold of 0.5, then the
// histograms of the scores of the images that have the class (positives) and of those that do
// not (negatives). Scores are binned as logits clamped to [-kMaxBinnedLogit, kMaxBinnedLogit]
// in kScoreBins equal bins: the sigmoid's order, without crowding confident scores into its
// last bin.
constexpr int kScoreBins = 1000;
constexpr double kMaxBinnedLogit = 16.0;

// The length of the counts for `classes` classes: 3 per class, then 2 x kScoreBins per class.
std::int64_t multilabel_count_size(int classes);

struct MultilabelMetrics {
    double f1_micro = 0.0;
    double f1_macro = 0.0;            // over classes with any positive, prediction or truth
    double map = 0.0;                 // mean average precision over classes with a positive image
    std::vector<double> per_class_ap; // NaN for a class no image has
};
MultilabelMetrics multilabel_metrics(const std::vector<double>& counts, int classes);

// Average precision (as scikit-learn's average_precision_score: precision at each threshold,
// weighted by the recall it adds) with the scores quantised to histogram bins; NaN without
// positives. Scores closer than a bin width count as tied.
double average_precision(const double* positives, const double* negatives, int bins);

} // namespace kiln::eval
