#include "plots/live_plots.h"

#include "common/message_boxes.h"
#include "plots/metric_titles.h"
#include "plots/plot_theme.h"
#include "plots/qcustomplot.h"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QSlider>
#include <QTextStream>
#include <QTimer>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace kiln::gui {
namespace {

const QList<QColor> kColours = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                QColor(214, 39, 40), QColor(148, 103, 189)};

// The index of the step nearest to `step` in the sorted `steps`.
int nearest(const QVector<double>& steps, double step) {
    if (steps.isEmpty()) {
        return -1;
    }
    const auto above = std::lower_bound(steps.begin(), steps.end(), step);
    if (above == steps.end()) {
        return static_cast<int>(steps.size()) - 1;
    }
    if (above != steps.begin() && step - *(above - 1) < *above - step) {
        return static_cast<int>(above - steps.begin()) - 1;
    }
    return static_cast<int>(above - steps.begin());
}

} // namespace

LivePlots::LivePlots(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("livePlots"));
    createPanels();
    // Until a run's first step (or a recorded run) arrives, empty axes say what will come.
    no_steps_ = new QLabel(this);
    no_steps_->setObjectName(QStringLiteral("noStepsHint"));
    no_steps_->setWordWrap(true);
    auto* layout = new QGridLayout(this);
    layout->addWidget(no_steps_, 0, 0, 1, 2);
    layout->addLayout(createControls(), 5, 0, 1, 2);
    layout->addWidget(validation_panel_.plot, 4, 0, 1, 2);
    layout->addWidget(loss_panel_.plot, 1, 0);
    layout->addWidget(data_wait_panel_.plot, 1, 1);
    layout->addWidget(throughput_panel_.plot, 2, 0);
    layout->addWidget(cpu_panel_.plot, 2, 1);
    layout->addWidget(gpu_panel_.plot, 3, 0, 1, 2);
    layout->addWidget(no_gpu_, 3, 0, 1, 2);
    // The plots shown share the height; the folded GPU line and the controls take only theirs.
    no_gpu_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);

    for (const Panel* panel : {&loss_panel_, &data_wait_panel_, &cpu_panel_, &gpu_panel_,
                               &throughput_panel_, &validation_panel_}) {
        followPalette(panel->plot);
    }
    timer_ = new QTimer(this);
    timer_->setInterval(kRedrawIntervalMs);
    connect(timer_, &QTimer::timeout, this, &LivePlots::redraw);
    timer_->start();
    clear();
}

// The plots, each with its graphs, axes and markers.
void LivePlots::createPanels() {
    loss_panel_ = addPanel(QStringLiteral("loss"), tr("Loss"), {tr("loss"), tr("learning rate")});
    data_wait_panel_ =
        addPanel(QStringLiteral("data_wait"), tr("data_wait (%)"), {tr("data_wait")});
    cpu_panel_ = addPanel(QStringLiteral("cpu"), tr("CPU utilisation (%)"),
                          {tr("system"), tr("this process")});
    gpu_panel_ = addPanel(QStringLiteral("gpu"), tr("GPU utilisation (%) and memory (MB)"), {});
    throughput_panel_ = addPanel(QStringLiteral("throughput"), tr("Images/s"), {tr("images/s")});
    validation_panel_ = addPanel(QStringLiteral("validation"), tr("Validation"),
                                 {tr("metric"), metricTitle(QStringLiteral("val_loss"))});
    validation_panel_.plot->yAxis2->setVisible(true);
    validation_panel_.graphs[1]->setValueAxis(validation_panel_.plot->yAxis2);
    validation_panel_.plot->yAxis->setRange(0, 1.02); // accuracy, F1, mAP and mIoU are fractions
    validation_panel_.plot->yAxis2->setLabel(metricTitle(QStringLiteral("val_loss")));
    for (QCPGraph* graph : validation_panel_.graphs) {
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    }
    best_validation_marker_ = validation_panel_.plot->addGraph();
    best_validation_marker_->setName(tr("best"));
    best_validation_marker_->setLineStyle(QCPGraph::lsNone);
    best_validation_marker_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, Qt::red, 10));
    legendAboveData(validation_panel_.plot);
    validation_panel_.plot->hide(); // until a run validates

    // The learning rate on its own axis; the best loss so far as a marker.
    loss_panel_.plot->yAxis2->setVisible(true);
    loss_panel_.graphs[1]->setValueAxis(loss_panel_.plot->yAxis2);
    best_marker_ = loss_panel_.plot->addGraph();
    best_marker_->setName(tr("best"));
    best_marker_->setLineStyle(QCPGraph::lsNone);
    best_marker_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, Qt::red, 8));
    legendAboveData(loss_panel_.plot);
    data_wait_panel_.plot->yAxis->setRange(0, 100);
    cpu_panel_.plot->yAxis->setRange(0, 100);
    gpu_panel_.plot->yAxis->setRange(0, 100);
    gpu_panel_.plot->yAxis2->setVisible(true);

    // Without GPUs the GPU panel folds to this line, leaving its room to the other plots.
    no_gpu_ =
        new QLabel(tr("No GPU in this run: GPU utilisation and memory are not plotted."), this);
    no_gpu_->setObjectName(QStringLiteral("noGpuLabel"));
    no_gpu_->setForegroundRole(QPalette::PlaceholderText); // muted, not disabled: readable

    smoothed_ = loss_panel_.plot->addGraph();
    smoothed_->setName(tr("loss (smoothed)"));
    smoothed_->setPen(QPen(kColours[0], 2.0));
    smoothed_->setVisible(false);
    smoothed_->removeFromLegend();
}

