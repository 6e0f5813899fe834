#include "predict/prediction_results.h"

#include "common/image_conversion.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"
#include "eval/coco/coco_data.h"
#include "eval/coco/coco_eval.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

namespace kiln::gui {
namespace {

QString cleanAbsolute(const QString& path) {
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

std::string readWhole(const QString& file) {
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly)) {
        throw Error("cannot read the predictions \"" + file.toStdString() +
                    "\": " + input.errorString().toStdString());
    }
    return input.readAll().toStdString();
}

// The images predicted on, by name as the results give them, as `kiln predict` listed them.
QVector<PredictedImage> listedImages(const PredictionSource& source) {
    QVector<PredictedImage> images;
    const data::DatasetIndex index = data::DatasetIndex::scan({source.images.toStdString()});
    for (std::size_t i = 0; i < index.size(); ++i) {
        PredictedImage image;
        image.file = cleanAbsolute(QString::fromStdString(index.path(i).string()));
        image.name = QString::fromStdString(std::string(index.filename(i)));
        images.append(image);
    }
    return images;
}

void readClassification(const PredictionSource& source, PredictionResults& results) {
    const std::vector<std::vector<std::string>> records = csv_records(readWhole(source.out));
    if (records.empty() ||
        records.front() != std::vector<std::string>{"filename", "class", "score"}) {
        throw Error("\"" + source.out.toStdString() +
                    "\" is not a predictions CSV: its first line is not filename,class,score");
    }
    QHash<QString, std::pair<int, double>> best; // by file name: the top class and its score
    for (std::size_t r = 1; r < records.size(); ++r) {
        const std::vector<std::string>& record = records[r];
        if (record.size() != 3 || record[1].empty()) {
            continue; // a multi-label image with no class above 0.5
        }
        const double score = std::atof(record[2].c_str());
        const QString name = QString::fromStdString(record[0]);
        const auto found = best.find(name);
        if (found == best.end() || found->second < score) {
            best[name] = {int(results.classes.indexOf(QString::fromStdString(record[1]))), score};
        }
    }
    const bool folders = source.labels && source.labels->kind == data::LabelKind::ClassFolders;
    results.labelled = folders;
    for (PredictedImage image : listedImages(source)) {
        if (const auto found = best.find(image.name); found != best.end()) {
            std::tie(image.predicted, image.score) = *found;
        }
        if (folders && image.name.contains(QLatin1Char('/'))) {
            image.labelled_class = int(results.classes.indexOf(image.name.section('/', 0, 0)));
            image.has_labels = true;
        }
        results.images.append(image);
    }
}

// The dataset's labelled boxes by image file, with the model's class indices.
QHash<QString, std::vector<PredictedBox>> labelledBoxes(const data::LabelStatistics& statistics,
                                                        const QStringList& classes,
                                                        QHash<QString, std::array<int, 2>>& sizes) {
    QHash<QString, std::vector<PredictedBox>> boxes;
    for (const data::LabelledImage& labelled : statistics.labelled) {
        const QString file = cleanAbsolute(QString::fromStdString(labelled.path.string()));
        sizes.insert(file, labelled.size);
        std::vector<PredictedBox>& image = boxes[file];
        for (const data::LabelledObject& object : labelled.objects) {
            const auto name =
                QString::fromStdString(statistics.classes.at(std::size_t(object.class_id)).name);
            image.push_back({object.box, int(classes.indexOf(name)), 1.0, {}});
        }
    }
    return boxes;
}

PredictedBox detectionOf(const nlohmann::json& entry, const std::vector<std::int64_t>& categories) {
    const nlohmann::json& bbox = entry.at("bbox");
    PredictedBox box;
    box.box = {bbox.at(0).get<float>(), bbox.at(1).get<float>(),
               bbox.at(0).get<float>() + bbox.at(2).get<float>(),
               bbox.at(1).get<float>() + bbox.at(3).get<float>()};
    const auto category = std::find(categories.begin(), categories.end(),
                                    entry.at("category_id").get<std::int64_t>());
    box.class_index = category == categories.end() ? -1 : int(category - categories.begin());
    box.score = entry.at("score").get<double>();
    if (entry.contains("segmentation") && entry["segmentation"].is_object()) {
        box.mask_counts = entry["segmentation"].at("counts").get<std::string>();
    }
    return box;
}

// [x0, y0, x1, y1] as COCO's [x, y, width, height].
coco::Box cocoBox(const std::array<float, 4>& box) {
    return {box[0], box[1], box[2] - box[0], box[3] - box[1]};
}

// The detections of `images` scored by COCO's evaluator against the COCO `labels`, matched to
// its categories by class name: each labelled class's precision-recall curve.
train::PrecisionRecallCurves curvesAgainst(const QString& labels,
                                           const QVector<PredictedImage>& images,
                                           const QString& folder, const QStringList& classes) {
    const coco::GroundTruth truth = coco::GroundTruth::load(labels.toStdString());
    QHash<QString, std::int64_t> image_ids;
    for (const coco::Image& image : truth.images()) {
        image_ids.insert(
            cleanAbsolute(QDir(folder).filePath(QString::fromStdString(image.file_name))),
            image.id);
    }
    QHash<QString, std::int64_t> category_ids;
    for (const coco::Category& category : truth.categories()) {
        category_ids.insert(QString::fromStdString(category.name), category.id);
    }
    std::vector<coco::Annotation> found;
    for (const PredictedImage& image : images) {
        const auto id = image_ids.constFind(image.file);
        for (const PredictedBox& box : image.detections) {
            const QString name = classes.value(box.class_index);
            if (id == image_ids.constEnd() || !category_ids.contains(name)) {
                continue; // an image or class the labels do not have
            }
            coco::Annotation detection;
            detection.image_id = *id;
            detection.category_id = category_ids.value(name);
            detection.score = box.score;
            detection.box = cocoBox(box.box);
            detection.has_box = true;
            found.push_back(detection);
        }
    }
    const coco::EvalResult result = coco::evaluate(
        truth, coco::Detections::from_annotations(std::move(found), truth), coco::EvalParams{});
    train::PrecisionRecallCurves curves;
    for (std::size_t k = 0; k < result.category_count; ++k) {
        curves.classes.push_back(truth.categories()[k].name);
        curves.precision.push_back(coco::precision_at_recalls(result, k));
    }
    return curves;
}

void readDetection(const PredictionSource& source, PredictionResults& results) {
    QVector<PredictedImage> images;
    QHash<std::int64_t, int> by_id;
    if (!source.annotations.isEmpty()) { // the results name images by the file's ids
        const coco::GroundTruth truth = coco::GroundTruth::load(source.annotations.toStdString());
        for (const coco::Image& listed : truth.images()) {
            PredictedImage image;
            image.name = QString::fromStdString(listed.file_name);
            image.file = cleanAbsolute(QDir(source.images).filePath(image.name));
            image.size = {int(listed.width), int(listed.height)};
            by_id.insert(listed.id, int(images.size()));
            images.append(image);
        }
    } else {
        images = listedImages(source);
    }
    QHash<QString, int> by_name;
    for (int i = 0; i < images.size(); ++i) {
        by_name.insert(images[i].name, i);
    }
    nlohmann::json entries;
    try {
        entries = parse_json(readWhole(source.out), "\"" + source.out.toStdString() + "\"");
        for (const nlohmann::json& entry : entries) {
            const int image = entry.contains("file_name")
                                  ? by_name.value(QString::fromStdString(entry["file_name"]), -1)
                                  : by_id.value(entry.at("image_id").get<std::int64_t>(), -1);
            if (image >= 0) {
                images[image].detections.push_back(detectionOf(entry, source.category_ids));
            }
        }
    } catch (const nlohmann::json::exception& error) {
        throw Error("\"" + source.out.toStdString() +
                    "\" is not a COCO results file Kiln wrote: " + error.what());
    }
    QHash<QString, std::array<int, 2>> sizes;
    QHash<QString, std::vector<PredictedBox>> labelled;
    if (source.labels && (source.labels->kind == data::LabelKind::Coco ||
                          source.labels->kind == data::LabelKind::Yolo)) {
        const data::LabelStatistics statistics = data::read_label_statistics(*source.labels, 2);
        for (const std::string& problem : statistics.problems) {
            results.problems << QString::fromStdString(problem);
        }
        labelled = labelledBoxes(statistics, results.classes, sizes);
        results.labelled = !labelled.isEmpty();
    }
    for (PredictedImage& image : images) {
        image.has_labels = labelled.contains(image.file);
        image.labelled_boxes = labelled.value(image.file);
        if (image.size[0] <= 0 && sizes.contains(image.file)) {
            image.size = sizes.value(image.file);
        }
        if (image.size[0] <= 0) { // the file's header: what the detector saw
            try {
                const cv::Size stored = data::stored_image_size(
                    data::read_file(image.file.toStdString()), image.file.toStdString());
                image.size = {stored.width, stored.height};
            } catch (const std::exception&) {
                // Unreadable: the tile says so, as the prediction skipped it.
            }
        }
    }
    results.images = images;
    if (results.labelled && source.labels->kind == data::LabelKind::Coco) {
        results.precision_recall =
            curvesAgainst(QString::fromStdString(source.labels->labels.string()), results.images,
                          source.images, results.classes);
    }
}

// The classes a mask of class ids holds (the ignore index 255 aside).
QVector<int> classesIn(const cv::Mat& mask) {
    double largest = 0;
    cv::minMaxLoc(mask, nullptr, &largest);
    QVector<int> present;
    for (int c = 0; c <= std::min(int(largest), 254); ++c) {
        if (cv::countNonZero(mask == c) > 0) {
            present << c;
        }
    }
    return present;
}

double maskError(const cv::Mat& predicted, cv::Mat truth) {
    if (truth.size() != predicted.size()) {
        cv::resize(truth, truth, predicted.size(), 0, 0, cv::INTER_NEAREST);
    }
    cv::Mat predicted_as_truth;
    predicted.convertTo(predicted_as_truth, truth.type());
    const cv::Mat counted = truth != 255;
    const int labelled = cv::countNonZero(counted);
    const int wrong = cv::countNonZero((predicted_as_truth != truth) & counted);
    return labelled == 0 ? -1 : double(wrong) / labelled;
}

void readSegmentation(const PredictionSource& source, PredictionResults& results) {
    QHash<QString, QString> truth_masks;
    if (source.labels && source.labels->kind == data::LabelKind::Masks) {
        const data::LabelStatistics statistics = data::read_label_statistics(*source.labels, 2);
        for (const data::LabelledImage& labelled : statistics.labelled) {
            truth_masks.insert(cleanAbsolute(QString::fromStdString(labelled.path.string())),
                               QString::fromStdString(labelled.mask.string()));
        }
        results.labelled = !truth_masks.isEmpty();
    }
    for (PredictedImage image : listedImages(source)) {
        const QFileInfo name(image.name);
        image.mask =
            QDir(source.out)
                .filePath(
                    QDir(name.path()).filePath(name.completeBaseName() + QStringLiteral(".png")));
        const cv::Mat predicted = readClassMask(image.mask);
        if (!predicted.empty() && predicted.channels() == 1) {
            image.mask_classes = classesIn(predicted);
            const QString truth = truth_masks.value(image.file);
            const cv::Mat labelled = truth.isEmpty() ? cv::Mat() : readClassMask(truth);
            if (!labelled.empty() && labelled.channels() == 1) {
                image.mask_error = maskError(predicted, labelled);
                image.has_labels = image.mask_error >= 0;
            }
        }
        results.images.append(image);
    }
}

// Boxes found from `min_score` up that match no label, plus labels no such box matches: each
// box, most confident first, takes the unmatched label of its class it overlaps most (IoU 0.5).
int unmatchedBoxes(const PredictedImage& image, double min_score) {
    std::vector<const PredictedBox*> found;
    for (const PredictedBox& box : image.detections) {
        if (box.score >= min_score) {
            found.push_back(&box);
        }
    }
    std::sort(found.begin(), found.end(),
              [](const PredictedBox* a, const PredictedBox* b) { return a->score > b->score; });
    std::vector<bool> taken(image.labelled_boxes.size(), false);
    int unmatched = 0;
    for (const PredictedBox* box : found) {
        int best = -1;
        double best_iou = 0.5;
        for (std::size_t l = 0; l < image.labelled_boxes.size(); ++l) {
            const PredictedBox& label = image.labelled_boxes[l];
            const double overlap = coco::box_iou(cocoBox(box->box), cocoBox(label.box), false);
            if (!taken[l] && label.class_index == box->class_index && overlap >= best_iou) {
                best = int(l);
                best_iou = overlap;
            }
        }
        if (best < 0) {
            ++unmatched;
        } else {
            taken[std::size_t(best)] = true;
        }
    }
    return unmatched + int(std::count(taken.begin(), taken.end(), false));
}

} // namespace

