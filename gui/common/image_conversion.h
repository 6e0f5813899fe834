#pragma once

#include <QImage>
#include <opencv2/core/mat.hpp>

namespace kiln::gui {

// A deep copy of an engine image (8-bit grey or BGR, as data::decode_image and the view
// transforms make them) for Qt to show.
QImage toQImage(const cv::Mat& image);

} // namespace kiln::gui