// The row under the plots: time axis, smoothing, log scale, Reset View, Export.
QHBoxLayout* LivePlots::createControls() {
    auto* time_axis = new QCheckBox(tr("Over time instead of steps"), this);
    time_axis->setObjectName(QStringLiteral("timeAxisBox"));
    connect(time_axis, &QCheckBox::toggled, this, &LivePlots::setTimeAxis);
    auto* smoothing = new QSlider(Qt::Horizontal, this);
    smoothing->setObjectName(QStringLiteral("smoothingSlider"));
    smoothing->setRange(0, 99);
    smoothing->setMinimumWidth(80); // a narrow window squeezes it to its handle otherwise
    smoothing->setMaximumWidth(160);
    smoothing->setToolTip(tr("Smoothing of the loss, as TensorBoard's"));
    auto* smoothing_value = new QLabel(QLocale().toString(0.0, 'f', 2), this);
    connect(smoothing, &QSlider::valueChanged, this, [this, smoothing_value](int value) {
        smoothing_value->setText(QLocale().toString(value / 100.0, 'f', 2));
        setSmoothing(value / 100.0);
    });
    auto* log_scale = new QCheckBox(tr("Log scale"), this);
    log_scale->setObjectName(QStringLiteral("logScaleBox"));
    connect(log_scale, &QCheckBox::toggled, this, &LivePlots::setLogScale);
    auto* reset = new QPushButton(tr("Reset View"), this);
    reset->setObjectName(QStringLiteral("resetViewButton"));
    reset->setToolTip(tr("Follow the run again after zooming or panning (or double-click a plot)"));
    connect(reset, &QPushButton::clicked, this, &LivePlots::resetView);
    auto* export_button = new QPushButton(tr("Export..."), this);
    export_button->setObjectName(QStringLiteral("exportPlotsButton"));
    connect(export_button, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getSaveFileName(this, tr("Export Plots"), QString(),
                                         tr("CSV of the values (*.csv);;PNG image (*.png)"));
        if (file.isEmpty()) {
            return;
        }
        QString error;
        const bool written = file.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)
                                 ? exportCsv(file, &error)
                                 : exportPng(file, &error);
        if (!written) {
            showErrorMessage(this, error);
        }
    });
    auto* controls = new QHBoxLayout;
    controls->addWidget(time_axis);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Smoothing"), this));
    controls->addWidget(smoothing);
    controls->addWidget(smoothing_value);
    controls->addSpacing(16);
    controls->addWidget(log_scale);
    controls->addStretch();
    controls->addWidget(reset);
    controls->addWidget(export_button);
    return controls;
}

