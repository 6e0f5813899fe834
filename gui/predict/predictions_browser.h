#pragma once

#include "predict/prediction_results.h"

#include <QAbstractListModel>
#include <QDialog>
#include <QHash>
#include <QImage>
#include <QSet>
#include <QThreadPool>
#include <memory>
#include <opencv2/core/mat.hpp>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListView;

namespace kiln::gui {

class PrecisionRecallPlot;

// The tiles of the predictions browser: each shown image's thumbnail (decoded on the model's
// own threads) with what the model found drawn over it (boxes and their masks from the score
// up, or the predicted mask) and a caption with its labels beside.
class PredictionTileModel : public QAbstractListModel {
    Q_OBJECT

public:
    static constexpr int kSide = 160;

    explicit PredictionTileModel(QObject* parent = nullptr);
    ~PredictionTileModel() override;

    void setResults(std::shared_ptr<const PredictionResults> results);
    void setShown(const QVector<int>& shown, double min_score);
    int imageAt(int row) const { return shown_.value(row, -1); }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QString caption(int image) const;

private:
    struct Thumbnail {
        QImage image;                    // with a semantic mask drawn in
        std::vector<cv::Mat> detections; // instance masks at the thumbnail's size
    };
    void request(int image) const;
    QImage drawn(int image) const;

    std::shared_ptr<const PredictionResults> results_;
    QVector<int> shown_;
    double min_score_ = 0;
    quint64 generation_ = 0; // bumped by setResults: late thumbnails of old results are dropped
    mutable QSet<int> requested_;
    QHash<int, Thumbnail> thumbnails_;
    // Its own pool: waiting for it at the end waits for its decoders, not for others' work.
    mutable QThreadPool decoders_;
};

// Run > Predict's results in the app: a grid of the predicted images with class and score
// filters, sorted by confidence or by disagreement with the dataset's labels where it has them.
// Above them, the warnings the prediction logged (an unreadable image left out, by name).
class PredictionsBrowser : public QDialog {
    Q_OBJECT

public:
    PredictionsBrowser(std::shared_ptr<const PredictionResults> results, const QString& summary,
                       const QStringList& warnings, QWidget* parent = nullptr);

    PredictionTileModel* tiles() const { return tiles_; }
    // The precision-recall curves drawn: one per labelled class, or the filtered class's.
    int curveCount() const;
    void setFilter(const PredictionFilter& filter);

private:
    void updateShown();
    void drawCurves(int class_index);

    std::shared_ptr<const PredictionResults> results_;
    PredictionTileModel* tiles_;
    QComboBox* class_;
    QDoubleSpinBox* min_score_;
    QComboBox* order_;
    QLabel* count_;
    QListView* grid_;
    PrecisionRecallPlot* curves_ = nullptr; // with COCO labels
};

} // namespace kiln::gui
