// kiln export format=onnx: every model family and task exports, passes ONNX's checker, and
// gives Kiln's own outputs on real images in ONNX Runtime (fp32 within 1e-4 relative, fp16
// within 2e-2), with a dynamic or fixed batch; what Kiln cannot export is a clear error.

#include "config/run_config.h"
#include "core/error.h"
#include "core/log.h"
#include "data/dataset_index.h"
#include "data/idx_import.h"
#include "data/loader.h"
#include "data/view_transform.h"
#include "deploy/onnx_export.h"
#include "models/backbone.h"
#include "models/backbone_names.h"
#include "models/detector.h"
#include "onnx/graph.h"
#include "support/python.h"
#include "support/shape_scenes.h"
#include "support/shapes_idx.h"
#include "support/validation_recorder.h"
#include "train/finetuning_task.h"
#include "train/trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <torch/types.h>

namespace fs = std::filesystem;
using kiln::TaskKind;
using nlohmann::json;

namespace {

const QString kPeers = QStringLiteral("onnx, onnxruntime");
constexpr int kImageSize = 64;
constexpr double kFloat32Tolerance = 1e-4;
constexpr double kFloat16Tolerance = 2e-2;

// One output of Kiln's own to compare: `first` > 0 compares only the best `first` detections.
struct Expected {
    std::string name;
    at::Tensor value;
    int first = 0;
};

void writeTensor(const fs::path& file, const at::Tensor& tensor) {
    const at::Tensor contiguous = tensor.contiguous();
    std::ofstream(file, std::ios::binary)
        .write(static_cast<const char*>(contiguous.data_ptr()),
               static_cast<std::streamsize>(contiguous.nbytes()));
}

} // namespace

class ExportTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root_;
    std::unique_ptr<kiln::log::ScopedSink> quiet_;
    std::map<std::string, fs::path> checkpoints_;
    int cases_ = 0;

    json common(const fs::path& out, const std::string& model) const {
        return {{"out", out.string()},
                {"model", model},
                {"batch_size", 4},
                {"num_workers", 0},
                {"accelerator", "cpu"},
                {"seed", 3},
                {"transform_args", {{"image_size", kImageSize}}}};
    }

    json cocoData() const {
        const auto split = [this](const char* name) {
            return json{{"annotations", (root_ / name / "annotations.json").string()},
                        {"images", (root_ / name / "images").string()}};
        };
        return {{"train", split("train")}, {"val", split("val")}};
    }

    // A few steps of training, so that batch norms hold statistics of real images.
    fs::path trainedCheckpoint(TaskKind task, const std::string& model) {
        const std::string key = std::to_string(int(task)) + model;
        if (checkpoints_.count(key) != 0) {
            return checkpoints_[key];
        }
        const fs::path out = root_ / ("run-" + key);
        json settings = common(out, model);
        switch (task) {
        case TaskKind::Pretraining:
            settings["data"] = (root_ / "train" / "images").string();
            settings["method"] = "simclr";
            settings["epochs"] = 1;
            settings["batch_size"] = 8;
            break;
        case TaskKind::ImageClassification:
            settings["data"] = {{"train", (root_ / "shapes").string()},
                                {"val", (root_ / "shapes").string()}};
            settings["steps"] = 3;
            break;
        case TaskKind::SemanticSegmentation: {
            std::ifstream classes(root_ / "train" / "classes.json");
            const auto split = [this](const char* name) {
                return json{{"images", (root_ / name / "images").string()},
                            {"masks", (root_ / name / "masks").string()}};
            };
            settings["data"] = {{"train", split("train")},
                                {"val", split("val")},
                                {"classes", json::parse(classes)}};
            settings["steps"] = 3;
            break;
        }
        case TaskKind::ObjectDetection:
        case TaskKind::InstanceSegmentation:
            settings["data"] = cocoData();
            // Trained past the first steps, whose scores can tie exactly; ONNX Runtime's
            // suppression breaks ties its own way.
            settings["steps"] = 30;
            break;
        }
        kiln::test::ValidationRecorder recorder;
        const auto summary = kiln::train::train(
            kiln::resolve_train_config(settings, kiln::test::cpu_context(), task), recorder);
        if (summary.status != kiln::train::RunSummary::Status::Finished) {
            throw kiln::Error("the " + key + " run was cancelled");
        }
        return checkpoints_[key] = out / "checkpoints" / "last.ckpt";
    }

    // The validation images as Kiln prepares them for `transform` (no augmentation).
    at::Tensor images(const kiln::data::TransformArgs& transform) const {
        const auto index = kiln::data::DatasetIndex::scan({root_ / "val" / "images"});
        kiln::data::LoaderOptions options;
        options.batch_size = 3;
        options.shuffle = false;
        options.drop_last = false;
        kiln::data::Loader loader(index, transform, options);
        loader.start_epoch(0);
        return loader.next()->views.at(0);
    }

    kiln::ExportConfig exportConfig(const fs::path& checkpoint, const std::string& name) const {
        kiln::ExportConfig config;
        config.checkpoint = checkpoint;
        config.out = root_ / (name + ".onnx");
        config.overwrite = true;
        return config;
    }

    // ONNX's checker and ONNX Runtime on the exported file, against Kiln's outputs for `input`.
    QJsonObject compare(const fs::path& model, const at::Tensor& input,
                        const std::vector<Expected>& expected) {
        const fs::path folder = root_ / ("case-" + std::to_string(cases_++));
        fs::create_directories(folder);
        writeTensor(folder / "input.bin", input.to(torch::kFloat32));
        json outputs = json::object();
        for (const Expected& output : expected) {
            const bool integer = output.value.scalar_type() == torch::kLong;
            const at::Tensor value = integer ? output.value : output.value.to(torch::kFloat32);
            writeTensor(folder / (output.name + ".bin"), value);
            outputs[output.name] = {{"file", output.name + ".bin"},
                                    {"dtype", integer ? "int64" : "float32"},
                                    {"shape", value.sizes().vec()}};
            if (output.first > 0) {
                outputs[output.name]["first"] = output.first;
            }
        }
        std::ofstream(folder / "case.json")
            << json{{"input", input.sizes().vec()}, {"outputs", outputs}}.dump();
        QFile script(QStringLiteral(KILN_SOURCE_DIR "/tests/deploy/onnx_compare.py"));
        script.open(QIODevice::ReadOnly);
        const auto result = kiln::test::runPython(
            QString::fromUtf8(script.readAll()),
            {QString::fromStdString(model.string()), QString::fromStdString(folder.string())});
        if (result.exit_code != 0) {
            qWarning().noquote() << result.errors;
            return {};
        }
        return QJsonDocument::fromJson(result.output.toUtf8()).object();
    }

    static void verifyClose(const QJsonObject& result, double tolerance) {
        QVERIFY2(!result.isEmpty(), "ONNX's checker or ONNX Runtime failed on the export");
        const QJsonObject relative = result.value("relative").toObject();
        for (const QString& name : relative.keys()) {
            const double difference = relative.value(name).toDouble();
            qInfo("%s: %.3g relative", qPrintable(name), difference);
            QVERIFY2(difference <= tolerance,
                     qPrintable(QStringLiteral("%1 differs from Kiln's by %2 (relative)")
                                    .arg(name)
                                    .arg(difference)));
        }
        if (result.contains("batch_consistency")) {
            QVERIFY2(result.value("batch_consistency").toDouble() <= tolerance,
                     "one image at a time differs from the whole batch");
        }
    }

    // The task model of a fine-tuning checkpoint, in eval mode.
    static std::unique_ptr<kiln::train::FinetuningTask> loadTask(const fs::path& checkpoint,
                                                                 kiln::TrainConfig* config) {
        auto loaded = kiln::train::load_finetuning_task(checkpoint, config);
        loaded->module().eval();
        return loaded;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        if (!kiln::test::pythonHas(kPeers)) {
            QSKIP(kiln::test::pythonMissing(kPeers));
        }
        root_ = temp_.path().toStdString();
        kiln::test::write_shapes_idx(root_ / "shapes-images", root_ / "shapes-labels", 64);
        kiln::data::IdxImportOptions classes;
        classes.images = root_ / "shapes-images";
        classes.labels = root_ / "shapes-labels";
        classes.out = root_ / "shapes";
        kiln::data::import_idx(classes);
        kiln::test::write_shape_scenes(root_ / "shapes-images", root_ / "shapes-labels", root_,
                                       kImageSize, 16, 6);
        quiet_ =
            std::make_unique<kiln::log::ScopedSink>([](kiln::log::Level, const std::string&) {});
        torch::NoGradGuard no_grad;
    }

    void backbonesOfEveryFamily_data() {
        QTest::addColumn<QString>("model");
        for (const std::string& model : kiln::models::backbone_names()) { // every one Kiln has
            QTest::newRow(model.c_str()) << QString::fromStdString(model);
        }
    }

    void backbonesOfEveryFamily() {
        QFETCH(QString, model);
        const fs::path checkpoint = trainedCheckpoint(TaskKind::Pretraining, model.toStdString());
        torch::NoGradGuard no_grad;
        const kiln::models::Backbone backbone = kiln::models::load_backbone(checkpoint);
        backbone->eval();
        const at::Tensor input = images(kiln::data::embed_transform(kImageSize, kImageSize));
        const at::Tensor features = backbone->forward(input);

        kiln::ExportConfig config = exportConfig(checkpoint, "backbone-" + model.toStdString());
        const kiln::deploy::ExportSummary summary = kiln::deploy::export_onnx(config);
        QCOMPARE(summary.what, std::string("backbone"));
        QCOMPARE(summary.image_height, kImageSize); // as trained
        QVERIFY(summary.self_check_difference < 1e-4);
        const QJsonObject result = compare(config.out, input, {{"features", features}});
        verifyClose(result, kFloat32Tolerance);
        QCOMPARE(result.value("outputs").toVariant().toStringList(), QStringList{"features"});
        QCOMPARE(result.value("input_shape").toVariant().toStringList(),
                 (QStringList{"batch", "3", "64", "64"}));
        const QJsonObject metadata = result.value("metadata").toObject();
        QCOMPARE(metadata.value("kiln.task").toString(), QStringLiteral("backbone"));
        QCOMPARE(metadata.value("kiln.model").toString(), model);
        const QJsonObject preprocessing =
            QJsonDocument::fromJson(metadata.value("kiln.preprocessing").toString().toUtf8())
                .object();
        QCOMPARE(preprocessing.value("mean").toArray().at(0).toDouble(), 0.485);
        QCOMPARE(preprocessing.value("channels").toString(), QStringLiteral("RGB"));

        // Half precision: weights, input and output in fp16.
        config.half_precision = true;
        config.out = root_ / ("backbone-" + model.toStdString() + "-fp16.onnx");
        kiln::deploy::export_onnx(config);
        const QJsonObject half = compare(config.out, input, {{"features", features}});
        QCOMPARE(half.value("input_type").toString(), QStringLiteral("tensor(float16)"));
        verifyClose(half, kFloat16Tolerance);
    }

    void fixedBatchAndImageSize() {
        const fs::path checkpoint = trainedCheckpoint(TaskKind::Pretraining, "resnet18");
        kiln::ExportConfig config = exportConfig(checkpoint, "fixed");
        config.batch = 3;
        config.image_height = 48;
        config.image_width = 80;
        kiln::deploy::export_onnx(config);
        torch::NoGradGuard no_grad;
        const kiln::models::Backbone backbone = kiln::models::load_backbone(checkpoint);
        backbone->eval();
        const at::Tensor input = images(kiln::data::embed_transform(48, 80));
        const QJsonObject result =
            compare(config.out, input, {{"features", backbone->forward(input)}});
        verifyClose(result, kFloat32Tolerance);
        QCOMPARE(result.value("input_shape").toVariant().toStringList(),
                 (QStringList{"3", "3", "48", "80"}));
    }

    void taskModelsOfEveryFamily_data() {
        QTest::addColumn<int>("task");
        QTest::addColumn<QString>("model");
        for (const char* model : {"smallcnn", "resnet18", "vit_tiny"}) {
            for (const TaskKind task :
                 {TaskKind::ImageClassification, TaskKind::SemanticSegmentation,
                  TaskKind::ObjectDetection, TaskKind::InstanceSegmentation}) {
                QTest::newRow(
                    qPrintable(QStringLiteral("%1 %2")
                                   .arg(QString::fromStdString(kiln::task_traits(task).name))
                                   .arg(model)))
                    << int(task) << model;
            }
        }
    }

    void taskModelsOfEveryFamily() {
        QFETCH(int, task);
        QFETCH(QString, model);
        const auto kind = static_cast<TaskKind>(task);
        const fs::path checkpoint = trainedCheckpoint(kind, model.toStdString());
        torch::NoGradGuard no_grad;
        kiln::TrainConfig trained;
        const auto loaded = loadTask(checkpoint, &trained);
        const at::Tensor input = images(kiln::data::finetune_transform(
            trained.transform_args, false, 0.08, kiln::task_augmentations(trained.task)));
        std::vector<Expected> expected;
        std::vector<std::string> names;
        if (kind == TaskKind::ImageClassification || kind == TaskKind::SemanticSegmentation) {
            expected.push_back({"logits", loaded->forward(input)});
            names = {"logits"};
        } else {
            auto& detector = *loaded->module().as<kiln::models::DetectorImpl>();
            const auto output = detector.split(detector.forward(input), kImageSize, kImageSize);
            const auto found = kiln::models::decode_detections(output, kImageSize, kImageSize);
            // Padded as the export pads them: score, class, box and mask 0.
            const std::int64_t slots = kiln::models::detection_slots({}, output.anchors.size(0),
                                                                     output.class_logits.size(2));
            const kiln::models::PaddedDetections padded =
                kiln::models::padded_detections(found, slots, kImageSize, kImageSize);
            expected = {{"scores", padded.scores},
                        {"classes", padded.classes, 5},
                        {"boxes", padded.boxes, 5}};
            names = {"scores", "classes", "boxes"};
            if (padded.masks.defined()) {
                expected.push_back({"masks", padded.masks, 5});
                names.push_back("masks");
            }
        }
        const kiln::ExportConfig config =
            exportConfig(checkpoint, kiln::task_traits(kind).name + "-" + model.toStdString());
        const kiln::deploy::ExportSummary summary = kiln::deploy::export_onnx(config);
        QCOMPARE(summary.what, kiln::task_traits(kind).name);
        const QJsonObject result = compare(config.out, input, expected);
        verifyClose(result, kFloat32Tolerance);
        QStringList outputs;
        for (const std::string& name : names) {
            outputs << QString::fromStdString(name);
        }
        QCOMPARE(result.value("outputs").toVariant().toStringList(), outputs);
        const json classNames = json::parse(
            result.value("metadata").toObject().value("kiln.class_names").toString().toStdString());
        QCOMPARE(classNames.get<std::vector<std::string>>(), loaded->classes());
    }

    void aBarelyTrainedDetectorExports_data() {
        QTest::addColumn<int>("task");
        for (const TaskKind task : {TaskKind::ObjectDetection, TaskKind::InstanceSegmentation}) {
            QTest::newRow(kiln::task_traits(task).name.c_str()) << int(task);
        }
    }

    // After one step a detector's scores nearly tie everywhere, and batch norm folding reorders
    // them: the self-check compares the decoding on the graph's own predictions. (The graph's
    // mirror computes in fp32 either way; fp16 checks that such a file is written too.)
    void aBarelyTrainedDetectorExports() {
        QFETCH(int, task);
        const auto kind = static_cast<TaskKind>(task);
        const std::string name = "one-step-" + kiln::task_traits(kind).name;
        const fs::path out = root_ / name;
        json settings = common(out, "smallcnn");
        settings["data"] = cocoData();
        settings["steps"] = 1;
        kiln::test::ValidationRecorder recorder;
        kiln::train::train(kiln::resolve_train_config(settings, kiln::test::cpu_context(), kind),
                           recorder);
        for (const bool half : {false, true}) {
            kiln::ExportConfig config =
                exportConfig(out / "checkpoints" / "last.ckpt", name + (half ? "-fp16" : ""));
            config.half_precision = half;
            try {
                const kiln::deploy::ExportSummary summary = kiln::deploy::export_onnx(config);
                QVERIFY(summary.self_check_difference <= 1e-3);
            } catch (const kiln::Error& error) {
                QFAIL(error.what());
            }
            QVERIFY(fs::exists(config.out));
        }
    }

    void whatKilnCannotExportIsNamed() {
        if (!kiln::test::pythonHas(QStringLiteral("torch"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("torch")));
        }
        // A TorchScript backbone: the error names it and what to do instead.
        const fs::path module = root_ / "scripted.pt";
        const auto scripted = kiln::test::runPython(
            "import sys, torch\n"
            "m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.AdaptiveAvgPool2d(1),"
            " torch.nn.Flatten())\n"
            "torch.jit.script(m).save(sys.argv[1])\n",
            {QString::fromStdString(module.string())});
        QVERIFY2(scripted.exit_code == 0, qPrintable(scripted.errors));
        const auto backbone = kiln::models::make_backbone("torchscript:" + module.string());
        kiln::onnx::Graph graph(kiln::onnx::Precision::Float32);
        const auto input = graph.input("images", torch::zeros({2, 3, 32, 32}), 0);
        try {
            backbone->onnx_features(graph, input, "");
            QFAIL("a TorchScript backbone was exported");
        } catch (const kiln::Error& error) {
            QVERIFY2(std::string(error.what())
                             .find("TorchScript module, which Kiln cannot "
                                   "export") != std::string::npos,
                     error.what());
        }
        // A file that is no checkpoint: a clear error, and nothing written.
        kiln::ExportConfig config = exportConfig(module, "not-written");
        fs::remove(config.out);
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::deploy::export_onnx(config));
        QVERIFY(!fs::exists(config.out));
        // The command's settings: an existing file is kept without overwrite=true.
        std::ofstream(root_ / "kept.onnx") << "keep me";
        try {
            kiln::resolve_export_config({{"checkpoint", module.string()},
                                         {"out", (root_ / "kept.onnx").string()},
                                         {"batch", "dynamic"}});
            QFAIL("an existing out was accepted");
        } catch (const kiln::ConfigError& error) {
            QVERIFY(std::string(error.what()).find("overwrite=true") != std::string::npos);
        }
        const kiln::ExportConfig fixed =
            kiln::resolve_export_config({{"checkpoint", module.string()},
                                         {"out", (root_ / "a.onnx").string()},
                                         {"batch", 8},
                                         {"precision", "fp16"},
                                         {"image_size", 96}});
        QCOMPARE(fixed.batch, 8);
        QVERIFY(fixed.half_precision);
        QCOMPARE(fixed.image_width, 96);
        QVERIFY_THROWS_EXCEPTION(kiln::ConfigError,
                                 kiln::resolve_export_config({{"checkpoint", module.string()},
                                                              {"out", (root_ / "b.onnx").string()},
                                                              {"batch", "any"}}));
    }
};

QTEST_MAIN(ExportTest)
#include "tst_export.moc"