// Rows of plots that are shown grow alike; a hidden one (no GPU, no validation yet) takes none.
void LivePlots::shareHeight() {
    auto* grid = static_cast<QGridLayout*>(layout());
    const std::pair<int, const Panel*> rows[] = {
        {1, &loss_panel_}, {2, &throughput_panel_}, {3, &gpu_panel_}, {4, &validation_panel_}};
    for (const auto& [row, panel] : rows) {
        grid->setRowStretch(row, panel->plot->isHidden() ? 0 : 1);
    }
}

LivePlots::Panel LivePlots::addPanel(const QString& name, const QString& title,
                                     const QStringList& series) {
    Panel panel;
    panel.plot = new QCustomPlot(this);
    panel.plot->setObjectName(name + QStringLiteral("Plot"));
    panel.plot->setMinimumSize(260, 190);
    panel.plot->plotLayout()->insertRow(0);
    panel.title = new QCPTextElement(panel.plot, title);
    panel.plot->plotLayout()->addElement(0, 0, panel.title);
    panel.plot->xAxis->setLabel(tr("step"));
    // Whole steps (and seconds): early in a run the ticks read 1.5, 2.5.
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create();
    whole->setTickStep(1.0);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    panel.plot->xAxis->setTicker(whole);
    for (int i = 0; i < series.size(); ++i) {
        QCPGraph* graph = panel.plot->addGraph();
        graph->setName(series[i]);
        graph->setPen(QPen(kColours[i % kColours.size()], 1.5));
        panel.graphs.append(graph);
    }
    panel.plot->setMouseTracking(true);
    // Drag to pan, wheel to zoom, double-click to follow the run again.
    panel.plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(panel.plot, &QCustomPlot::mousePress, this, [this] { following_ = false; });
    connect(panel.plot, &QCustomPlot::mouseWheel, this, [this] { following_ = false; });
    connect(panel.plot, &QCustomPlot::mouseDoubleClick, this, &LivePlots::resetView);
    connect(panel.plot, &QCustomPlot::mouseMove, this,
            [this, plot = panel.plot](QMouseEvent* event) { showReadout(plot, event); });
    return panel;
}

void LivePlots::setTimeAxis(bool on) {
    time_axis_ = on;
    for (const Panel* panel : {&loss_panel_, &data_wait_panel_, &cpu_panel_, &gpu_panel_,
                               &throughput_panel_, &validation_panel_}) {
        panel->plot->xAxis->setLabel(on ? tr("seconds") : tr("step"));
    }
    dirty_ = true;
}

void LivePlots::setSmoothing(double weight) {
    smoothing_ = std::clamp(weight, 0.0, 0.99);
    smoothed_->setVisible(smoothing_ > 0);
    if (smoothing_ > 0) {
        smoothed_->addToLegend();
    } else {
        smoothed_->removeFromLegend();
    }
    // The raw loss fades behind its smoothed line.
    QColor raw = kColours[0];
    raw.setAlphaF(smoothing_ > 0 ? 0.3 : 1.0);
    loss_panel_.graphs[0]->setPen(QPen(raw, 1.5));
    dirty_ = true;
}

QVector<double> LivePlots::smoothedLoss() const {
    return series_.smoothedLoss(smoothing_);
}

void LivePlots::setLogScale(bool on) {
    QCPAxis* axis = loss_panel_.plot->yAxis;
    axis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on) {
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    } else {
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    dirty_ = true;
}

void LivePlots::resetView() {
    following_ = true;
    dirty_ = true;
}

bool LivePlots::exportCsv(const QString& file, QString* error) const {
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
        return false;
    }
    const RunSeries& r = series_;
    const QString metric = r.watched().isEmpty() ? QStringLiteral("val_metric") : r.watched();
    QTextStream csv(&out);
    csv << "step,seconds,train_loss,lr,data_wait,images_per_second,cpu_util," << metric
        << ",val_loss\n";
    int v = 0;
    for (int i = 0; i < r.stepCount(); ++i) {
        csv << r.steps()[i] << ',' << r.seconds()[i] << ','
            << QString::number(r.loss()[i], 'g', QLocale::FloatingPointShortest) << ','
            << QString::number(r.learningRate()[i], 'g', QLocale::FloatingPointShortest) << ','
            << r.dataWaitPercent()[i] / 100.0 << ',' << r.imagesPerSecond()[i] << ','
            << r.cpuPercent()[i] / 100.0 << ',';
        while (v < r.validationCount() && r.validationSteps()[v] < r.steps()[i]) {
            ++v;
        }
        if (v < r.validationCount() && r.validationSteps()[v] == r.steps()[i]) {
            csv << QString::number(r.validationMetric()[v], 'g', QLocale::FloatingPointShortest)
                << ','
                << QString::number(r.validationLoss()[v], 'g', QLocale::FloatingPointShortest);
        } else {
            csv << ',';
        }
        csv << '\n';
    }
    csv.flush();
    if (!out.commit()) {
        *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
        return false;
    }
    return true;
}

