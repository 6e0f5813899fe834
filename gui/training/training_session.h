#pragma once

#include "common/background_job.h"
#include "config/run_config.h"
#include "train/trainer.h"

#include <QObject>
#include <QString>

Q_DECLARE_METATYPE(kiln::train::StepMetrics)
Q_DECLARE_METATYPE(kiln::train::RunSummary)
Q_DECLARE_METATYPE(kiln::train::ValidationMetrics)

namespace kiln::gui {

// Runs one training at a time on its own thread and re-emits the engine's observer events as
// queued signals, so the window only ever handles them on its own thread and never waits for a
// step. Stop asks the engine to finish the current step, write a checkpoint and return.
class TrainingSession : public QObject {
    Q_OBJECT

public:
    explicit TrainingSession(QObject* parent = nullptr);
    ~TrainingSession() override; // stops a running training and waits for its thread

    bool isRunning() const { return job_.isRunning(); }

public Q_SLOTS:
    // `config` must be resolved (resolve_train_config). Ignored while a training runs.
    void start(const kiln::TrainConfig& config);
    void stop();

Q_SIGNALS:
    void started(qint64 datasetSize, qint64 totalSteps);
    void stepFinished(const kiln::train::StepMetrics& metrics);
    void epochFinished(qint64 epoch, double meanLoss);
    // A fine-tuning run evaluated its validation split.
    void validationFinished(const kiln::train::ValidationMetrics& metrics);
    // A validation at `step` whose metrics are still being computed (validationFinished
    // follows for that step).
    void validationPending(qint64 step);
    // The run ended, finished or stopped; the summary says which.
    void finished(const kiln::train::RunSummary& summary);
    // The engine logged a warning while the run went on (from any of its threads).
    void warned(const QString& message);
    // The run ended with an error (its message names the input and the fix).
    void failed(const QString& message);
    // isRunning() changed: the thread started, or it is gone after finished() or failed().
    void runningChanged(bool running);

private:
    BackgroundJob job_;
};

} // namespace kiln::gui
