#include "app/job_controller.h"

#include "app/model_commands.h"
#include "common/message_boxes.h"
#include "embeddings/embedding_session.h"
#include "training/training_session.h"

#include <QDir>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>

namespace kiln::gui {
namespace {

constexpr int kMessageMs = 15000; // how long a job's end stays in the status bar

} // namespace

JobController::JobController(QMainWindow* window)
    : QObject(window), window_(window), training_(new TrainingSession(this)),
      embedding_(new EmbeddingSession(this)), modelCommands_(new ModelCommands(window)),
      progress_(new QProgressBar(window)) {
    progress_->setObjectName(QStringLiteral("trainingProgress"));
    progress_->setMinimumWidth(520);
    progress_->setTextVisible(true);
    progress_->hide();
    window_->statusBar()->addPermanentWidget(progress_);
    connectTraining();
    connectEmbedding();
    connectModelCommands();
}

bool JobController::busy() const {
    return training_->isRunning() || embedding_->isRunning() || modelCommands_->isRunning();
}

void JobController::train(const TrainConfig& config) {
    remaining_ = track::RemainingTime();
    remaining_.start();
    showBusy(tr("starting..."));
    training_->start(config);
}

void JobController::embed(const EmbedConfig& config) {
    showBusy(tr("embedding..."));
    embedding_->start(config);
}

void JobController::stop() {
    training_->stop();
    embedding_->stop();
    modelCommands_->stop();
}

void JobController::connectTraining() {
    connect(training_, &TrainingSession::stepFinished, this, &JobController::showStep);
    connect(training_, &TrainingSession::finished, progress_, &QWidget::hide);
    connect(training_, &TrainingSession::failed, this, [this](const QString& message) {
        progress_->hide();
        showErrorMessage(window_, tr("The training stopped with an error:\n%1").arg(message));
    });
    connect(training_, &TrainingSession::runningChanged, this, &JobController::busyChanged);
}

void JobController::connectEmbedding() {
    connect(embedding_, &EmbeddingSession::runningChanged, this, &JobController::busyChanged);
    connect(embedding_, &EmbeddingSession::progress, this, [this](qint64 done, qint64 total) {
        showProgress(done, total, tr("embedding: batch %1 of %2").arg(done).arg(total));
    });
    connect(embedding_, &EmbeddingSession::finished, this,
            [this](qint64 images, qint64 dimension, qint64 skipped, const QString& file) {
                progress_->hide();
                QString text = tr("Wrote %Ln embedding(s) of dimension %1 to %2.", nullptr,
                                  static_cast<int>(images))
                                   .arg(dimension)
                                   .arg(QDir::toNativeSeparators(file));
                if (skipped > 0) {
                    text += QLatin1Char(' ') + tr("%Ln unreadable image(s) were left out.", nullptr,
                                                  static_cast<int>(skipped));
                }
                window_->statusBar()->showMessage(text, kMessageMs);
                showInformationMessage(window_, text, embedding_->warnings());
                Q_EMIT embeddingWritten(file);
            });
    connect(embedding_, &EmbeddingSession::failed, this, [this](const QString& message) {
        progress_->hide();
        showErrorMessage(window_, tr("The embedding stopped with an error:\n%1").arg(message),
                         embedding_->warnings());
    });
    connect(embedding_, &EmbeddingSession::stopped, this, [this] {
        progress_->hide();
        window_->statusBar()->showMessage(tr("The embedding was stopped; no file was written."),
                                          kMessageMs);
    });
}

void JobController::connectModelCommands() {
    connect(modelCommands_, &ModelCommands::started, this, [this](const QString& what) {
        showBusy(what);
        Q_EMIT busyChanged();
    });
    connect(modelCommands_, &ModelCommands::progressed, this, &JobController::showProgress);
    connect(modelCommands_, &ModelCommands::succeeded, this,
            [this](const QString& summary, const QString& details) {
                window_->statusBar()->showMessage(summary, kMessageMs);
                showInformationMessage(
                    window_, details.isEmpty() ? summary : summary + QLatin1Char('\n') + details,
                    modelCommands_->warnings());
            });
    connect(modelCommands_, &ModelCommands::failed, this, [this](const QString& message) {
        showErrorMessage(window_, message, modelCommands_->warnings());
    });
    connect(modelCommands_, &ModelCommands::finished, this, [this] {
        progress_->hide();
        Q_EMIT busyChanged();
    });
}

void JobController::showStep(const track::StepMetrics& metrics) {
    const double remaining = remaining_.after_step(metrics);
    showProgress(metrics.step, metrics.total_steps,
                 tr("epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7")
                     .arg(metrics.epoch + 1)
                     .arg(metrics.epochs)
                     .arg(metrics.step)
                     .arg(metrics.total_steps)
                     .arg(metrics.loss, 0, 'f', 4)
                     .arg(100.0 * metrics.data_wait, 0, 'f', 0)
                     .arg(QString::fromStdString(track::clock_text(remaining))));
}

void JobController::showProgress(qint64 done, qint64 total, const QString& text) {
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(static_cast<int>(done));
    progress_->setFormat(text);
}

void JobController::showBusy(const QString& text) {
    progress_->setRange(0, 0);
    progress_->setFormat(text);
    progress_->show();
}

} // namespace kiln::gui