bool LivePlots::exportPng(const QString& file, QString* error) {
    redraw();
    if (!grab().save(file, "PNG")) {
        *error = tr("Cannot write %1 as a PNG image.").arg(QDir::toNativeSeparators(file));
        return false;
    }
    return true;
}

void LivePlots::clear() {
    no_steps_->setText(tr("Nothing to plot yet: Run ▸ Train (Ctrl+R) starts a run of the Run "
                          "Configuration, and its loss, speed and where the time goes are "
                          "drawn here as it trains. A project opens with its last run here."));
    clock_.invalidate();
    history_seconds_ = 0;
    series_.clear();
    pending_validations_.clear();
    updateValidationTitle();
    validation_panel_.plot->hide();
    gpu_panel_.plot->hide(); // until a step brings GPU samples
    no_gpu_->show();
    no_steps_->show();
    shareHeight();
    dirty_ = true;
}

void LivePlots::showStarting() {
    clear();
    no_steps_->setText(tr("The run is starting: it reads its data and builds its model, and its "
                          "first step is drawn here as soon as it is done."));
}

double LivePlots::elapsedSeconds() {
    if (!clock_.isValid()) {
        clock_.start();
        history_seconds_ = series_.seconds().isEmpty() ? 0.0 : series_.seconds().back();
    }
    return history_seconds_ + clock_.elapsed() / 1000.0;
}

void LivePlots::showHistory(const kiln::track::RecordedHistory& history) {
    clear();
    series_.setHistory(history);
    no_steps_->setVisible(series_.stepCount() == 0);
    if (series_.validationCount() > 0) {
        validation_panel_.plot->show();
    }
}

void LivePlots::addValidation(const kiln::train::ValidationMetrics& metrics) {
    series_.appendValidation(metrics, elapsedSeconds());
    pending_validations_.removeAll(static_cast<qint64>(metrics.step));
    updateValidationTitle();
    validation_panel_.plot->show();
    dirty_ = true;
}

void LivePlots::addPendingValidation(qint64 step) {
    pending_validations_.append(step);
    updateValidationTitle();
    validation_panel_.plot->show();
    dirty_ = true;
}

void LivePlots::updateValidationTitle() {
    QStringList steps;
    for (const qint64 step : pending_validations_) {
        steps << QString::number(step);
    }
    validation_panel_.title->setText(
        steps.isEmpty() ? tr("Validation")
                        : tr("Validation (step %1: metrics being computed)").arg(steps.join(", ")));
}

QString LivePlots::validationTitle() const {
    return validation_panel_.title->text();
}

void LivePlots::addStep(const kiln::train::StepMetrics& metrics) {
    series_.appendStep(metrics, elapsedSeconds());
    no_steps_->hide();
    dirty_ = true;
}

bool LivePlots::showsGpus() const {
    return !series_.gpuUtilPercent().isEmpty();
}

namespace {

// The axis over its curves' values with a margin above and below (curves and the best marker
// had run along the frame). A `lone` value (a run's first step) is put in the middle of a range
// of its own: QCustomPlot keeps the size of the range before, the last run's.
void fitValues(QCPAxis* axis, bool lone) {
    axis->rescale(true);
    const double center = axis->range().center();
    if (lone) {
        const double half = std::max(std::abs(center) * 0.1, 1e-6);
        axis->setRange(center - half, center + half);
    } else {
        axis->scaleRange(1.1, center);
    }
}

} // namespace

