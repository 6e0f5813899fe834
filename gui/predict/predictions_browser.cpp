#include "predict/predictions_browser.h"

#include "common/image_conversion.h"
#include "common/label_overlay.h"
#include "eval/coco/rle.h"
#include "plots/precision_recall_plot.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>
#include <opencv2/imgproc.hpp>

namespace kiln::gui {
namespace {

constexpr int kIgnored = 255; // drawClassMask leaves it clear

// The instance masks of `image`'s detections at `size`, in the detections' order (empty Mats
// for those without one).
std::vector<cv::Mat> instanceMasks(const PredictedImage& image, const QSize& size) {
    std::vector<cv::Mat> masks;
    for (const PredictedBox& box : image.detections) {
        cv::Mat scaled;
        if (!box.mask_counts.empty() && image.size[0] > 0) {
            try {
                const coco::Rle rle = coco::decode_counts_string(
                    box.mask_counts, std::uint32_t(image.size[1]), std::uint32_t(image.size[0]));
                std::vector<std::uint8_t> pixels = coco::decode_to_pixels(rle);
                const cv::Mat mask(image.size[1], image.size[0], CV_8U, pixels.data());
                cv::resize(mask, scaled, cv::Size(size.width(), size.height()), 0, 0,
                           cv::INTER_NEAREST);
            } catch (const std::exception&) {
                scaled = cv::Mat(); // a mask Kiln cannot decode: its box is still drawn
            }
        }
        masks.push_back(scaled);
    }
    return masks;
}

QString scoreText(double score) {
    return QLocale().toString(score, 'f', 2);
}

} // namespace

PredictionTileModel::PredictionTileModel(QObject* parent) : QAbstractListModel(parent) {}

PredictionTileModel::~PredictionTileModel() {
    ++generation_;
    decoders_.clear();
    decoders_.waitForDone(); // no decoder reports to a model that is gone
}

void PredictionTileModel::setResults(std::shared_ptr<const PredictionResults> results) {
    beginResetModel();
    ++generation_;
    decoders_.clear();
    results_ = std::move(results);
    shown_.clear();
    requested_.clear();
    thumbnails_.clear();
    endResetModel();
}

void PredictionTileModel::setShown(const QVector<int>& shown, double min_score) {
    beginResetModel();
    shown_ = shown;
    min_score_ = min_score;
    endResetModel();
}

int PredictionTileModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(shown_.size());
}

