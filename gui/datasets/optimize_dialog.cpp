#include "datasets/optimize_dialog.h"

#include "data/dataset_optimizer.h"
#include "system/hardware.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

namespace kiln::gui {

OptimizeDatasetDialog::OptimizeDatasetDialog(const QString& source, QWidget* parent)
    : QDialog(parent), source_(source), job_(this, QStringLiteral("optimize dataset")),
      estimate_job_(this, QStringLiteral("optimize estimate")) {
    job_.onProgress([this](qint64 done, qint64 total, const QString&) {
        progress_->setRange(0, static_cast<int>(total));
        progress_->setValue(static_cast<int>(done));
    });
    setObjectName(QStringLiteral("optimizeDatasetDialog"));
    setWindowTitle(tr("Optimize Dataset"));
    destination_ = new QLineEdit(QDir::cleanPath(source) + QStringLiteral("-optimized"), this);
    destination_->setObjectName(QStringLiteral("destinationField"));
    format_ = new QComboBox(this);
    format_->addItems({QStringLiteral("jpg"), QStringLiteral("webp")});
    max_size_ = new QSpinBox(this);
    max_size_->setObjectName(QStringLiteral("maxSizeField"));
    max_size_->setRange(0, 16384);
    max_size_->setValue(512);
    max_size_->setSpecialValueText(tr("keep the size"));
    max_size_->setSuffix(tr(" px"));
    quality_ = new QSpinBox(this);
    quality_->setRange(1, 100);
    quality_->setValue(90);
    progress_ = new QProgressBar(this);
    progress_->hide();
    status_ = new QLabel(tr("Decoding PNG and large images costs CPU in every epoch; JPEG or "
                            "WebP at the training resolution costs far less."),
                         this);
    status_->setObjectName(QStringLiteral("optimizeStatus"));
    status_->setWordWrap(true);
    estimate_ = new QLabel(this);
    estimate_->setObjectName(QStringLiteral("optimizeEstimate"));
    estimate_->setWordWrap(true);
    auto* sourceLabel = new QLabel(QDir::toNativeSeparators(source), this);
    // Paths and the engine's messages, as written.
    for (QLabel* label : {status_, estimate_, sourceLabel}) {
        label->setTextFormat(Qt::PlainText);
    }
    auto* form = new QFormLayout;
    form->addRow(tr("Source"), sourceLabel);
    form->addRow(tr("Destination"), destination_);
    form->addRow(tr("Format"), format_);
    form->addRow(tr("Longest side at most"), max_size_);
    form->addRow(tr("Quality"), quality_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    start_ = buttons->addButton(tr("Optimize"), QDialogButtonBox::ActionRole);
    start_->setObjectName(QStringLiteral("startOptimizeButton"));
    connect(start_, &QPushButton::clicked, this, &OptimizeDatasetDialog::start);
    connect(buttons, &QDialogButtonBox::rejected, this, &OptimizeDatasetDialog::reject);
    // The suggested destination shows whole (within reason); the estimate, written in later,
    // has its three lines from the start, and more make the dialog taller rather than squash
    // the form's rows.
    estimate_->setMinimumHeight(estimate_->fontMetrics().lineSpacing() * 3);
    destination_->setMinimumWidth(
        std::min(destination_->fontMetrics().horizontalAdvance(destination_->text()) +
                     destination_->fontMetrics().averageCharWidth() * 4,
                 destination_->fontMetrics().averageCharWidth() * 90));
    auto* layout = new QVBoxLayout(this);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    layout->addLayout(form);
    layout->addWidget(estimate_);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(buttons);
    // The estimate follows the settings, shortly after the last change.
    estimate_timer_ = new QTimer(this);
    estimate_timer_->setSingleShot(true);
    estimate_timer_->setInterval(300);
    connect(estimate_timer_, &QTimer::timeout, this, &OptimizeDatasetDialog::estimate);
    const auto changed = [this] {
        estimate_->setText(tr("Estimating the copy's size..."));
        start_->setEnabled(false);
        estimate_timer_->start();
    };
    connect(format_, &QComboBox::currentIndexChanged, this, changed);
    connect(max_size_, &QSpinBox::valueChanged, this, changed);
    connect(quality_, &QSpinBox::valueChanged, this, changed);
    changed();
}

data::OptimizeOptions OptimizeDatasetDialog::options() const {
    data::OptimizeOptions options;
    options.source = source_.toStdString();
    options.destination = destination_->text().toStdString();
    options.format = format_->currentText().toStdString();
    options.max_size = max_size_->value();
    options.quality = quality_->value();
    options.num_workers = system::usable_cpu_cores();
    return options;
}

bool OptimizeDatasetDialog::isEstimating() const {
    return estimate_job_.isRunning() || estimate_timer_->isActive();
}

QString OptimizeDatasetDialog::estimateText() const {
    return estimate_->text();
}

void OptimizeDatasetDialog::estimate() {
    if (estimate_job_.isRunning()) {
        estimate_again_ = true; // the settings changed meanwhile: this one is stale
        estimate_job_.stop();
        return;
    }
    const data::OptimizeOptions settings = options();
    estimate_job_.run<data::OptimizeEstimate>(
        [settings](const StopToken& stop) {
            return data::estimate_optimized_size(settings, 48, stop);
        },
        [this](const data::OptimizeEstimate& sized) {
            if (!estimatedAgain()) {
                showEstimate(sized);
            }
        },
        [this](const QString& failure) { // an empty or vanished folder
            if (!estimatedAgain()) {
                estimated_larger_ = false;
                estimate_->setText(tr("The size could not be estimated: %1").arg(failure));
                estimate_->setStyleSheet(QStringLiteral("color: #c0392b"));
                start_->setEnabled(!job_.isRunning() && !succeeded_);
            }
        });
}

bool OptimizeDatasetDialog::estimatedAgain() {
    if (!estimate_again_) {
        return false;
    }
    estimate_again_ = false;
    estimate();
    return true;
}

void OptimizeDatasetDialog::showEstimate(const data::OptimizeEstimate& sized) {
    const QLocale locale;
    estimated_larger_ = sized.larger();
    QString text = tr("%Ln file(s), %1; the copy: about %2 (estimated from %3 of them).", nullptr,
                      static_cast<int>(sized.images))
                       .arg(locale.formattedDataSize(sized.bytes),
                            locale.formattedDataSize(sized.estimated_bytes))
                       .arg(sized.sampled);
    if (estimated_larger_) {
        text += QLatin1Char(' ') +
                tr("That is larger than the dataset: these images are already compact. "
                   "Lower the quality, choose WebP, or keep them as they are.");
    }
    estimate_->setText(text);
    estimate_->setStyleSheet(estimated_larger_ ? QStringLiteral("color: #c0392b") : QString());
    start_->setText(estimated_larger_ ? tr("Optimize Anyway") : tr("Optimize"));
    start_->setEnabled(!job_.isRunning() && !succeeded_);
}

OptimizeDatasetDialog::~OptimizeDatasetDialog() {
    job_.stopAndWait();
    estimate_job_.stopAndWait();
}

void OptimizeDatasetDialog::setDestination(const QString& folder) {
    destination_->setText(folder);
}

void OptimizeDatasetDialog::setMaxSize(int pixels) {
    max_size_->setValue(pixels);
}

QString OptimizeDatasetDialog::destination() const {
    return destination_->text();
}

void OptimizeDatasetDialog::start() {
    if (job_.isRunning()) {
        return;
    }
    const data::OptimizeOptions options = this->options();
    start_->setEnabled(false);
    progress_->setRange(0, 0);
    progress_->show();
    status_->setText(tr("Optimizing..."));
    job_.run<data::OptimizeResult>(
        [this, options](const StopToken& stop) {
            return data::optimize_dataset(
                options,
                [this](std::int64_t done, std::int64_t total) { job_.report(done, total); }, stop);
        },
        [this](const data::OptimizeResult& result) {
            const QLocale locale;
            QString text =
                result.cancelled
                    ? tr("Stopped after %Ln image(s).", nullptr, static_cast<int>(result.written))
                    : tr("Wrote %Ln image(s): %1 became %2.", nullptr,
                         static_cast<int>(result.written))
                          .arg(locale.formattedDataSize(result.bytes_read),
                               locale.formattedDataSize(result.bytes_written));
            if (!result.skipped.empty()) {
                text += QLatin1Char(' ') + tr("%Ln unreadable file(s) skipped.", nullptr,
                                              static_cast<int>(result.skipped.size()));
            }
            showResult(text, !result.cancelled);
        },
        [this](const QString& error) {
            start_->setEnabled(true);
            showResult(error, false);
        });
}

void OptimizeDatasetDialog::showResult(const QString& text, bool succeeded) {
    progress_->hide();
    result_ = text;
    succeeded_ = succeeded;
    status_->setText(text);
    Q_EMIT finished(succeeded);
}

void OptimizeDatasetDialog::reject() {
    job_.stopAndWait();
    estimate_job_.stopAndWait();
    progress_->hide();
    QDialog::reject();
}

} // namespace kiln::gui
