#pragma once

#include "common/background_job.h"
#include "data/dataset_labels.h"

#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>
#include <array>
#include <atomic>
#include <memory>
#include <optional>

namespace kiln::gui {

// What a dataset folder holds: image count, formats, sizes, unreadable files, and what its
// labels hold.
struct DatasetStats {
    qint64 images = 0;             // readable images
    qint64 bytes = 0;              // of all image files
    QMap<QString, qint64> formats; // by file extension, lower case
    // Readable images by their longest side: < 256, 256-511, 512-1023, 1024-2047, >= 2048 px.
    std::array<qint64, 5> longest_side{};
    std::vector<std::array<int, 2>> sizes; // width and height of each readable image
    QStringList unreadable; // files with an image extension whose header cannot be read
    std::shared_ptr<const data::LabelStatistics> labels; // null for unlabelled images
    QString sample;                                      // the first readable image, for previews
    QStringList files;          // the readable images, for the thumbnail grid
    data::DatasetLayout layout; // what was read: the images and their labels' kind and file
};

// Scans one folder on a background thread: lists the image files as training does, reads each
// header (not the pixels) for its size, and reports progress as it goes. A new scan or the
// scanner's destruction cancels the one before.
class DatasetScanner : public QObject {
    Q_OBJECT

public:
    explicit DatasetScanner(QObject* parent = nullptr);
    ~DatasetScanner() override;

    // Scans `folder`'s images, then reads its labels as `layout` says (the folder is the
    // layout's images).
    void scan(const QString& folder, const data::DatasetLayout& layout = {});
    void cancel();
    bool isScanning() const { return job_.isRunning(); }

    // The size class of an image's longest side, as DatasetStats counts it.
    static int sizeClass(int longest_side);

Q_SIGNALS:
    void progress(const QString& folder, qint64 done, qint64 total);
    void finished(const QString& folder, const kiln::gui::DatasetStats& stats);
    void failed(const QString& folder, const QString& message);

private:
    // The scan itself, on the job's thread; nullopt when stopped.
    std::optional<DatasetStats> statistics(const QString& folder, const data::DatasetLayout& layout,
                                           const StopToken& stop);

    BackgroundJob job_;
    QString folder_; // the folder being scanned, for its progress
};

} // namespace kiln::gui

Q_DECLARE_METATYPE(kiln::gui::DatasetStats)
