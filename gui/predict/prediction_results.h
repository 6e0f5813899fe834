#pragma once

#include "data/dataset_labels.h"
#include "train/events.h"

#include <QString>
#include <QStringList>
#include <QVector>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::gui {

// What `kiln predict` (Run > Predict) wrote, read back for the predictions browser, beside the
// labels of the predicted dataset where it has them. No widgets: the browser shows one.

// A box found by a detector or labelled, [x0, y0, x1, y1] in the image's pixels, and its class
// (an index into PredictionResults::classes; -1 for a labelled class the model does not have).
struct PredictedBox {
    std::array<float, 4> box{};
    int class_index = -1;
    double score = 1.0;      // 1 for labels
    std::string mask_counts; // instance segmentation: the COCO RLE counts, at the image's size
};

struct PredictedImage {
    QString file;              // absolute path of the image
    QString name;              // as the results name it (relative to the predicted folder)
    std::array<int, 2> size{}; // width, height; detection only
    // Classification: the top class and its score; -1 when the results had none for it.
    int predicted = -1;
    double score = -1;
    std::vector<PredictedBox> detections; // detection
    QString mask;                         // semantic segmentation: the predicted mask PNG
    QVector<int> mask_classes;            // the classes its pixels hold
    // The labels, when the dataset has them: the class, the boxes, or the share of labelled
    // pixels a predicted mask gets wrong.
    bool has_labels = false;
    int labelled_class = -1;
    std::vector<PredictedBox> labelled_boxes;
    double mask_error = -1;
};

struct PredictionResults {
    QString task; // image_classification, semantic_segmentation, object_detection, ...
    QStringList classes;
    QVector<PredictedImage> images;
    bool labelled = false; // the predicted dataset's labels are beside the predictions
    QStringList problems;  // labels that could not be read, named with their file
    // Detection against COCO labels: each class's precision-recall curve, by the evaluator.
    train::PrecisionRecallCurves precision_recall;
    bool detection() const;
    bool segmentation() const { return task == QStringLiteral("semantic_segmentation"); }
};

// What was predicted and from where: the run's output (a CSV, a COCO results file or a folder
// of masks), the folder predicted on, the model's classes (and their COCO category ids for
// detection), the COCO file whose images the results use when one was given, and the labels of
// the dataset when it has them. Throws kiln::Error naming the file it cannot read.
struct PredictionSource {
    QString task;
    QString out;
    QString images;
    std::vector<std::string> classes;
    std::vector<std::int64_t> category_ids;
    QString annotations;
    std::optional<data::DatasetLayout> labels;
};
PredictionResults read_predictions(const PredictionSource& source);

// How the browser shows them: of one class (predicted or labelled; -1 for all), detections and
// classes from a score up, in an order.
struct PredictionFilter {
    enum class Order { MostConfident, LeastConfident, Disagreement, Name };
    int class_index = -1;
    double min_score = 0;
    Order order = Order::MostConfident;
};

// How far an image's predictions are from its labels at `min_score`: 0 when they agree;
// classification: 1 plus the wrong class's score; detection: boxes unmatched either way (IoU
// 0.5, same class); segmentation: the share of pixels wrong. -1 without labels.
double disagreement(const PredictedImage& image, double min_score);
// The image's confidence in the filter's class (or any): its class's score, its most confident
// detection; -1 when it has none.
double confidence(const PredictedImage& image, const PredictionFilter& filter);
// The images the filter keeps (indices into results.images), in its order.
QVector<int> filtered_images(const PredictionResults& results, const PredictionFilter& filter);

} // namespace kiln::gui
