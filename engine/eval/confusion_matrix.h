#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kiln::eval {

// Counts of (true class, predicted class) over a validation set: everything the classification
// and segmentation metrics need, and a sum over ranks is the matrix of their union.
class ConfusionMatrix {
public:
    explicit ConfusionMatrix(int classes);

    int classes() const { return classes_; }
    void add(int truth, int predicted, std::int64_t count = 1);
    // Adds a row-major classes x classes block of counts (a device bincount of truth * C + pred).
    void add(const std::vector<std::int64_t>& counts);
    std::int64_t at(int truth, int predicted) const;
    std::int64_t total() const;
    const std::vector<std::int64_t>& counts() const { return counts_; }

    std::int64_t true_count(int cls) const;      // samples (or pixels) of this class
    std::int64_t predicted_count(int cls) const; // predictions of this class

private:
    int classes_;
    std::vector<std::int64_t> counts_;
};

// Single-label classification, under LightlyTrain's keys (without the val_metric/ prefix):
// top1_acc_micro, top5_acc_micro (when given), top1_acc_macro (mean per-class accuracy),
// f1_macro, precision_macro, recall_macro. Classes absent from both truth and predictions are
// left out of the macro means, as torchmetrics does with an ignore of empty classes.
struct ClassificationMetrics {
    double top1_acc_micro = 0.0;
    double top5_acc_micro = 0.0;
    double top1_acc_macro = 0.0;
    double f1_macro = 0.0;
    double precision_macro = 0.0;
    double recall_macro = 0.0;
    std::vector<double> per_class_accuracy; // recall of each class; NaN for a class never seen
};
ClassificationMetrics classification_metrics(const ConfusionMatrix& matrix,
                                             std::int64_t top5_correct);

// Semantic segmentation: miou (mean over classes that occur in truth or prediction),
// pixel_acc, and the IoU of each class (NaN where it never occurs).
struct SegmentationMetrics {
    double miou = 0.0;
    double pixel_acc = 0.0;
    std::vector<double> per_class_iou;
};
SegmentationMetrics segmentation_metrics(const ConfusionMatrix& matrix);

} // namespace kiln::eval