QString PredictionTileModel::caption(int image) const {
    const PredictedImage& shown = results_->images.at(image);
    const auto name = [this](int c) {
        return c >= 0 && c < results_->classes.size() ? results_->classes[c] : tr("(unknown)");
    };
    QStringList lines{QFileInfo(shown.name).fileName()};
    if (results_->detection()) {
        const auto found =
            std::count_if(shown.detections.begin(), shown.detections.end(),
                          [this](const PredictedBox& box) { return box.score >= min_score_; });
        lines << tr("%Ln found", nullptr, int(found));
        if (shown.has_labels) {
            lines.back() += QStringLiteral(", ") +
                            tr("%Ln labelled", nullptr, int(shown.labelled_boxes.size()));
        }
    } else if (results_->segmentation()) {
        QStringList classes;
        for (const int c : shown.mask_classes) {
            classes << name(c);
        }
        lines << classes.join(QStringLiteral(", "));
        if (shown.mask_error >= 0) {
            lines << tr("%1% of pixels wrong")
                         .arg(QLocale().toString(100 * shown.mask_error, 'f', 1));
        }
    } else if (shown.predicted >= 0) {
        lines << QStringLiteral("%1 %2").arg(name(shown.predicted), scoreText(shown.score));
        if (shown.has_labels && shown.labelled_class != shown.predicted) {
            lines << tr("label: %1").arg(name(shown.labelled_class));
        }
    } else {
        lines << tr("no prediction");
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant PredictionTileModel::data(const QModelIndex& index, int role) const {
    const int image = index.isValid() ? imageAt(index.row()) : -1;
    if (image < 0) {
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        return caption(image);
    case Qt::ToolTipRole: // as written, though it looked like HTML
        return Qt::convertFromPlainText(results_->images[image].file);
    case Qt::ForegroundRole: // disagreeing with its labels
        return disagreement(results_->images[image], min_score_) > 0 ? QColor(200, 30, 30)
                                                                     : QVariant();
    case Qt::DecorationRole:
        if (!thumbnails_.contains(image)) {
            request(image);
            return {};
        }
        return QPixmap::fromImage(drawn(image));
    case Qt::SizeHintRole:
        return QSize(kSide + 16, kSide + 56);
    default:
        return {};
    }
}

// The thumbnail with the detections from the score up (their masks, then their boxes).
QImage PredictionTileModel::drawn(int image) const {
    const Thumbnail& thumbnail = thumbnails_[image];
    QImage shown = thumbnail.image;
    const PredictedImage& predicted = results_->images[image];
    if (!results_->detection() || predicted.size[0] <= 0) {
        return shown;
    }
    cv::Mat classes(shown.height(), shown.width(), CV_8U, cv::Scalar(kIgnored));
    std::vector<OverlayBox> boxes;
    for (std::size_t d = 0; d < predicted.detections.size(); ++d) {
        const PredictedBox& box = predicted.detections[d];
        if (box.score < min_score_) {
            continue;
        }
        const int c = std::max(0, box.class_index);
        if (d < thumbnail.detections.size() && !thumbnail.detections[d].empty()) {
            classes.setTo(cv::Scalar(c), thumbnail.detections[d]);
        }
        const QString name = box.class_index >= 0 && box.class_index < results_->classes.size()
                                 ? results_->classes[box.class_index]
                                 : tr("(unknown)");
        boxes.push_back({box.box, c, QStringLiteral("%1 %2").arg(name, scoreText(box.score))});
    }
    if (cv::countNonZero(classes != kIgnored) > 0) {
        drawClassMask(shown, classes, false);
    }
    drawBoxes(shown, predicted.size, boxes);
    // The labels as dashed outlines in their class's colour, so a missed object shows.
    QPainter painter(&shown);
    const double scale = double(shown.width()) / predicted.size[0];
    for (const PredictedBox& label : predicted.labelled_boxes) {
        painter.setPen(QPen(classColour(std::max(0, label.class_index)), 1, Qt::DashLine));
        painter.drawRect(QRectF(label.box[0] * scale, label.box[1] * scale,
                                (label.box[2] - label.box[0]) * scale,
                                (label.box[3] - label.box[1]) * scale));
    }
    return shown;
}

void PredictionTileModel::request(int image) const {
    if (requested_.contains(image)) {
        return;
    }
    requested_.insert(image);
    auto* self = const_cast<PredictionTileModel*>(this);
    const quint64 generation = generation_;
    const std::shared_ptr<const PredictionResults> results = results_;
    decoders_.start([self, results, image, generation] {
        const PredictedImage& predicted = results->images[image];
        Thumbnail thumbnail;
        thumbnail.image = decodeThumbnail(predicted.file, kSide);
        if (thumbnail.image.isNull()) {
            return; // unreadable: the tile keeps its caption, as the prediction skipped it
        }
        if (!predicted.mask.isEmpty()) {
            const cv::Mat mask = readClassMask(predicted.mask);
            if (!mask.empty() && mask.channels() == 1) {
                std::vector<std::string> names;
                for (const QString& name : results->classes) {
                    names.push_back(name.toStdString());
                }
                drawClassMask(thumbnail.image, mask, zeroIsBackground(names));
            }
        }
        thumbnail.detections = instanceMasks(predicted, thumbnail.image.size());
        QMetaObject::invokeMethod(self, [self, generation, image, thumbnail] {
            if (generation != self->generation_) {
                return;
            }
            self->thumbnails_.insert(image, thumbnail);
            const int row = int(self->shown_.indexOf(image));
            if (row >= 0) {
                Q_EMIT self->dataChanged(self->index(row), self->index(row), {Qt::DecorationRole});
            }
        });
    });
}

PredictionsBrowser::PredictionsBrowser(std::shared_ptr<const PredictionResults> results,
                                       const QString& summary, const QStringList& warnings,
                                       QWidget* parent)
    : QDialog(parent), results_(std::move(results)), tiles_(new PredictionTileModel(this)),
      class_(new QComboBox(this)), min_score_(new QDoubleSpinBox(this)),
      order_(new QComboBox(this)), count_(new QLabel(this)), grid_(new QListView(this)) {
    setObjectName(QStringLiteral("predictionsBrowser"));
    setWindowTitle(tr("Predictions"));
    class_->setObjectName(QStringLiteral("predictionClassFilter"));
    class_->addItem(tr("all classes"), -1);
    for (int c = 0; c < results_->classes.size(); ++c) {
        class_->addItem(results_->classes[c], c);
    }
    min_score_->setObjectName(QStringLiteral("predictionMinScore"));
    min_score_->setRange(0.0, 1.0);
    min_score_->setSingleStep(0.05);
    min_score_->setDecimals(2);
    min_score_->setValue(results_->detection() ? 0.25 : 0.0);
    min_score_->setEnabled(!results_->segmentation()); // masks have no scores
    order_->setObjectName(QStringLiteral("predictionOrder"));
    using Order = PredictionFilter::Order;
    if (!results_->segmentation()) {
        order_->addItem(tr("most confident first"), int(Order::MostConfident));
        order_->addItem(tr("least confident first"), int(Order::LeastConfident));
    }
    if (results_->labelled) {
        order_->addItem(tr("disagreeing with labels first"), int(Order::Disagreement));
    }
    order_->addItem(tr("name"), int(Order::Name));
    count_->setObjectName(QStringLiteral("predictionCount"));
    tiles_->setResults(results_);
    grid_->setObjectName(QStringLiteral("predictionGrid"));
    grid_->setModel(tiles_);
    grid_->setViewMode(QListView::IconMode);
    grid_->setResizeMode(QListView::Adjust);
    grid_->setUniformItemSizes(true);
    grid_->setIconSize(QSize(PredictionTileModel::kSide, PredictionTileModel::kSide));
    grid_->setMovement(QListView::Static);
    grid_->setWordWrap(true);

    auto* filters = new QHBoxLayout;
    const auto labelled = [this, filters](const QString& text, QWidget* field) {
        auto* label = new QLabel(text, this);
        label->setBuddy(field);
        filters->addWidget(label);
        filters->addWidget(field);
    };
    labelled(tr("&Class:"), class_);
    labelled(tr("&Score at least:"), min_score_);
    labelled(tr("S&ort by:"), order_);
    filters->addStretch();
    filters->addWidget(count_);
    auto* heading = new QLabel(results_->detection() && results_->labelled
                                   ? summary + QLatin1Char('\n') +
                                         tr("Dashed outlines are the dataset's labels.")
                                   : summary,
                               this);
    heading->setObjectName(QStringLiteral("predictionSummary"));
    heading->setTextFormat(Qt::PlainText); // it quotes paths
    heading->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    if (!results_->problems.isEmpty()) {
        auto* problems = new QLabel(tr("The labels could not all be read:\n%1")
                                        .arg(results_->problems.join(QLatin1Char('\n'))),
                                    this);
        problems->setWordWrap(true);
        problems->setTextFormat(Qt::PlainText);
        layout->addWidget(problems);
    }
    if (!warnings.isEmpty()) {
        auto* logged = new QLabel(
            tr("The prediction logged warnings:\n%1").arg(warnings.join(QLatin1Char('\n'))), this);
        logged->setObjectName(QStringLiteral("predictionWarnings"));
        logged->setTextFormat(Qt::PlainText);
        logged->setWordWrap(true);
        layout->addWidget(logged);
    }
    layout->addLayout(filters);
    auto* columns = new QHBoxLayout;
    columns->addWidget(grid_, 1);
    if (!results_->precision_recall.classes.empty()) {
        curves_ = new PrecisionRecallPlot(this);
        curves_->setFixedWidth(340);
        curves_->setCurves(results_->precision_recall, results_->classes);
        columns->addWidget(curves_);
    }
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);
    for (QComboBox* box : {class_, order_}) {
        connect(box, &QComboBox::currentIndexChanged, this, &PredictionsBrowser::updateShown);
    }
    connect(min_score_, &QDoubleSpinBox::valueChanged, this, &PredictionsBrowser::updateShown);
    resize(1000, 700);
    updateShown();
}

void PredictionsBrowser::setFilter(const PredictionFilter& filter) {
    class_->setCurrentIndex(std::max(0, class_->findData(filter.class_index)));
    min_score_->setValue(filter.min_score);
    order_->setCurrentIndex(std::max(0, order_->findData(int(filter.order))));
    updateShown();
}

int PredictionsBrowser::curveCount() const {
    return curves_ == nullptr ? 0 : curves_->curveCount();
}

void PredictionsBrowser::drawCurves(int class_index) {
    if (curves_ != nullptr) {
        curves_->showOnly(class_index >= 0 ? QStringList{results_->classes[class_index]}
                                           : QStringList());
    }
}

void PredictionsBrowser::updateShown() {
    PredictionFilter filter;
    filter.class_index = class_->currentData().toInt();
    filter.min_score = min_score_->value();
    filter.order = PredictionFilter::Order(order_->currentData().toInt());
    const QVector<int> shown = filtered_images(*results_, filter);
    drawCurves(filter.class_index);
    tiles_->setShown(shown, filter.min_score);
    count_->setText(
        tr("%1 of %2 images")
            .arg(QLocale().toString(shown.size()), QLocale().toString(results_->images.size())));
}

} // namespace kiln::gui