bool PredictionResults::detection() const {
    return task == QStringLiteral("object_detection") ||
           task == QStringLiteral("instance_segmentation");
}

PredictionResults read_predictions(const PredictionSource& source) {
    PredictionResults results;
    results.task = source.task;
    for (const std::string& name : source.classes) {
        results.classes << QString::fromStdString(name);
    }
    if (results.detection()) {
        readDetection(source, results);
    } else if (results.segmentation()) {
        readSegmentation(source, results);
    } else {
        readClassification(source, results);
    }
    return results;
}

double disagreement(const PredictedImage& image, double min_score) {
    if (!image.has_labels) {
        return -1;
    }
    if (image.mask_error >= 0) {
        return image.mask_error;
    }
    if (!image.detections.empty() || !image.labelled_boxes.empty()) {
        return unmatchedBoxes(image, min_score);
    }
    // A class, or a detection image with nothing found nor labelled (they agree).
    return image.predicted == image.labelled_class ? 0.0 : 1.0 + std::max(0.0, image.score);
}

double confidence(const PredictedImage& image, const PredictionFilter& filter) {
    double best = image.score;
    for (const PredictedBox& box : image.detections) {
        if (filter.class_index < 0 || box.class_index == filter.class_index) {
            best = std::max(best, box.score);
        }
    }
    return best;
}

