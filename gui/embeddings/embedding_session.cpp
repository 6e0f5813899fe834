#include "embeddings/embedding_session.h"

#include "embed/embedder.h"

namespace kiln::gui {

EmbeddingSession::EmbeddingSession(QObject* parent)
    : QObject(parent), job_(this, QStringLiteral("embedding")) {}

EmbeddingSession::~EmbeddingSession() {
    job_.stopAndWait();
}

void EmbeddingSession::start(const EmbedConfig& config) {
    const bool started = job_.start(
        [this, config](const StopToken& stop) {
            try {
                const embed::EmbedSummary summary = embed::run_embedding(
                    config,
                    [this](const train::EmbedProgressInfo& info) {
                        Q_EMIT progress(info.done, info.total);
                    },
                    stop);
                Q_EMIT finished(summary.images, summary.dimension, summary.skipped,
                                QString::fromStdString(config.out.string()));
            } catch (const std::exception& error) {
                if (stop.stop_requested()) {
                    Q_EMIT stopped(); // nothing was written
                } else {
                    Q_EMIT failed(QString::fromStdString(error.what()));
                }
            }
        },
        [this] { Q_EMIT runningChanged(false); });
    if (started) {
        Q_EMIT runningChanged(true);
    }
}

void EmbeddingSession::stop() {
    job_.stop();
}

} // namespace kiln::gui
