#include "datasets/augmentation_preview.h"

#include "common/image_conversion.h"
#include "core/error.h"
#include "data/augment.h"
#include "data/image_decode.h"
#include "data/view_transform.h"
#include "methods/method_names.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPixmap>
#include <QVBoxLayout>
#include <algorithm>

namespace kiln::gui {
namespace {

constexpr int kShownSide = 128;   // views are shown at most this large
constexpr int kDecodeSide = 1024; // the shorter side kept when decoding allows shrinking

} // namespace

AugmentationPreview::AugmentationPreview(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("augmentationPreview"));
    setToolTip(tr("Click for new random views"));
    setCursor(Qt::PointingHandCursor);
    row_ = new QHBoxLayout;
    row_->setAlignment(Qt::AlignLeft);
    message_ = new QLabel(this);
    message_->setTextFormat(Qt::PlainText); // file names and the engine's messages
    message_->setObjectName(QStringLiteral("augmentationMessage"));
    message_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row_);
    layout->addWidget(message_);
}

void AugmentationPreview::setImage(const QString& path) {
    if (path == path_) {
        return;
    }
    path_ = path;
    image_ = cv::Mat();
    if (!path.isEmpty()) {
        try {
            // A JPEG decodes straight to about this size: a preview never needs the pixels of
            // a 6000 px photo, and the GUI thread must not wait for them.
            image_ = data::decode_image(path.toStdString(), kDecodeSide);
        } catch (const Error&) {
            image_ = cv::Mat(); // reroll() says so
        }
    }
    reroll();
}

void AugmentationPreview::setSettings(const std::string& method,
                                      const nlohmann::json& transform_args) {
    method_ = method;
    transform_args_ = transform_args;
    reroll();
}

int AugmentationPreview::viewCount() const {
    return static_cast<int>(views_.size());
}

QImage AugmentationPreview::view(int index) const {
    return views_.value(index);
}

QString AugmentationPreview::message() const {
    return message_->text();
}

void AugmentationPreview::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        reroll();
    }
}

void AugmentationPreview::reroll() {
    while (QLayoutItem* item = row_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    views_.clear();
    if (image_.empty()) {
        message_->setText(path_.isEmpty() ? tr("No readable image in this dataset to preview.")
                                          : tr("%1 cannot be read.").arg(path_));
        return;
    }
    const auto show = [this](const QImage& image, const QString& caption) {
        auto* tile = new QLabel(this);
        // Large images shrink to the tile; small ones grow by a whole factor, pixels kept sharp,
        // so a 32 px view is not a speck (the tooltip gives its true size).
        const int longer = std::max(image.width(), image.height());
        const int factor = std::max(1, kShownSide / std::max(1, longer));
        tile->setPixmap(QPixmap::fromImage(
            longer > kShownSide ? image.scaled(kShownSide, kShownSide, Qt::KeepAspectRatio,
                                               Qt::SmoothTransformation)
                                : image.scaled(image.width() * factor, image.height() * factor,
                                               Qt::IgnoreAspectRatio, Qt::FastTransformation)));
        tile->setToolTip(caption);
        row_->addWidget(tile);
    };
    // The original first, then what the method makes of it.
    show(toQImage(image_), tr("Original: %1 x %2 px").arg(image_.cols).arg(image_.rows));
    auto* arrow = new QLabel(QStringLiteral("\u2192"), this);
    arrow->setObjectName(QStringLiteral("augmentationArrow"));
    row_->addWidget(arrow);
    try {
        const data::TransformArgs transform =
            data::recipe_transform(methods::view_recipe(method_), transform_args_);
        data::Rng rng = data::sample_rng(0, ++roll_, 0);
        for (const data::ViewArgs& view : transform.views) {
            const cv::Mat made = data::make_view(image_, view, transform.num_channels, rng);
            const QImage image = toQImage(made);
            views_.append(image);
            show(image, tr("%1 x %2 px").arg(image.width()).arg(image.height()));
        }
        message_->setText(tr("%Ln view(s) of %1 as %2 makes them; click for new ones.", nullptr,
                             static_cast<int>(views_.size()))
                              .arg(QFileInfo(path_).fileName(), QString::fromStdString(method_)));
    } catch (const std::exception& error) { // a ConfigError lists every bad key
        message_->setText(QString::fromStdString(error.what()));
    }
}

} // namespace kiln::gui
