#include "datasets/thumbnail_model.h"

#include "common/image_conversion.h"
#include "common/label_overlay.h"

#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTextDocument>
#include <QThreadPool>

namespace kiln::gui {

ThumbnailModel::ThumbnailModel(QObject* parent) : QAbstractListModel(parent) {}

ThumbnailModel::~ThumbnailModel() {
    ++generation_;
    decoders_.clear();
    decoders_.waitForDone(); // no decoder writes into a model that is gone
}

void ThumbnailModel::setFiles(const QStringList& files,
                              std::shared_ptr<const data::LabelStatistics> labels) {
    beginResetModel();
    ++generation_;
    decoders_.clear(); // the old files' thumbnails not yet begun are not decoded
    files_ = files;
    labels_ = std::move(labels);
    labelled_row_.clear();
    if (labels_ != nullptr) {
        for (std::size_t i = 0; i < labels_->labelled.size(); ++i) {
            // The labels name their images as their file does ("train/./images/0.png").
            labelled_row_.insert(
                QDir::cleanPath(QString::fromStdString(labels_->labelled[i].path.string())),
                int(i));
        }
    }
    requested_.clear();
    thumbnails_.clear();
    endResetModel();
}

void ThumbnailModel::setShowLabels(bool show) {
    if (show != show_labels_) {
        show_labels_ = show;
        setFiles(QStringList(files_), labels_); // drawn again, with or without
    }
}

int ThumbnailModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(files_.size());
}

QVariant ThumbnailModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= files_.size()) {
        return {};
    }
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole:
        return QFileInfo(files_[row]).fileName();
    case Qt::ToolTipRole: // as written, though it looked like HTML
        return Qt::convertFromPlainText(files_[row]);
    case Qt::DecorationRole: {
        const auto found = thumbnails_.constFind(row);
        if (found != thumbnails_.constEnd()) {
            return found->isNull() ? thumbnailPlaceholder(kSide, true) : QPixmap::fromImage(*found);
        }
        request(row);
        return thumbnailPlaceholder(kSide);
    }
    case Qt::SizeHintRole:
        return QSize(kSide + 16, kSide + 24);
    default:
        return {};
    }
}

void ThumbnailModel::request(int row) const {
    if (requested_.contains(row)) {
        return;
    }
    requested_.insert(row);
    const QString file = files_[row];
    const quint64 generation = generation_;
    auto* self = const_cast<ThumbnailModel*>(this);
    const int labelled = show_labels_ ? labelled_row_.value(QDir::cleanPath(file), -1) : -1;
    std::shared_ptr<const data::LabelStatistics> labels = labelled >= 0 ? labels_ : nullptr;
    decoders_.start([self, file, row, generation, labels, labelled] {
        // Null when unreadable (the dataset scan lists those files): the tile is crossed.
        QImage image = decodeThumbnail(file, kSide);
        if (!image.isNull() && labels != nullptr) {
            drawLabels(image, labels->labelled[std::size_t(labelled)], labels->classes);
        }
        QMetaObject::invokeMethod(
            self, [self, generation, row, image] { self->store(generation, row, image); });
    });
}

void ThumbnailModel::store(quint64 generation, int row, const QImage& image) {
    if (generation != generation_) {
        return;
    }
    thumbnails_.insert(row, image); // null: unreadable, shown crossed
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed, {Qt::DecorationRole});
}

} // namespace kiln::gui
