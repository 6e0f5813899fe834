#pragma once

#include "train/events.h"

#include <QWidget>
#include <functional>

class QFrame;
class QLabel;
class QPushButton;
class QToolButton;

namespace kiln::gui {

class LivePlots;
class PerClassResults;
class PredictionPreviewsView;

// The Live Plots tab: the engine's warnings of this run above its plots (a run that may not fit
// in memory, unreadable images skipped, a logger that failed), the run's plots, the latest
// validation's per-class results and prediction previews, and once the run ends, how it ended with
// the advisor's diagnosis, folding away under its heading so that a small screen keeps the plots. A
// stopped run offers Resume there; when decoding was the bottleneck, the advisor's own remedy
// (Optimize Dataset) is one click away.
class LivePlotsPage : public QWidget {
    Q_OBJECT

public:
    explicit LivePlotsPage(QWidget* parent = nullptr);

    LivePlots* plots() const { return plots_; }
    PerClassResults* perClass() const { return perClass_; }
    PredictionPreviewsView* previews() const { return previews_; }

    // A new run: empty plots and results, no warnings, no advice.
    void clear();
    // A warning the engine logged during the run, with the settings it names called by their
    // fields' names. A repeated warning is counted; the first kShownWarnings distinct ones are
    // listed, the rest counted.
    void addWarning(const QString& warning,
                    const std::function<QString(const QString&)>& fieldName);
    void addValidation(const kiln::train::ValidationMetrics& metrics);
    // How the run ended: its status, best checkpoint and the advisor's words, with the settings
    // it names called by their fields' names (`fieldName` gives them: "Loader workers" for
    // num_workers) and each setting it would change offered as a button.
    void showSummary(const kiln::train::RunSummary& summary,
                     const std::function<QString(const QString&)>& fieldName);

Q_SIGNALS:
    // The advice's Optimize Dataset button: optimize the data the run trained on.
    void optimizeRequested();
    // One of the advice's setting buttons: set `key` to `value` for the next run.
    void applyRequested(const QString& key, const QString& value);
    // The Resume button shown when the run was stopped: continue it from its checkpoint.
    void resumeRequested();

private:
    static constexpr int kShownWarnings = 5;

    void clearChanges();
    void showWarnings();

    LivePlots* plots_;
    PerClassResults* perClass_;
    PredictionPreviewsView* previews_;
    QLabel* advice_;
    QToolButton* adviceToggle_;
    QPushButton* optimizeAdvice_;
    QPushButton* resume_; // beside "Stopped after N steps"
    QWidget* changes_;    // a button per setting the advice would change
    QFrame* warningsBox_;
    QLabel* warnings_;
    struct ShownWarning {
        QString text;
        int times = 1;
    };
    QList<ShownWarning> shownWarnings_;
    int otherWarnings_ = 0;
};

} // namespace kiln::gui
