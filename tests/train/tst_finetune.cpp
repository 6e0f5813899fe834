// Fine-tuning: image classification and semantic segmentation through the training loop, with
// validation, best checkpoints, starting weights, linear probing, predict and bad input.

#include "config/run_config.h"
#include "core/error.h"
#include "core/log.h"
#include "models/backbone.h"
#include "models/checkpoint_file.h"
#include "predict/predictor.h"
#include "support/error_text.h"
#include "support/validation_recorder.h"
#include "track/run_directory.h"
#include "train/classification_task.h"
#include "train/trainer.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <stdexcept>
#include <torch/types.h>

namespace fs = std::filesystem;
using kiln::TaskKind;
using nlohmann::json;

namespace {

using Recorder = kiln::test::ValidationRecorder;

// Two classes that a small CNN tells apart at once: vertical stripes and a dark disc, in
// varying colours.
void writeClassFolders(const fs::path& root, int per_class, int offset) {
    for (int i = 0; i < 2 * per_class; ++i) {
        const int seed = i + offset;
        cv::Mat image(
            32, 32, CV_8UC3,
            cv::Scalar((seed * 40) % 200 + 40, (seed * 90) % 200 + 40, (seed * 20) % 200));
        const bool stripes = i % 2 == 0;
        if (stripes) {
            for (int x = seed % 4; x < 32; x += 8) {
                cv::rectangle(image, {x, 0}, {x + 3, 31}, cv::Scalar(255, 255, 255), -1);
            }
        } else {
            cv::circle(image, {12 + seed % 8, 12 + seed % 6}, 9, cv::Scalar(0, 0, 0), -1);
        }
        const fs::path folder = root / (stripes ? "stripes" : "discs");
        fs::create_directories(folder);
        cv::imwrite((folder / (std::to_string(seed) + ".png")).string(), image);
    }
}

// Black images with one red (class 1) or green (class 2) square; masks of the class ids.
void writeSegmentationSet(const fs::path& root, int count, int offset) {
    fs::create_directories(root / "images");
    fs::create_directories(root / "masks");
    for (int i = 0; i < count; ++i) {
        const int seed = i + offset;
        cv::Mat image = cv::Mat::zeros(32, 32, CV_8UC3);
        cv::Mat mask = cv::Mat::zeros(32, 32, CV_8UC1);
        const int cls = 1 + seed % 2;
        const cv::Rect square(2 + seed % 13, 3 + (seed * 7) % 11, 14, 14);
        image(square).setTo(cls == 1 ? cv::Scalar(0, 0, 230) : cv::Scalar(0, 230, 0));
        mask(square).setTo(cls);
        const std::string name = std::to_string(seed);
        cv::imwrite((root / "images" / (name + ".png")).string(), image);
        cv::imwrite((root / "masks" / (name + ".png")).string(), mask);
    }
}

// Prediction on the CPU with a run's best checkpoint.
kiln::PredictConfig predictOnCpu(const fs::path& run, const fs::path& data, const fs::path& out,
                                 int batch_size, int num_workers) {
    kiln::PredictConfig predict;
    predict.out = out;
    predict.data = {data};
    predict.checkpoint = kiln::track::RunDirectory(run).best_checkpoint();
    predict.batch_size = batch_size;
    predict.num_workers = num_workers;
    predict.accelerator = kiln::Accelerator::Cpu;
    return predict;
}

json common(const fs::path& out, int epochs) {
    return {{"out", out.string()},
            {"model", "smallcnn"},
            {"epochs", epochs},
            {"batch_size", 8},
            {"num_workers", 0},
            {"accelerator", "cpu"},
            {"seed", 3},
            {"optim_args", {{"lr", 0.01}}},
            {"transform_args", {{"image_size", 32}}}};
}

std::vector<std::string> linesOf(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

} // namespace

class FinetuneTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root_;
    std::unique_ptr<kiln::log::ScopedSink> quiet_;

    kiln::TrainConfig classification(const fs::path& out, int epochs, json extra = json::object()) {
        json settings = common(out, epochs);
        settings["data"] = {{"train", (root_ / "cls" / "train").string()},
                            {"val", (root_ / "cls" / "val").string()}};
        settings.update(extra, true);
        return kiln::resolve_train_config(settings, kiln::test::cpu_context(),
                                          TaskKind::ImageClassification);
    }

