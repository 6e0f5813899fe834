#include "common/label_overlay.h"

#include "data/labelled_data.h"

#include <QPainter>
#include <opencv2/imgproc.hpp>

namespace kiln::gui {
namespace {

constexpr int kIgnoreIndex = 255;

QString className(const std::vector<data::ClassLabelCount>& classes, std::int64_t index) {
    return index >= 0 && std::size_t(index) < classes.size()
               ? QString::fromStdString(classes[std::size_t(index)].name)
               : QString::number(index);
}

} // namespace

QColor classColour(std::int64_t index) {
    // Golden-angle steps around the hue circle keep neighbouring ids apart.
    const int hue = int((index * 137) % 360);
    return QColor::fromHsv(hue, 200, 235);
}

void drawBoxes(QImage& image, std::array<int, 2> labelled_size,
               const std::vector<OverlayBox>& boxes) {
    if (labelled_size[0] <= 0 || labelled_size[1] <= 0) {
        return;
    }
    const double sx = double(image.width()) / labelled_size[0];
    const double sy = double(image.height()) / labelled_size[1];
    QPainter painter(&image);
    QFont font = painter.font();
    font.setPixelSize(9);
    painter.setFont(font);
    for (const OverlayBox& object : boxes) {
        const QColor colour = classColour(object.class_id);
        const QRectF box(object.box[0] * sx, object.box[1] * sy,
                         (object.box[2] - object.box[0]) * sx,
                         (object.box[3] - object.box[1]) * sy);
        painter.setPen(QPen(colour, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box);
        const QRectF caption(box.left(), std::max(0.0, box.top() - 11),
                             painter.fontMetrics().horizontalAdvance(object.caption) + 4, 11);
        painter.fillRect(caption, colour);
        painter.setPen(colour.lightness() > 140 ? Qt::black : Qt::white);
        painter.drawText(caption, Qt::AlignCenter, object.caption);
    }
}

void drawClassMask(QImage& image, const cv::Mat& mask, bool zero_is_background) {
    cv::Mat scaled;
    cv::resize(mask, scaled, cv::Size(image.width(), image.height()), 0, 0, cv::INTER_NEAREST);
    image = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < image.height(); ++y) {
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int value = scaled.depth() == CV_8U ? scaled.at<std::uint8_t>(y, x)
                                                      : scaled.at<std::uint16_t>(y, x);
            if (value == kIgnoreIndex || (value == 0 && zero_is_background)) {
                continue;
            }
            const QColor colour = classColour(value);
            const QRgb under = row[x];
            row[x] = qRgb((qRed(under) + colour.red()) / 2, (qGreen(under) + colour.green()) / 2,
                          (qBlue(under) + colour.blue()) / 2);
        }
    }
}

bool zeroIsBackground(const std::vector<std::string>& names) {
    return names.empty() || names.front() == "0" || names.front() == "background";
}

void drawLabels(QImage& image, const data::LabelledImage& labels,
                const std::vector<data::ClassLabelCount>& classes) {
    if (!labels.mask.empty()) {
        cv::Mat mask;
        try {
            mask = data::read_mask(labels.mask);
        } catch (const std::exception&) {
            return;
        }
        std::vector<std::string> names;
        for (const data::ClassLabelCount& count : classes) {
            names.push_back(count.name);
        }
        drawClassMask(image, mask, zeroIsBackground(names));
        return;
    }
    std::vector<OverlayBox> boxes;
    for (const data::LabelledObject& object : labels.objects) {
        boxes.push_back({object.box, object.class_id, className(classes, object.class_id)});
    }
    drawBoxes(image, labels.size, boxes);
}

} // namespace kiln::gui
