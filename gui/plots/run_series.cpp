#include "plots/run_series.h"

#include <QtNumeric>
#include <algorithm>

namespace kiln::gui {

MetricSeries recordedSeries(const track::RunReader& store, std::int64_t run,
                            const std::string& key) {
    MetricSeries series;
    for (const track::MetricPoint& point : store.metrics(run, key)) {
        series.steps << static_cast<double>(point.step);
        series.values << point.value;
    }
    return series;
}

void RunSeries::clear() {
    *this = RunSeries();
}

void RunSeries::appendStep(const train::StepMetrics& metrics, double seconds) {
    steps_.append(static_cast<double>(metrics.step));
    seconds_.append(seconds);
    loss_.append(metrics.loss);
    lr_.append(metrics.lr);
    data_wait_.append(100.0 * metrics.data_wait);
    cpu_.append(100.0 * metrics.cpu_util);
    images_per_second_.append(metrics.images_per_second);
    if (best_loss_index_ < 0 || metrics.loss < loss_[best_loss_index_]) {
        best_loss_index_ = static_cast<int>(loss_.size()) - 1;
    }
    for (const system::GpuSample& gpu : metrics.gpus) {
        while (gpu_util_.size() <= gpu.index) {
            gpu_util_.append(QVector<double>());
            gpu_memory_.append(QVector<double>());
        }
        // NaN where NVML could not measure: a gap in the line, not a false zero.
        gpu_util_[gpu.index].append(gpu.util_percent.value_or(qQNaN()));
        gpu_memory_[gpu.index].append(gpu.memory_used_mb.value_or(qQNaN()));
    }
}

void RunSeries::appendValidation(const train::ValidationMetrics& metrics, double seconds) {
    watched_ = QString::fromStdString(metrics.watched);
    double value = qQNaN(), loss = qQNaN();
    for (const auto& [key, number] : metrics.values) {
        if (key == metrics.watched) {
            value = number;
        } else if (key == "val_loss") {
            loss = number;
        }
    }
    validation_steps_.append(static_cast<double>(metrics.step));
    validation_seconds_.append(seconds);
    validation_metric_.append(value);
    validation_loss_.append(loss);
    if (metrics.best) {
        best_validation_ = static_cast<int>(validation_steps_.size()) - 1;
    }
}

bool RunSeries::hasValidationLoss() const {
    return std::any_of(validation_loss_.begin(), validation_loss_.end(),
                       [](double loss) { return !qIsNaN(loss); });
}

void RunSeries::setHistory(const track::RecordedHistory& history) {
    clear();
    const double start = history.step_wall_times.empty() ? 0 : history.step_wall_times.front();
    std::size_t step = 0;
    for (const train::ValidationMetrics& validation : history.validations) {
        // Each evaluation in time order with the steps, at the time of its step.
        while (step < history.steps.size() && history.steps[step].step <= validation.step) {
            appendStep(history.steps[step], history.step_wall_times[step] - start);
            ++step;
        }
        appendValidation(validation, seconds_.isEmpty() ? 0.0 : seconds_.back());
    }
    for (; step < history.steps.size(); ++step) {
        appendStep(history.steps[step], history.step_wall_times[step] - start);
    }
}

QVector<double> RunSeries::smoothedLoss(double weight) const {
    QVector<double> smoothed;
    smoothed.reserve(loss_.size());
    double last = 0, debias = 1;
    for (const double value : loss_) {
        last = last * weight + (1 - weight) * value;
        debias *= weight;
        smoothed.append(last / (1 - debias));
    }
    return smoothed;
}

} // namespace kiln::gui
