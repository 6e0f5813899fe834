#include "plots/prediction_previews.h"

#include "common/image_conversion.h"
#include "common/label_overlay.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QSlider>
#include <QTextDocument>
#include <QThreadPool>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace kiln::gui {
namespace {

constexpr double kDefaultThreshold = 0.3;

QString className(const std::vector<std::string>& classes, std::int64_t index) {
    return index >= 0 && std::size_t(index) < classes.size()
               ? QString::fromStdString(classes[std::size_t(index)])
               : QString::number(index);
}

bool correct(const train::PredictionPreview& preview) {
    std::vector<std::int64_t> predicted;
    for (const auto& [index, score] : preview.predicted_classes) {
        predicted.push_back(index);
    }
    return predicted == preview.true_classes;
}

} // namespace

PredictionPreviewsView::PredictionPreviewsView(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), threshold_row_(new QWidget(this)),
      threshold_(new QSlider(Qt::Horizontal, threshold_row_)),
      threshold_value_(new QLabel(threshold_row_)), grid_(new QGridLayout) {
    setObjectName(QStringLiteral("predictionPreviews"));
    threshold_->setObjectName(QStringLiteral("scoreThresholdSlider"));
    threshold_->setRange(0, 100);
    threshold_->setValue(int(kDefaultThreshold * 100));
    threshold_->setMaximumWidth(240);
    threshold_->setToolTip(tr("Predicted boxes scoring below this are not drawn"));
    connect(threshold_, &QSlider::valueChanged, this, &PredictionPreviewsView::redraw);
    auto* row = new QHBoxLayout(threshold_row_);
    row->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("Score threshold:"), threshold_row_);
    label->setBuddy(threshold_);
    row->addWidget(label);
    row->addWidget(threshold_);
    row->addWidget(threshold_value_);
    row->addStretch();
    grid_->setHorizontalSpacing(6);
    grid_->setVerticalSpacing(2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(threshold_row_);
    auto* tiles = new QHBoxLayout; // the tiles packed to the left, however wide the page
    tiles->addLayout(grid_);
    tiles->addStretch();
    layout->addLayout(tiles);
    clear();
}

PredictionPreviewsView::~PredictionPreviewsView() {
    decoders_.clear();
    decoders_.waitForDone(); // no decode reports to a view that is gone
}

void PredictionPreviewsView::clear() {
    previews_ = {};
    redraw();
}

void PredictionPreviewsView::setPreviews(const train::PredictionPreviews& previews,
                                         std::int64_t step) {
    previews_ = previews;
    detection_ = false;
    for (const train::PredictionPreview& preview : previews_.images) {
        detection_ = detection_ || preview.size[0] > 0;
        const QString file = QString::fromStdString(preview.image.string());
        if (images_.contains(file)) {
            continue;
        }
        images_.insert(file, QImage()); // asked for; the same images come at every evaluation
        decoders_.start([this, file] {
            // Null when unreadable: the tile says so; the dataset scan lists those files.
            const QImage image = decodeThumbnail(file, kTileSide);
            QMetaObject::invokeMethod(this, [this, file, image] { decoded(file, image); });
        });
    }
    title_->setText(tr("<b>Predictions at step %1</b>: each validation image's labels above, "
                       "what the model made of it below")
                        .arg(QLocale().toString(step)));
    redraw();
}

void PredictionPreviewsView::decoded(const QString& file, const QImage& image) {
    images_.insert(file, image);
    redraw();
}

void PredictionPreviewsView::setScoreThreshold(double threshold) {
    threshold_->setValue(int(std::lround(std::clamp(threshold, 0.0, 1.0) * 100)));
}

double PredictionPreviewsView::scoreThreshold() const {
    return threshold_->value() / 100.0;
}

int PredictionPreviewsView::shownBoxes(int index) const {
    int shown = 0;
    for (const auto& box : previews_.images.at(std::size_t(index)).predicted_boxes) {
        shown += box.score >= scoreThreshold() ? 1 : 0;
    }
    return shown;
}

QImage PredictionPreviewsView::tile(int index, bool predicted) const {
    return drawn(previews_.images.at(std::size_t(index)), predicted);
}

QString PredictionPreviewsView::predictionCaption(int index) const {
    return captions_.value(index) != nullptr ? captions_[index]->text() : QString();
}

