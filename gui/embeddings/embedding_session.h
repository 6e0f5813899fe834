#pragma once

#include "common/background_job.h"
#include "config/run_config.h"

#include <QObject>
#include <QString>

namespace kiln::gui {

// Runs `kiln embed` on its own thread, reporting progress and the result as queued signals.
class EmbeddingSession : public QObject {
    Q_OBJECT

public:
    explicit EmbeddingSession(QObject* parent = nullptr);
    ~EmbeddingSession() override; // stops a running embedding and waits for its thread

    bool isRunning() const { return job_.isRunning(); }
    // The warnings the last embedding logged (an unreadable image's name), when it ended.
    const QStringList& warnings() const { return job_.warnings(); }

public Q_SLOTS:
    // `config` must be resolved (resolve_embed_config). Ignored while one runs.
    void start(const kiln::EmbedConfig& config);
    void stop();

Q_SIGNALS:
    void progress(qint64 batches, qint64 total);
    void finished(qint64 images, qint64 dimension, qint64 skipped, const QString& file);
    void failed(const QString& message);
    void stopped(); // by stop(), before the end: no file was written
    void runningChanged(bool running);

private:
    BackgroundJob job_;
};

} // namespace kiln::gui
