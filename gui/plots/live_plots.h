#pragma once

#include "plots/run_series.h"

#include <QElapsedTimer>
#include <QVector>
#include <QWidget>

class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QTimer;

namespace kiln::gui {

// The live view of a training: loss (and learning rate), data_wait %, CPU and GPU utilisation,
// GPU memory and images/s over steps; for fine-tuning, the watched validation metric and
// val_loss at each evaluation, its best marked. Steps are appended to its RunSeries as they
// arrive and kept at full resolution; the plots are redrawn by a timer at most 25 times a second,
// and only when new data came, however fast steps arrive. Hovering a plot shows the value under the
// cursor; the best loss so far is marked. Without GPUs the GPU plot says so instead of drawing
// zeros.
class LivePlots : public QWidget {
    Q_OBJECT

public:
    static constexpr int kRedrawIntervalMs = 40; // 25 redraws a second at most

    explicit LivePlots(QWidget* parent = nullptr);

    void clear();
    // Cleared for a run that is starting: the hint says its first step is coming.
    void showStarting();
    // A run as its run.db recorded it (the time axis from the recorded wall times), in place of
    // what is shown; steps that arrive later continue it (a resumed run).
    void showHistory(const kiln::track::RecordedHistory& history);
    void addStep(const kiln::train::StepMetrics& metrics);
    // One evaluation: its watched metric (the one that picks best.ckpt) and val_loss.
    void addValidation(const kiln::train::ValidationMetrics& metrics);
    // A validation whose metrics are still being computed: the panel's title says so until
    // addValidation() brings that step.
    void addPendingValidation(qint64 step);
    QString validationTitle() const;
    int validationCount() const { return series_.validationCount(); }
    // Plots over elapsed seconds instead of steps.
    void setTimeAxis(bool on);
    bool timeAxis() const { return time_axis_; }
    // TensorBoard's smoothing of the loss: an exponential moving average with this weight
    // (0 = none, below 1), debiased at the start, drawn over the faded raw loss.
    void setSmoothing(double weight);
    QVector<double> smoothedLoss() const;
    void setLogScale(bool on); // the loss on a logarithmic axis
    // Dragging or wheeling a plot pans or zooms it, and the plots stop following new steps
    // until the view is reset (Reset View, or a double click).
    void resetView();
    bool followsNewSteps() const { return following_; }
    // Every step's values (and each evaluation's at its step) as CSV; all plots as PNG. False
    // with a message when the file cannot be written.
    bool exportCsv(const QString& file, QString* error) const;
    bool exportPng(const QString& file, QString* error);

    int stepCount() const { return series_.stepCount(); }
    int redrawCount() const { return redraws_; }
    double bestLoss() const { return series_.bestLoss(); }
    // The text a hover over `plot` at `step` (seconds with the time axis) shows.
    QString readout(const QString& plot, double step) const;
    bool showsGpus() const;

private:
    void createPanels();
    QHBoxLayout* createControls();
    struct Panel {
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        QVector<QCPGraph*> graphs;
    };
    void updateValidationTitle();

    Panel addPanel(const QString& name, const QString& title, const QStringList& series);
    void redraw();
    void shareHeight();
    void showReadout(QCustomPlot* plot, QMouseEvent* event);

    const QVector<double>& xs() const { return time_axis_ ? series_.seconds() : series_.steps(); }
    const QVector<double>& validationXs() const {
        return time_axis_ ? series_.validationSeconds() : series_.validationSteps();
    }

    RunSeries series_;
    // The seconds axis: live steps count from the first one that arrives, after what a shown
    // history already spans.
    double elapsedSeconds();
    QElapsedTimer clock_;
    double history_seconds_ = 0;
    bool time_axis_ = false;
    bool dirty_ = false;
    int redraws_ = 0;
    QString shown_watched_; // the validation graph's name is the watched metric's
    QVector<qint64> pending_validations_;

    Panel loss_panel_, data_wait_panel_, cpu_panel_, gpu_panel_, throughput_panel_,
        validation_panel_;
    QCPGraph* best_validation_marker_ = nullptr;
    QCPGraph* best_marker_ = nullptr;
    QLabel* no_gpu_ = nullptr;
    QLabel* no_steps_ = nullptr; // shown while there is nothing to plot
    QTimer* timer_ = nullptr;
    QCPGraph* smoothed_ = nullptr;
    double smoothing_ = 0;
    bool following_ = true;
};

} // namespace kiln::gui
