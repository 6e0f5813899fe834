#pragma once

#include <QAbstractListModel>
#include <QHash>
#include <QImage>
#include <QSet>
#include <QStringList>

namespace kiln::gui {

// A dataset's images as a grid of thumbnails, made lazily: a thumbnail is decoded (at reduced
// size where the format allows) on the thread pool when the view first asks for it, so a
// folder of 100,000 images opens at once and only what is seen is read.
class ThumbnailModel : public QAbstractListModel {
    Q_OBJECT

public:
    static constexpr int kSide = 96;

    explicit ThumbnailModel(QObject* parent = nullptr);
    ~ThumbnailModel() override;

    void setFiles(const QStringList& files);
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    int loadedCount() const { return static_cast<int>(thumbnails_.size()); }

private:
    void request(int row) const;
    void store(quint64 generation, int row, const QImage& image);

    QStringList files_;
    quint64 generation_ = 0; // bumped by setFiles, so late thumbnails of old files are dropped
    mutable QSet<int> requested_;
    QHash<int, QImage> thumbnails_;
};

} // namespace kiln::gui
