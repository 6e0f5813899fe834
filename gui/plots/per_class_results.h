#pragma once

#include "train/events.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace kiln::gui {

// The latest validation's per-class metrics (val_metric_per_class/<metric>/<class>: accuracy,
// IoU, AP): one row per class, one column per metric, sortable by any. Hidden while the run has
// none.
class PerClassResults : public QWidget {
    Q_OBJECT

public:
    explicit PerClassResults(QWidget* parent = nullptr);

    void setValidation(const kiln::train::ValidationMetrics& metrics);
    void clear();

    // The text of the cell for `metric` of class `name`; empty when there is none.
    QString value(const QString& name, const QString& metric) const;

private:
    QLabel* title_;
    QTableWidget* table_;
};

} // namespace kiln::gui