    kiln::TrainConfig segmentation(const fs::path& out, int epochs, json extra = json::object()) {
        json settings = common(out, epochs);
        settings["data"] = {{"train",
                             {{"images", (root_ / "seg/train/images").string()},
                              {"masks", (root_ / "seg/train/masks").string()}}},
                            {"val",
                             {{"images", (root_ / "seg/val/images").string()},
                              {"masks", (root_ / "seg/val/masks").string()}}},
                            {"classes", {{"0", "background"}, {"1", "red"}, {"2", "green"}}}};
        settings.update(extra, true);
        return kiln::resolve_train_config(settings, kiln::test::cpu_context(),
                                          TaskKind::SemanticSegmentation);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        root_ = temp_.path().toStdString();
        writeClassFolders(root_ / "cls" / "train", 24, 0);
        writeClassFolders(root_ / "cls" / "val", 8, 1000);
        writeSegmentationSet(root_ / "seg" / "train", 48, 0);
        writeSegmentationSet(root_ / "seg" / "val", 16, 500);
        quiet_ =
            std::make_unique<kiln::log::ScopedSink>([](kiln::log::Level, const std::string&) {});
    }

    void classificationValidatesEachEpochAndKeepsTheBest() {
        const fs::path out = root_ / "cls-run";
        Recorder recorder;
        const auto summary = kiln::train::train(classification(out, 6), recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(recorder.validations.size(), std::size_t(6));
        QCOMPARE(recorder.validations.back().step, std::int64_t(36));
        double best = -1;
        std::int64_t best_step = 0;
        for (std::size_t i = 0; i < recorder.validations.size(); ++i) {
            const double top1 = recorder.value(i, "val_metric/top1_acc_micro");
            QVERIFY(top1 >= 0 && top1 <= 1);
            QCOMPARE(recorder.validations[i].best, top1 > best);
            if (top1 > best) {
                best = top1;
                best_step = recorder.validations[i].step;
            }
            QVERIFY(recorder.value(i, "val_metric/f1_macro") >= 0);
            QCOMPARE(recorder.value(i, "val_metric/top5_acc_micro"), 1.0); // two classes
            // The confusion matrix agrees with the accuracy: its diagonal over its sum.
            const kiln::train::ConfusionCounts& confusion = recorder.validations[i].confusion;
            QCOMPARE(confusion.classes.size(), std::size_t(2));
            QCOMPARE(confusion.counts.size(), std::size_t(4));
            const double total = double(confusion.counts[0] + confusion.counts[1] +
                                        confusion.counts[2] + confusion.counts[3]);
            QCOMPARE(total, 16.0); // 8 validation images per class
            QVERIFY(std::abs((confusion.counts[0] + confusion.counts[3]) / total - top1) < 1e-12);
        }
        QVERIFY2(best >= 0.9, qPrintable(QString::number(best)));
        // Previews: the same 8 validation images at every evaluation, the classes in turn (the
        // validation folder lists one class's 8 images before the other's), each with its true
        // class (its folder's) and the predicted one with its probability.
        const kiln::train::PredictionPreviews& first = recorder.validations.front().previews;
        QCOMPARE(first.classes, recorder.validations.front().confusion.classes);
        for (std::size_t i = 0; i < first.images.size(); ++i) {
            QCOMPARE(first.images[i].true_classes, std::vector<std::int64_t>{std::int64_t(i % 2)});
        }
        for (const kiln::train::ValidationMetrics& validation : recorder.validations) {
            QCOMPARE(validation.previews.images.size(), std::size_t(8));
            int right = 0;
            for (std::size_t i = 0; i < 8; ++i) {
                const kiln::train::PredictionPreview& preview = validation.previews.images[i];
                QCOMPARE(preview.image, first.images[i].image);
                const std::string folder = preview.image.parent_path().filename().string();
                const auto truth = std::find(first.classes.begin(), first.classes.end(), folder);
                QCOMPARE(preview.true_classes,
                         std::vector<std::int64_t>{truth - first.classes.begin()});
                QCOMPARE(preview.predicted_classes.size(), std::size_t(1));
                const auto [predicted, score] = preview.predicted_classes.front();
                QVERIFY(score >= 0.5F && score <= 1.0F); // the top of two probabilities
                right += predicted == preview.true_classes.front() ? 1 : 0;
                QVERIFY(preview.true_mask.empty() && preview.true_boxes.empty());
            }
            if (validation.best && validation.step == summary.best_step) {
                QVERIFY2(right >= 6, qPrintable(QString::number(right)));
            }
        }
        QCOMPARE(*summary.best_value, best);
        QCOMPARE(summary.best_step, best_step);
        QCOMPARE(summary.watch_metric, std::string("val_metric/top1_acc_micro"));
        const kiln::track::RunDirectory run(out);
        for (const fs::path& file : {run.best_checkpoint(), run.last_checkpoint(),
                                     run.exported_best(), run.exported_last()}) {
            QVERIFY2(fs::exists(file), file.c_str());
        }
        // The exported model's backbone loads where a backbone does (embed, backbone_weights),
        // with the best checkpoint's weights.
        std::string model;
        const kiln::models::Backbone exported =
            kiln::models::load_backbone(run.exported_best(), &model);
        QCOMPARE(model, std::string("smallcnn"));
        const kiln::models::Backbone checkpointed =
            kiln::models::load_backbone(run.best_checkpoint());
        const auto exported_state = exported->state();
        const auto checkpointed_state = checkpointed->state();
        QCOMPARE(exported_state.size(), checkpointed_state.size());
        const kiln::models::Backbone given = kiln::models::make_backbone("smallcnn");
        kiln::models::load_backbone_weights(*given, run.exported_best());
        const auto given_state = given->state();
        for (std::size_t i = 0; i < exported_state.size(); ++i) {
            QVERIFY(exported_state[i].second.equal(checkpointed_state[i].second));
            QVERIFY(given_state[i].second.equal(checkpointed_state[i].second));
        }
        // Per-class accuracy under the class folders' names, in every logger's metrics.
        bool per_class = false;
        for (const auto& [key, value] : recorder.validations.back().values) {
            per_class = per_class || key == "val_metric_per_class/top1_acc/discs";
        }
        QVERIFY(per_class);
        int logged = 0;
        for (const std::string& line : linesOf(run.metrics_jsonl())) {
            logged += json::parse(line).contains("val_metric/top1_acc_micro") ? 1 : 0;
        }
        QCOMPARE(logged, 6);
    }

    void stepsAndValidationIntervalAreHonoured() {
        Recorder recorder;
        const auto config =
            classification(root_ / "cls-steps", 100, {{"steps", 5}, {"val_every_n_steps", 2}});
        const auto summary = kiln::train::train(config, recorder);
        QCOMPARE(summary.steps, std::int64_t(5));
        QCOMPARE(recorder.validations.size(), std::size_t(3));
        QCOMPARE(recorder.validations[0].step, std::int64_t(2));
        QCOMPARE(recorder.validations[1].step, std::int64_t(4));
        QCOMPARE(recorder.validations[2].step, std::int64_t(5));
    }

    void resumeKeepsTheBestValue() {
        const fs::path out = root_ / "cls-resume";
        Recorder first;
        first.stop_after_epoch = 1;
        const auto stopped = kiln::train::train(classification(out, 4), first, first.stop);
        QCOMPARE(stopped.status, kiln::train::RunSummary::Status::Cancelled);
        QVERIFY(stopped.best_value.has_value());
        Recorder second;
        const auto resumed =
            kiln::train::train(classification(out, 4, {{"resume_interrupted", true}}), second);
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        QVERIFY(*resumed.best_value >= *stopped.best_value);
        // A validation no better than the first run's best is not marked best.
        for (const auto& validation : second.validations) {
            const double top1 =
                second.value(&validation - second.validations.data(), "val_metric/top1_acc_micro");
            if (top1 <= *stopped.best_value) {
                QVERIFY(!validation.best);
            }
        }
    }

    // A stop during a validation leaves the run to finish: the validation is redone on resume
    // (the last one cut short read as a finished run, without it); a finished run resumed is
    // not validated again (its last validation was recorded twice).
    void aValidationCutShortIsRedoneOnResume() {
        const fs::path out = root_ / "cls-cut-short";
        Recorder first;
        first.stop_after_epoch = 3; // the last epoch: its validation starts after the stop
        const auto stopped = kiln::train::train(classification(out, 4), first, first.stop);
        QCOMPARE(stopped.status, kiln::train::RunSummary::Status::Cancelled);
        QCOMPARE(first.validations.size(), std::size_t(3));
        Recorder second;
        const auto resumed =
            kiln::train::train(classification(out, 4, {{"resume_interrupted", true}}), second);
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(resumed.steps, stopped.steps);
        QCOMPARE(second.validations.size(), std::size_t(1));
        QCOMPARE(second.validations[0].step, stopped.steps);
        QVERIFY(fs::exists(kiln::track::RunDirectory(out).best_checkpoint()));
        Recorder third;
        const auto again =
            kiln::train::train(classification(out, 4, {{"resume_interrupted", true}}), third);
        QCOMPARE(again.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(third.validations.size(), std::size_t(0));
        QCOMPARE(*again.best_value, *resumed.best_value);
    }

    void multilabelTrainsOnBinaryLossesAndKeepsTheBestMap() {
        // Labels from a CSV: stripes are "lines", discs "round", every image is "any", and
        // every third image of either also "tagged" (by nothing visible: its AP stays near
        // chance).
        const fs::path csv_dir = root_ / "cls";
        for (const char* split : {"train", "val"}) {
            std::ofstream csv(csv_dir / (std::string(split) + ".csv"));
            csv << "image,label\n";
            int n = 0;
            for (const char* cls : {"stripes", "discs"}) {
                for (const auto& entry : fs::directory_iterator(csv_dir / split / cls)) {
                    csv << split << "/" << cls << "/" << entry.path().filename().string() << ","
                        << (std::string(cls) == "stripes" ? "lines" : "round") << ";any"
                        << (n++ % 3 == 0 ? ";tagged" : "") << "\n";
                }
            }
        }
        const fs::path out = root_ / "multilabel";
        json settings = common(out, 4);
        settings["data"] = {{"train", (csv_dir / "train.csv").string()},
                            {"val", (csv_dir / "val.csv").string()}};
        Recorder recorder;
        const auto summary =
            kiln::train::train(kiln::resolve_train_config(settings, kiln::test::cpu_context(),
                                                          TaskKind::ImageClassification),
                               recorder);
        QCOMPARE(summary.watch_metric, std::string("val_metric/map"));
        QCOMPARE(recorder.validations.size(), std::size_t(4));
        const double lines_ap = recorder.value(3, "val_metric_per_class/ap/lines");
        QVERIFY2(lines_ap > 0.9, qPrintable(QString::number(lines_ap)));
        QVERIFY(recorder.value(3, "val_metric/f1_micro") > 0.5);

        const kiln::PredictConfig predict =
            predictOnCpu(out, csv_dir / "val" / "stripes", root_ / "multilabel.csv", 8, 0);
        QCOMPARE(kiln::predict::run_prediction(predict).images, std::int64_t(8));
        // One line per label scored 0.5 or more: "any" for every image, "lines" for most.
        int lines = 0, any = 0, round = 0;
        for (const std::string& line : linesOf(predict.out)) {
            lines += line.find(",lines,") != std::string::npos ? 1 : 0;
            any += line.find(",any,") != std::string::npos ? 1 : 0;
            round += line.find(",round,") != std::string::npos ? 1 : 0;
        }
        QCOMPARE(any, 8);
        QVERIFY2(lines >= 7 && round <= 1, qPrintable(QString("%1 %2").arg(lines).arg(round)));
    }

    // Trains `config`: how far each of the model's parameters moved (mean absolute change).
    static std::map<std::string, double> parameterChanges(const kiln::TrainConfig& config) {
        torch::manual_seed(3); // the trainer seeds the same way before building the task
        kiln::train::ClassificationTask seeded(config);
        Recorder recorder;
        kiln::train::train(config, recorder);
        kiln::train::ClassificationTask trained(config, {{"discs", "stripes"}, false});
        const auto archive = kiln::models::read_checkpoint_file(
            kiln::track::RunDirectory(config.out).last_checkpoint());
        if (!archive) {
            throw std::runtime_error("the run wrote no checkpoint");
        }
        trained.load(archive->child(kiln::models::checkpoint_key::kModel));
        const auto final_parameters = trained.module().named_parameters();
        std::map<std::string, double> changes;
        for (const auto& item : seeded.module().named_parameters()) {
            changes[item.key()] =
                (final_parameters[item.key()] - item.value()).abs().mean().item<double>();
        }
        return changes;
    }

    // Trains `config` and checks which of the model's parameters moved: none of the backbone's
    // when `backbone_moves` is false, some of the head's always.
    void checkWhatTrains(const kiln::TrainConfig& config, bool backbone_moves) {
        bool head_moved = false;
        bool backbone_moved = false;
        for (const auto& [name, change] : parameterChanges(config)) {
            if (name.rfind("backbone.", 0) == 0) {
                QVERIFY2(change == 0 || backbone_moves, name.c_str());
                backbone_moved = backbone_moved || change != 0;
            } else {
                head_moved = head_moved || change != 0;
            }
        }
        QVERIFY(head_moved);
        QCOMPARE(backbone_moved, backbone_moves);
    }

    void linearProbingLeavesTheBackboneAlone() {
        checkWhatTrains(
            classification(root_ / "cls-probe", 1, {{"model_args", {{"freeze_backbone", true}}}}),
            false);
    }

    void headWarmupTrainsTheHeadAlone() {
        // One epoch of two: head only in the first; the backbone learns from the second.
        checkWhatTrains(classification(root_ / "cls-head-warmup", 1,
                                       {{"optim_args", {{"head_warmup_epochs", 1}}}}),
                        false);
        checkWhatTrains(classification(root_ / "cls-head-warmup-2", 2,
                                       {{"optim_args", {{"head_warmup_epochs", 1}}}}),
                        true);
        checkWhatTrains(classification(root_ / "cls-backbone-factor-0", 1,
                                       {{"optim_args", {{"backbone_lr_factor", 0.0}}}}),
                        false);
    }

    // Each block of the small CNN learns at a tenth of the rate of the block above it: AdamW's
    // steps are about the rate in size, so the first block moves a thousandth of the last.
    void layerDecaySlowsTheLayersNearTheInput() {
        const auto first_to_last = [this](const std::string& name, double decay) {
            const auto changes = parameterChanges(classification(
                root_ / name, 1, {{"optim", "adamw"}, {"optim_args", {{"layer_decay", decay}}}}));
            return changes.at("backbone.features.0.weight") /
                   changes.at("backbone.features.9.weight");
        };
        const double plain = first_to_last("cls-no-decay", 1.0);
        const double decayed = first_to_last("cls-decay", 0.1);
        qInfo("the first block's change against the last's: %g, with layer_decay 0.1 %g", plain,
              decayed);
        QVERIFY2(decayed < 0.05 * plain,
                 qPrintable(QStringLiteral("%1 against %2").arg(decayed).arg(plain)));
        QVERIFY(kiln::test::throwsContaining(
            [this] {
                classification(root_ / "cls-decay-bad", 1, {{"optim_args", {{"layer_decay", 0}}}});
            },
            "optim_args.layer_decay"));
    }

    void mixingAndSmoothingTrainAndValidateWithThePlainLoss() {
        Recorder recorder;
        const auto summary = kiln::train::train(
            classification(
                root_ / "cls-mixed", 4,
                {{"model_args", {{"label_smoothing", 0.1}}},
                 {"transform_args",
                  {{"image_size", 32}, {"mixup", {{"prob", 0.5}}}, {"cutmix", {{"prob", 0.5}}}}}}),
            recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(recorder.validations.size(), std::size_t(4));
        const double top1 = recorder.value(3, "val_metric/top1_acc_micro");
        QVERIFY2(top1 >= 0.75, qPrintable(QString::number(top1)));
        QVERIFY(std::isfinite(recorder.value(3, "val_loss")));
        // The keys are classification's: segmentation refuses them, and bad values are named.
        QVERIFY(kiln::test::throwsContaining(
            [this] {
                segmentation(root_ / "seg-mixed", 1,
                             {{"transform_args", {{"cutmix", {{"prob", 0.5}}}}}});
            },
            "cutmix"));
        QVERIFY(kiln::test::throwsContaining(
            [this] {
                classification(root_ / "cls-mix-bad", 1,
                               {{"transform_args", {{"mixup", {{"prob", 2}}}}}});
            },
            "transform_args.mixup.prob"));
        QVERIFY(kiln::test::throwsContaining(
            [this] {
                classification(root_ / "cls-smooth-bad", 1,
                               {{"model_args", {{"label_smoothing", 1.5}}}});
            },
            "label_smoothing"));
        QVERIFY(kiln::test::throwsContaining(
            [this] {
                classification(root_ / "cls-factor-bad", 1,
                               {{"optim_args", {{"backbone_lr_factor", -1}}}});
            },
            "optim_args.backbone_lr_factor"));
    }

    void mixedBatchesKeepImagesAndLabelsInTheSameShares() {
        torch::manual_seed(5);
        const torch::Tensor images = torch::rand({4, 3, 16, 20});
        const torch::Tensor targets =
            torch::one_hot(torch::tensor({0, 1, 2, 1}), 3).to(torch::kFloat32);
        const torch::Tensor partner = images.flip(0);
        kiln::data::BatchMixing mixup;
        mixup.mixup_prob = 1.0;
        const auto blended = kiln::train::mix_batch(images, targets, mixup);
        QVERIFY(blended.share > 0 && blended.share < 1);
        QVERIFY(torch::allclose(blended.images,
                                images * blended.share + partner * (1 - blended.share)));
        QVERIFY(torch::allclose(blended.targets,
                                targets * blended.share + targets.flip(0) * (1 - blended.share)));
        kiln::data::BatchMixing cutmix;
        cutmix.cutmix_prob = 1.0;
        for (int draw = 0; draw < 5; ++draw) {
            const auto cut = kiln::train::mix_batch(images, targets, cutmix);
            // Each pixel is its own image's or its partner's; the partner's share of the pixels
            // is its share of the label.
            const torch::Tensor from_partner = cut.images.eq(partner).all(1);
            QVERIFY(cut.images.eq(images).all(1).logical_or(from_partner).all().item<bool>());
            const double pasted = from_partner[0].to(torch::kFloat64).mean().item<double>();
            QVERIFY2(std::abs(pasted - (1 - cut.share)) < 1e-9,
                     qPrintable(QString("%1 %2").arg(pasted).arg(cut.share)));
            QVERIFY(torch::allclose(cut.targets.sum(1), torch::ones({4})));
        }
        kiln::data::BatchMixing none;
        QVERIFY(torch::equal(kiln::train::mix_batch(images, targets, none).images, images));
    }

    void checkpointsForOtherClassesAreRefused() {
        // checkpoint= (weights only) of a run whose classes differ: a clear error, not a head
        // of the wrong width.
        const fs::path other = root_ / "cls-other";
        writeClassFolders(other / "train", 2, 0);
        writeClassFolders(other / "val", 2, 10);
        fs::rename(other / "train" / "discs", other / "train" / "circles");
        fs::rename(other / "val" / "discs", other / "val" / "circles");
        const fs::path out = root_ / "cls-run";
        json settings = common(root_ / "cls-other-run", 1);
        settings["data"] = {{"train", (other / "train").string()},
                            {"val", (other / "val").string()}};
        settings["checkpoint"] = kiln::track::RunDirectory(out).best_checkpoint().string();
        try {
            kiln::train::ClassificationTask task(kiln::resolve_train_config(
                settings, kiln::test::cpu_context(), TaskKind::ImageClassification));
            QFAIL("a checkpoint for other classes must be refused");
        } catch (const kiln::Error& error) {
            QVERIFY2(std::string(error.what()).find("[discs, stripes]") != std::string::npos,
                     error.what());
        }
    }

    void backboneWeightsComeFromAPretrainingRun() {
        // A pretraining run folder's exported model becomes the classifier's backbone.
        const fs::path run = root_ / "pretrained";
        fs::create_directories(run / "exported_models");
        torch::manual_seed(11);
        const auto backbone = kiln::models::make_backbone("smallcnn");
        kiln::models::save_backbone_weights(*backbone,
                                            kiln::track::RunDirectory(run).exported_last());
        const auto config =
            classification(root_ / "cls-from-run", 1,
                           {{"model_args", {{"backbone_weights", run.string()}, {"head", "mlp"}}}});
        kiln::train::ClassificationTask task(config);
        const auto loaded = task.module().named_parameters();
        for (const auto& item : backbone->named_parameters()) {
            QVERIFY2(torch::equal(loaded["backbone." + item.key()], item.value()),
                     item.key().c_str());
        }
        QVERIFY_THROWS_EXCEPTION(
            kiln::Error, kiln::train::ClassificationTask(classification(
                             root_ / "cls-bad-weights", 1,
                             {{"model_args", {{"backbone_weights", (root_ / "cls").string()}}}})));
    }

    void segmentationLearnsAndPredictsMasksAtImageSize() {
        const fs::path out = root_ / "seg-run";
        Recorder recorder;
        const auto summary =
            kiln::train::train(segmentation(out, 10, {{"optim_args", {{"lr", 0.02}}}}), recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(recorder.validations.size(), std::size_t(10));
        const double miou = recorder.value(recorder.validations.size() - 1, "val_metric/miou");
        QVERIFY2(*summary.best_value > 0.5, qPrintable(QString::number(*summary.best_value)));
        QVERIFY(miou >= 0 && miou <= 1);
        QVERIFY(recorder.value(0, "val_metric/pixel_acc") > 0);
        // Pixels: the matrix's diagonal over its sum is the pixel accuracy.
        const kiln::train::ConfusionCounts& pixels = recorder.validations.back().confusion;
        QCOMPARE(pixels.classes.size(), std::size_t(3));
        std::int64_t diagonal = 0, all = 0;
        for (std::size_t r = 0; r < 3; ++r) {
            for (std::size_t c = 0; c < 3; ++c) {
                all += pixels.counts[r * 3 + c];
                diagonal += r == c ? pixels.counts[r * 3 + c] : 0;
            }
        }
        QVERIFY(std::abs(double(diagonal) / double(all) -
                         recorder.value(recorder.validations.size() - 1, "val_metric/pixel_acc")) <
                1e-12);
        // Previews: the first 8 validation images' masks as the labels give them (32 px, under
        // the preview's limit) and as the model predicts them, mostly right by the end.
        const kiln::train::PredictionPreviews& previews = recorder.validations.back().previews;
        QCOMPARE(previews.images.size(), std::size_t(8));
        QCOMPARE(previews.classes, pixels.classes);
        std::int64_t agreeing = 0;
        for (const kiln::train::PredictionPreview& preview : previews.images) {
            QCOMPARE(preview.mask_width, 32);
            QCOMPARE(preview.mask_height, 32);
            const cv::Mat truth =
                cv::imread((root_ / "seg/val/masks" / preview.image.filename()).string(),
                           cv::IMREAD_UNCHANGED);
            QVERIFY(std::equal(preview.true_mask.begin(), preview.true_mask.end(),
                               truth.ptr<std::uint8_t>(), truth.ptr<std::uint8_t>() + 32 * 32));
            QCOMPARE(preview.predicted_mask.size(), std::size_t(32 * 32));
            for (std::size_t p = 0; p < preview.predicted_mask.size(); ++p) {
                agreeing += preview.predicted_mask[p] == preview.true_mask[p] ? 1 : 0;
            }
        }
        QVERIFY2(agreeing > 0.8 * 8 * 32 * 32, qPrintable(QString::number(agreeing)));

        const kiln::PredictConfig predict =
            predictOnCpu(out, root_ / "seg" / "val" / "images", root_ / "seg-predictions", 4, 1);
        const auto result = kiln::predict::run_prediction(predict);
        QCOMPARE(result.images, std::int64_t(16));
        QCOMPARE(result.task, std::string("semantic_segmentation"));
        int correct = 0, total = 0;
        for (int i = 500; i < 516; ++i) {
            const cv::Mat mask = cv::imread((predict.out / (std::to_string(i) + ".png")).string(),
                                            cv::IMREAD_UNCHANGED);
            const cv::Mat truth =
                cv::imread((root_ / "seg/val/masks" / (std::to_string(i) + ".png")).string(),
                           cv::IMREAD_UNCHANGED);
            QCOMPARE(mask.size(), cv::Size(32, 32));
            QCOMPARE(mask.type(), CV_8UC1);
            double highest = 0;
            cv::minMaxLoc(mask, nullptr, &highest);
            QVERIFY(highest <= 2);
            correct += cv::countNonZero(mask == truth);
            total += 32 * 32;
        }
        QVERIFY2(correct > 0.8 * total, qPrintable(QString::number(double(correct) / total)));

        // At a size of the user's (image_size, not the run's 32 px) the model sees other
        // pixels, and the masks still come at each image's own size.
        kiln::PredictConfig resized = predict;
        resized.out = root_ / "seg-predictions-64";
        resized.image_height = resized.image_width = 64;
        QCOMPARE(kiln::predict::run_prediction(resized).images, std::int64_t(16));
        int differing = 0;
        for (int i = 500; i < 516; ++i) {
            const std::string name = std::to_string(i) + ".png";
            const cv::Mat at64 = cv::imread((resized.out / name).string(), cv::IMREAD_UNCHANGED);
            QCOMPARE(at64.size(), cv::Size(32, 32));
            differing += cv::countNonZero(
                at64 != cv::imread((predict.out / name).string(), cv::IMREAD_UNCHANGED));
        }
        QVERIFY(differing > 0);
        // Two images whose masks would have one name: refused before any is written.
        kiln::PredictConfig colliding = predict;
        colliding.out = root_ / "seg-colliding";
        fs::create_directories(root_ / "seg-copy");
        fs::copy_file(root_ / "seg/val/images/500.png", root_ / "seg-copy/500.jpg");
        colliding.data.push_back(root_ / "seg-copy");
        QVERIFY(kiln::test::throwsContaining([&] { kiln::predict::run_prediction(colliding); },
                                             "would both be written as \"500.png\"; predict "
                                             "each data folder into its own out"));
        QVERIFY(!fs::exists(colliding.out));

        // Stopped after its first batch, a prediction leaves no masks, nor a staging folder;
        // finished into a folder holding other files, it leaves them.
        kiln::PredictConfig stopped = predict;
        stopped.out = root_ / "seg-stopped" / "masks";
        kiln::StopToken stop;
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::predict::run_prediction(
                    stopped, [&stop](std::int64_t, std::int64_t) { stop.request_stop(); }, stop);
            },
            "prediction stopped; nothing was written"));
        QVERIFY(fs::is_empty(stopped.out.parent_path()));
        fs::create_directories(stopped.out);
        std::ofstream(stopped.out / "notes.txt") << "mine";
        stopped.overwrite = true;
        QCOMPARE(kiln::predict::run_prediction(stopped).images, std::int64_t(16));
        QVERIFY(fs::exists(stopped.out / "notes.txt") && fs::exists(stopped.out / "500.png"));
        QCOMPARE(std::distance(fs::directory_iterator(stopped.out.parent_path()),
                               fs::directory_iterator()),
                 std::ptrdiff_t(1));
    }

    void classificationPredictsNamedClasses() {
        const fs::path out = root_ / "cls-run";
        const kiln::PredictConfig predict =
            predictOnCpu(out, root_ / "cls" / "val", root_ / "predictions.csv", 5, 2);
        const auto result = kiln::predict::run_prediction(predict);
        QCOMPARE(result.images, std::int64_t(16));
        const std::vector<std::string> lines = linesOf(predict.out);
        QCOMPARE(lines.size(), std::size_t(17));
        QCOMPARE(lines[0], std::string("filename,class,score"));
        int correct = 0;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const std::string& line = lines[i];
            const std::string filename = line.substr(0, line.find(','));
            const std::string rest = line.substr(line.find(',') + 1);
            const std::string cls = rest.substr(0, rest.find(','));
            const double score = std::stod(rest.substr(rest.find(',') + 1));
            QVERIFY(cls == "discs" || cls == "stripes");
            QVERIFY(score > 0 && score <= 1.0);
            correct += filename.rfind(cls + "/", 0) == 0 ? 1 : 0;
        }
        QVERIFY2(correct >= 14, qPrintable(QString::number(correct)));
        // A pretraining checkpoint has no task model: a clear error, and no file.
        kiln::PredictConfig wrong = predict;
        wrong.out = root_ / "never.csv";
        wrong.checkpoint = root_ / "pretrained" / "exported_models" / "exported_last.pt";
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::predict::run_prediction(wrong));
        QVERIFY(!fs::exists(wrong.out));
    }

    void badDataIsReportedBeforeAnythingIsWritten() {
        const fs::path bad = root_ / "bad";
        writeClassFolders(bad / "train", 2, 0);
        writeClassFolders(bad / "val", 2, 50);
        fs::create_directories(bad / "val" / "cats");
        fs::copy_file(bad / "val" / "discs" / "51.png", bad / "val" / "cats" / "1.png");
        const fs::path out = root_ / "bad-run";
        json settings = common(out, 1);
        settings["data"] = {{"train", (bad / "train").string()}, {"val", (bad / "val").string()}};
        const auto config = kiln::resolve_train_config(settings, kiln::test::cpu_context(),
                                                       TaskKind::ImageClassification);
        Recorder recorder;
        try {
            kiln::train::train(config, recorder);
            QFAIL("a val class that train lacks must be an error");
        } catch (const kiln::ConfigError& error) {
            const std::string message = error.what();
            QVERIFY2(message.find("data.val") != std::string::npos &&
                         message.find("\"cats\"") != std::string::npos,
                     error.what());
        }
        QVERIFY(!fs::exists(out));

        // A mask whose ids leave data.classes, named with its file.
        const fs::path seg = root_ / "bad-seg";
        writeSegmentationSet(seg / "train", 4, 0);
        writeSegmentationSet(seg / "val", 2, 10);
        cv::imwrite((seg / "val/masks/11.png").string(), cv::Mat(32, 32, CV_8UC1, cv::Scalar(7)));
        json seg_settings = common(root_ / "bad-seg-run", 1);
        seg_settings["data"] = {
            {"train",
             {{"images", (seg / "train/images").string()},
              {"masks", (seg / "train/masks").string()}}},
            {"val",
             {{"images", (seg / "val/images").string()}, {"masks", (seg / "val/masks").string()}}},
            {"classes", {"background", "red", "green"}}};
        try {
            kiln::train::train(kiln::resolve_train_config(seg_settings, kiln::test::cpu_context(),
                                                          TaskKind::SemanticSegmentation),
                               recorder);
            QFAIL("a mask id outside data.classes must be an error");
        } catch (const kiln::ConfigError& error) {
            const std::string message = error.what();
            QVERIFY2(message.find("11.png") != std::string::npos &&
                         message.find("class id 7") != std::string::npos,
                     error.what());
        }
        QVERIFY(!fs::exists(root_ / "bad-seg-run"));
    }

    void configRoundTripsWithItsTask() {
        const auto config = segmentation(root_ / "roundtrip", 3, {{"val_every_n_steps", 7}});
        const json written = kiln::to_json(config);
        QCOMPARE(written["task"], json("semantic_segmentation"));
        const kiln::TrainConfig read = kiln::parse_train_config(written);
        QCOMPARE(read.task, TaskKind::SemanticSegmentation);
        QCOMPARE(*read.val_every_n_steps, 7);
        QCOMPARE(read.watch_metric, std::string("val_metric/miou"));
        QCOMPARE(kiln::to_json(read), written);
        json wrong = written;
        wrong["watch_metric"] = "miou";
        QVERIFY_THROWS_EXCEPTION(kiln::ConfigError,
                                 kiln::resolve_train_config(wrong, kiln::test::cpu_context(),
                                                            TaskKind::SemanticSegmentation));
        // Settings of one task given to another command's resolution are refused.
        QVERIFY_THROWS_EXCEPTION(kiln::ConfigError,
                                 kiln::resolve_train_config(written, kiln::test::cpu_context()));
        // A watch_metric the task does not compute is refused before the run starts.
        auto misspelt =
            classification(root_ / "misspelt", 1, {{"watch_metric", "val_metric/top1"}});
        QVERIFY_THROWS_EXCEPTION(kiln::ConfigError, kiln::train::ClassificationTask{misspelt});
        QVERIFY(!fs::exists(root_ / "misspelt"));
    }
};

QTEST_APPLESS_MAIN(FinetuneTest)
#include "tst_finetune.moc"
