#include "datasets/dataset_scan.h"

#include "data/dataset_index.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QImageReader>
#include <QThread>

namespace kiln::gui {

DatasetScanner::DatasetScanner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<kiln::gui::DatasetStats>();
}

DatasetScanner::~DatasetScanner() {
    if (thread_ != nullptr) {
        cancelled_->store(true);
        thread_->wait();
        delete thread_;
    }
}

int DatasetScanner::sizeClass(int longest_side) {
    int size_class = 0;
    for (int limit = 256; size_class < 4 && longest_side >= limit; limit *= 2) {
        ++size_class;
    }
    return size_class;
}

void DatasetScanner::cancel() {
    if (cancelled_) {
        cancelled_->store(true);
    }
}

void DatasetScanner::scan(const QString& folder) {
    if (thread_ != nullptr) {
        cancelled_->store(true);
        thread_->wait();
        delete thread_;
        thread_ = nullptr;
    }
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    const auto cancelled = cancelled_;
    thread_ = QThread::create([this, folder, cancelled] {
        try {
            const data::DatasetIndex index = data::DatasetIndex::scan({folder.toStdString()});
            DatasetStats stats;
            const auto total = static_cast<qint64>(index.size());
            QElapsedTimer since_report;
            since_report.start();
            for (std::size_t i = 0; i < index.size(); ++i) {
                if (cancelled->load()) {
                    return;
                }
                const QString path = QString::fromStdString(index.path(i).string());
                const QFileInfo info(path);
                stats.bytes += info.size();
                ++stats.formats[info.suffix().toLower()];
                QImageReader reader(path);
                const QSize size = reader.size();
                if (!reader.canRead() || !size.isValid()) {
                    stats.unreadable << path;
                } else {
                    if (stats.sample.isEmpty()) {
                        stats.sample = path;
                    }
                    stats.files << path;
                    ++stats.images;
                    ++stats.longest_side[sizeClass(std::max(size.width(), size.height()))];
                }
                if (since_report.elapsed() >= 100) { // a few reports a second, not one per file
                    since_report.restart();
                    Q_EMIT progress(folder, static_cast<qint64>(i + 1), total);
                }
            }
            Q_EMIT progress(folder, total, total);
            Q_EMIT finished(folder, stats);
        } catch (const std::exception& error) {
            Q_EMIT failed(folder, QString::fromStdString(error.what()));
        }
    });
    thread_->setObjectName(QStringLiteral("dataset scan"));
    const quint64 serial = ++serial_;
    connect(thread_, &QThread::finished, this, [this, serial] {
        if (serial == serial_ && thread_ != nullptr) { // not a scan replaced since
            thread_->deleteLater();
            thread_ = nullptr;
        }
    });
    thread_->start();
}

} // namespace kiln::gui
