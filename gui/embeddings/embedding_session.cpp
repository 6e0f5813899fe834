#include "embeddings/embedding_session.h"

#include "embed/embedder.h"

#include <QThread>

namespace kiln::gui {

EmbeddingSession::EmbeddingSession(QObject* parent) : QObject(parent) {}

EmbeddingSession::~EmbeddingSession() {
    if (thread_ != nullptr) {
        stop_.request_stop();
        thread_->wait();
        delete thread_;
    }
}

void EmbeddingSession::start(const EmbedConfig& config) {
    if (thread_ != nullptr) {
        return;
    }
    stop_ = StopToken();
    const StopToken stop = stop_;
    thread_ = QThread::create([this, config, stop] {
        try {
            const embed::EmbedSummary summary = embed::run_embedding(
                config,
                [this](std::int64_t done, std::int64_t total) { Q_EMIT progress(done, total); },
                stop);
            Q_EMIT finished(summary.images, summary.dimension, summary.skipped,
                            QString::fromStdString(config.out.string()));
        } catch (const std::exception& error) {
            Q_EMIT failed(QString::fromStdString(error.what()));
        }
    });
    thread_->setObjectName(QStringLiteral("embedding"));
    connect(thread_, &QThread::finished, this, [this] {
        thread_->deleteLater();
        thread_ = nullptr;
        Q_EMIT runningChanged(false);
    });
    thread_->start();
    Q_EMIT runningChanged(true);
}

void EmbeddingSession::stop() {
    stop_.request_stop();
}

} // namespace kiln::gui