QImage PredictionPreviewsView::drawn(const train::PredictionPreview& preview,
                                     bool predicted) const {
    QImage image = images_.value(QString::fromStdString(preview.image.string()));
    if (image.isNull()) {
        return image;
    }
    image = image.convertToFormat(QImage::Format_RGB32);
    const std::vector<std::uint8_t>& mask = predicted ? preview.predicted_mask : preview.true_mask;
    if (!mask.empty()) {
        const cv::Mat classes(preview.mask_height, preview.mask_width, CV_8U,
                              const_cast<std::uint8_t*>(mask.data()));
        drawClassMask(image, classes, zeroIsBackground(previews_.classes));
    }
    if (preview.size[0] > 0) {
        std::vector<OverlayBox> boxes;
        const QLocale locale;
        for (const auto& box : predicted ? preview.predicted_boxes : preview.true_boxes) {
            if (predicted && box.score < scoreThreshold()) {
                break; // best first
            }
            QString caption = className(previews_.classes, box.class_id);
            if (predicted) {
                caption += QLatin1Char(' ') + locale.toString(box.score, 'f', 2);
            }
            boxes.push_back({box.box, box.class_id, caption});
        }
        drawBoxes(image, preview.size, boxes);
    }
    if (predicted && !preview.true_classes.empty()) { // classification: right or wrong
        QPainter painter(&image);
        painter.setPen(QPen(correct(preview) ? QColor(44, 160, 44) : QColor(214, 39, 40), 4));
        painter.drawRect(image.rect().adjusted(2, 2, -2, -2));
    }
    return image;
}

void PredictionPreviewsView::redraw() {
    setVisible(!previews_.images.empty());
    threshold_row_->setVisible(detection_);
    threshold_value_->setText(QLocale().toString(scoreThreshold(), 'f', 2));
    const int count = static_cast<int>(previews_.images.size());
    while (truth_tiles_.size() < count) {
        const int column = static_cast<int>(truth_tiles_.size());
        for (auto* tiles : {&truth_tiles_, &predicted_tiles_}) {
            auto* tile = new QLabel(this);
            tile->setFixedSize(kTileSide, kTileSide);
            tile->setAlignment(Qt::AlignCenter);
            grid_->addWidget(tile, tiles == &truth_tiles_ ? 0 : 1, column);
            tiles->append(tile);
        }
        auto* caption = new QLabel(this);
        caption->setTextFormat(Qt::PlainText); // file and class names, as written
        caption->setFixedWidth(kTileSide);
        caption->setWordWrap(true);
        caption->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        grid_->addWidget(caption, 2, column);
        captions_.append(caption);
    }
    const QLocale locale;
    for (int i = 0; i < truth_tiles_.size(); ++i) {
        const bool shown = i < count;
        truth_tiles_[i]->setVisible(shown);
        predicted_tiles_[i]->setVisible(shown);
        captions_[i]->setVisible(shown);
        if (!shown) {
            continue;
        }
        const train::PredictionPreview& preview = previews_.images[std::size_t(i)];
        for (const bool predicted : {false, true}) {
            QLabel* tile = predicted ? predicted_tiles_[i] : truth_tiles_[i];
            const QImage image = drawn(preview, predicted);
            if (image.isNull()) {
                tile->setPixmap({});
                tile->setText(images_.value(QString::fromStdString(preview.image.string())).isNull()
                                  ? tr("...")
                                  : QString());
            } else {
                tile->setPixmap(QPixmap::fromImage(image));
            }
        }
        const QString name = QString::fromStdString(preview.image.filename().string());
        truth_tiles_[i]->setToolTip(
            Qt::convertFromPlainText(QString::fromStdString(preview.image.string())));
        QString caption;
        if (!preview.true_classes.empty() || !preview.predicted_classes.empty()) {
            QStringList truth, predicted;
            for (const std::int64_t index : preview.true_classes) {
                truth << className(previews_.classes, index);
            }
            for (const auto& [index, score] : preview.predicted_classes) {
                predicted << QStringLiteral("%1 %2").arg(className(previews_.classes, index),
                                                         locale.toString(score, 'f', 2));
            }
            caption =
                tr("%1\ntrue: %2\npredicted: %3")
                    .arg(name, truth.join(QStringLiteral(", ")),
                         predicted.isEmpty() ? tr("none") : predicted.join(QStringLiteral(", ")));
        } else if (preview.size[0] > 0) {
            caption = tr("%1\n%Ln object(s), ", nullptr, int(preview.true_boxes.size())).arg(name) +
                      tr("%Ln box(es) shown", nullptr, shownBoxes(i));
        } else {
            caption = name;
        }
        captions_[i]->setText(caption);
    }
}

} // namespace kiln::gui