void LivePlots::redraw() {
    if (!dirty_) {
        return;
    }
    dirty_ = false;
    ++redraws_;
    const RunSeries& r = series_;
    const QVector<QVector<double>>& gpu_util = r.gpuUtilPercent();
    loss_panel_.graphs[0]->setData(xs(), r.loss(), true);
    if (smoothing_ > 0) {
        smoothed_->setData(xs(), smoothedLoss(), true);
    }
    loss_panel_.graphs[1]->setData(xs(), r.learningRate(), true);
    const int best = r.bestLossIndex();
    best_marker_->setData(best < 0 ? QVector<double>{} : QVector<double>{xs()[best]},
                          best < 0 ? QVector<double>{} : QVector<double>{r.bestLoss()}, true);
    data_wait_panel_.graphs[0]->setData(xs(), r.dataWaitPercent(), true);
    cpu_panel_.graphs[0]->setData(xs(), r.cpuPercent(), true);
    throughput_panel_.graphs[0]->setData(xs(), r.imagesPerSecond(), true);
    while (gpu_panel_.graphs.size() < 2 * gpu_util.size()) {
        const int gpu = static_cast<int>(gpu_panel_.graphs.size() / 2);
        QCPGraph* util = gpu_panel_.plot->addGraph();
        util->setName(tr("GPU %1 utilisation").arg(gpu));
        util->setPen(QPen(kColours[gpu % kColours.size()], 1.5));
        QCPGraph* memory =
            gpu_panel_.plot->addGraph(gpu_panel_.plot->xAxis, gpu_panel_.plot->yAxis2);
        memory->setName(tr("GPU %1 memory").arg(gpu));
        memory->setPen(QPen(kColours[gpu % kColours.size()], 1.0, Qt::DashLine));
        gpu_panel_.graphs << util << memory;
    }
    for (int gpu = 0; gpu < gpu_util.size(); ++gpu) {
        const QVector<double> steps = xs().mid(xs().size() - gpu_util[gpu].size());
        gpu_panel_.graphs[2 * gpu]->setData(steps, gpu_util[gpu], true);
        gpu_panel_.graphs[2 * gpu + 1]->setData(steps, r.gpuMemoryMb()[gpu], true);
    }
    if (r.watched() != shown_watched_) {
        shown_watched_ = r.watched();
        validation_panel_.graphs[0]->setName(metricTitle(shown_watched_));
    }
    const int best_validation = r.bestValidation();
    validation_panel_.graphs[0]->setData(validationXs(), r.validationMetric(), true);
    validation_panel_.graphs[1]->setData(validationXs(), r.validationLoss(), true);
    // Only where there is a loss: pretraining's kNN monitor has none.
    const bool has_loss = r.hasValidationLoss();
    if (validation_panel_.graphs[1]->visible() != has_loss) {
        validation_panel_.graphs[1]->setVisible(has_loss);
        validation_panel_.plot->yAxis2->setVisible(has_loss);
        if (has_loss) {
            validation_panel_.graphs[1]->addToLegend();
        } else {
            validation_panel_.graphs[1]->removeFromLegend();
        }
    }
    best_validation_marker_->setData(
        best_validation < 0 ? QVector<double>{} : QVector<double>{validationXs()[best_validation]},
        best_validation < 0 ? QVector<double>{}
                            : QVector<double>{r.validationMetric()[best_validation]},
        true);
    no_gpu_->setVisible(gpu_util.isEmpty());
    gpu_panel_.plot->setVisible(!gpu_util.isEmpty());
    shareHeight();
    // Steps or seconds, whichever the x axis shows.
    const QVector<double>& x = xs();
    // A lone step has no line to draw: it is a dot until the next one.
    const QCPScatterStyle lone =
        x.size() == 1 ? QCPScatterStyle(QCPScatterStyle::ssDisc, 6) : QCPScatterStyle();
    for (QCPGraph* graph :
         {loss_panel_.graphs[0], loss_panel_.graphs[1], data_wait_panel_.graphs[0],
          cpu_panel_.graphs[0], throughput_panel_.graphs[0]}) {
        graph->setScatterStyle(lone);
    }
    for (const Panel* panel : {&loss_panel_, &data_wait_panel_, &cpu_panel_, &gpu_panel_,
                               &throughput_panel_, &validation_panel_}) {
        if (following_) { // else the user's zoom and pan stay
            panel->plot->xAxis->setRange(x.isEmpty() ? 0 : x.front(),
                                         x.isEmpty() ? 1 : std::max(x.back(), x.front() + 1));
            if (panel == &loss_panel_ || panel == &throughput_panel_) {
                fitValues(panel->plot->yAxis, x.size() == 1);
            }
            if (panel == &loss_panel_ || panel == &validation_panel_) {
                fitValues(panel->plot->yAxis2,
                          panel == &loss_panel_ ? x.size() == 1 : validationXs().size() == 1);
            }
            if (panel == &validation_panel_) {
                panel->plot->yAxis->setRange(-0.03, 1.03);
            }
            if (panel == &data_wait_panel_ || panel == &cpu_panel_ || panel == &gpu_panel_) {
                panel->plot->yAxis->setRange(-3, 103); // percent
            }
        }
        panel->plot->replot(QCustomPlot::rpQueuedReplot);
    }
    if (!r.gpuMemoryMb().isEmpty()) {
        gpu_panel_.plot->yAxis2->rescale(true);
    }
}

