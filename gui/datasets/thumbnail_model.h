#pragma once

#include "data/dataset_labels.h"

#include <QAbstractListModel>
#include <QHash>
#include <QImage>
#include <QSet>
#include <QStringList>
#include <QThreadPool>
#include <memory>

namespace kiln::gui {

// A dataset's images as a grid of thumbnails, made lazily: a thumbnail is decoded (at reduced
// size where the format allows) on the thread pool when the view first asks for it, so a
// folder of 100,000 images opens at once and only what is seen is read. With labels, each
// thumbnail shows its boxes or mask and class names.
class ThumbnailModel : public QAbstractListModel {
    Q_OBJECT

public:
    static constexpr int kSide = 96;

    explicit ThumbnailModel(QObject* parent = nullptr);
    ~ThumbnailModel() override;

    // The files, and the labels drawn over them (the label browser) while showLabels is on.
    void setFiles(const QStringList& files,
                  std::shared_ptr<const data::LabelStatistics> labels = nullptr);
    void setShowLabels(bool show);
    QString file(int row) const { return files_.value(row); }
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    // Thumbnails decoded so far, and files found unreadable.
    int loadedCount() const { return static_cast<int>(thumbnails_.size()); }

private:
    void request(int row) const;
    void store(quint64 generation, int row, const QImage& image);

    QStringList files_;
    std::shared_ptr<const data::LabelStatistics> labels_;
    QHash<QString, int> labelled_row_; // a file's entry in labels_->labelled
    bool show_labels_ = true;
    quint64 generation_ = 0; // bumped by setFiles, so late thumbnails of old files are dropped
    mutable QSet<int> requested_;
    QHash<int, QImage> thumbnails_; // null: the file cannot be read
    // Its own pool: waiting for it at the end waits for its decoders, not for others' work.
    mutable QThreadPool decoders_;
};

} // namespace kiln::gui
