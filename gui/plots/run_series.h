#pragma once

#include "track/run_store.h"
#include "track/step_values.h"
#include "train/events.h"

#include <QString>
#include <QVector>
#include <cstdint>

namespace kiln::gui {

// One metric over a run: its values at the steps they were recorded at.
struct MetricSeries {
    QVector<double> steps;
    QVector<double> values;
};

// One metric of run `run` in `store` (a run.db), in step order, as Run History overlays runs
// by it; empty when the run did not record it.
MetricSeries recordedSeries(const kiln::track::RunReader& store, std::int64_t run,
                            const std::string& key);

// A run's plotted values, kept apart from any widget (PlotJuggler keeps its series so): every
// step's loss, learning rate, data_wait, CPU, throughput and GPU samples, and each
// evaluation's watched metric and val_loss, at full resolution, with the seconds since the
// run started. Fed live from the training session, or from what run.db recorded; LivePlots
// draws one.
class RunSeries {
public:
    void clear();
    void appendStep(const kiln::train::StepMetrics& metrics, double seconds);
    void appendValidation(const kiln::train::ValidationMetrics& metrics, double seconds);
    // The run as its run.db recorded it (seconds from the recorded wall times), in place of
    // what is held; steps appended later continue it (a resumed run).
    void setHistory(const kiln::track::RecordedHistory& history);

    int stepCount() const { return static_cast<int>(steps_.size()); }
    const QVector<double>& steps() const { return steps_; }
    const QVector<double>& seconds() const { return seconds_; }
    const QVector<double>& loss() const { return loss_; }
    const QVector<double>& learningRate() const { return lr_; }
    const QVector<double>& dataWaitPercent() const { return data_wait_; }
    const QVector<double>& cpuPercent() const { return cpu_; }
    const QVector<double>& imagesPerSecond() const { return images_per_second_; }
    // Per GPU, from the step at which its samples began; NaN where NVML could not measure.
    const QVector<QVector<double>>& gpuUtilPercent() const { return gpu_util_; }
    const QVector<QVector<double>>& gpuMemoryMb() const { return gpu_memory_; }
    // The lowest loss so far and its index; -1 before the first step.
    int bestLossIndex() const { return best_loss_index_; }
    double bestLoss() const { return best_loss_index_ < 0 ? 0.0 : loss_[best_loss_index_]; }
    // TensorBoard's smoothing of the loss: an exponential moving average with `weight` (0 is
    // none, below 1), started at 0 and debiased by its weights' sum.
    QVector<double> smoothedLoss(double weight) const;

    int validationCount() const { return static_cast<int>(validation_steps_.size()); }
    const QVector<double>& validationSteps() const { return validation_steps_; }
    const QVector<double>& validationSeconds() const { return validation_seconds_; }
    const QVector<double>& validationMetric() const { return validation_metric_; }
    const QVector<double>& validationLoss() const { return validation_loss_; }
    // Whether any validation had a val_loss (pretraining's kNN monitor has none).
    bool hasValidationLoss() const;
    // The metric that picks best.ckpt (val_metric/...), and the index of its best evaluation.
    const QString& watched() const { return watched_; }
    int bestValidation() const { return best_validation_; }

private:
    QVector<double> steps_, seconds_, loss_, lr_, data_wait_, cpu_, images_per_second_;
    QVector<QVector<double>> gpu_util_, gpu_memory_;
    int best_loss_index_ = -1;
    QVector<double> validation_steps_, validation_seconds_, validation_metric_, validation_loss_;
    QString watched_;
    int best_validation_ = -1;
};

} // namespace kiln::gui
