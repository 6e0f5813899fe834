#include "embeddings/embedding_session.h"

#include "embed/embedder.h"

namespace kiln::gui {

EmbeddingSession::EmbeddingSession(QObject* parent)
    : QObject(parent), job_(this, QStringLiteral("embedding")) {
    job_.onProgress(
        [this](qint64 done, qint64 total, const QString&) { Q_EMIT progress(done, total); });
}

EmbeddingSession::~EmbeddingSession() {
    job_.stopAndWait();
}

void EmbeddingSession::start(const EmbedConfig& config) {
    const bool started = job_.run<embed::EmbedSummary>(
        [this, config](const StopToken& stop) {
            return embed::run_embedding(
                config,
                [this](const train::EmbedProgressInfo& info) {
                    job_.report(info.done, info.total);
                },
                stop);
        },
        [this,
         file = QString::fromStdString(config.out.string())](const embed::EmbedSummary& summary) {
            Q_EMIT finished(summary.images, summary.dimension, summary.skipped, file);
            Q_EMIT runningChanged(false);
        },
        [this](const QString& message) {
            if (job_.stopRequested()) { // the error is the stop, not a failure
                Q_EMIT stopped();       // nothing was written
            } else {
                Q_EMIT failed(message);
            }
            Q_EMIT runningChanged(false);
        });
    if (started) {
        Q_EMIT runningChanged(true);
    }
}

void EmbeddingSession::stop() {
    job_.stop();
}

} // namespace kiln::gui