QString LivePlots::readout(const QString& plot, double step) const {
    const int i = nearest(xs(), step);
    if (i < 0) {
        return {};
    }
    const RunSeries& r = series_;
    const QString at = tr("step %1").arg(r.steps()[i]);
    if (plot == QLatin1String("loss")) {
        return tr("%1: loss %2, learning rate %3")
            .arg(at)
            .arg(r.loss()[i], 0, 'f', 4)
            .arg(r.learningRate()[i], 0, 'g', 3);
    }
    if (plot == QLatin1String("data_wait")) {
        return tr("%1: data_wait %2%").arg(at).arg(r.dataWaitPercent()[i], 0, 'f', 1);
    }
    if (plot == QLatin1String("cpu")) {
        return tr("%1: CPU %2%").arg(at).arg(r.cpuPercent()[i], 0, 'f', 0);
    }
    if (plot == QLatin1String("throughput")) {
        return tr("%1: %2 images/s").arg(at).arg(r.imagesPerSecond()[i], 0, 'f', 1);
    }
    if (plot == QLatin1String("validation")) {
        const int v = nearest(validationXs(), step);
        if (v < 0) {
            return {};
        }
        const QString best = v == r.bestValidation() ? tr(" (best)") : QString();
        const QString metric = metricTitle(r.watched());
        if (qIsNaN(r.validationLoss()[v])) {
            return tr("evaluation after step %1: %2 %3%4")
                .arg(r.validationSteps()[v])
                .arg(metric)
                .arg(r.validationMetric()[v], 0, 'f', 4)
                .arg(best);
        }
        return tr("evaluation after step %1: %2 %3, validation loss %4%5")
            .arg(r.validationSteps()[v])
            .arg(metric)
            .arg(r.validationMetric()[v], 0, 'f', 4)
            .arg(r.validationLoss()[v], 0, 'f', 4)
            .arg(best);
    }
    const QVector<QVector<double>>& gpu_util = r.gpuUtilPercent();
    if (plot == QLatin1String("gpu") && !gpu_util.isEmpty()) {
        QStringList parts;
        for (int gpu = 0; gpu < gpu_util.size(); ++gpu) {
            const int offset = static_cast<int>(r.stepCount() - gpu_util[gpu].size());
            if (i >= offset) {
                const double util = gpu_util[gpu][i - offset];
                const double memory = r.gpuMemoryMb()[gpu][i - offset];
                parts << tr("GPU %1 %2, %3")
                             .arg(gpu)
                             .arg(qIsNaN(util) ? tr("n/a")
                                               : QStringLiteral("%1%").arg(util, 0, 'f', 0))
                             .arg(qIsNaN(memory) ? tr("n/a")
                                                 : QStringLiteral("%1 MB").arg(memory, 0, 'f', 0));
            }
        }
        return at + QStringLiteral(": ") + parts.join(QStringLiteral("; "));
    }
    return {};
}

void LivePlots::showReadout(QCustomPlot* plot, QMouseEvent* event) {
    const QString name = plot->objectName().chopped(4); // "...Plot"
    const QString text = readout(name, plot->xAxis->pixelToCoord(event->position().x()));
    if (!text.isEmpty()) {
        QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    }
}

} // namespace kiln::gui
