#pragma once

#include "train/events.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace kiln::gui {

class PrecisionRecallPlot;

// The latest validation's per-class metrics (val_metric_per_class/<metric>/<class>: accuracy,
// IoU, AP): one row per class, one column per metric, sortable by any; and beside it, for
// classification and semantic segmentation, its confusion matrix: each true class's row of
// predictions as percentages of the row, shaded by them, the counts in the tooltips; for
// detection, each class's precision-recall curve (the selected rows' when any are). Hidden
// while the run has none of them.
class PerClassResults : public QWidget {
    Q_OBJECT

public:
    explicit PerClassResults(QWidget* parent = nullptr);

    void setValidation(const kiln::train::ValidationMetrics& metrics);
    void clear();

    // The text of the cell for `metric` (its logged key: top1_acc, iou, map) of class `name`;
    // empty when there is none.
    QString value(const QString& name, const QString& metric) const;
    // The confusion matrix cell of true class `row` predicted as `column`, as shown.
    QString confusionCell(int row, int column) const;
    // The precision-recall curves drawn.
    int curveCount() const;

private:
    bool showPerClass(const kiln::train::ValidationMetrics& metrics);
    bool showConfusion(const kiln::train::ConfusionCounts& confusion, std::int64_t step);
    bool showCurves(const kiln::train::PrecisionRecallCurves& curves, std::int64_t step);
    void showSelectedCurves();

    QLabel* title_;
    QTableWidget* table_;
    QLabel* confusion_title_;
    QTableWidget* confusion_;
    QLabel* curves_title_;
    PrecisionRecallPlot* curves_;
};

} // namespace kiln::gui
