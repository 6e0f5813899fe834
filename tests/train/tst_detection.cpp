// Object detection and instance segmentation: COCO and YOLO data, the detector trained through
// the training loop, COCO mAP computed asynchronously (and synchronously, to the same numbers),
// predict's results evaluating to the logged mAP, and bad input.

#include "config/run_config.h"
#include "core/error.h"
#include "core/log.h"
#include "data/detection_augment.h"
#include "data/detection_data.h"
#include "data/labelled_samples.h"
#include "data/view_transform.h"
#include "eval/coco/coco_eval.h"
#include "models/checkpoint_file.h"
#include "predict/predictor.h"
#include "support/error_text.h"
#include "support/python.h"
#include "support/shape_scenes.h"
#include "support/shapes_idx.h"
#include "support/validation_recorder.h"
#include "track/run_directory.h"
#include "train/detection_loss.h"
#include "train/trainer.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace fs = std::filesystem;
using kiln::TaskKind;
using nlohmann::json;
using Recorder = kiln::test::ValidationRecorder;

namespace {

json readJson(const fs::path& file) {
    std::ifstream in(file);
    return json::parse(in);
}

void writeJson(const fs::path& file, const json& value) {
    std::ofstream(file) << value.dump();
}

// `image` as a JPEG whose EXIF says to turn it a quarter (orientation 6), as phones write them.
void writeTurnedJpeg(const fs::path& file, const cv::Mat& image) {
    std::vector<unsigned char> jpeg;
    cv::imencode(".jpg", image, jpeg);
    const std::vector<unsigned char> exif = {
        0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 0x2A, 0, 8, 0, 0, 0,  // TIFF
        1,    0,    0x12, 0x01, 3,   0,   1,   0,   0, 0, 6,   0,   0,    0, 0, 0, 0, 0}; // one tag
    jpeg.insert(jpeg.begin() + 2, exif.begin(), exif.end()); // after the start-of-image marker
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(jpeg.data()), std::streamsize(jpeg.size()));
}

bool hasFileStartingWith(const fs::path& folder, const std::string& prefix) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        if (entry.path().filename().string().rfind(prefix, 0) == 0) {
            return true;
        }
    }
    return false;
}

// Asks the run to stop once `step` is reported (it stops after its next step).
struct StopAtStep : kiln::train::TrainObserver {
    explicit StopAtStep(std::int64_t step) : at(step) {}
    std::int64_t at;
    kiln::StopToken stop;
    void on_step(const kiln::train::StepMetrics& metrics) override {
        if (metrics.step == at) {
            stop.request_stop();
        }
    }
};

