#include "datasets/thumbnail_model.h"

#include "common/image_conversion.h"
#include "core/error.h"
#include "data/image_decode.h"

#include <QFileInfo>
#include <QPixmap>
#include <QThreadPool>

namespace kiln::gui {

ThumbnailModel::ThumbnailModel(QObject* parent) : QAbstractListModel(parent) {}

ThumbnailModel::~ThumbnailModel() {
    ++generation_;
    QThreadPool::globalInstance()->waitForDone(); // no decoder writes into a model that is gone
}

void ThumbnailModel::setFiles(const QStringList& files) {
    beginResetModel();
    ++generation_;
    files_ = files;
    requested_.clear();
    thumbnails_.clear();
    endResetModel();
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
    case Qt::ToolTipRole:
        return files_[row];
    case Qt::DecorationRole: {
        const auto found = thumbnails_.constFind(row);
        if (found != thumbnails_.constEnd()) {
            return QPixmap::fromImage(*found);
        }
        request(row);
        return {};
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
    QThreadPool::globalInstance()->start([self, file, row, generation] {
        // The engine's decoder, so that the grid shows what training reads (WebP too), and a
        // JPEG decodes straight to about thumbnail size: far less work than full pixels.
        QImage image;
        try {
            image = toQImage(data::decode_image(file.toStdString(), kSide))
                        .scaled(kSide, kSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        } catch (const Error&) {
            // Left without a thumbnail; the dataset scan lists unreadable files.
        }
        QMetaObject::invokeMethod(
            self, [self, generation, row, image] { self->store(generation, row, image); });
    });
}

void ThumbnailModel::store(quint64 generation, int row, const QImage& image) {
    if (generation != generation_ || image.isNull()) {
        return;
    }
    thumbnails_.insert(row, image);
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed, {Qt::DecorationRole});
}

} // namespace kiln::gui
