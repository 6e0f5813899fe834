#pragma once

#include "core/run_config.h"
#include "core/stop_token.h"

#include <QObject>
#include <QString>

class QThread;

namespace kiln::gui {

// Runs `kiln embed` on its own thread, reporting progress and the result as queued signals.
class EmbeddingSession : public QObject {
    Q_OBJECT

public:
    explicit EmbeddingSession(QObject* parent = nullptr);
    ~EmbeddingSession() override; // stops a running embedding and waits for its thread

    bool isRunning() const { return thread_ != nullptr; }

public Q_SLOTS:
    // `config` must be resolved (resolve_embed_config). Ignored while one runs.
    void start(const kiln::EmbedConfig& config);
    void stop();

Q_SIGNALS:
    void progress(qint64 batches, qint64 total);
    void finished(qint64 images, qint64 dimension, qint64 skipped, const QString& file);
    void failed(const QString& message);
    void runningChanged(bool running);

private:
    QThread* thread_ = nullptr;
    StopToken stop_;
};

} // namespace kiln::gui
