#pragma once

#include "runs/run_history.h"

#include <QDialog>
#include <QVector>

class QCheckBox;
class QLabel;
class QTableWidget;

namespace kiln::gui {

// Run History > Compare: several runs side by side, one column each. Results (status, steps,
// duration, final loss, throughput, data_wait); each validation metric at its last evaluation,
// the best run's value in bold (lowest for losses, highest otherwise); and every setting,
// flattened (optim_args.lr), those that differ marked, the rest hidden while Only Differences
// is on.
class RunComparisonDialog : public QDialog {
    Q_OBJECT

public:
    RunComparisonDialog(const QVector<RunRow>& runs, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    // The setting rows whose values are not the same in every run.
    int differingSettings() const { return differing_; }
    void setOnlyDifferences(bool only);
    // The row of `label` (a result, metric or setting name); -1 when there is none.
    int rowOf(const QString& label) const;

private:
    void addResults(const QVector<RunRow>& runs);
    void addValidation(const QVector<RunRow>& runs);
    void addSettings(const QVector<RunRow>& runs);
    void addSection(const QString& title);
    // A row of one value per run; returns its index. `best` marks the best run's cell bold:
    // +1 highest, -1 lowest, 0 none.
    int addRow(const QString& label, const QStringList& values, int best = 0);

    QTableWidget* table_;
    QCheckBox* only_differences_;
    QLabel* note_;
    QVector<int> equal_setting_rows_;
    int differing_ = 0;
};

} // namespace kiln::gui
