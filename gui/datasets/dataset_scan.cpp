#include "datasets/dataset_scan.h"

#include "core/error.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <optional>

namespace kiln::gui {
namespace {

// An image's size when the engine's own decoder reads it, as training will: the one rule for
// what counts as readable. JPEGs are decoded at 1/8 size (their header has the full size).
std::optional<cv::Size> readableSize(const std::filesystem::path& path) {
    try {
        const std::vector<unsigned char> bytes = data::read_file(path);
        const cv::Size header = data::jpeg_size(bytes);
        const cv::Mat image = data::decode_image(bytes, path.string(), header.empty() ? 0 : 1);
        return header.empty() ? image.size() : header;
    } catch (const Error&) {
        return std::nullopt;
    }
}

} // namespace

DatasetScanner::DatasetScanner(QObject* parent)
    : QObject(parent), job_(this, QStringLiteral("dataset scan")) {
    qRegisterMetaType<kiln::gui::DatasetStats>();
    job_.onProgress([this](qint64 done, qint64 total, const QString&) {
        Q_EMIT progress(folder_, done, total);
    });
}

DatasetScanner::~DatasetScanner() {
    job_.stopAndWait();
}

int DatasetScanner::sizeClass(int longest_side) {
    int size_class = 0;
    for (int limit = 256; size_class < 4 && longest_side >= limit; limit *= 2) {
        ++size_class;
    }
    return size_class;
}

void DatasetScanner::cancel() {
    job_.stop();
}

void DatasetScanner::scan(const QString& folder, const data::DatasetLayout& layout) {
    job_.stopAndWait(); // a new scan replaces the one before
    folder_ = folder;
    job_.run<std::optional<DatasetStats>>(
        [this, folder, layout](const StopToken& stop) { return statistics(folder, layout, stop); },
        [this, folder](const std::optional<DatasetStats>& stats) {
            if (stats) {
                Q_EMIT finished(folder, *stats);
            }
        },
        [this, folder](const QString& message) { Q_EMIT failed(folder, message); });
}

std::optional<DatasetStats> DatasetScanner::statistics(const QString& folder,
                                                       const data::DatasetLayout& layout,
                                                       const StopToken& stop) {
    const data::DatasetIndex index = data::DatasetIndex::scan({folder.toStdString()});
    DatasetStats stats;
    stats.layout = layout;
    const auto total = static_cast<qint64>(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (stop.stop_requested()) {
            return std::nullopt;
        }
        const QString path = QString::fromStdString(index.path(i).string());
        const QFileInfo info(path);
        stats.bytes += info.size();
        ++stats.formats[info.suffix().toLower()];
        if (const std::optional<cv::Size> size = readableSize(index.path(i))) {
            if (stats.sample.isEmpty()) {
                stats.sample = path;
            }
            stats.files << path;
            ++stats.images;
            ++stats.longest_side[sizeClass(std::max(size->width, size->height))];
            stats.sizes.push_back({size->width, size->height});
        } else {
            stats.unreadable << path;
        }
        job_.report(static_cast<qint64>(i + 1), total);
    }
    if (layout.kind != data::LabelKind::Images) {
        data::DatasetLayout labelled = layout;
        labelled.images = folder.toStdString();
        const int threads = std::max(1, QThread::idealThreadCount());
        stats.labels = std::make_shared<const data::LabelStatistics>(
            data::read_label_statistics(labelled, threads, [&](qint64 done, qint64 all) {
                job_.report(done, all);
                return !stop.stop_requested();
            }));
        if (stop.stop_requested()) {
            return std::nullopt;
        }
    }
    return stats;
}

} // namespace kiln::gui
