// The `kiln` executable, run as a user runs it.

#include "support/python.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <sqlite3.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

namespace {

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
};

Result runKiln(const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(KILN_EXECUTABLE), arguments);
    if (!process.waitForFinished(60000)) {
        process.kill();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

} // namespace

class CliTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;

    QString writeFile(const QString& name, const QByteArray& contents) {
        const QString path = temp_.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            return {};
        }
        file.write(contents);
        return path;
    }

    // `count` images of 8x8 in two classes (even and odd i), through import-idx, into the
    // folder `name` of the temp folder; `pixel(i, p)` is image i's p-th pixel. Empty on failure.
    QString importTwoClasses(const QString& name, const std::function<int(int, int)>& pixel,
                             int count = 16) {
        QByteArray images = QByteArray::fromHex("00000803");
        QByteArray labels = QByteArray::fromHex("00000801");
        for (QByteArray* file : {&images, &labels}) {
            for (const int shift : {24, 16, 8, 0}) {
                file->append(static_cast<char>((count >> shift) & 0xFF));
            }
        }
        images.append(QByteArray::fromHex("0000000800000008"));
        for (int i = 0; i < count; ++i) {
            for (int p = 0; p < 64; ++p) {
                images.append(static_cast<char>(pixel(i, p)));
            }
            labels.append(static_cast<char>(i % 2));
        }
        const QString folder = temp_.filePath(name);
        const bool imported =
            runKiln({"import-idx", "--images", writeFile(name + "-images", images), "--labels",
                     writeFile(name + "-labels", labels), "--out", folder})
                .exitCode == 0;
        return imported ? folder : QString();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        QVERIFY(QDir(temp_.path()).mkpath(QStringLiteral("images")));
    }

    void infoPrintsVersionsAndHardware() {
        const Result result = runKiln({QStringLiteral("info")});
        QCOMPARE(result.exitCode, 0);
        for (const char* line : {"Kiln ", "LibTorch ", "OpenCV ", "SQLite ", "CPU cores: ",
                                 "Memory free: ", "CUDA: ", "num_workers (auto): "}) {
            QVERIFY2(result.out.contains(QLatin1String(line)), line);
        }
#if defined(KILN_WITH_TCMALLOC) // the kiln executable is linked as this test is
        QVERIFY2(result.out.contains(QLatin1String(", malloc: tcmalloc\n")),
                 qPrintable(result.out));
#endif
        QVERIFY(result.err.isEmpty());
    }

    void versionAndHelp() {
        Result result = runKiln({QStringLiteral("--version")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.startsWith(QStringLiteral("kiln ")));

        result = runKiln({QStringLiteral("--help")});
        QCOMPARE(result.exitCode, 0);
        for (const char* command : {"info", "train", "embed", "config"}) {
            QVERIFY2(result.out.contains(QLatin1String(command)), command);
        }
    }

    void everyCommandAnswersHelp_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("train")
            << QStringList{"train", "--help"}
            << QStringList{"epochs (integer >= 1), default 100",
                           "method (simclr, dino or distillation), default \"simclr\"",
                           "num_workers (integer in [0, 256], or auto), default \"auto\"",
                           "gradient_accumulation_steps"};
        QTest::newRow("embed")
            << QStringList{"embed", "--help"}
            << QStringList{"format (csv, lightly_csv, torch or npy), default \"torch\"",
                           "image_size (integer or [height, width], or auto), default \"auto\""};
        QTest::newRow("info") << QStringList{"info", "--help"} << QStringList{"versions"};
        QTest::newRow("eval coco") << QStringList{"eval", "coco", "--help"}
                                   << QStringList{"--iou-type", "--max-dets", "--per-class"};
        QTest::newRow("config check")
            << QStringList{"config", "check", "--help"} << QStringList{"--command", "file"};
        QTest::newRow("train-image-classification")
            << QStringList{"train-image-classification", "--help"}
            << QStringList{"data.train and data.val", "model_args", "watch_metric",
                           "val_metric/top1_acc_micro", "val_every_n_steps"};
        QTest::newRow("train-semantic-segmentation")
            << QStringList{"train-semantic-segmentation", "--help"}
            << QStringList{"data.train.images", "val_metric/miou"};
        QTest::newRow("predict") << QStringList{"predict", "--help"}
                                 << QStringList{"checkpoint", "filename,class,score"};
        QTest::newRow("export") << QStringList{"export", "--help"}
                                << QStringList{"batch (integer >= 1 or dynamic)", "fp16", "onnx"};
        QTest::newRow("generate-scenes")
            << QStringList{"generate-scenes", "--help"} << QStringList{"--scenes", "--seed"};
    }

    void everyCommandAnswersHelp() {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, expected);
        const Result result = runKiln(arguments);
        QCOMPARE(result.exitCode, 0);
        for (const QString& text : expected) {
            QVERIFY2(result.out.contains(text), qPrintable(text + " not in:\n" + result.out));
        }
    }

    void configCheckPrintsTheResolvedConfig() {
        const QString config =
            writeFile(QStringLiteral("good.json"),
                      QJsonDocument(QJsonObject{{"out", temp_.filePath("run")},
                                                {"data", temp_.filePath("images")},
                                                {"model", "resnet18"},
                                                {"epochs", 3}})
                          .toJson());
        const Result result = runKiln({"config", "check", config, "batch_size=64"});
        QCOMPARE(result.exitCode, 0);
        const QJsonObject resolved = QJsonDocument::fromJson(result.out.toUtf8()).object();
        QCOMPARE(resolved.value("epochs").toInt(), 3);
        QCOMPARE(resolved.value("batch_size").toInt(), 64);
        QCOMPARE(resolved.value("method").toString(), QStringLiteral("simclr"));
        QVERIFY(resolved.value("num_workers").isDouble()); // "auto" resolved to a number
        QVERIFY(resolved.value("devices").isDouble());
        QVERIFY(resolved.value("accelerator").toString() != QStringLiteral("auto"));
        QVERIFY(resolved.value("precision").toString() != QStringLiteral("auto"));
    }

    void configCheckReportsEveryProblem() {
        const QString config =
            writeFile(QStringLiteral("bad.json"),
                      R"({"out": "x", "data": "/no/such/images", "model": "resnet18", "epohcs": 3,
                "precision": "16-mixed", "accelerator": "cpu", "batch_size": 0})");
        const Result result = runKiln({"config", "check", config});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.out.isEmpty());
        QVERIFY(result.err.startsWith(QStringLiteral("error: invalid configuration (4 problems)")));
        QVERIFY(
            result.err.contains(QStringLiteral("epohcs: unknown key; did you mean \"epochs\"?")));
        QVERIFY(result.err.contains(
            QStringLiteral("precision: 16-mixed needs a CUDA GPU; on cpu use bf16-mixed")));
        QVERIFY(result.err.contains(QStringLiteral("batch_size: must be at least 1")));
        QVERIFY(result.err.contains(QStringLiteral("data: \"/no/such/images\" does not exist")));
    }

    void configCheckOfEmbedSettings() {
        const QString checkpoint = writeFile(QStringLiteral("last.ckpt"), "weights");
        const QString config =
            writeFile(QStringLiteral("embed.json"),
                      QJsonDocument(QJsonObject{{"out", temp_.filePath("embeddings.csv")},
                                                {"data", temp_.filePath("images")},
                                                {"checkpoint", checkpoint}})
                          .toJson());
        const Result result =
            runKiln({"config", "check", "--command", "embed", config, "format=csv"});
        QCOMPARE(result.exitCode, 0);
        const QJsonObject resolved = QJsonDocument::fromJson(result.out.toUtf8()).object();
        QCOMPARE(resolved.value("format").toString(), QStringLiteral("csv"));
        QCOMPARE(resolved.value("precision").toString(), QStringLiteral("32-true"));
    }

    void unsupportedLoggersAreRefused() {
        const QString config = writeFile(QStringLiteral("neptune.json"),
                                         "{\"out\": \"x\", \"data\": \".\", \"model\": "
                                         "\"smallcnn\", \"loggers\": {\"neptune\": {}}}");
        Result result = runKiln({"config", "check", config});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(QStringLiteral("loggers.neptune")) &&
                     result.err.contains(QStringLiteral("tensorboard")) &&
                     result.err.contains(QStringLiteral("wandb")),
                 qPrintable(result.err));
        // W&B is written offline only: said before the run starts, with what to set.
        const QString wandb =
            writeFile(QStringLiteral("wandb.json"), "{\"out\": \"x\", \"data\": \".\", \"model\": "
                                                    "\"smallcnn\", \"loggers\": {\"wandb\": {}}}");
        result = runKiln({"config", "check", wandb});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(QStringLiteral("loggers.wandb")) &&
                     result.err.contains(QStringLiteral("WANDB_MODE=offline")),
                 qPrintable(result.err));
        result = runKiln({"config", "check", wandb, "loggers.wandb.offline=true"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        // An MLflow store Kiln cannot write is refused with the checks: nothing is written.
        const QString out = temp_.filePath(QStringLiteral("mlflow-refused"));
        result = runKiln({"train", "out=" + out, "data=" + temp_.path(), "model=smallcnn",
                          "loggers.mlflow.tracking_uri=databricks://workspace"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(QStringLiteral("loggers.mlflow")) &&
                     result.err.contains(QStringLiteral("not supported")),
                 qPrintable(result.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void malformedFilesAndArguments() {
        const QString config = writeFile(QStringLiteral("broken.json"), "{\"epochs\": ");
        Result result = runKiln({"config", "check", config});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(config));
        QVERIFY(result.err.contains(QStringLiteral("not valid JSON")));

        result = runKiln({"config", "check", temp_.filePath("missing.json")});
        QVERIFY(result.exitCode != 0);
        QVERIFY(result.err.contains(QStringLiteral("missing.json")));

        result = runKiln({"train", "epochs"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("\"epochs\" is not of the form key=value")));

        // A file whose top level is not an object was "unexpected failure".
        const QString list = writeFile(QStringLiteral("list.json"), "[1, 2]");
        for (const QStringList& command :
             {QStringList{"config", "check", list}, QStringList{"train", "--config", list}}) {
            result = runKiln(command);
            QCOMPARE(result.exitCode, 1);
            QVERIFY2(result.err.contains(QStringLiteral("holds array, not a JSON object")),
                     qPrintable(result.err));
        }
        // Arguments CLI11 refuses end with 1 too (they were 104 to 109).
        for (const QStringList& command : {QStringList{"export", "--bogus"}, QStringList{},
                                           QStringList{"generate-scenes", "--scenes", "0"}}) {
            result = runKiln(command.isEmpty() ? QStringList{"eval"} : command);
            QVERIFY2(result.exitCode == 1, qPrintable(command.join(' ') + result.err));
        }
        // A million loader threads were started, deaf to Ctrl-C.
        result = runKiln({"config", "check", "--command", "embed",
                          writeFile(QStringLiteral("empty.json"), "{}"), "num_workers=1000000"});
        QVERIFY2(result.err.contains(QStringLiteral("num_workers")) && result.exitCode == 1,
                 qPrintable(result.err));
    }

    void evalCocoPrintsPycocotoolsSummary() {
        const QString fixtures = QStringLiteral(KILN_SOURCE_DIR "/../shared/fixtures/coco/");
        if (!QFileInfo::exists(fixtures + "instances_val2014_100.json")) {
            QSKIP("../shared/fixtures/coco is absent: no COCO files to evaluate");
        }
        const QString truth = fixtures + "instances_val2014_100.json";
        Result result = runKiln({"eval", "coco", "--gt", truth, "--dt",
                                 fixtures + "instances_val2014_fakebbox100_results.json",
                                 "--per-class", "--threads", "2"});
        QCOMPARE(result.exitCode, 0);
        const QStringList lines = result.out.split('\n');
        QCOMPARE(lines[0],
                 QStringLiteral(" Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | "
                                "maxDets=100 ] = 0.505"));
        QCOMPARE(lines[11],
                 QStringLiteral(" Average Recall     (AR) @[ IoU=0.50:0.95 | area= large | "
                                "maxDets=100 ] = 0.564"));
        QVERIFY(result.out.contains(QStringLiteral("person")));

        result = runKiln({"eval", "coco", "--gt", truth, "--dt",
                          fixtures + "instances_val2014_fakesegm100_results.json", "--iou-type",
                          "segm", "--json"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains(QStringLiteral("\"AP\": 0.31954527585764331,")),
                 qPrintable(result.out));
        const QJsonObject json = QJsonDocument::fromJson(result.out.toUtf8()).object();
        QCOMPARE(json.value("iou_type").toString(), QStringLiteral("segm"));
        QCOMPARE(json.value("stats").toObject().size(), 12);

        const QString broken =
            writeFile(QStringLiteral("results.json"), "[{\"image_id\": 1, \"category_id\": 1}]");
        result = runKiln({"eval", "coco", "--gt", truth, "--dt", broken});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(broken + ": [0] (image_id 1, category_id 1) is for an image "
                                              "that is not in"),
                 qPrintable(result.err));
    }

    void importIdxWritesClassFolders() {
        // Plain (not gzipped) IDX files: two 2x2 images with labels 3 and 5.
        QByteArray images = QByteArray::fromHex("00000803000000020000000200000002");
        images += QByteArray::fromHex("00102030405060ff");
        QByteArray labels = QByteArray::fromHex("000008010000000203"
                                                "05");
        const QString imagesPath = writeFile(QStringLiteral("images-idx3-ubyte"), images);
        const QString labelsPath = writeFile(QStringLiteral("labels-idx1-ubyte"), labels);
        const QString out = temp_.filePath(QStringLiteral("idx"));
        Result result =
            runKiln({"import-idx", "--images", imagesPath, "--labels", labelsPath, "--out", out});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.contains(QStringLiteral("wrote 2 images of 2x2 in 2 class folders")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/3/0.png")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/5/1.png")));

        result =
            runKiln({"import-idx", "--images", labelsPath, "--labels", labelsPath, "--out", out});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("is not an IDX images file")));
    }

    void optimizeDatasetReportsWhatItDid() {
        const QString source = temp_.filePath(QStringLiteral("optimize-source"));
        QVERIFY(QDir().mkpath(source + QStringLiteral("/sub")));
        QVERIFY(QFile::copy(temp_.filePath(QStringLiteral("idx/3/0.png")),
                            source + QStringLiteral("/sub/a.png")));
        QFile broken(source + QStringLiteral("/broken.png"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("not a png");
        broken.close();
        const QString destination = temp_.filePath(QStringLiteral("optimize-out"));
        Result result = runKiln({"optimize-dataset", source, destination, "--format", "jpg",
                                 "--max-size", "64", "--quality", "80"});
        QCOMPARE(result.exitCode, 2); // done, but a file was skipped
        // The estimate comes first: a 28 px PNG is smaller than any JPEG of it.
        QVERIFY2(result.out.startsWith(QStringLiteral("estimated: 2 images, ")),
                 qPrintable(result.out));
        QVERIFY(result.out.contains(QStringLiteral("as jpg (from 1 sampled)")));
        QVERIFY(result.out.contains(QStringLiteral("warning: the copy will be larger")));
        QVERIFY(result.out.contains(QStringLiteral("wrote 1 images")));
        QVERIFY(result.out.contains(QStringLiteral("skipped 1 unreadable file(s)")));
        QVERIFY(result.out.contains(QStringLiteral("broken.png")));
        QVERIFY(QFileInfo::exists(destination + QStringLiteral("/sub/a.jpg")));

        result = runKiln({"optimize-dataset", source, source + QStringLiteral("/inside")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("overlap")));
    }

    void fineTuneThenPredict() {
        // 16 images of 8x8 in two classes, bright and dark, through import-idx.
        const QString data = importTwoClasses(QStringLiteral("labelled"), [](int i, int p) {
            return i % 2 == 0 ? 200 + p % 50 : p % 50;
        });
        QVERIFY(!data.isEmpty());
        const QString out = temp_.filePath(QStringLiteral("classifier"));
        Result result = runKiln({"train-image-classification", "out=" + out, "data.train=" + data,
                                 "data.val=" + data, "model=smallcnn", "epochs=2", "batch_size=8",
                                 "num_workers=0", "transform_args.image_size=16"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("training smallcnn for image_classification")),
                 qPrintable(result.out));
        QCOMPARE(result.out.count(QStringLiteral("validation after step")), 2);
        QVERIFY(result.out.contains(QStringLiteral("best val_metric/top1_acc_micro")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/checkpoints/best.ckpt")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/exported_models/exported_best.pt")));
        result = runKiln({"runs", "show", out});
        QVERIFY2(result.out.contains(QStringLiteral(
                     "task       image_classification, best val_metric/top1_acc_micro")),
                 qPrintable(result.out));

        const QString predictions = temp_.filePath(QStringLiteral("predictions.csv"));
        result = runKiln({"predict", "checkpoint=" + out + "/checkpoints/best.ckpt", "data=" + data,
                          "out=" + predictions});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile csv(predictions);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 17);
        QCOMPARE(lines[0], QStringLiteral("filename,class,score"));
        QVERIFY(lines[1].startsWith(QStringLiteral("0/00.png,")));

        // The same model for deployment (test_export compares its outputs with ONNX Runtime).
        const QString onnx = temp_.filePath(QStringLiteral("classifier.onnx"));
        result = runKiln(
            {"export", "checkpoint=" + out + "/checkpoints/best.ckpt", "out=" + onnx, "batch=4"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("exported the image_classification (smallcnn, "
                                                    "16x16, fp32) to ")) &&
                     result.out.contains(QStringLiteral("output logits [4, 2]")),
                 qPrintable(result.out));
        QVERIFY(QFileInfo(onnx).size() > 10000);
        result = runKiln({"export", "checkpoint=" + out + "/checkpoints/best.ckpt", "out=" + onnx});
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains(QStringLiteral("overwrite=true")), qPrintable(result.err));

        // Bad data: named, a failing exit code, nothing written.
        const QString bad = temp_.filePath(QStringLiteral("bad-classifier"));
        result = runKiln({"train-image-classification", "out=" + bad, "data.train=" + data,
                          "data.val=" + temp_.filePath("nowhere"), "model=smallcnn"});
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains(QStringLiteral("data.val")), qPrintable(result.err));
        QVERIFY(!QFileInfo::exists(bad));
    }

    void trainThenEmbed() {
        // 16 images of 8x8 in two classes, through import-idx.
        const QString data = importTwoClasses(QStringLiteral("train-data"), [](int i, int p) {
            return (i % 2 == 0 ? p * 4 : 255 - p * 4) ^ (i * 8);
        });
        QVERIFY(!data.isEmpty());
        const QString out = temp_.filePath(QStringLiteral("run"));
        Result result =
            runKiln({"train", "out=" + out, "data=" + data, "model=smallcnn", "epochs=2",
                     "batch_size=8", "num_workers=0", "transform_args.image_size=[16,16]"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(QStringLiteral("training smallcnn with simclr on 16 images")));
        // Small views take SimCLR's small-image recipe, and the line says so.
        QVERIFY2(result.out.contains(QStringLiteral("batch 8, 16x16 views, sgd, cpu")),
                 qPrintable(result.out));
        QVERIFY(result.out.contains(QStringLiteral("data_wait")));
        QVERIFY(result.out.contains(QStringLiteral("finished after 4 steps")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/config.json")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/checkpoints/last.ckpt")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/exported_models/exported_last.pt")));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/run.db")));
        QCOMPARE(QDir(out).entryList({"events.out.tfevents.*"}).size(), 1);

        result = runKiln({"train", "out=" + out, "data=" + data, "model=smallcnn"});
        QCOMPARE(result.exitCode, 1); // the run directory is not empty
        QVERIFY(result.err.contains(QStringLiteral("overwrite=true")));
        // Resumed when finished, it says so rather than "last loss 0".
        result = runKiln({"train", "out=" + out, "data=" + data, "model=smallcnn", "epochs=2",
                          "batch_size=8", "num_workers=0", "transform_args.image_size=[16,16]",
                          "resume_interrupted=true"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("no step was left to train")),
                 qPrintable(result.out));

        const QString embeddings = temp_.filePath(QStringLiteral("embeddings.csv"));
        result =
            runKiln({"embed", "out=" + embeddings, "data=" + data,
                     "checkpoint=" + out + QStringLiteral("/checkpoints/last.ckpt"), "format=csv"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        // Without image_size, the size the checkpoint was trained at (16 px), said so.
        QVERIFY2(result.out.contains(QStringLiteral("wrote 16 embeddings of dimension 256 "
                                                    "(smallcnn, images at 16x16, the size it was "
                                                    "trained at)")),
                 qPrintable(result.out));
        QVERIFY2(result.out.contains(QStringLiteral(" images/s, data_wait ")),
                 qPrintable(result.out));
        // The embeddings are an artifact of the run whose checkpoint made them.
        result = runKiln({"runs", "show", out});
        QVERIFY2(result.out.contains(QStringLiteral("embeddings ") + embeddings),
                 qPrintable(result.out));
        QFile file(embeddings);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 17);
        QVERIFY(rows[0].startsWith(QStringLiteral("filename,embedding_0,")));
        QCOMPARE(rows[1].split(',').size(), 257);

        // A set classified against itself is refused (top-1 would be 100% whatever the model);
        // against a copy of itself each image finds its twin. An exported model's size comes
        // from its run's config.json.
        result = runKiln({"eval", "knn", "--checkpoint",
                          out + QStringLiteral("/exported_models/exported_last.pt"), "--train",
                          data, "--test", data + "/", "--k", "1"});
        QVERIFY2(result.exitCode == 1 &&
                     result.err.contains(QStringLiteral("each test image would find itself")),
                 qPrintable(result.err));
        const QString twin = temp_.filePath(QStringLiteral("twin"));
        std::filesystem::copy(data.toStdString(), twin.toStdString(),
                              std::filesystem::copy_options::recursive);
        result = runKiln({"eval", "knn", "--checkpoint",
                          out + QStringLiteral("/exported_models/exported_last.pt"), "--train",
                          data, "--test", twin, "--k", "1"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(
                     QStringLiteral("kNN (k=1, T=0.07) with smallcnn at 16x16 px: top-1 100.00%")),
                 qPrintable(result.out));

        // overwrite=true never replaces what the command reads: the checkpoint became its own
        // export or embeddings, an image-named out in the data folder an image.
        const QString checkpoint = out + QStringLiteral("/checkpoints/last.ckpt");
        const qint64 size = QFileInfo(checkpoint).size();
        for (const QStringList& command :
             {QStringList{"embed", "out=" + checkpoint, "data=" + data, "checkpoint=" + checkpoint},
              QStringList{"export", "out=" + checkpoint, "checkpoint=" + checkpoint},
              QStringList{"embed", "out=" + data + "/0/new.png", "data=" + data,
                          "checkpoint=" + checkpoint}}) {
            result = runKiln(command + QStringList{"overwrite=true"});
            QVERIFY2(result.exitCode == 1 && (result.err.contains("the file this command reads") ||
                                              result.err.contains("an image of the data folder")),
                     qPrintable(command.join(' ') + "\n" + result.err));
        }
        QCOMPARE(QFileInfo(checkpoint).size(), size);
        QVERIFY(!QFileInfo::exists(data + "/0/new.png"));

        // More memory than the machine gives (here a 4 GB address space, 4096 px images): said
        // with what to lower; it was "unexpected failure: std::bad_alloc".
        QProcess limited;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QString()); // the CPU's memory
        limited.setProcessEnvironment(environment);
        limited.start(QStringLiteral("bash"),
                      {"-c", "ulimit -v 4000000 && exec \"$0\" \"$@\"", KILN_EXECUTABLE, "eval",
                       "knn", "--checkpoint", out + "/exported_models/exported_last.pt", "--train",
                       data, "--test", twin, "--image-size", "4096", "--batch-size", "16",
                       "--workers", "0"});
        QVERIFY(limited.waitForFinished(120000));
        const QString error = QString::fromUtf8(limited.readAllStandardError());
        QVERIFY2(limited.exitCode() == 1 &&
                     error.contains(QStringLiteral("error: out of memory: the command needed")) &&
                     error.contains(QStringLiteral("--image-size")),
                 qPrintable(error));
    }

    void knnMonitorEqualsEvalKnn() {
        // trainThenEmbed's labelled images are the neighbours; 16 others of the same two classes
        // are classified (each image its own nearest neighbour would score 100% whatever the
        // model). Grey, non-square views with a normalisation of their own: eval knn embeds as
        // the run trained.
        const QString data = temp_.filePath(QStringLiteral("train-data"));
        const QString val = importTwoClasses(QStringLiteral("knn-val-data"), [](int i, int p) {
            return ((i % 2 == 0 ? p * 4 : 255 - p * 4) + 37 * i) ^ (p % 8 == i % 8 ? 255 : 0);
        });
        QVERIFY(!val.isEmpty());
        const QString out = temp_.filePath(QStringLiteral("monitored-run"));
        const QStringList monitored = {"knn_monitor.train=" + data, "knn_monitor.val=" + val,
                                       "knn_monitor.k=3", "knn_monitor.every_n_steps=1"};
        Result result = runKiln(QStringList{"train", "out=" + out, "data=" + data, "model=smallcnn",
                                            "epochs=2", "batch_size=8", "num_workers=0",
                                            "transform_args.image_size=[16,24]",
                                            "transform_args.num_channels=1",
                                            "transform_args.normalize.mean=[0.3,0.3,0.3]",
                                            "transform_args.normalize.std=[0.2,0.2,0.2]"} +
                                monitored);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        // Every step validated: 4 values in metrics.jsonl, the best one picked best.ckpt.
        QFile lines(out + QStringLiteral("/metrics.jsonl"));
        QVERIFY(lines.open(QIODevice::ReadOnly));
        QList<double> values;
        for (const QByteArray& line : lines.readAll().split('\n')) {
            const QJsonObject entry = QJsonDocument::fromJson(line).object();
            if (entry.contains(QStringLiteral("val_metric/knn_top1"))) {
                values.append(entry.value(QStringLiteral("val_metric/knn_top1")).toDouble());
            }
        }
        QCOMPARE(values.size(), 4);
        QVERIFY2(result.out.contains(QStringLiteral("best val_metric/knn_top1")),
                 qPrintable(result.out));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/checkpoints/best.ckpt")));
        // The monitor's figures are those of kiln eval knn on the model of the same step.
        const auto evalKnn = [&](const QString& model) {
            const Result knn =
                runKiln({"eval", "knn", "--checkpoint", out + "/exported_models/" + model,
                         "--train", data, "--test", val, "--k", "3"});
            return knn.out + knn.err;
        };
        const auto percent = [](double value) {
            return QStringLiteral("top-1 %1%").arg(100.0 * value, 0, 'f', 2);
        };
        QVERIFY2(evalKnn(QStringLiteral("exported_last.pt")).contains(percent(values.last())),
                 qPrintable(evalKnn(QStringLiteral("exported_last.pt"))));
        QVERIFY(evalKnn(QStringLiteral("exported_last.pt")).contains(QStringLiteral("16x24 px")));
        // kiln embed takes the grey model too, exported or as a checkpoint, at the size it
        // trained at.
        for (const QString& model : {QStringLiteral("/exported_models/exported_last.pt"),
                                     QStringLiteral("/checkpoints/last.ckpt")}) {
            result = runKiln({"embed", "out=" + temp_.filePath(QStringLiteral("grey.pt")),
                              "data=" + val, "checkpoint=" + out + model, "overwrite=true"});
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
            QVERIFY2(result.out.contains(QStringLiteral("16x24")), qPrintable(result.out));
        }
        const double best = *std::max_element(values.begin(), values.end());
        QVERIFY2(evalKnn(QStringLiteral("exported_best.pt")).contains(percent(best)),
                 qPrintable(evalKnn(QStringLiteral("exported_best.pt"))));

        // Whitened (knn_monitor.whiten=true): the figures of kiln eval knn --whiten.
        const QString whitenedOut = temp_.filePath(QStringLiteral("whitened-monitored-run"));
        result =
            runKiln(QStringList{"train", "out=" + whitenedOut, "data=" + data, "model=smallcnn",
                                "epochs=1", "batch_size=8", "num_workers=0",
                                "transform_args.image_size=[16,16]", "knn_monitor.whiten=true"} +
                    monitored);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile whitenedLines(whitenedOut + QStringLiteral("/metrics.jsonl"));
        QVERIFY(whitenedLines.open(QIODevice::ReadOnly));
        double lastWhitened = -1;
        for (const QByteArray& line : whitenedLines.readAll().split('\n')) {
            const QJsonObject entry = QJsonDocument::fromJson(line).object();
            if (entry.contains(QStringLiteral("val_metric/knn_top1"))) {
                lastWhitened = entry.value(QStringLiteral("val_metric/knn_top1")).toDouble();
            }
        }
        const Result whitenedKnn = runKiln(
            {"eval", "knn", "--checkpoint", whitenedOut + "/exported_models/exported_last.pt",
             "--train", data, "--test", val, "--k", "3", "--whiten"});
        QVERIFY2(whitenedKnn.out.contains(percent(lastWhitened)),
                 qPrintable(whitenedKnn.out + " " + percent(lastWhitened)));

        // One folder without the other, or a folder that is not there: said before training.
        result = runKiln({"train", "out=" + temp_.filePath(QStringLiteral("half-monitored")),
                          "data=" + data, "model=smallcnn", "knn_monitor.train=" + data});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(QStringLiteral("knn_monitor.val: required")),
                 qPrintable(result.err));
        result = runKiln({"config", "check", writeFile(QStringLiteral("monitor.json"), "{}"),
                          "out=" + temp_.filePath(QStringLiteral("x")), "data=" + data,
                          "model=smallcnn", "knn_monitor.train=" + data,
                          "knn_monitor.val=" + temp_.filePath(QStringLiteral("nowhere"))});
        QVERIFY2(result.err.contains(QStringLiteral("is not a folder")), qPrintable(result.err));
        // The same folder twice: each image its own neighbour, 100% whatever the model.
        result =
            runKiln({"config", "check", writeFile(QStringLiteral("monitor.json"), "{}"),
                     "out=" + temp_.filePath(QStringLiteral("x")), "data=" + data, "model=smallcnn",
                     "knn_monitor.train=" + data, "knn_monitor.val=" + data + "/"});
        QVERIFY2(result.err.contains(QStringLiteral("is knn_monitor.train too")),
                 qPrintable(result.err));
    }

    // SIGTERM (a scheduler's, `timeout`'s) ends at once a command that has no step to finish
    // and save: here one blocked reading a FIFO nobody writes to. Only training, embedding,
    // prediction and maps take it as a request to stop (a second one ends them).
    void aSignalEndsACommandWithNothingToSave() {
        const QString fifo = temp_.filePath(QStringLiteral("never-written.csv"));
        QVERIFY(mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        QProcess dedup;
        dedup.start(QStringLiteral(KILN_EXECUTABLE), {QStringLiteral("dedup"), fifo});
        QVERIFY(dedup.waitForStarted());
        // A writer's non-blocking open succeeds once kiln has the FIFO open for reading: past
        // its start (where the handlers would be installed), waiting for data that never comes.
        int writer = -1;
        for (int tries = 0; writer < 0 && tries < 600; ++tries) {
            writer = ::open(fifo.toLocal8Bit().constData(), O_WRONLY | O_NONBLOCK);
            if (writer < 0) {
                QTest::qWait(50);
            }
        }
        QVERIFY2(writer >= 0, "kiln dedup never opened the FIFO");
        dedup.terminate();
        const bool ended = dedup.waitForFinished(20000);
        if (!ended) {
            dedup.kill();
            dedup.waitForFinished();
        }
        ::close(writer);
        QVERIFY2(ended, "SIGTERM did not end kiln dedup");
        QCOMPARE(dedup.exitStatus(), QProcess::CrashExit); // ended by the signal itself
    }

    // Ctrl-C (here SIGTERM) during `embed`: exit status 130, as a stopped run's, and neither
    // the embeddings file nor a temporary one is left.
    void aStoppedEmbeddingEndsWith130AndWritesNothing() {
        // Uses trainThenEmbed's run; 3,000 images of 8x8 embedded at 128 px: seconds of work.
        const QString data =
            importTwoClasses(QStringLiteral("many"), [](int i, int) { return i % 251; }, 3000);
        QVERIFY(!data.isEmpty());
        const QString folder = temp_.filePath(QStringLiteral("stopped-embedding"));
        QVERIFY(QDir().mkpath(folder));
        QProcess embedding;
        embedding.start(
            QStringLiteral(KILN_EXECUTABLE),
            {"embed", "out=" + folder + "/embeddings.csv", "data=" + data,
             "checkpoint=" + temp_.filePath(QStringLiteral("run/checkpoints/last.ckpt")),
             "format=csv", "image_size=128", "batch_size=16", "num_workers=0"});
        QVERIFY(embedding.waitForStarted());
        QString said;
        while (!said.contains(QStringLiteral("embed ")) && embedding.waitForReadyRead(60000)) {
            said += QString::fromUtf8(embedding.readAllStandardOutput());
        }
        // Under way: a batch of 188 done, not the last.
        const QRegularExpressionMatch batch =
            QRegularExpression(QStringLiteral("embed (\\d+)/188 ")).match(said);
        QVERIFY2(batch.hasMatch() && batch.captured(1).toInt() < 188, qPrintable(said));
        embedding.terminate();
        QVERIFY(embedding.waitForFinished(60000));
        QCOMPARE(embedding.exitStatus(), QProcess::NormalExit);
        QVERIFY2(embedding.exitCode() == 130,
                 qPrintable(QString::fromUtf8(embedding.readAllStandardError())));
        QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
    }

    void killedTrainingIsInterruptedThenResumed() {
        // Uses trainThenEmbed's images. 200 epochs of 2 steps, killed (SIGKILL) part way.
        const QString data = temp_.filePath(QStringLiteral("train-data"));
        const QString out = temp_.filePath(QStringLiteral("killed-run"));
        const QStringList settings = {"out=" + out,
                                      "data=" + data,
                                      "model=smallcnn",
                                      "epochs=200",
                                      "batch_size=8",
                                      "num_workers=0",
                                      "transform_args.image_size=[16,16]"};
        QProcess training;
        training.start(QStringLiteral(KILN_EXECUTABLE), QStringList{"train"} + settings);
        QVERIFY(training.waitForStarted());
        const QString checkpoint = out + QStringLiteral("/checkpoints/last.ckpt");
        for (int wait = 0; wait < 600 && !QFileInfo::exists(checkpoint); ++wait) {
            QTest::qWait(50);
        }
        QVERIFY(QFileInfo::exists(checkpoint));
        QTest::qWait(300); // a few more steps; far from the 400 of the run
        training.kill();
        QVERIFY(training.waitForFinished());

        // A damaged run.db among them is named and skipped (it hid every run listed after it).
        QDir(temp_.path()).mkpath(QStringLiteral("a-damaged-run"));
        QFile damaged(temp_.filePath(QStringLiteral("a-damaged-run/run.db")));
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write("not a database, though long enough for a reader to try it as one");
        damaged.close();
        // And a run.db missing a table (it ended the listing there).
        QDir(temp_.path()).mkpath(QStringLiteral("a-tableless-run"));
        const QString tableless = temp_.filePath(QStringLiteral("a-tableless-run/run.db"));
        for (const QString& part : {QString(), QStringLiteral("-wal")}) { // the killed run's
            const QString from = QDir(out).filePath(QStringLiteral("run.db") + part);
            QVERIFY(!QFileInfo::exists(from) || QFile::copy(from, tableless + part));
        }
        sqlite3* copy = nullptr;
        QCOMPARE(sqlite3_open(tableless.toUtf8().constData(), &copy), SQLITE_OK);
        QCOMPARE(sqlite3_exec(copy, "DROP TABLE metrics", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(copy);
        // And one whose settings hold a number where text belongs (it ended the listing too).
        QDir(temp_.path()).mkpath(QStringLiteral("a-mistyped-run"));
        const QString mistyped = temp_.filePath(QStringLiteral("a-mistyped-run/run.db"));
        for (const QString& part : {QString(), QStringLiteral("-wal")}) {
            const QString from = QDir(out).filePath(QStringLiteral("run.db") + part);
            QVERIFY(!QFileInfo::exists(from) || QFile::copy(from, mistyped + part));
        }
        QCOMPARE(sqlite3_open(mistyped.toUtf8().constData(), &copy), SQLITE_OK);
        QCOMPARE(sqlite3_exec(copy, "UPDATE runs SET config = '{\"task\": 5}'", nullptr, nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_close(copy);
        Result result = runKiln({"runs", "list", temp_.path()});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains(QStringLiteral("a-damaged-run/run.db")),
                 qPrintable(result.err));
        QVERIFY2(result.err.contains(QStringLiteral("a-tableless-run/run.db")) &&
                     result.err.contains(QStringLiteral("not a run.db Kiln wrote")),
                 qPrintable(result.err));
        const QStringList lines = result.out.split('\n');
        const auto killed = std::find_if(lines.begin(), lines.end(), [](const QString& line) {
            return line.startsWith(QStringLiteral("killed-run"));
        });
        QVERIFY2(killed != lines.end(), qPrintable(result.out));
        QVERIFY2(killed->contains(QStringLiteral("interrupted")), qPrintable(*killed));
        QVERIFY2(std::any_of(lines.begin(), lines.end(),
                             [](const QString& line) {
                                 return line.startsWith(QStringLiteral("a-mistyped-run"));
                             }),
                 qPrintable(result.out));
        QVERIFY(result.out.contains(QStringLiteral("finished"))); // trainThenEmbed's run

        result = runKiln(QStringList{"train"} + settings + QStringList{"resume_interrupted=true"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        result = runKiln({"runs", "show", out});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains(QStringLiteral("status     finished")),
                 qPrintable(result.out));
        QVERIFY2(result.out.contains(QStringLiteral("steps      400,")), qPrintable(result.out));
        // The name, tags and notes Studio's Run History gives a run.
        sqlite3* db = nullptr;
        sqlite3_open(QDir(out).filePath(QStringLiteral("run.db")).toUtf8().constData(), &db);
        QCOMPARE(sqlite3_exec(db,
                              "UPDATE runs SET name = 'baseline', tags = '[\"cpu\", \"long\"]', "
                              "notes = 'killed once'",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        result = runKiln({"runs", "show", out});
        QVERIFY2(
            result.out.contains(QStringLiteral("name       baseline\n  tags       cpu, long\n  "
                                               "notes      killed once\n")),
            qPrintable(result.out));
        // A host naming a terminal escape (clear the screen) is shown, not obeyed.
        sqlite3_open(QDir(out).filePath(QStringLiteral("run.db")).toUtf8().constData(), &db);
        QCOMPARE(sqlite3_exec(db, "UPDATE runs SET host = char(27) || '[2Jhost'", nullptr, nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        result = runKiln({"runs", "show", out});
        QVERIFY2(result.out.contains(QStringLiteral("host       \\x1b[2Jhost")),
                 qPrintable(result.out));
        // A start time past any calendar (or NaN) reads as unknown; it overflowed a date.
        for (const char* started : {"1e300", "-5", "'x'"}) {
            sqlite3_open(QDir(out).filePath(QStringLiteral("run.db")).toUtf8().constData(), &db);
            QCOMPARE(sqlite3_exec(db, (std::string("UPDATE runs SET started = ") + started).c_str(),
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
            result = runKiln({"runs", "show", out});
            QVERIFY2(result.exitCode == 0 &&
                         result.out.contains(QStringLiteral("started    unknown, ran 0:00")),
                     qPrintable(result.out + result.err));
        }

        // Every step once: the steps the killed run made after its checkpoint were redone.
        const QString csv = temp_.filePath(QStringLiteral("metrics.csv"));
        result = runKiln({"runs", "export", out, "--format", "csv", "--out", csv});
        QCOMPARE(result.exitCode, 0);
        // An existing --out is replaced only with --overwrite, and never when it is the run
        // database itself, another of the run's files or a device (a rename turned /dev/full
        // into the CSV).
        const QString database = QDir(out).filePath(QStringLiteral("run.db"));
        for (const auto& [target, flag, expected] :
             {std::tuple{csv, QString(), QStringLiteral("exists; add --overwrite")},
              std::tuple{database, QStringLiteral("--overwrite"),
                         QStringLiteral("is the run's own run.db")},
              std::tuple{QDir(out).filePath(QStringLiteral("metrics.jsonl")),
                         QStringLiteral("--overwrite"),
                         QStringLiteral("is the run's own metrics.jsonl")},
              std::tuple{QDir(out).filePath(QStringLiteral("checkpoints/../checkpoints/x.csv")),
                         QString(), QStringLiteral("is the run's own checkpoints/x.csv")},
              std::tuple{QStringLiteral("/dev/null"), QStringLiteral("--overwrite"),
                         QStringLiteral("exists and is not a file")}}) {
            QStringList arguments = {"runs", "export", out, "--out", target};
            if (!flag.isEmpty()) {
                arguments << flag;
            }
            const Result refused = runKiln(arguments);
            QVERIFY2(refused.exitCode != 0 && refused.err.contains(expected),
                     qPrintable(refused.err));
        }
        QVERIFY(QFileInfo(database).size() > 0);
        QCOMPARE(runKiln({"runs", "export", out, "--out", csv, "--overwrite"}).exitCode, 0);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 401);
        QVERIFY(rows[0].startsWith(QStringLiteral("step,epoch,time,data_wait,")));
        for (int i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].section(',', 0, 0).toInt(), i);
        }
        result = runKiln({"runs", "export", out, "--format", "jsonl"});
        QCOMPARE(result.out.count('\n'), 400);
        QFile jsonl(QDir(out).filePath(QStringLiteral("metrics.jsonl")));
        QVERIFY(jsonl.open(QIODevice::ReadOnly));
        const QStringList records =
            QString::fromUtf8(jsonl.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(records.size(), 400);
        for (int i = 0; i < records.size(); ++i) {
            QCOMPARE(QJsonDocument::fromJson(records[i].toUtf8()).object()["step"].toInt(), i + 1);
        }

        result = runKiln({"runs", "show", temp_.filePath(QStringLiteral("nowhere"))});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("no run database")));
        result = runKiln({"runs", "show", out, "--id", "9"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("has no run 9")));
        // A metric key holding a comma stays one CSV column.
        sqlite3_open(QDir(out).filePath(QStringLiteral("run.db")).toUtf8().constData(), &db);
        QCOMPARE(sqlite3_exec(db,
                              "INSERT INTO metrics (run_id, step, epoch, key, value, wall_time) "
                              "VALUES ((SELECT MAX(id) FROM runs), 1, 0, 'a,b', 1, 0)",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        result = runKiln({"runs", "export", out});
        QVERIFY2(result.out.startsWith(QStringLiteral("step,epoch,time,\"a,b\",")),
                 qPrintable(result.out.left(200)));
    }

    // kiln runs reads without writing: on read-only media (a bind mount made read-only in a
    // user namespace), list, show and export work on trainThenEmbed's run.
    void runsCommandsWorkOnReadOnlyMedia() {
        const QString media = temp_.filePath(QStringLiteral("read-only-media"));
        QVERIFY(QDir().mkpath(media + QStringLiteral("/run")));
        for (const char* name : {"run.db", "config.json"}) {
            QVERIFY(QFile::copy(temp_.filePath(QStringLiteral("run/")) + name,
                                media + QStringLiteral("/run/") + name));
        }
        const QString kiln = QStringLiteral(KILN_EXECUTABLE);
        const QString script = QStringLiteral(
            "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" || exit 77; "
            "touch \"$1/run/probe\" 2>/dev/null && exit 78; "
            "\"$2\" runs list \"$1\" && \"$2\" runs show \"$1/run\" && "
            "\"$2\" runs export \"$1/run\" --format jsonl");
        QProcess process;
        process.start(QStringLiteral("unshare"), {"-rm", "sh", "-c", script, "sh", media, kiln});
        QVERIFY(process.waitForFinished(60000));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        const QString err = QString::fromUtf8(process.readAllStandardError());
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() == 77 ||
            (process.exitCode() != 0 && err.contains(QStringLiteral("unshare")))) {
            QSKIP(qPrintable("this machine cannot make a read-only mount for the test "
                             "(unshare -rm): " +
                             err));
        }
        QVERIFY2(process.exitCode() != 78, "the mount was still writable");
        QVERIFY2(process.exitCode() == 0, qPrintable(err));
        QVERIFY2(out.contains(QStringLiteral("finished")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("status     finished")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("\"train_loss\"")), qPrintable(out));
    }

    void secondRunIntoTheSameOutIsRefused() {
        // Uses trainThenEmbed's images. overwrite=true passes the "out holds files" check, so
        // only the lock stands between the second run and the first one's files.
        const QString out = temp_.filePath(QStringLiteral("shared-out"));
        const QStringList settings = {"out=" + out,
                                      "data=" + temp_.filePath(QStringLiteral("train-data")),
                                      "model=smallcnn",
                                      "batch_size=8",
                                      "num_workers=0",
                                      "overwrite=true",
                                      "transform_args.image_size=[16,16]"};
        QProcess first;
        first.start(QStringLiteral(KILN_EXECUTABLE),
                    QStringList{"train"} + settings + QStringList{"epochs=500"});
        QVERIFY(first.waitForStarted());
        const QString checkpoint = out + QStringLiteral("/checkpoints/last.ckpt");
        for (int wait = 0; wait < 600 && !QFileInfo::exists(checkpoint); ++wait) {
            QTest::qWait(50);
        }
        QVERIFY(QFileInfo::exists(checkpoint));
        const Result second = runKiln(QStringList{"train"} + settings + QStringList{"epochs=1"});
        const bool firstStillRuns = first.state() == QProcess::Running;
        const qint64 firstPid = first.processId();
        first.kill();
        QVERIFY(first.waitForFinished());
        QVERIFY2(firstStillRuns, "the first run ended before the second one was tried");
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains(QStringLiteral("is in use by another Kiln run (pid ") +
                                     QString::number(firstPid)),
                 qPrintable(second.err));
        QVERIFY(QFileInfo::exists(checkpoint)); // the first run's files were not removed
        QFile config(out + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        QVERIFY(config.readAll().contains("\"epochs\": 500"));
    }

    void dedupAndKnnFromEmbeddingFiles() {
        // Two classes; a.png and its copy b.png are duplicates.
        const QString train = writeFile(QStringLiteral("train.csv"),
                                        "filename,embedding_0,embedding_1\n"
                                        "x/a.png,1,0\nx/b.png,2,0\ny/c.png,0,1\ny/d.png,0.1,1\n");
        const QString test =
            writeFile(QStringLiteral("test.csv"),
                      "filename,embedding_0,embedding_1\nx/e.png,1,0.2\ny/f.png,0.2,1\n");
        Result result = runKiln({"dedup", train, "--threshold", "0.999"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains(
                     QStringLiteral("1 of 4 images are near-duplicates (cosine similarity >= "
                                    "0.999) of an earlier image that is kept")),
                 qPrintable(result.out));
        QVERIFY(result.out.contains(QStringLiteral("1.0000  x/a.png  x/b.png")));
        result = runKiln({"dedup", train, "--threshold", "nan"}); // it matched nothing, silently
        QVERIFY2(result.exitCode == 1 && result.err.contains(QStringLiteral("is not a number")),
                 qPrintable(result.err));
        // "x/a.png  x/a.png" would not say which of two images is the duplicate.
        const QString repeated =
            writeFile(QStringLiteral("repeated.csv"), "filename,embedding_0,embedding_1\n"
                                                      "x/a.png,1,0\ny/c.png,0,1\nx/a.png,1,0\n");
        result = runKiln({"dedup", repeated});
        QVERIFY2(result.exitCode == 1 &&
                     result.err.contains(QStringLiteral("names \"x/a.png\" twice (rows 1 and 3)")),
                 qPrintable(result.err));

        result = runKiln(
            {"eval", "knn", "--train-embeddings", train, "--test-embeddings", test, "--k", "2"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(QStringLiteral("top-1 100.00%")));
        result = runKiln({"eval", "knn", "--train-embeddings", train, "--test-embeddings", test,
                          "--k", "2", "--whiten"});
        QVERIFY2(result.exitCode == 0 && result.out.contains(QStringLiteral("T=0.07, whitened)")),
                 qPrintable(result.out + result.err));

        result = runKiln({"eval", "knn", "--train-embeddings", train});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(
            QStringLiteral("--train-embeddings and --test-embeddings together")));
        // A folder given beside them was silently ignored.
        result = runKiln({"eval", "knn", "--train-embeddings", train, "--test-embeddings", test,
                          "--train", temp_.path()});
        QVERIFY2(result.exitCode == 1 && result.err.contains(QStringLiteral("without --checkpoint, "
                                                                            "--train or --test")),
                 qPrintable(result.err));
        // A temperature outside knn_monitor.temperature's range (nan was taken).
        result = runKiln({"eval", "knn", "--train-embeddings", train, "--test-embeddings", test,
                          "--temperature", "nan"});
        QVERIFY2(result.exitCode == 1 && result.err.contains(QStringLiteral("is not a number")),
                 qPrintable(result.err));
        const QString wider =
            writeFile(QStringLiteral("wider.csv"), "filename,embedding_0,embedding_1,embedding_2\n"
                                                   "x/e.png,1,0.2,0\ny/f.png,0.2,1,0\n");
        result = runKiln({"eval", "knn", "--train-embeddings", train, "--test-embeddings", wider});
        QVERIFY2(result.exitCode == 1 &&
                     result.err.contains(QStringLiteral("has 2 dimensions and --test-embeddings")),
                 qPrintable(result.err)); // was LibTorch's "unexpected failure" in mm
        // A test class with no training image is named; its images count as misses (with two
        // classes, top-5 counted them as hits).
        const QString unseen = writeFile(QStringLiteral("unseen.csv"),
                                         "filename,embedding_0,embedding_1\nx/e.png,1,0.2\n"
                                         "z/g.png,0.2,1\n");
        result = runKiln(
            {"eval", "knn", "--train-embeddings", train, "--test-embeddings", unseen, "--k", "2"});
        QVERIFY2(result.exitCode == 0 &&
                     result.err.contains(QStringLiteral("have no training images (z)")) &&
                     result.out.contains(QStringLiteral("top-1 50.00%, top-5 50.00%")),
                 qPrintable(result.err + result.out));

        // Which to label: a.png is labelled, b.png its duplicate; the other class's pick is
        // what is left to choose.
        const QString labelled = writeFile(QStringLiteral("labelled.txt"), "x/a.png\n");
        const QString picks = temp_.filePath(QStringLiteral("picks.txt"));
        result = runKiln({"select", "embeddings=" + train, "n=1", "strategy=diverse",
                          "already_labelled=" + labelled, "exclude_duplicates=true",
                          "duplicate_threshold=0.999", "out=" + picks});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("picked 1 of 4 images (diverse, around 1 "
                                                    "labelled, 1 near-duplicates left out)")),
                 qPrintable(result.out));
        QFile names(picks);
        QVERIFY(names.open(QIODevice::ReadOnly));
        QCOMPARE(names.readAll(), QByteArray("y/c.png\n")); // farther from a.png than d.png
        QVERIFY(QFileInfo::exists(temp_.filePath(QStringLiteral("picks.csv"))));
        result = runKiln({"select", "embeddings=" + train, "n=9", "out=" + picks + ".2"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(QStringLiteral("n=9 but only 4 of the 4 images")),
                 qPrintable(result.err));
        QVERIFY(!QFileInfo::exists(picks + ".2"));
        // out=train.txt writes its scores to train.csv: the embeddings it reads.
        result = runKiln({"select", "embeddings=" + train, "n=1", "overwrite=true",
                          "out=" + temp_.filePath(QStringLiteral("train.txt"))});
        QVERIFY2(result.exitCode == 1 && result.err.contains(QStringLiteral("which this selection "
                                                                            "reads")),
                 qPrintable(result.err));
        QFile embeddings(train);
        QVERIFY(embeddings.open(QIODevice::ReadOnly));
        QVERIFY(embeddings.readAll().startsWith("filename,embedding_0,embedding_1\nx/a.png"));
        QVERIFY(!QFileInfo::exists(temp_.filePath(QStringLiteral("train.txt"))));
    }

    void listsModelsAndMethods() {
        Result result = runKiln({"list-models"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out.split('\n', Qt::SkipEmptyParts),
                 (QStringList{"resnet18", "resnet34", "resnet50", "smallcnn", "smallcnn_v2",
                              "cspnet_n", "cspnet_s", "vit_tiny", "vit_small"}));
        result = runKiln({"list-methods"});
        QCOMPARE(result.out.split('\n', Qt::SkipEmptyParts),
                 (QStringList{"simclr", "dino", "distillation"}));
        result = runKiln({"train", "out=" + temp_.filePath("never"),
                          "data=" + temp_.filePath("images"), "model=resnet19"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("did you mean \"resnet18\"?")));
        QVERIFY(!QFileInfo::exists(temp_.filePath("never"))); // nothing written for a bad model
    }

    // The README's two commands are what users copy; CI must run exactly the test one.
    void readmeCommandsAreWhatCiRuns() {
        const QString source = QStringLiteral(KILN_SOURCE_DIR);
        QFile readme(source + QStringLiteral("/README.md"));
        QFile ci(source + QStringLiteral("/.ci/run"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        QVERIFY(ci.open(QIODevice::ReadOnly));
        const QString readmeText = QString::fromUtf8(readme.readAll());
        const QString ciText = QString::fromUtf8(ci.readAll());
        const QString run = QStringLiteral("./packaging/setup-debian.sh && make run");
        const QString test = QStringLiteral("./packaging/setup-debian.sh && make test");
        QVERIFY(readmeText.contains(run));
        QVERIFY(readmeText.contains(test));
        QVERIFY(ciText.split(QLatin1Char('\n')).contains(test));
    }

    // Files users are given by others run nothing: a TorchScript archive whose __setstate__
    // writes into another file, and a pickle that calls os.system, handed to every command that
    // reads weights, under every name Kiln looks for. Each command fails, naming the file, and
    // the victim is untouched.
    void weightsFilesRunNoCode() {
        if (!kiln::test::pythonHas(QStringLiteral("torch"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("torch")));
        }
        const QString victim = writeFile(QStringLiteral("victim.txt"), "untouched contents\n");
        const QString marker = temp_.filePath(QStringLiteral("system-ran"));
        const QString evil = temp_.filePath(QStringLiteral("evil.pt"));
        const QString system = temp_.filePath(QStringLiteral("system.pt"));
        const QString run = temp_.filePath(QStringLiteral("evil-run"));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/exported_models")));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/checkpoints")));
        // TorchScript reads the class's source, so the script is a file.
        const QString script =
            writeFile(QStringLiteral("make_evil.py"),
                      QByteArrayLiteral(
                          "import os, shutil, sys, torch\n"
                          "from typing import Tuple\n"
                          "evil, system, run, victim, marker = sys.argv[1:]\n"
                          "class Evil(torch.nn.Module):\n"
                          "    def __init__(self, victim: str):\n"
                          "        super().__init__()\n"
                          "        self.victim = victim\n"
                          "        self.hits = torch.zeros(8, dtype=torch.uint8)\n"
                          "    @torch.jit.export\n"
                          "    def __getstate__(self) -> Tuple[str, bool]:\n"
                          "        return (self.victim, self.training)\n"
                          "    @torch.jit.export\n"
                          "    def __setstate__(self, state: Tuple[str, bool]) -> None:\n"
                          "        self.victim = state[0]\n"
                          "        self.training = state[1]\n"
                          "        hit = torch.from_file(self.victim, True, 8, dtype=torch.uint8)\n"
                          "        hit.fill_(88)\n"
                          "        self.hits = hit\n"
                          "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
                          "        return x\n"
                          "torch.jit.script(Evil(victim)).save(evil)\n"
                          "class System:\n"
                          "    def __reduce__(self):\n"
                          "        return (os.system, ('touch ' + marker,))\n"
                          "torch.save({'conv1.weight': torch.zeros(1), 'hook': System()}, system)\n"
                          "shutil.copy(evil, run + '/exported_models/exported_last.pt')\n"
                          "shutil.copy(evil, run + '/checkpoints/last.ckpt')\n"));
        const auto made = kiln::test::runPython(
            QStringLiteral("import runpy, sys\n"
                           "sys.argv = sys.argv[1:]\n"
                           "runpy.run_path(sys.argv[0], run_name='__main__')\n"),
            {script, evil, system, run, victim, marker});
        QVERIFY2(made.exit_code == 0, qPrintable(made.errors));
        // The archive really runs code when TorchScript loads it.
        QVERIFY(kiln::test::runPython(QStringLiteral("import sys, torch\n"
                                                     "torch.jit.load(sys.argv[1])\n"),
                                      {evil})
                    .exit_code == 0);
        QFile written(victim);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().startsWith("XXXXXXXX"));
        written.close();
        QVERIFY(QFile::remove(victim));
        writeFile(QStringLiteral("victim.txt"), "untouched contents\n");

        const QString data =
            importTwoClasses(QStringLiteral("evil-data"), [](int i, int) { return i * 60; }, 4);
        QVERIFY(!data.isEmpty());
        const QString out = temp_.filePath(QStringLiteral("evil-out"));
        const QList<QStringList> commands = {
            {"embed", "out=" + out + ".pt", "data=" + data, "checkpoint=" + evil},
            {"embed", "out=" + out + ".pt", "data=" + data,
             "checkpoint=" + run + "/exported_models/exported_last.pt"},
            {"embed", "out=" + out + ".pt", "data=" + data,
             "checkpoint=" + run + "/checkpoints/last.ckpt"},
            {"embed", "out=" + out + ".pt", "data=" + data, "checkpoint=" + system},
            {"predict", "checkpoint=" + evil, "data=" + data, "out=" + out + ".csv"},
            {"export", "checkpoint=" + evil, "out=" + out + ".onnx"},
            {"train", "out=" + out, "data=" + data, "model=smallcnn", "epochs=1",
             "checkpoint=" + evil},
            {"train", "out=" + out, "data=" + data, "model=smallcnn", "epochs=1",
             "method=distillation", "method_args.teacher=" + evil},
            {"train-image-classification", "out=" + out, "data.train=" + data, "data.val=" + data,
             "model=smallcnn", "epochs=1", "model_args.backbone_weights=" + run},
            {"eval", "knn", "--checkpoint", evil, "--train", data, "--test", data},
            // A config file from someone else names a module; the command line does not.
            {"train", "--config",
             writeFile(QStringLiteral("evil-model.json"),
                       "{\"out\": \"" + out.toUtf8() + "\", \"data\": \"" + data.toUtf8() +
                           "\", \"model\": \"torchscript:" + evil.toUtf8() + "\"}"),
             "epochs=1"},
            {"train", "--config",
             writeFile(QStringLiteral("evil-teacher.json"),
                       "{\"method\": \"distillation\", \"method_args\": {\"teacher\": "
                       "\"torchscript:" +
                           evil.toUtf8() + "\"}}"),
             "out=" + out, "data=" + data, "model=smallcnn", "epochs=1"}};
        for (const QStringList& command : commands) {
            const Result result = runKiln(command);
            const QString said = command.join(' ') + "\n" + result.err;
            QVERIFY2(result.exitCode != 0, qPrintable(said));
            QVERIFY2(result.err.contains(QStringLiteral("evil")) ||
                         result.err.contains(QStringLiteral("system.pt")),
                     qPrintable(said));
            QVERIFY2(!result.err.contains(QStringLiteral("unexpected")), qPrintable(said));
            QFile untouched(victim);
            QVERIFY(untouched.open(QIODevice::ReadOnly));
            QVERIFY2(untouched.readAll() == "untouched contents\n", qPrintable(said));
            QVERIFY2(!QFileInfo::exists(marker), qPrintable(said));
        }
        for (const QStringList& fromFile : {commands[10], commands[11]}) {
            const QString said = runKiln(fromFile).err;
            QVERIFY2(said.contains(QStringLiteral("config file \"")) &&
                         said.contains(QStringLiteral("name it on the command line")),
                     qPrintable(said));
        }
        const Result refused = runKiln(commands[3]);
        QVERIFY2(refused.err.contains(QStringLiteral("\"posix.system\", which Kiln never runs")),
                 qPrintable(refused.err));
    }

    void trainValidatesItsSettings() {
        const Result result =
            runKiln({"train", "out=" + temp_.filePath("run"), "data=" + temp_.filePath("images"),
                     "epochs=0", "method_args.temperature=0.2"});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(QStringLiteral("model: missing")));
        QVERIFY(result.err.contains(QStringLiteral("epochs: must be at least 1, got 0")));
    }
};

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
