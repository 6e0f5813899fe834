#include "training/training_session.h"

#include "core/log.h"

namespace kiln::gui {
namespace {

// Runs on the training thread: every event becomes a signal of the session, which Qt queues to
// the receivers' thread.
class SignalObserver : public train::TrainObserver {
public:
    explicit SignalObserver(TrainingSession& session) : session_(session) {}

    void on_start(const TrainConfig&, std::int64_t dataset_size,
                  std::int64_t total_steps) override {
        Q_EMIT session_.started(dataset_size, total_steps);
    }
    void on_step(const train::StepMetrics& metrics) override {
        Q_EMIT session_.stepFinished(metrics);
    }
    void on_epoch_end(std::int64_t epoch, double mean_loss) override {
        Q_EMIT session_.epochFinished(epoch, mean_loss);
    }
    void on_validation(const train::ValidationMetrics& metrics) override {
        Q_EMIT session_.validationFinished(metrics);
    }
    void on_validation_pending(std::int64_t step) override {
        Q_EMIT session_.validationPending(step);
    }

private:
    TrainingSession& session_;
};

} // namespace

TrainingSession::TrainingSession(QObject* parent)
    : QObject(parent), job_(this, QStringLiteral("training")) {
    qRegisterMetaType<kiln::train::StepMetrics>();
    qRegisterMetaType<kiln::train::RunSummary>();
    qRegisterMetaType<kiln::train::ValidationMetrics>();
}

TrainingSession::~TrainingSession() {
    job_.stopAndWait();
}

void TrainingSession::start(const TrainConfig& config) {
    const bool started = job_.run<train::RunSummary>(
        [this, config](const StopToken& stop) {
            SignalObserver observer(*this);
            // Studio has no terminal: the run's warnings are shown on its page.
            const log::ScopedSink warnings([this](log::Level level, const std::string& message) {
                if (level == log::Level::Warning) {
                    Q_EMIT warned(QString::fromStdString(message));
                }
            });
            return train::train(config, observer, stop);
        },
        [this](const train::RunSummary& summary) {
            Q_EMIT finished(summary);
            Q_EMIT runningChanged(false);
        },
        [this](const QString& message) {
            Q_EMIT failed(message);
            Q_EMIT runningChanged(false);
        });
    if (started) {
        Q_EMIT runningChanged(true);
    }
}

void TrainingSession::stop() {
    job_.stop();
}

} // namespace kiln::gui
