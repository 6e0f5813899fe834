#pragma once

#include "plots/qcustomplot.h"
#include "train/events.h"

#include <QStringList>

namespace kiln::gui {

// Precision against recall, one curve per class, from the evaluator's precision at COCO's 101
// recall thresholds (IoU 0.5): each class in its overlay colour, its AP50 in the legend; a class
// without labelled objects is left out. After a detection validation (Live Plots) and beside
// predictions scored against labels (the predictions browser).
class PrecisionRecallPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit PrecisionRecallPlot(QWidget* parent = nullptr);

    // `classes` gives each class its colour (its index there) and name.
    void setCurves(const train::PrecisionRecallCurves& curves, const QStringList& classes);
    // Only these classes' curves; all when empty.
    void showOnly(const QStringList& classes);
    int curveCount() const { return graphCount(); }
    bool hasCurves() const { return !curves_.classes.empty(); }

private:
    void draw();

    train::PrecisionRecallCurves curves_;
    QStringList classes_;
    QStringList shown_;
};

} // namespace kiln::gui
