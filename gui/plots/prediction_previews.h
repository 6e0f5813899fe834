#pragma once

#include "train/events.h"

#include <QHash>
#include <QImage>
#include <QThreadPool>
#include <QWidget>

class QGridLayout;
class QLabel;
class QSlider;

namespace kiln::gui {

// The latest evaluation's prediction previews: for each of the first validation images, its
// labels and what the model predicted, side by side (true and predicted classes, masks, or
// boxes with their scores); for detection, a score threshold hides the predicted boxes below
// it. The images are decoded once, on the thread pool, and refreshed at every evaluation;
// hidden while the run has no previews.
class PredictionPreviewsView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kTileSide = 112;

    explicit PredictionPreviewsView(QWidget* parent = nullptr);
    ~PredictionPreviewsView() override;

    void setPreviews(const kiln::train::PredictionPreviews& previews, std::int64_t step);
    void clear();

    // Detection: predicted boxes scoring below this are not drawn.
    void setScoreThreshold(double threshold);
    double scoreThreshold() const;
    int imageCount() const { return static_cast<int>(previews_.images.size()); }
    // The predicted boxes image `index` draws at the threshold.
    int shownBoxes(int index) const;
    // What tile `index` shows: its labels, or the prediction; null until its image decoded.
    QImage tile(int index, bool predicted) const;
    // The caption under the prediction of image `index`.
    QString predictionCaption(int index) const;

private:
    void decoded(const QString& file, const QImage& image);
    void redraw();
    QImage drawn(const kiln::train::PredictionPreview& preview, bool predicted) const;

    kiln::train::PredictionPreviews previews_;
    bool detection_ = false;
    QHash<QString, QImage> images_; // decoded at tile size, by file
    QLabel* title_;
    QWidget* threshold_row_;
    QSlider* threshold_;
    QLabel* threshold_value_;
    QGridLayout* grid_;
    QVector<QLabel*> truth_tiles_, predicted_tiles_, captions_;
    // Its own pool: waiting for it at the end waits for its decoders, not for others' work.
    QThreadPool decoders_;
};

} // namespace kiln::gui
