#include "eval/multilabel_metrics.h"

#include "core/error.h"

#include <cmath>
#include <limits>
#include <string>

namespace kiln::eval {

std::int64_t multilabel_count_size(int classes) {
    return std::int64_t(classes) * (3 + 2 * kScoreBins);
}

double average_precision(const double* positives, const double* negatives, int bins) {
    double total_positives = 0.0;
    for (int b = 0; b < bins; ++b) {
        total_positives += positives[b];
    }
    if (total_positives <= 0.0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    double hits = 0.0, predicted = 0.0, ap = 0.0;
    for (int b = bins - 1; b >= 0; --b) { // from the highest scores down
        hits += positives[b];
        predicted += positives[b] + negatives[b];
        if (positives[b] > 0.0) {
            ap += positives[b] / total_positives * hits / predicted;
        }
    }
    return ap;
}

MultilabelMetrics multilabel_metrics(const std::vector<double>& counts, int classes) {
    if (static_cast<std::int64_t>(counts.size()) != multilabel_count_size(classes)) {
        throw Error("multilabel counts of size " + std::to_string(counts.size()) + " for " +
                    std::to_string(classes) + " classes");
    }
    MultilabelMetrics metrics;
    double tp = 0, fp = 0, fn = 0, f1_sum = 0, ap_sum = 0;
    int f1_classes = 0, ap_classes = 0;
    for (int c = 0; c < classes; ++c) {
        const double* own = counts.data() + 3 * c;
        tp += own[0];
        fp += own[1];
        fn += own[2];
        const double denominator = 2 * own[0] + own[1] + own[2];
        if (denominator > 0) {
            f1_sum += 2 * own[0] / denominator;
            ++f1_classes;
        }
        const double* histograms = counts.data() + 3 * classes + 2 * kScoreBins * c;
        const double ap = average_precision(histograms, histograms + kScoreBins, kScoreBins);
        metrics.per_class_ap.push_back(ap);
        if (!std::isnan(ap)) {
            ap_sum += ap;
            ++ap_classes;
        }
    }
    metrics.f1_micro = 2 * tp + fp + fn > 0 ? 2 * tp / (2 * tp + fp + fn) : 0.0;
    metrics.f1_macro = f1_classes > 0 ? f1_sum / f1_classes : 0.0;
    metrics.map = ap_classes > 0 ? ap_sum / ap_classes : 0.0;
    return metrics;
}

} // namespace kiln::eval
