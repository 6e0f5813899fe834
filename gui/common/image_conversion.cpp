#include "common/image_conversion.h"

namespace kiln::gui {

QImage toQImage(const cv::Mat& image) {
    return QImage(image.data, image.cols, image.rows, static_cast<qsizetype>(image.step),
                  image.channels() == 1 ? QImage::Format_Grayscale8 : QImage::Format_BGR888)
        .copy();
}

} // namespace kiln::gui
