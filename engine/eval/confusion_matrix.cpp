#include "eval/confusion_matrix.h"

#include "core/error.h"

#include <cmath>
#include <limits>

namespace kiln::eval {
namespace {

constexpr double kNotSeen = std::numeric_limits<double>::quiet_NaN();

double ratio(std::int64_t numerator, std::int64_t denominator) {
    return denominator > 0 ? double(numerator) / double(denominator) : 0.0;
}

double mean_of_seen(const std::vector<double>& values) {
    double sum = 0.0;
    int seen = 0;
    for (const double value : values) {
        if (!std::isnan(value)) {
            sum += value;
            ++seen;
        }
    }
    return seen > 0 ? sum / seen : 0.0;
}

} // namespace

ConfusionMatrix::ConfusionMatrix(int classes)
    : classes_(classes), counts_(static_cast<std::size_t>(classes) * classes, 0) {
    if (classes < 1) {
        throw Error("a confusion matrix needs at least one class, got " + std::to_string(classes));
    }
}

void ConfusionMatrix::add(int truth, int predicted, std::int64_t count) {
    if (truth < 0 || truth >= classes_ || predicted < 0 || predicted >= classes_) {
        throw Error("class pair (" + std::to_string(truth) + ", " + std::to_string(predicted) +
                    ") outside the " + std::to_string(classes_) + " classes");
    }
    counts_[static_cast<std::size_t>(truth) * classes_ + predicted] += count;
}

void ConfusionMatrix::add(const std::vector<std::int64_t>& counts) {
    if (counts.size() != counts_.size()) {
        throw Error("confusion counts of size " + std::to_string(counts.size()) + " for " +
                    std::to_string(classes_) + " classes");
    }
    for (std::size_t i = 0; i < counts.size(); ++i) {
        counts_[i] += counts[i];
    }
}

std::int64_t ConfusionMatrix::at(int truth, int predicted) const {
    return counts_[static_cast<std::size_t>(truth) * classes_ + predicted];
}

std::int64_t ConfusionMatrix::total() const {
    std::int64_t sum = 0;
    for (const std::int64_t count : counts_) {
        sum += count;
    }
    return sum;
}

std::int64_t ConfusionMatrix::true_count(int cls) const {
    std::int64_t sum = 0;
    for (int p = 0; p < classes_; ++p) {
        sum += at(cls, p);
    }
    return sum;
}

std::int64_t ConfusionMatrix::predicted_count(int cls) const {
    std::int64_t sum = 0;
    for (int t = 0; t < classes_; ++t) {
        sum += at(t, cls);
    }
    return sum;
}

ClassificationMetrics classification_metrics(const ConfusionMatrix& matrix,
                                             std::int64_t top5_correct) {
    ClassificationMetrics metrics;
    const int classes = matrix.classes();
    std::int64_t correct = 0;
    std::vector<double> precision, recall, f1;
    for (int c = 0; c < classes; ++c) {
        const std::int64_t hits = matrix.at(c, c);
        const std::int64_t actual = matrix.true_count(c);
        const std::int64_t predicted = matrix.predicted_count(c);
        correct += hits;
        const bool seen = actual > 0 || predicted > 0;
        const double p = ratio(hits, predicted);
        const double r = ratio(hits, actual);
        precision.push_back(seen ? p : kNotSeen);
        recall.push_back(seen ? r : kNotSeen);
        f1.push_back(seen ? (p + r > 0 ? 2 * p * r / (p + r) : 0.0) : kNotSeen);
        metrics.per_class_accuracy.push_back(actual > 0 ? r : kNotSeen);
    }
    metrics.top1_acc_micro = ratio(correct, matrix.total());
    metrics.top5_acc_micro = ratio(top5_correct, matrix.total());
    metrics.top1_acc_macro = mean_of_seen(metrics.per_class_accuracy);
    metrics.precision_macro = mean_of_seen(precision);
    metrics.recall_macro = mean_of_seen(recall);
    metrics.f1_macro = mean_of_seen(f1);
    return metrics;
}

SegmentationMetrics segmentation_metrics(const ConfusionMatrix& matrix) {
    SegmentationMetrics metrics;
    std::int64_t correct = 0;
    for (int c = 0; c < matrix.classes(); ++c) {
        const std::int64_t hits = matrix.at(c, c);
        const std::int64_t joined = matrix.true_count(c) + matrix.predicted_count(c) - hits;
        correct += hits;
        metrics.per_class_iou.push_back(joined > 0 ? double(hits) / double(joined) : kNotSeen);
    }
    metrics.miou = mean_of_seen(metrics.per_class_iou);
    metrics.pixel_acc = ratio(correct, matrix.total());
    return metrics;
}

} // namespace kiln::eval
