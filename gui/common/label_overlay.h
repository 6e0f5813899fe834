#pragma once

#include "data/dataset_labels.h"

#include <QColor>
#include <QImage>
#include <QString>
#include <array>
#include <opencv2/core/mat.hpp>
#include <vector>

namespace kiln::gui {

// The colour of class `index` in label overlays: distinct hues, the same for a class everywhere.
QColor classColour(std::int64_t index);

// A box to draw: [x0, y0, x1, y1] in the pixels of the labelled image, in its class's colour,
// with its caption on a tab above it.
struct OverlayBox {
    std::array<float, 4> box{};
    std::int64_t class_id = 0;
    QString caption;
};
// Draws `boxes` over `image`, which shows the whole labelled image of `labelled_size` (width,
// height) scaled to its own size.
void drawBoxes(QImage& image, std::array<int, 2> labelled_size,
               const std::vector<OverlayBox>& boxes);
// Draws a mask of class ids (8- or 16-bit, any size: scaled to the image) over `image` as
// translucent colour; the ignore index 255, and 0 when `zero_is_background`, left clear.
void drawClassMask(QImage& image, const cv::Mat& mask, bool zero_is_background);
// Whether class 0 of `names` is the background a mask overlay leaves clear: named "background"
// or "0", or no names at all.
bool zeroIsBackground(const std::vector<std::string>& names);

// Draws a dataset image's `labels` over `image`: each box with its class's name, or its mask
// file (left as it is when the file cannot be read; the statistics list it).
void drawLabels(QImage& image, const data::LabelledImage& labels,
                const std::vector<data::ClassLabelCount>& classes);

} // namespace kiln::gui
