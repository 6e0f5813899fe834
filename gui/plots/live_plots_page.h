#pragma once

#include "train/events.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QToolButton;

namespace kiln::gui {

class LivePlots;
class PerClassResults;
class PredictionPreviewsView;

// The Live Plots tab: the run's plots, the latest validation's per-class results and prediction
// previews, and once the
// run ends, how it ended with the advisor's diagnosis, folding away under its heading so that a
// small screen keeps the plots. When decoding was the bottleneck, the advisor's own remedy
// (Optimize Dataset) is one click away.
class LivePlotsPage : public QWidget {
    Q_OBJECT

public:
    explicit LivePlotsPage(QWidget* parent = nullptr);

    LivePlots* plots() const { return plots_; }
    PerClassResults* perClass() const { return perClass_; }
    PredictionPreviewsView* previews() const { return previews_; }

    // A new run: empty plots and results, no advice.
    void clear();
    void addValidation(const kiln::train::ValidationMetrics& metrics);
    // How the run ended: its status, best checkpoint and the advisor's words.
    void showSummary(const kiln::train::RunSummary& summary);

Q_SIGNALS:
    // The advice's Optimize Dataset button: optimize the data the run trained on.
    void optimizeRequested();

private:
    LivePlots* plots_;
    PerClassResults* perClass_;
    PredictionPreviewsView* previews_;
    QLabel* advice_;
    QToolButton* adviceToggle_;
    QPushButton* optimizeAdvice_;
};

} // namespace kiln::gui
