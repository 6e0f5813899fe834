#include "common/image_conversion.h"

#include "core/error.h"
#include "data/image_decode.h"

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
    } catch (const Error&) {
        return {};
    }
}

} // namespace kiln::gui
