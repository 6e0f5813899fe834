#pragma once

#include "config/run_config.h"
#include "track/remaining_time.h"

#include <QObject>

class QMainWindow;
class QProgressBar;

namespace kiln::gui {

class EmbeddingSession;
class ModelCommands;
class TrainingSession;

// The engine jobs the window runs, one at a time: training, embedding, and the model commands
// (Export Model, Predict). It owns them, shows their progress in the status bar, reports how they
// ended, and stops whichever runs (Run > Stop).
class JobController : public QObject {
    Q_OBJECT

public:
    explicit JobController(QMainWindow* window);

    TrainingSession* training() const { return training_; }
    EmbeddingSession* embedding() const { return embedding_; }
    ModelCommands* modelCommands() const { return modelCommands_; }
    bool busy() const;

    // `config` resolved; its progress replaces whatever the status bar showed.
    void train(const kiln::TrainConfig& config);
    void embed(const kiln::EmbedConfig& config);
    void stop();

Q_SIGNALS:
    void busyChanged();
    // An embedding wrote `file`.
    void embeddingWritten(const QString& file);

private:
    void connectTraining();
    void connectEmbedding();
    void connectModelCommands();
    void showStep(const kiln::track::StepMetrics& metrics);
    void showProgress(qint64 done, qint64 total, const QString& text);
    void showBusy(const QString& text);

    QMainWindow* window_;
    TrainingSession* training_;
    EmbeddingSession* embedding_;
    ModelCommands* modelCommands_;
    QProgressBar* progress_;
    track::RemainingTime remaining_; // the ETA of the run in progress
};

} // namespace kiln::gui
