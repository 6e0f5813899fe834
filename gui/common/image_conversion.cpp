#include "common/image_conversion.h"

#include "data/image_decode.h"
#include "data/labelled_data.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmapCache>
#include <algorithm>

namespace kiln::gui {

QImage toQImage(const cv::Mat& image) {
    return QImage(image.data, image.cols, image.rows, static_cast<qsizetype>(image.step),
                  image.channels() == 1 ? QImage::Format_Grayscale8 : QImage::Format_BGR888)
        .copy();
}

QImage decodeThumbnail(const QString& file, int side) {
    try {
        return toQImage(data::decode_image(file.toStdString(), side))
            .scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    } catch (const std::exception&) { // kiln::Error, or memory a huge image would take
        return {};
    }
}

cv::Mat readClassMask(const QString& file) {
    try {
        return data::read_mask(file.toStdString());
    } catch (const std::exception&) {
        return {};
    }
}

QPixmap thumbnailPlaceholder(int side, bool unreadable) {
    const QPalette palette = QGuiApplication::palette();
    // Asked for by every tile still loading at every repaint: drawn once per look.
    const QString key = QStringLiteral("kiln-placeholder-%1-%2-%3-%4")
                            .arg(side)
                            .arg(unreadable)
                            .arg(palette.color(QPalette::Window).rgba())
                            .arg(palette.color(QPalette::WindowText).rgba());
    if (QPixmap cached; QPixmapCache::find(key, &cached)) {
        return cached;
    }
    const auto blend = [&](double amount) { // of the text colour over the window colour
        const QColor window = palette.color(QPalette::Window);
        const QColor text = palette.color(QPalette::WindowText);
        return QColor::fromRgbF(float(window.redF() + amount * (text.redF() - window.redF())),
                                float(window.greenF() + amount * (text.greenF() - window.greenF())),
                                float(window.blueF() + amount * (text.blueF() - window.blueF())));
    };
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF square(side * 0.1, side * 0.1, side * 0.8, side * 0.8);
    painter.setPen(Qt::NoPen);
    painter.setBrush(blend(0.08));
    painter.drawRoundedRect(square, side * 0.06, side * 0.06);
    if (unreadable) {
        painter.setPen(QPen(blend(0.35), std::max(1.0, side / 40.0)));
        const QRectF cross = square.adjusted(side * 0.25, side * 0.25, -side * 0.25, -side * 0.25);
        painter.drawLine(cross.topLeft(), cross.bottomRight());
        painter.drawLine(cross.topRight(), cross.bottomLeft());
    }
    painter.end();
    QPixmapCache::insert(key, pixmap);
    return pixmap;
}

} // namespace kiln::gui