namespace {

bool kept(const PredictionResults& results, const PredictedImage& image,
          const PredictionFilter& filter) {
    const int c = filter.class_index;
    if (results.detection()) {
        const bool found = std::any_of(
            image.detections.begin(), image.detections.end(), [&](const PredictedBox& box) {
                return box.class_index == c && box.score >= filter.min_score;
            });
        const bool labelled =
            std::any_of(image.labelled_boxes.begin(), image.labelled_boxes.end(),
                        [c](const PredictedBox& box) { return box.class_index == c; });
        return c < 0 || found || labelled;
    }
    if (results.segmentation()) {
        return c < 0 || image.mask_classes.contains(c);
    }
    return (c < 0 || image.predicted == c || image.labelled_class == c) &&
           image.score >= filter.min_score;
}

} // namespace

QVector<int> filtered_images(const PredictionResults& results, const PredictionFilter& filter) {
    QVector<int> shown;
    QVector<double> keys(results.images.size(), 0.0);
    for (int i = 0; i < results.images.size(); ++i) {
        const PredictedImage& image = results.images[i];
        if (!kept(results, image, filter)) {
            continue;
        }
        shown << i;
        switch (filter.order) {
        case PredictionFilter::Order::MostConfident:
            keys[i] = -confidence(image, filter);
            break;
        case PredictionFilter::Order::LeastConfident: { // those with none last
            const double value = confidence(image, filter);
            keys[i] = value < 0 ? 2.0 : value;
            break;
        }
        case PredictionFilter::Order::Disagreement:
            keys[i] = -disagreement(image, filter.min_score); // unlabelled (-1) last
            break;
        case PredictionFilter::Order::Name:
            break;
        }
    }
    std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) {
        if (keys[a] != keys[b]) {
            return keys[a] < keys[b];
        }
        return results.images[a].name < results.images[b].name;
    });
    return shown;
}

} // namespace kiln::gui