template <class Function> QString errorOf(Function&& function) {
    try {
        function();
    } catch (const kiln::Error& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

} // namespace

class DetectionTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root_;
    std::unique_ptr<kiln::log::ScopedSink> quiet_;
    std::vector<std::string> warnings_;

    json cocoData(const fs::path& train, const fs::path& val) const {
        return {{"train",
                 {{"annotations", (train / "annotations.json").string()},
                  {"images", (train / "images").string()}}},
                {"val",
                 {{"annotations", (val / "annotations.json").string()},
                  {"images", (val / "images").string()}}}};
    }

    kiln::TrainConfig detection(const fs::path& out, json extra = json::object(),
                                TaskKind task = TaskKind::ObjectDetection) const {
        json settings = {{"out", out.string()},
                         {"data", cocoData(root_ / "train", root_ / "val")},
                         {"model", "smallcnn"},
                         {"steps", 40},
                         {"val_every_n_steps", 20},
                         {"batch_size", 8},
                         {"num_workers", 0},
                         {"accelerator", "cpu"},
                         {"seed", 5},
                         {"transform_args", {{"image_size", 64}}}};
        settings.update(extra, true);
        return kiln::resolve_train_config(settings, kiln::test::cpu_context(), task);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        root_ = temp_.path().toStdString();
        kiln::test::write_shapes_idx(root_ / "shapes-images", root_ / "shapes-labels", 200);
        kiln::test::write_shape_scenes(root_ / "shapes-images", root_ / "shapes-labels", root_, 64,
                                       96, 24);
        quiet_ = std::make_unique<kiln::log::ScopedSink>(
            [this](kiln::log::Level level, const std::string& message) {
                if (level == kiln::log::Level::Warning) {
                    warnings_.push_back(message);
                }
            });
    }

    void samplesCarryBoxesAndMasksIntoTheView() {
        kiln::data::DetectionData data =
            kiln::data::load_detection_data(cocoData(root_ / "train", root_ / "val"), true, 2);
        QCOMPARE(data.classes, (kiln::data::ClassNames{"0", "1"}));
        QCOMPARE(data.train.paths.size(), std::size_t(96));
        data.val.ground_truth->masks(1);
        // Validation's view: the whole image at twice its size, no flips.
        const kiln::data::TransformArgs transform =
            kiln::data::finetune_transform({{"image_size", 128}}, false, 0.3);
        const kiln::data::DetectedSamples samples(data.val, true, transform);
        const auto shape = samples.target_shape();
        QCOMPARE(shape->front(), 100 * 5 + 128 * 128);
        std::vector<float> view(3 * 128 * 128);
        std::vector<std::int64_t> target(std::size_t(shape->front()));
        kiln::data::Rng rng(0);
        const cv::Mat image = cv::imread(data.val.paths[0].string());
        samples.make(0, image, rng, {view.data()}, target.data());
        const auto& objects = data.val.objects[0];
        QVERIFY(!objects.empty());
        for (std::size_t i = 0; i < objects.size(); ++i) {
            const std::int64_t* row = target.data() + 5 * i;
            QCOMPARE(row[0], objects[i].class_id);
            for (int k = 0; k < 4; ++k) { // twice the pixels, in sixteenths
                QCOMPARE(row[1 + k], std::llround(objects[i].box[std::size_t(k)] * 2 * 16));
            }
            // The instance map marks this object's pixels inside its box only.
            std::int64_t inside = 0;
            for (int y = 0; y < 128; ++y) {
                for (int x = 0; x < 128; ++x) {
                    if (target[500 + std::size_t(y * 128 + x)] == std::int64_t(i) + 1) {
                        ++inside;
                        QVERIFY(x * 16 >= row[1] - 16 && x * 16 <= row[3] + 16);
                    }
                }
            }
            QVERIFY(inside > 0);
        }
        QCOMPARE(target[5 * objects.size()], std::int64_t(-1));
        // Annotations that give an image far more pixels than it has (validation drew its masks
        // at that size: 8.5 GB for a 64 x 64 image given 6000 x 6000) are refused, named.
        kiln::data::DetectionImages oversized = data.val;
        oversized.sizes[0] = {6000, 6000};
        const kiln::data::DetectedSamples refused(oversized, true, transform);
        QVERIFY(kiln::test::throwsContaining(
            [&] { refused.make(0, image, rng, {view.data()}, target.data()); },
            "is 64 x 64 pixels, but \"" + data.val.ground_truth->source() +
                "\" gives it 6000 x 6000; give the annotations the images' own width and height"));
    }

    // Complete IoU on hand-computed boxes: 1 for a box with itself; for two unit squares side
    // by side 2 apart, IoU 0 less the centres' distance (4) over the enclosing diagonal (10).
    void completeIouOfHandComputedBoxes() {
        const torch::Tensor a = torch::tensor({{0.0f, 0.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 4.0f, 2.0f}});
        const torch::Tensor b = torch::tensor({{2.0f, 0.0f, 3.0f, 1.0f}, {0.0f, 0.0f, 4.0f, 2.0f}});
        const torch::Tensor ciou = kiln::train::complete_iou(a, b);
        QVERIFY(std::abs(ciou[0].item<double>() + 0.4) < 1e-5);
        QVERIFY(std::abs(ciou[1].item<double>() - 1.0) < 1e-5);
    }

    // The distribution focal loss: uniform logits cost log R whatever the distance; logits
    // certain of the right bin cost nothing; a distance between bins splits by nearness.
    void distributionFocalLossOfHandComputedCases() {
        const std::int64_t r = kiln::models::DetectorImpl::kDistanceBins;
        const torch::Tensor uniform = torch::zeros({1, 4, r});
        const torch::Tensor distances = torch::full({1, 4}, 3.25f);
        QVERIFY(std::abs(kiln::train::distribution_focal_loss(uniform, distances).item<double>() -
                         std::log(double(r))) < 1e-5);
        torch::Tensor certain = torch::full({1, 4, r}, -30.0f);
        certain.select(2, 3).fill_(30.0f);
        QVERIFY(kiln::train::distribution_focal_loss(certain, torch::full({1, 4}, 3.0f))
                    .item<double>() < 1e-4);
        // At 3.25 the loss is -(0.75 log p3 + 0.25 log p4): with p3 = p4 = 1/2, log 2.
        torch::Tensor split = torch::full({1, 4, r}, -30.0f);
        split.select(2, 3).fill_(30.0f);
        split.select(2, 4).fill_(30.0f);
        QVERIFY(std::abs(kiln::train::distribution_focal_loss(split, distances).item<double>() -
                         std::log(2.0)) < 1e-4);
    }

    // Task-aligned assignment on a hand-made image: anchors inside an object learn it, the best
    // aligned at the object's IoU; an anchor inside two objects learns the one its box overlaps
    // most; anchors inside none, and padding rows, learn nothing.
    void assignmentGoesToTheBestAlignedAnchors() {
        const torch::Tensor anchors =
            torch::tensor({{10.0f, 10.0f}, {30.0f, 10.0f}, {10.0f, 30.0f}, {50.0f, 50.0f}});
        kiln::train::DetectionTargets targets;
        targets.boxes = torch::tensor(
            {{{0.0f, 0.0f, 40.0f, 20.0f}, {0.0f, 0.0f, 20.0f, 40.0f}, {0.0f, 0.0f, 0.0f, 0.0f}}});
        targets.classes = torch::tensor({{0, 1, 0}}, torch::kInt64);
        targets.valid = torch::tensor({{true, true, false}});
        // Anchor 0 predicts the second object exactly, anchor 1 the first, anchor 2 half the
        // second; anchor 3 is inside nothing.
        const torch::Tensor boxes = torch::tensor({{{0.0f, 0.0f, 20.0f, 40.0f},
                                                    {0.0f, 0.0f, 40.0f, 20.0f},
                                                    {0.0f, 20.0f, 20.0f, 40.0f},
                                                    {40.0f, 40.0f, 60.0f, 60.0f}}});
        const torch::Tensor scores = torch::full({1, 4, 2}, 0.5f);
        const auto assignment =
            kiln::train::assign(scores, boxes, anchors, targets, {10, 0.5, 6.0});
        QCOMPARE(assignment.foreground[0].to(torch::kInt64).sum().item<std::int64_t>(), 3);
        QVERIFY(!assignment.foreground[0][3].item<bool>());
        QCOMPARE(assignment.object[0][0].item<std::int64_t>(),
                 1); // inside both, overlaps the second
        QCOMPARE(assignment.object[0][1].item<std::int64_t>(), 0);
        QCOMPARE(assignment.object[0][2].item<std::int64_t>(), 1);
        // The best-aligned anchor of each object gets its class at that object's best IoU (1).
        QVERIFY(std::abs(assignment.target_scores[0][0][1].item<double>() - 1.0) < 1e-4);
        QVERIFY(std::abs(assignment.target_scores[0][1][0].item<double>() - 1.0) < 1e-4);
        const double partial = assignment.target_scores[0][2][1].item<double>();
        QVERIFY2(partial > 0 && partial < 0.1, qPrintable(QString::number(partial)));
        QCOMPARE(assignment.target_scores[0][0][0].item<double>(), 0.0);
        QVERIFY(torch::equal(assignment.target_boxes[0][1], targets.boxes[0][0]));
    }

    // Mosaic moves boxes and instance masks together: every object left has a box of at least
    // 2 px a side, its mask's pixels lie inside it, and a tenth of its area survived.
    void mosaicKeepsBoxesAndMasksTogether() {
        kiln::data::DetectionAugmentation augmentation;
        augmentation.mosaic_prob = 1.0;
        std::array<kiln::data::LabelledScene, 4> scenes;
        for (int i = 0; i < 4; ++i) {
            kiln::data::LabelledScene& scene = scenes[std::size_t(i)];
            scene.image = cv::Mat(48 + 8 * i, 64, CV_8UC3, cv::Scalar(40 * i, 0, 0));
            scene.instances = cv::Mat::zeros(scene.image.size(), CV_16U);
            for (int k = 0; k < 2; ++k) {
                const cv::Rect box(4 + 24 * k, 6 + 4 * i, 16, 20);
                scene.boxes.push_back({double(box.x), double(box.y), double(box.x + box.width),
                                       double(box.y + box.height)});
                scene.classes.push_back(k);
                scene.areas.push_back(double(box.area()));
                scene.instances(box).setTo(cv::Scalar(k + 1));
            }
        }
        int objects = 0;
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            kiln::data::Rng rng(seed);
            const kiln::data::LabelledScene result =
                kiln::data::mosaic({&scenes[0], &scenes[1], &scenes[2], &scenes[3]},
                                   cv::Size(64, 64), augmentation, rng);
            QCOMPARE(result.image.size(), cv::Size(64, 64));
            QCOMPARE(result.instances.size(), cv::Size(64, 64));
            QCOMPARE(result.boxes.size(), result.classes.size());
            for (std::size_t i = 0; i < result.boxes.size(); ++i) {
                const auto& box = result.boxes[i];
                QVERIFY(box[2] - box[0] >= 2 && box[3] - box[1] >= 2);
                QVERIFY(box[0] >= 0 && box[1] >= 0 && box[2] <= 64 && box[3] <= 64);
                int pixels = 0;
                for (int y = 0; y < 64; ++y) {
                    for (int x = 0; x < 64; ++x) {
                        if (result.instances.at<std::uint16_t>(y, x) == i + 1) {
                            ++pixels;
                            QVERIFY2(x + 1 >= box[0] && x <= box[2] + 1 && y + 1 >= box[1] &&
                                         y <= box[3] + 1,
                                     qPrintable(QString("seed %1 object %2").arg(seed).arg(i)));
                        }
                    }
                }
                QVERIFY(pixels > 0);
                ++objects;
            }
            for (int y = 0; y < 64; ++y) { // no pixel names an object that is gone
                for (int x = 0; x < 64; ++x) {
                    QVERIFY(result.instances.at<std::uint16_t>(y, x) <= result.boxes.size());
                }
            }
        }
        QVERIFY(objects > 20);
    }

    void copyPastePastesMirroredObjectsWhereTheyCoverNoOther() {
        // Object 1 on the left (its mirror lands on free ground), object 2 in the middle (its
        // mirror would cover itself): only object 1 is copied, mask and pixels.
        kiln::data::LabelledScene scene;
        scene.image = cv::Mat(32, 64, CV_8UC3, cv::Scalar(0, 0, 0));
        scene.instances = cv::Mat::zeros(scene.image.size(), CV_16U);
        const cv::Rect left(4, 8, 10, 12), middle(28, 8, 8, 12);
        scene.image(left).setTo(cv::Scalar(200, 10, 10));
        scene.image(middle).setTo(cv::Scalar(10, 200, 10));
        scene.instances(left).setTo(cv::Scalar(1));
        scene.instances(middle).setTo(cv::Scalar(2));
        for (const cv::Rect& box : {left, middle}) {
            scene.boxes.push_back({double(box.x), double(box.y), double(box.x + box.width),
                                   double(box.y + box.height)});
            scene.classes.push_back(scene.boxes.size() == 1 ? 3 : 5);
            scene.areas.push_back(double(box.area()));
        }
        kiln::data::Rng rng(0);
        const auto pasted = kiln::data::copy_paste(scene, 1.0, rng);
        QCOMPARE(pasted.boxes.size(), std::size_t(3));
        QCOMPARE(pasted.classes[2], std::int64_t(3));
        const auto& box = pasted.boxes[2];
        QCOMPARE(box[0], 64.0 - 14.0);
        QCOMPARE(box[2], 64.0 - 4.0);
        const cv::Rect mirrored(50, 8, 10, 12);
        QCOMPARE(cv::countNonZero(pasted.instances(mirrored) == 3), mirrored.area());
        QCOMPARE(pasted.image.at<cv::Vec3b>(10, 55), cv::Vec3b(200, 10, 10));
        QCOMPARE(cv::countNonZero(pasted.instances == 3), mirrored.area()); // nowhere else
        QCOMPARE(kiln::data::copy_paste(scene, 0.0, rng).boxes.size(), std::size_t(2));
    }

    // A detection run stopped and resumed ends with the same weights, its average included, as
    // one that was never stopped: the average and the raw weights both travel in last.ckpt.
    void resumedDetectionWithAWeightAverageEqualsOneRun() {
        const json settings = {{"steps", 12}, {"val_every_n_steps", 1000}};
        kiln::train::TrainObserver quiet;
        kiln::train::train(detection(root_ / "ema-whole", settings), quiet);
        StopAtStep stopper(6);
        const auto stopped =
            kiln::train::train(detection(root_ / "ema-split", settings), stopper, stopper.stop);
        QCOMPARE(stopped.status, kiln::train::RunSummary::Status::Cancelled);
        json resume = settings;
        resume["resume_interrupted"] = true;
        kiln::train::train(detection(root_ / "ema-split", resume), quiet);
        const auto tensors = [](const fs::path& file) {
            std::map<std::string, at::Tensor> found;
            const auto archive = kiln::models::read_checkpoint_file(file);
            for (const char* part : {kiln::models::checkpoint_key::kModel,
                                     kiln::models::checkpoint_key::kTrainingModel}) {
                const c10::IValue value = archive->child(part).to_ivalue();
                std::function<void(const std::string&, const c10::IValue&)> walk =
                    [&](const std::string& prefix, const c10::IValue& node) {
                        if (node.isTensor()) {
                            found[prefix] = node.toTensor();
                        } else if (node.isGenericDict()) {
                            for (const auto& entry : node.toGenericDict()) {
                                walk(prefix + "/" + entry.key().toStringRef(), entry.value());
                            }
                        }
                    };
                walk(part, value);
            }
            return found;
        };
        const auto expected =
            tensors(kiln::track::RunDirectory(root_ / "ema-whole").last_checkpoint());
        const auto actual =
            tensors(kiln::track::RunDirectory(root_ / "ema-split").last_checkpoint());
        QVERIFY(expected.size() > 10);
        QCOMPARE(actual.size(), expected.size());
        for (const auto& [name, tensor] : expected) {
            QVERIFY2(torch::equal(actual.at(name), tensor), name.c_str());
        }
    }

    void validationPendingAtTheCheckpointIsRedoneOnResume_data() {
        QTest::addColumn<bool>("foundBest");
        QTest::newRow("still computing") << false;
        QTest::newRow("found best since") << true;
    }

    // A kill while the mAP of step 2's validation was still being computed, after last.ckpt (of
    // step 3) recorded it as pending: the resumed run validates those weights again before it
    // trains on. So too when that validation had been found best since (its weights renamed
    // best.ckpt) and no later checkpoint said so: a worse validation would otherwise have
    // replaced best.ckpt.
    void validationPendingAtTheCheckpointIsRedoneOnResume() {
        QFETCH(bool, foundBest);
        const fs::path out = root_ / (foundBest ? "pending-best-run" : "pending-run");
        const json settings = {{"steps", 8}, {"val_every_n_steps", 4}};
        StopAtStep at_two(2);
        kiln::train::train(detection(out, settings), at_two, at_two.stop);
        const kiln::track::RunDirectory run(out);
        const fs::path step_two = root_ / (out.filename().string() + "-step-2.ckpt");
        fs::copy_file(run.last_checkpoint(), step_two);
        json resume = settings;
        resume["resume_interrupted"] = true;
        StopAtStep at_three(3);
        kiln::train::train(detection(out, resume), at_three, at_three.stop);
        QVERIFY(!fs::exists(run.best_checkpoint()));
        namespace key = kiln::models::checkpoint_key;
        c10::IValue state = kiln::models::read_archive(run.last_checkpoint()).to_ivalue();
        QCOMPARE(state.toGenericDict().at(key::kOptimizerStep).toInt(), std::int64_t(3));
        const std::int64_t step = 2;
        state.toGenericDict().insert(key::kPendingValidations,
                                     c10::List<std::int64_t>(std::vector<std::int64_t>{step}));
        kiln::models::write_archive(run.last_checkpoint(), kiln::models::Archive::from_ivalue(
                                                               state, run.last_checkpoint()));
        fs::copy_file(step_two, foundBest ? run.best_checkpoint() : run.validated_checkpoint(step));

        Recorder recorder;
        kiln::train::train(detection(out, resume), recorder);
        QCOMPARE(recorder.validations.size(), std::size_t(3));
        QCOMPARE(recorder.validations[0].step, step); // first, before training went on
        QVERIFY(recorder.validations[0].best);
        QCOMPARE(recorder.validations[1].step, std::int64_t(4));
        QCOMPARE(recorder.validations[2].step, std::int64_t(8));
        QVERIFY(recorder.value(0, "val_metric/map") >= 0);
        QVERIFY(fs::exists(run.best_checkpoint()));
        QVERIFY(!hasFileStartingWith(run.checkpoints(), "validated-step-"));
        QVERIFY(!hasFileStartingWith(run.exported_models(), "validated-step-"));
        // The checkpoint the run goes on from, not the validated one's copy: the next
        // checkpoint records no pending step.
        const auto last = kiln::models::read_checkpoint_file(run.last_checkpoint());
        QCOMPARE(last->integer(key::kOptimizerStep), std::int64_t(8));
        QVERIFY(!last->contains(key::kPendingValidations));
    }

    void detectorLearnsAndMapArrivesAsynchronously() {
        const fs::path out = root_ / "det-run";
        Recorder recorder;
        const auto summary = kiln::train::train(
            detection(out, {{"steps", 120}, {"val_every_n_steps", 40}}), recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(recorder.validations.size(), std::size_t(3));
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(recorder.validations[i].step, std::int64_t(40 * (i + 1)));
            const double map = recorder.value(i, "val_metric/map");
            QVERIFY(map >= 0 && map <= 1);
            QVERIFY(recorder.value(i, "val_metric/map_50") >= map);
            QVERIFY(recorder.value(i, "val_metric/mar_100") >= 0);
            QVERIFY(recorder.value(i, "val_loss") > 0);
        }
        const double last = recorder.value(2, "val_metric/map_50");
        QVERIFY2(last > 0.3, qPrintable(QString::number(last)));
        QCOMPARE(summary.watch_metric, std::string("val_metric/map"));
        const kiln::track::RunDirectory run(out);
        QVERIFY(fs::exists(run.best_checkpoint()));
        QVERIFY(fs::exists(run.exported_best()));
        // The validated weights waited in their own files, then became best.ckpt or went.
        QVERIFY(!hasFileStartingWith(run.checkpoints(), "validated-step-"));
        QVERIFY(!hasFileStartingWith(run.exported_models(), "validated-step-"));
    }

    void syncAndAsyncMapAreTheSame() {
        std::vector<std::vector<std::pair<std::string, double>>> values;
        for (const char* mode : {"sync", "async"}) {
            Recorder recorder;
            kiln::train::train(detection(root_ / (std::string("det-") + mode),
                                         {{"steps", 8},
                                          {"val_every_n_steps", 4},
                                          {"metric_args", {{"map", {{"mode", mode}}}}}}),
                               recorder);
            QCOMPARE(recorder.validations.size(), std::size_t(2));
            values.push_back(recorder.validations.back().values);
        }
        QCOMPARE(values[0], values[1]);
        // Each class's AP is logged unasked for a dataset of at most 100 classes, not when
        // turned off.
        const auto per_class = [](const std::vector<std::pair<std::string, double>>& logged) {
            return std::count_if(logged.begin(), logged.end(), [](const auto& entry) {
                return entry.first.rfind("val_metric_per_class/map/", 0) == 0;
            });
        };
        QVERIFY(per_class(values[1]) >= 2);
        Recorder off;
        kiln::train::train(detection(root_ / "det-classwise-off",
                                     {{"steps", 4},
                                      {"val_every_n_steps", 4},
                                      {"metric_args", {{"map", {{"classwise", false}}}}}}),
                           off);
        QCOMPARE(per_class(off.validations.back().values), std::ptrdiff_t(0));
    }

    void predictionsEvaluateToTheLoggedMap() {
        const fs::path out = root_ / "det-predict";
        Recorder recorder;
        const auto summary =
            kiln::train::train(detection(out, {{"steps", 30},
                                               {"val_every_n_steps", 10},
                                               {"metric_args", {{"map", {{"classwise", true}}}}}}),
                               recorder);
        QVERIFY(summary.best_value.has_value());
        bool per_class = false;
        for (const auto& [key, value] : recorder.validations.back().values) {
            per_class = per_class || key == "val_metric_per_class/map/1";
        }
        QVERIFY(per_class);

        kiln::PredictConfig predict;
        predict.out = root_ / "det-results.json";
        predict.data = {root_ / "val" / "images"};
        predict.annotations = root_ / "val" / "annotations.json";
        predict.checkpoint = kiln::track::RunDirectory(out).best_checkpoint();
        predict.batch_size = 8;
        predict.num_workers = 0;
        predict.accelerator = kiln::Accelerator::Cpu;
        const auto result = kiln::predict::run_prediction(predict);
        QCOMPARE(result.images, std::int64_t(24));
        QCOMPARE(result.task, std::string("object_detection"));

        // The best evaluation's previews: the first validation images with their annotated
        // boxes, and the very detections that predict finds with the same (best) weights.
        const json annotations = readJson(root_ / "val" / "annotations.json");
        const json results = readJson(predict.out);
        const auto best = std::find_if(recorder.validations.rbegin(), recorder.validations.rend(),
                                       [](const auto& validation) { return validation.best; });
        QVERIFY(best != recorder.validations.rend());
        const kiln::train::PredictionPreviews& previews = best->previews;
        QCOMPARE(previews.images.size(), std::size_t(8));
        QCOMPARE(previews.classes.size(), annotations["categories"].size());
        // Stratified: the images' first objects take every class in turn.
        const std::size_t classes = previews.classes.size();
        const auto first_class = [&](std::size_t i) {
            return previews.images[i].true_boxes.front().class_id;
        };
        for (std::size_t i = 0; i < previews.images.size(); ++i) {
            QVERIFY(!previews.images[i].true_boxes.empty());
            QCOMPARE(first_class(i), first_class(i % classes));
        }
        QVERIFY(first_class(0) != first_class(1));
        std::vector<std::int64_t> category_ids;
        for (const json& category : annotations["categories"]) {
            category_ids.push_back(category["id"].get<std::int64_t>());
        }
        for (const kiln::train::PredictionPreview& preview : previews.images) {
            const auto image = std::find_if(annotations["images"].begin(),
                                            annotations["images"].end(), [&](const json& entry) {
                                                return entry["file_name"].get<std::string>() ==
                                                       preview.image.filename().string();
                                            });
            QVERIFY(image != annotations["images"].end());
            const std::int64_t id = (*image)["id"].get<std::int64_t>();
            QCOMPARE(preview.size[0], (*image)["width"].get<int>());
            std::size_t objects = 0;
            for (const json& annotation : annotations["annotations"]) {
                objects += annotation["image_id"].get<std::int64_t>() == id ? 1 : 0;
            }
            QCOMPARE(preview.true_boxes.size(), objects);
            std::vector<json> found;
            for (const json& result : results) {
                if (result["image_id"].get<std::int64_t>() == id) {
                    found.push_back(result);
                }
            }
            QCOMPARE(preview.predicted_boxes.size(), found.size());
            std::sort(found.begin(), found.end(), [](const json& a, const json& b) {
                return a["score"].get<double>() > b["score"].get<double>();
            });
            for (std::size_t d = 0; d < found.size(); ++d) {
                const auto& box = preview.predicted_boxes[d];
                QVERIFY(d == 0 || preview.predicted_boxes[d - 1].score >= box.score);
                QVERIFY2(std::abs(box.score - found[d]["score"].get<float>()) < 1e-4F,
                         qPrintable(QString("detection %1: %2 in the preview, %3 predicted")
                                        .arg(d)
                                        .arg(box.score)
                                        .arg(found[d]["score"].get<double>())));
                QVERIFY(std::abs(box.box[0] - found[d]["bbox"][0].get<float>()) < 1e-2F);
                QCOMPARE(category_ids[std::size_t(box.class_id)],
                         found[d]["category_id"].get<std::int64_t>());
            }
        }

        const auto truth = kiln::coco::GroundTruth::load(*predict.annotations);
        const auto detections =
            kiln::coco::Detections::load(predict.out, truth, kiln::coco::IouType::Box);
        const auto stats = kiln::coco::evaluate(truth, detections, {}).stats;
        QVERIFY(stats[0] == *summary.best_value); // bit for bit

        // pycocotools gives the same twelve numbers for the same file.
        if (!kiln::test::pythonHas(QStringLiteral("pycocotools"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("pycocotools")));
        }
        const auto peer = kiln::test::runPython(
            QStringLiteral("import contextlib, io, json, sys\n"
                           "from pycocotools.coco import COCO\n"
                           "from pycocotools.cocoeval import COCOeval\n"
                           "with contextlib.redirect_stdout(io.StringIO()):\n"
                           "    truth = COCO(sys.argv[1])\n"
                           "    e = COCOeval(truth, truth.loadRes(sys.argv[2]), 'bbox')\n"
                           "    e.evaluate(); e.accumulate(); e.summarize()\n"
                           "print(json.dumps([float(v) for v in e.stats]))\n"),
            {QString::fromStdString(predict.annotations->string()),
             QString::fromStdString(predict.out.string())});
        QVERIFY2(peer.exit_code == 0, qPrintable(peer.errors));
        const json peer_stats = json::parse(peer.output.toStdString());
        for (int i = 0; i < 12; ++i) { // to the last bit (QCOMPARE of doubles is fuzzy)
            QVERIFY2(peer_stats[std::size_t(i)].get<double>() == stats[std::size_t(i)],
                     qPrintable(QString::number(i)));
        }
    }

    void instanceSegmentationTrainsOnYoloSegments() {
        const fs::path out = root_ / "inst-run";
        Recorder recorder;
        const auto config = detection(out,
                                      {{"data", (root_ / "train" / "data.yaml").string()},
                                       {"steps", 160},
                                       {"val_every_n_steps", 160},
                                       {"model_args", {{"prototypes", 8}}}},
                                      TaskKind::InstanceSegmentation);
        const auto summary = kiln::train::train(config, recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(recorder.validations.size(), std::size_t(1));
        const double mask_map = recorder.value(0, "val_metric/map");
        const double box_map = recorder.value(0, "val_metric/box_map");
        qInfo("instance segmentation after 160 steps: mask mAP %.4f, box mAP %.4f", mask_map,
              box_map);
        QVERIFY2(mask_map > 0.03 && mask_map <= 1, qPrintable(QString::number(mask_map)));
        QVERIFY2(box_map > 0.02 && box_map <= 1, qPrintable(QString::number(box_map)));

        kiln::PredictConfig predict;
        predict.out = root_ / "inst-results.json";
        predict.data = {root_ / "val" / "images"};
        predict.checkpoint = kiln::track::RunDirectory(out).last_checkpoint();
        predict.batch_size = 8;
        predict.num_workers = 0;
        predict.accelerator = kiln::Accelerator::Cpu;
        predict.draw = root_ / "drawn";
        kiln::predict::run_prediction(predict);
        // The drawn images are PNGs named as the images: never among them, never over files
        // without overwrite=true, never where the predictions go.
        for (const auto& [draw, expected] :
             {std::pair{root_ / "val" / "images", "lies in data"},
              std::pair{root_ / "val" / "images" / "drawn", "lies in data"},
              std::pair{root_ / "drawn", "holds files; set overwrite=true"},
              std::pair{root_ / "again.json", "is out"},
              std::pair{root_ / "again.json" / "drawn", "is out"}}) {
            json settings = {{"out", (root_ / "again.json").string()},
                             {"data", (root_ / "val" / "images").string()},
                             {"checkpoint", predict.checkpoint.string()},
                             {"draw", draw.string()}};
            const QString message =
                errorOf([&] { kiln::resolve_predict_config(settings, kiln::test::cpu_context()); });
            QVERIFY2(message.contains(
                         QString::fromStdString("draw: \"" + draw.string() + "\" " + expected)),
                     qPrintable(message));
        }
        // A folder of masks as out, among the images, is refused too (a file's name is not).
        const json masks_inside = {{"out", (root_ / "val" / "images" / "masks").string()},
                                   {"data", (root_ / "val" / "images").string()},
                                   {"checkpoint", predict.checkpoint.string()}};
        const QString inside =
            errorOf([&] { kiln::resolve_predict_config(masks_inside, kiln::test::cpu_context()); });
        QVERIFY2(inside.contains("lies in data") && inside.contains("with its extension"),
                 qPrintable(inside));
        json named_file = masks_inside;
        named_file["out"] = (root_ / "val" / "images" / "predictions.json").string();
        QVERIFY(errorOf([&] {
                    kiln::resolve_predict_config(named_file, kiln::test::cpu_context());
                }).isEmpty());
        const json results = readJson(predict.out);
        QVERIFY(!results.empty());
        QVERIFY(results[0].contains("segmentation"));
        QVERIFY(results[0].contains("file_name"));
        QCOMPARE(results[0]["segmentation"]["size"], json::array({64, 64}));
        // Each image is drawn on where a detection scores 0.3 or more, and left as it was
        // elsewhere.
        int drawn = 0;
        for (const auto& entry : fs::directory_iterator(root_ / "val" / "images")) {
            const fs::path copy = *predict.draw / entry.path().filename();
            QVERIFY2(fs::exists(copy), copy.c_str());
            const cv::Mat original = cv::imread(entry.path().string(), cv::IMREAD_COLOR);
            const cv::Mat marked = cv::imread(copy.string(), cv::IMREAD_COLOR);
            QCOMPARE(marked.size(), original.size());
            drawn += cv::norm(original, marked, cv::NORM_INF) > 0 ? 1 : 0;
        }
        bool confident = false;
        for (const json& result : results) {
            confident = confident || result["score"].get<double>() >= 0.3;
        }
        QVERIFY(confident);
        QVERIFY(drawn > 0);

        // A JPEG with an EXIF orientation is drawn on as it was predicted on: as stored, as
        // PIL reads it (cv::imread had turned it, away from its boxes).
        const fs::path turned = root_ / "turned";
        fs::create_directories(turned);
        const fs::path first = fs::directory_iterator(root_ / "val" / "images")->path();
        writeTurnedJpeg(turned / "wide.jpg",
                        cv::imread(first.string(), cv::IMREAD_COLOR)(cv::Rect(0, 0, 64, 40)));
        QCOMPARE(cv::imread((turned / "wide.jpg").string(), cv::IMREAD_COLOR).size(),
                 cv::Size(40, 64)); // what OpenCV makes of it
        predict.data = {turned};
        predict.out = root_ / "turned.json";
        predict.draw = root_ / "drawn-turned";
        kiln::predict::run_prediction(predict);
        QCOMPARE(cv::imread((*predict.draw / "wide.png").string(), cv::IMREAD_UNCHANGED).size(),
                 cv::Size(64, 40));

        // A name the predictions' JSON cannot hold is refused before predicting (found at the
        // end, it lost every prediction).
        fs::create_directories(root_ / "latin1");
        fs::copy_file(first, root_ / "latin1" / "caf\xe9.png");
        predict.data = {root_ / "latin1"};
        predict.out = root_ / "latin1.json";
        predict.draw.reset();
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::predict::run_prediction(predict); },
                                         "image \"caf\\xe9.png\" has a name that is not UTF-8"));
        QVERIFY(!fs::exists(predict.out));
    }

    void yamlNamesAndBoxesAreRead() {
        // An Ultralytics layout with boxes, names as a list, and a path of its own.
        const fs::path yolo = root_ / "yolo";
        fs::create_directories(yolo / "set" / "images" / "train");
        fs::create_directories(yolo / "set" / "labels" / "train");
        cv::imwrite((yolo / "set" / "images" / "train" / "a.png").string(),
                    cv::Mat::zeros(40, 80, CV_8UC3));
        std::ofstream(yolo / "set" / "labels" / "train" / "a.txt")
            << "1 0.5 0.5 0.25 0.5\n0 0.9 0.9 0.4 0.4\n";
        std::ofstream(yolo / "data.yaml")
            << "# a comment\npath: set\ntrain: images/train\nval: images/train\n"
               "names: ['cat', 'dog']\n";
        warnings_.clear();
        const auto data = kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1);
        QCOMPARE(data.classes, (kiln::data::ClassNames{"cat", "dog"}));
        QCOMPARE(data.train.objects[0].size(), std::size_t(2));
        const auto& dog = data.train.objects[0][0];
        QCOMPARE(dog.class_id, std::int64_t(1));
        QCOMPARE(dog.box, (std::array<float, 4>{30, 10, 50, 30}));
        // The second box reaches outside the image: clipped, and counted once in each split
        // (both are this file); the first lies inside and is not.
        QCOMPARE(data.train.objects[0][1].box, (std::array<float, 4>{56, 28, 80, 40}));
        QCOMPARE(data.warnings, std::vector<std::string>{
                                    "2 boxes reached outside their image and were clipped to it"});

        std::ofstream(yolo / "set" / "labels" / "train" / "a.txt") << "1 0.5 0.5 0.25\n";
        QVERIFY(errorOf([&] {
                    kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1);
                }).contains("a.txt:1"));
        std::ofstream(yolo / "set" / "labels" / "train" / "a.txt") << "7 0.5 0.5 0.25 0.1\n";
        QVERIFY(errorOf([&] {
                    kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1);
                }).contains("class id below 2"));
        // Coordinates a whole image beyond it, or a box of negative size, are damaged labels.
        for (const auto& [line, expected] :
             {std::pair{"1 0.5 0.5 1e300 0.1\n", "a.txt:1: 1e+300 is not a coordinate normalised"},
              std::pair{"1 0.5 0.5 -0.25 0.1\n", "a.txt:1: a box of width -0.25 and height 0.1"},
              std::pair{"0 0.1 0.1 0.5 0.1 3 0.9\n", "a.txt:1: 3 is not a coordinate"},
              // A class given by name (or nan) is no blank line: its objects are not dropped.
              std::pair{"\n  \nperson 0.5 0.5 0.25 0.5\n",
                        "a.txt:3: \"person\" is not a number; expected a class id below 2"},
              std::pair{"nan 0.5 0.5 0.25 0.5\n", "a.txt:1: \"nan\" is not a number"},
              // The field at fault is named, not the class id.
              std::pair{"1 0.5 inf 0.25 0.5\n", "a.txt:1: \"inf\" is not a number"}}) {
            std::ofstream(yolo / "set" / "labels" / "train" / "a.txt") << line;
            const QString message = errorOf(
                [&] { kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1); });
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
        // A byte order mark before the first line (Windows editors write one) is read past.
        std::ofstream(yolo / "set" / "labels" / "train" / "a.txt") << "\xEF\xBB\xBF"
                                                                      "1 0.5 0.5 0.25 0.5\n";
        QCOMPARE(kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1)
                     .train.objects[0]
                     .size(),
                 std::size_t(1));
        // More objects than an image can have (each is held in memory: 2 million lines took
        // 4 GB), or a file larger than any image's labels, is refused, named.
        {
            std::ofstream crowded(yolo / "set" / "labels" / "train" / "a.txt");
            for (int i = 0; i <= 10'000; ++i) {
                crowded << "1 0.5 0.5 0.25 0.5\n";
            }
        }
        QVERIFY(errorOf([&] {
                    kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1);
                }).contains("a.txt:10001: more than 10000 objects for one image"));
        fs::resize_file(yolo / "set" / "labels" / "train" / "a.txt", (64 << 20) + 1);
        QVERIFY(errorOf([&] {
                    kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1);
                }).contains("a.txt\" holds 64 MB, more than the 64 MB"));
        // A label file linked to a device (it has no end: reading it filled memory) is refused,
        // named.
        fs::remove(yolo / "set" / "labels" / "train" / "a.txt");
        fs::create_symlink("/dev/zero", yolo / "set" / "labels" / "train" / "a.txt");
        const QString device = errorOf(
            [&] { kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1); });
        QVERIFY2(device.contains("YOLO label file") && device.contains("a.txt") &&
                     device.contains("is a character device, not a file"),
                 qPrintable(device));
        fs::remove(yolo / "set" / "labels" / "train" / "a.txt");
        // A data.yaml naming 200,000 classes (its head and each validation's work grow with
        // them: validation ran for minutes) is refused before any image is read.
        std::ofstream(yolo / "set" / "labels" / "train" / "a.txt") << "1 0.5 0.5 0.25 0.5\n";
        {
            std::ofstream yaml(yolo / "data.yaml");
            yaml << "path: set\ntrain: images/train\nval: images/train\nnames: [";
            for (int c = 0; c < 200000; ++c) {
                yaml << (c > 0 ? ", c" : "c") << c;
            }
            yaml << "]\n";
        }
        const QString many = errorOf(
            [&] { kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1); });
        QVERIFY2(many.contains("data.names") &&
                     many.contains("names 200000 classes; Kiln trains at most 20000"),
                 qPrintable(many));
        // A class count that disagrees with the names is refused, as Ultralytics refuses it.
        {
            std::ofstream yaml(yolo / "data.yaml");
            yaml << "path: set\ntrain: images/train\nval: images/train\nnc: 3\nnames: [a, b]\n";
        }
        const QString count = errorOf(
            [&] { kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1); });
        QVERIFY2(count.contains("data.nc is 3 but data.names names 2 classes"), qPrintable(count));
        // The data.yaml of the set above with `names` as given, loaded.
        const auto loadNamed = [&](const std::string& names) {
            std::ofstream(yolo / "data.yaml")
                << "path: set\ntrain: images/train\nval: images/train\n"
                << names;
            return kiln::data::load_detection_data((yolo / "data.yaml").string(), false, 1);
        };
        // Names are read as PyYAML reads them: a comma, a colon or " #" inside quotes is part of
        // the name ("shirt, long sleeve" had become two classes), an apostrophe inside a plain
        // name opens nothing, and quotes within quotes are unescaped.
        for (const auto& [names, expected] :
             {std::pair{std::string("names: ['shirt, long sleeve', \"coat #2\", men's bag] # 3\n"),
                        kiln::data::ClassNames{"shirt, long sleeve", "coat #2", "men's bag"}},
              std::pair{std::string("names: {0: 'a: b', 1: 'it''s', 2: \"say \\\"hi\\\"\"}\n"),
                        kiln::data::ClassNames{"a: b", "it's", "say \"hi\""}},
              std::pair{std::string("names:\n  0: 'x, y'  # a comment\n  1: z\n  2: w #3\n"),
                        kiln::data::ClassNames{"x, y", "z", "w"}},
              std::pair{std::string("names:\n  - 'coat #2'\n  - \"\\u732B \\x41\\tb\"\n"),
                        kiln::data::ClassNames{"coat #2", "\xe7\x8c\xab A\tb"}},
              std::pair{std::string("names: [a, b,]\n"), kiln::data::ClassNames{"a", "b"}}}) {
            QCOMPARE(loadNamed(names).classes, expected);
        }
        // What PyYAML refuses is refused, named, not read as some other name.
        for (const auto& [names, expected] :
             {std::pair{"names: [a, 'b, c]\n", "'b, c"},
              std::pair{"names: ['men's bag', c]\n", "'men's bag'"},
              std::pair{"names: [\"D:\\data\", c]\n", "D:"},
              std::pair{"names: [a, , b]\n", "names has an empty entry"},
              std::pair{"names: []\n", "no classes"},
              // Anchors and aliases are not followed: not read as a class or a file's name.
              std::pair{"names: &classes [a, b]\n", "\"&classes [a, b]\" is a YAML anchor"},
              std::pair{"names: *classes\n", "\"*classes\" is a YAML anchor or alias"},
              std::pair{"names:\n  - *first\n", "write the value out where it is used"}}) {
            const QString message = errorOf([&] { loadNamed(names); });
            QVERIFY2(message.contains(expected),
                     qPrintable(QString::fromUtf8(names) + " gave " + message));
        }
    }

    void badCocoDataIsNamed() {
        const json good = readJson(root_ / "val" / "annotations.json");
        const fs::path bad = root_ / "bad";
        fs::create_directories(bad);
        fs::create_directory_symlink(root_ / "val" / "images", bad / "images");

        json unknown = good;
        unknown["annotations"][2]["category_id"] = 77;
        writeJson(bad / "annotations.json", unknown);
        QString message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("annotations[2]") && message.contains("category_id 77"),
                 qPrintable(message));

        json missing = good;
        missing["images"][1]["file_name"] = "nowhere.png";
        writeJson(bad / "annotations.json", missing);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("1 of 24 images are missing") && message.contains("nowhere"),
                 qPrintable(message));

        // An image given a size far beyond its own is refused as the data is read for instance
        // segmentation (its masks are drawn at that size), not at its first step; boxes alone
        // follow the image.
        json oversized = good;
        oversized["images"][3]["width"] = 200000;
        oversized["images"][3]["height"] = 200000;
        writeJson(bad / "annotations.json", oversized);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), true, 2); });
        QVERIFY2(message.contains("is 64 x 64 pixels, but") &&
                     message.contains("gives it 200000 x 200000"),
                 qPrintable(message));
        QCOMPARE(
            kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1).val.sizes[3],
            (std::array<int, 2>{200000, 200000}));

        // A split's path left empty (a form's field not filled in) is said to be empty.
        json unfilled = cocoData(root_ / "train", bad);
        unfilled["val"]["annotations"] = "";
        message = errorOf([&] { kiln::data::load_detection_data(unfilled, false, 1); });
        QVERIFY2(message.contains("data.val.annotations") && message.contains("is empty"),
                 qPrintable(message));

        // Annotations come from others: no file_name leads out of the images folder.
        std::ofstream(root_ / "outside.png") << "not for the model";
        for (const std::string& escape : std::vector<std::string>{
                 "../outside.png", "sub/../../outside.png", (root_ / "outside.png").string()}) {
            json escaping = good;
            escaping["images"][1]["file_name"] = escape;
            writeJson(bad / "annotations.json", escaping);
            message = errorOf(
                [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
            QVERIFY2(message.contains("images[1]") && message.contains("leaves the images folder"),
                     qPrintable(message));
        }

        // A training category the validation file does not list fails before training, not
        // at the first validation.
        json fewer = good;
        const json last_category = fewer["categories"].back();
        fewer["categories"].erase(fewer["categories"].size() - 1);
        json annotations = json::array();
        for (const json& annotation : fewer["annotations"]) {
            if (annotation["category_id"] != last_category["id"]) {
                annotations.push_back(annotation);
            }
        }
        fewer["annotations"] = annotations;
        writeJson(bad / "annotations.json", fewer);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("does not list the training split's category id " +
                                  QString::number(last_category["id"].get<int>())),
                 qPrintable(message));

        // A validation file that names a training category's id otherwise (exported with
        // another class order) would score one class's detections against another's objects.
        json swapped = good;
        swapped["categories"][0]["name"] = good["categories"][1]["name"];
        swapped["categories"][1]["name"] = good["categories"][0]["name"];
        // Names that differ only in case or spaces are one class, with a warning.
        json recased = good;
        std::string shouted = good["categories"][0]["name"].get<std::string>();
        std::transform(shouted.begin(), shouted.end(), shouted.begin(),
                       [](unsigned char c) { return char(std::toupper(c)); });
        recased["categories"][0]["name"] = " " + shouted;
        writeJson(bad / "annotations.json", recased);
        QCOMPARE(kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1)
                     .classes.front(),
                 good["categories"][0]["name"].get<std::string>());
        writeJson(bad / "annotations.json", swapped);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("names category id " +
                                  QString::number(good["categories"][0]["id"].get<int>()) + " \"" +
                                  QString::fromStdString(good["categories"][1]["name"]) + "\"") &&
                     message.contains("one id must be one class in both files"),
                 qPrintable(message));

        // A negative area would leave the object out of COCOeval's every area range.
        json negative_area = good;
        negative_area["annotations"][0]["area"] = -5.0;
        writeJson(bad / "annotations.json", negative_area);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("annotations[0]") && message.contains("has area -5,") &&
                     message.contains("give its pixels (0 or more)"),
                 qPrintable(message));
        // A training file's areas are not used: one computed without abs() still trains.
        QCOMPARE(kiln::data::load_detection_data(cocoData(bad, root_ / "val"), false, 1)
                     .train.paths.size(),
                 std::size_t{24});

        // Two training categories of one name would share their per-class metrics' key.
        const fs::path same_names = root_ / "same-names";
        fs::create_directories(same_names);
        fs::create_directory_symlink(root_ / "train" / "images", same_names / "images");
        json named_twice = readJson(root_ / "train" / "annotations.json");
        named_twice["categories"][1]["name"] = named_twice["categories"][0]["name"];
        writeJson(same_names / "annotations.json", named_twice);
        message = errorOf([&] {
            kiln::data::load_detection_data(cocoData(same_names, root_ / "val"), false, 1);
        });
        QVERIFY2(message.contains("two categories are named"), qPrintable(message));
        // A category with no name is named by its id: a clash with it says so.
        json unnamed = readJson(root_ / "train" / "annotations.json");
        unnamed["categories"][0]["name"] = "";
        unnamed["categories"][1]["name"] =
            std::to_string(unnamed["categories"][0]["id"].get<int>());
        writeJson(same_names / "annotations.json", unnamed);
        message = errorOf([&] {
            kiln::data::load_detection_data(cocoData(same_names, root_ / "val"), false, 1);
        });
        QVERIFY2(message.contains("has no name, so its id names it"), qPrintable(message));

        json empty = good;
        empty["annotations"] = json::array();
        writeJson(bad / "annotations.json", empty);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("data.val: none of its 24 images has an object"),
                 qPrintable(message));

        json boxes_only = good;
        boxes_only["annotations"][0].erase("segmentation");
        boxes_only["annotations"][1]["bbox"] = {10, 10, 0, 5};
        writeJson(bad / "annotations.json", boxes_only);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), true, 1); });
        QVERIFY2(message.contains("no segmentation"), qPrintable(message));
        const auto data = kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1);
        QVERIFY(QString::fromStdString(data.warnings.front()).contains("1 boxes had no area"));
        // A box of negative size is damaged, as in YOLO's files.
        json negative = good;
        negative["annotations"][3]["bbox"] = {10, 10, -4, 5};
        writeJson(bad / "annotations.json", negative);
        message = errorOf(
            [&] { kiln::data::load_detection_data(cocoData(root_ / "train", bad), false, 1); });
        QVERIFY2(message.contains("annotations[3]") &&
                     message.contains("has a bbox of width -4 and height 5"),
                 qPrintable(message));

        QVERIFY(errorOf([&] {
                    kiln::train::TrainObserver observer;
                    kiln::train::train(detection(root_ / "bad-run",
                                                 {{"metric_args", {{"map", {{"mode", "later"}}}}}}),
                                       observer);
                }).contains("metric_args.map.mode"));
        QVERIFY(!fs::exists(root_ / "bad-run" / "run.db"));
    }
};

QTEST_GUILESS_MAIN(DetectionTest)
#include "tst_detection.moc"
