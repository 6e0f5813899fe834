// Training from Kiln Studio: the run configuration form, the engine thread, live plots, stop,
// the run history afterwards, and screenshots of the main views.

#include "app/application.h"
#include "app/main_window.h"
#include "common/image_conversion.h"
#include "config/command_settings.h"
#include "config/form_fields.h"
#include "config/task_names.h"
#include "core/error.h"
#include "deploy/export_model_dialog.h"
#include "distributed/launcher.h"
#include "embed/writers.h"
#include "embeddings/embedding_session.h"
#include "embeddings/embeddings_view.h"
#include "embeddings/export_dialog.h"
#include "embeddings/labelling_pick_dialog.h"
#include "methods/method_names.h"
#include "plots/live_plots.h"
#include "plots/live_plots_page.h"
#include "plots/per_class_results.h"
#include "plots/prediction_previews.h"
#include "plots/qcustomplot.h"
#include "predict/predict_dialog.h"
#include "predict/predictions_browser.h"
#include "project/project.h"
#include "runs/run_history.h"
#include "support/screenshot.h"
#include "support/shape_scenes.h"
#include "support/shapes_idx.h"
#include "training/run_config_form.h"
#include "training/training_session.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFrame>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>
#include <cstring>
#include <opencv2/imgcodecs.hpp>
#include <torch/types.h>
#include <torch/utils.h>

using kiln::gui::MainWindow;

namespace {

// 16 small images in two kinds, enough for a few steps of a small CNN.
void writeImages(const QString& folder) {
    QDir().mkpath(folder);
    for (int i = 0; i < 16; ++i) {
        QImage image(20, 20, QImage::Format_RGB32);
        image.fill(i % 2 == 0 ? Qt::white : Qt::black);
        for (int y = 0; y < 20; y += 4 + i % 3) {
            for (int x = 0; x < 20; ++x) {
                image.setPixelColor(x, y, QColor(i * 15, 128, 255 - i * 15));
            }
        }
        QVERIFY(image.save(QDir(folder).filePath(QStringLiteral("%1.png").arg(i))));
    }
}

// Measures the longest gap between ticks of a 5 ms timer on the GUI thread.
class StallMeter : public QObject {
public:
    StallMeter() {
        clock_.start();
        connect(&timer_, &QTimer::timeout, this,
                [this] { longest_ = std::max(longest_, clock_.restart()); });
        timer_.start(5);
    }
    qint64 longestMs() const { return longest_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 longest_ = 0;
};

// The history reads run.db files on a thread: wait until what it shows is current.
void waitForHistory(const kiln::gui::RunHistoryView* view) {
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRefreshing(), 10000);
}

} // namespace

class TrainingTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    QString data_;

    // A saved project with the images and a small, quick run configured.
    // A project saved in `folder` (the temporary folder by default), whose runs go beside it.
    void prepare(MainWindow& window, const QString& name, int epochs, QString folder = {}) {
        folder = folder.isEmpty() ? temp_.path() : folder;
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(window.projects()->newProject());
        QVERIFY(window.projects()->addDataset(data_));
        QVERIFY(window.projects()->saveProjectAs(
            QDir(folder).filePath(name + QStringLiteral(".kiln"))));
        window.runConfiguration()->setSettings({{"model", "smallcnn"},
                                                {"method", "simclr"},
                                                {"epochs", epochs},
                                                {"batch_size", 8},
                                                {"transform_args", {{"image_size", {16, 16}}}},
                                                {"num_workers", 0},
                                                {"accelerator", "cpu"},
                                                {"data", data_.toStdString()}});
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        kiln::gui::configureApplication(*qApp);
        QSettings().clear();
        data_ = QDir(temp_.path()).filePath(QStringLiteral("images"));
        writeImages(data_);
    }

    // Studio's form and the command line agree: each task's defaults where the settings say
    // nothing, untouched defaults follow a change of task, and every field the settings give
    // the form has a row under its declared name.
    void formAndCommandLineAgreeOnDefaults() {
        kiln::gui::RunConfigForm form;
        form.resize(900, 1400);
        form.show();
        auto* task = form.findChild<QComboBox*>(QStringLiteral("taskField"));
        auto* epochs = form.findChild<QSpinBox*>(QStringLiteral("epochsField"));
        QSet<int> fieldColumns; // where the fields start, task by task: one place
        for (const kiln::TaskTraits& traits : kiln::task_table()) {
            form.setSettings({{"task", traits.name}});
            QCoreApplication::processEvents();
            fieldColumns << task->mapTo(&form, QPoint()).x();
            const nlohmann::json settings = form.settings();
            QCOMPARE(settings["epochs"], nlohmann::json(traits.default_epochs));
            QCOMPARE(settings["batch_size"], nlohmann::json(traits.default_batch_size));
            for (const kiln::config::FormField& field : kiln::config::form_fields(traits.kind)) {
                QCOMPARE(form.fieldName(QString::fromStdString(field.path)),
                         QString::fromUtf8(field.key.form.label));
            }
        }
        QCOMPARE(fieldColumns.size(), 1);
        // The estimates' strip under the form takes no room while it has nothing to say.
        QVERIFY(form.estimates()->isHidden());
        form.setMemoryEstimate(QStringLiteral("Memory: fits"), false);
        QVERIFY(!form.estimates()->isHidden());
        form.setMemoryEstimate(QString(), false);
        QVERIFY(form.estimates()->isHidden());
        form.setSettings({{"task", "pretrain"}});
        QCOMPARE(form.settings()["method"], nlohmann::json(kiln::methods::default_method()));
        // The model settings a preset holds and the form has no field for are kept.
        const nlohmann::json model_args = {{"head", "mlp"}, {"label_smoothing", 0.1}};
        form.setSettings({{"task", "image_classification"}, {"model_args", model_args}});
        QCOMPARE(form.settings()["model_args"], model_args);
        // Another task's model settings stay out: segmentation has no head.
        task->setCurrentIndex(task->findData(QStringLiteral("semantic_segmentation")));
        QVERIFY(!form.settings().contains("model_args"));
        form.setSettings(
            {{"task", "semantic_segmentation"}, {"model_args", {{"decoder_width", 64}}}});
        QCOMPARE(form.settings()["model_args"], nlohmann::json({{"decoder_width", 64}}));
        task->setCurrentIndex(task->findData(QStringLiteral("image_classification")));
        QCOMPARE(epochs->value(), 10);
        epochs->setValue(33);
        task->setCurrentIndex(task->findData(QStringLiteral("pretrain")));
        QCOMPARE(epochs->value(), 33); // the user's, kept
        QCOMPARE(form.settings()["batch_size"], nlohmann::json(128));
    }

    // A project file's values of the wrong type never crash the form: each shows as the
    // default, and the problems are named.
    void badProjectValuesShowAsDefaultsAndAreNamed() {
        kiln::gui::RunConfigForm form;
        form.setSettings({{"task", "image_classification"},
                          {"epochs", "ten"},
                          {"sync_batchnorm", "yes"},
                          {"devices", {"gpu0"}},
                          {"transform_args", {{"image_size", "big"}}}});
        const nlohmann::json settings = form.settings();
        QCOMPARE(settings["epochs"], nlohmann::json(10));
        QVERIFY(!settings.contains("sync_batchnorm"));
        const QString problems = form.valueProblems().join(QLatin1Char('\n'));
        for (const char* key : {"epochs", "sync_batchnorm", "transform_args.image_size"}) {
            QVERIFY2(problems.contains(QLatin1String(key)), qPrintable(problems));
        }
        form.setSettings({{"task", "image_classification"}, {"epochs", 3}});
        QVERIFY(form.valueProblems().isEmpty());
        // No output folder is no value: not saved, and not a problem where a project saved "".
        QVERIFY(!form.settings().contains("out"));
        form.setSettings({{"task", "image_classification"}, {"out", ""}});
        QVERIFY2(form.valueProblems().isEmpty(),
                 qPrintable(form.valueProblems().join(QLatin1Char('\n'))));
    }

    // "Train for" is epochs, steps (fine-tuning) or minutes (max_time), both ways.
    void trainForTakesEpochsStepsOrMinutes() {
        kiln::gui::RunConfigForm form;
        auto* amount = form.findChild<QSpinBox*>(QStringLiteral("epochsField"));
        auto* unit = form.findChild<QComboBox*>(QStringLiteral("trainForUnitField"));
        form.setSettings({{"task", "image_classification"}, {"max_time", 600}});
        QCOMPARE(unit->currentData().toString(), QStringLiteral("max_time"));
        QCOMPARE(amount->value(), 10);
        amount->setValue(5);
        nlohmann::json settings = form.settings();
        QCOMPARE(settings["max_time"], nlohmann::json(300));
        QVERIFY(!settings.contains("epochs"));
        form.setSettings({{"task", "image_classification"}, {"steps", 250}});
        QCOMPARE(unit->currentData().toString(), QStringLiteral("steps"));
        QCOMPARE(form.settings()["steps"], nlohmann::json(250));
        unit->setCurrentIndex(unit->findData(QStringLiteral("epochs")));
        settings = form.settings();
        QCOMPARE(settings["epochs"], nlohmann::json(250));
        QVERIFY(!settings.contains("steps") && !settings.contains("max_time"));
        // Pretraining has no steps: a steps length falls back to epochs.
        unit->setCurrentIndex(unit->findData(QStringLiteral("steps")));
        form.setSettings({{"task", "pretrain"}, {"epochs", 7}});
        QCOMPARE(unit->currentData().toString(), QStringLiteral("epochs"));
        QCOMPARE(form.settings()["epochs"], nlohmann::json(7));
    }

    // A dataset whose labels the Datasets tab knows fills the task's data fields when chosen:
    // its COCO file or data.yaml for detection, its masks for segmentation.
    void labelledDatasetsFillTheirTasksDataFields() {
        kiln::gui::RunConfigForm form;
        const QString annotations = QStringLiteral("/data/scenes/annotations.json");
        const QString yaml = QStringLiteral("/data/yolo/data.yaml");
        const QString masks = QStringLiteral("/data/seg/masks");
        const QList<kiln::gui::DatasetEntry> datasets = {
            {QStringLiteral("scenes"), QStringLiteral("/data/scenes/images"),
             QStringLiteral("coco"), annotations},
            {QStringLiteral("yolo"), QStringLiteral("/data/yolo/images/train"),
             QStringLiteral("yolo"), yaml},
            {QStringLiteral("seg"), QStringLiteral("/data/seg/images"), QStringLiteral("masks"),
             masks}};
        form.setDatasets(datasets);
        const auto choose = [&](const char* field, const QString& value) {
            auto* box = form.findChild<QComboBox*>(QLatin1String(field));
            box->setCurrentIndex(box->findData(value));
            QVERIFY(box->currentIndex() >= 0);
            Q_EMIT box->activated(box->currentIndex()); // as a user's pick
        };
        const auto text = [&](const char* field) {
            return QDir::fromNativeSeparators(
                form.findChild<QLineEdit*>(QLatin1String(field))->text());
        };
        choose("dataField", QStringLiteral("/data/scenes/images"));
        choose("taskField", QStringLiteral("object_detection"));
        QCOMPARE(text("trainAnnotationsField"), annotations);
        choose("valDataField", QStringLiteral("/data/scenes/images"));
        QCOMPARE(text("valAnnotationsField"), annotations);
        nlohmann::json settings = form.settings();
        QCOMPARE(settings["data"]["train"]["annotations"],
                 nlohmann::json(annotations.toStdString()));
        QCOMPARE(settings["data"]["val"]["annotations"], nlohmann::json(annotations.toStdString()));
        // Listed again (a dataset's labels changed on the Datasets tab), the datasets chosen
        // stay chosen, and detection is never given classification's hold-out (whose name was
        // refused as a missing folder).
        form.setDatasets(datasets);
        QCOMPARE(form.settings()["data"], settings["data"]);
        auto* val = form.findChild<QComboBox*>(QStringLiteral("valDataField"));
        val->setCurrentIndex(1);
        form.setDatasets({});
        QVERIFY(val->currentData() != QVariant(QLatin1String(kiln::gui::RunConfigForm::kHoldOut)));
        form.setDatasets(datasets);

        choose("dataField", QStringLiteral("/data/yolo/images/train"));
        QCOMPARE(form.findChild<QComboBox*>(QStringLiteral("detectionLabelsField"))->currentData(),
                 QVariant(QStringLiteral("yolo")));
        QCOMPARE(text("yoloDataField"), yaml);
        QCOMPARE(form.settings()["data"], nlohmann::json(yaml.toStdString()));

        choose("taskField", QStringLiteral("semantic_segmentation"));
        choose("dataField", QStringLiteral("/data/seg/images"));
        QCOMPARE(text("trainMasksField"), masks);
        // A preset names its own labels: setting it takes nothing from the datasets.
        form.findChild<QLineEdit*>(QStringLiteral("trainMasksField"))
            ->setText(QStringLiteral("/elsewhere/masks"));
        form.setSettings(form.settings());
        QCOMPARE(text("trainMasksField"), QStringLiteral("/elsewhere/masks"));
    }

    void formRoundTripsAndShowsTheEnginesProblems() {
        kiln::gui::RunConfigForm form;
        kiln::gui::Project project;
        project.addDataset(data_);
        form.setDatasets(project.datasets());
        const nlohmann::json settings = {{"task", "pretrain"},
                                         {"model", "resnet18"},
                                         {"method", "dino"},
                                         {"epochs", 7},
                                         {"batch_size", 64},
                                         {"transform_args", {{"image_size", {96, 96}}}},
                                         {"precision", "bf16-mixed"},
                                         {"seed", 3},
                                         {"out", "/tmp/run"},
                                         {"accelerator", "cpu"},
                                         {"data", QDir::cleanPath(data_).toStdString()},
                                         {"num_workers", 2},
                                         {"loggers", {{"tensorboard", nullptr}}}};
        form.setSettings(settings);
        QCOMPARE(QString::fromStdString(form.settings().dump()),
                 QString::fromStdString(settings.dump()));

        // On the CPU the float16 precisions are offered disabled, with the reason.
        auto* precision = form.findChild<QComboBox*>(QStringLiteral("precisionField"));
        auto* model = qobject_cast<QStandardItemModel*>(precision->model());
        const int fp16 = precision->findText(QStringLiteral("16-mixed"));
        kiln::system::HardwareInfo cpu_only;
        cpu_only.cpu_cores = 4;
        form.setHardware(cpu_only);
        QVERIFY(!model->item(fp16)->isEnabled());
        QVERIFY(model->item(fp16)->toolTip().contains(QStringLiteral("CUDA")));
        // num_workers auto shows what it resolves to (4 cores, 1 device: 3).
        QCOMPARE(form.findChild<QSpinBox*>(QStringLiteral("numWorkersField"))->specialValueText(),
                 QStringLiteral("auto (3)"));

        // The engine's validator speaks next to the field.
        nlohmann::json bad = settings;
        bad["data"] = "/nowhere/at/all";
        bad["precision"] = "16-mixed";
        form.setSettings(bad);
        QVERIFY(!form.validate());
        QVERIFY2(form.issueText(QStringLiteral("data")).contains(QStringLiteral("does not exist")),
                 qPrintable(form.issueText(QStringLiteral("data"))));
        QVERIFY2(!form.issueText(QStringLiteral("precision")).isEmpty(),
                 qPrintable(form.issueText(QStringLiteral("precision"))));
        // Devices and nodes are settings like the others.
        nlohmann::json two_nodes = settings;
        two_nodes["num_nodes"] = 2;
        form.setSettings(two_nodes);
        QCOMPARE(form.settings()["num_nodes"], nlohmann::json(2));
        form.setSettings(settings);
        QVERIFY(form.validate().has_value());
        QVERIFY(form.issueText(QStringLiteral("data")).isEmpty());
        // The kNN monitor's folders are project datasets (or any folder), round-tripped; one
        // without the other is explained at the missing one's field.
        nlohmann::json monitored = settings;
        monitored["knn_monitor"] = {{"train", QDir::cleanPath(data_).toStdString()},
                                    {"val", QDir::cleanPath(data_).toStdString()}};
        form.setSettings(monitored);
        QCOMPARE(QString::fromStdString(form.settings().dump()),
                 QString::fromStdString(monitored.dump()));
        QVERIFY(!form.validate()); // each image its own neighbour
        QVERIFY2(form.issueText(QStringLiteral("knn_monitor.val"))
                     .contains(QStringLiteral("is knn_monitor.train too")),
                 qPrintable(form.issueText(QStringLiteral("knn_monitor.val"))));
        monitored["knn_monitor"]["val"] = QFileInfo(data_).absolutePath().toStdString();
        form.setSettings(monitored);
        QVERIFY(form.validate().has_value());
        auto* knn_val = form.findChild<QComboBox*>(QStringLiteral("knnMonitorValField"));
        knn_val->setCurrentIndex(0); // none
        QVERIFY(!form.validate());
        QVERIFY2(
            form.issueText(QStringLiteral("knn_monitor.val")).contains(QStringLiteral("required")),
            qPrintable(form.issueText(QStringLiteral("knn_monitor.val"))));
        form.setSettings(settings);
        QVERIFY(!form.settings().contains("knn_monitor"));

        // As the user types: a value the engine refuses stays as typed and is explained next to
        // its field shortly after; fixing it clears the problem without pressing Train.
        auto* epochs = form.findChild<QSpinBox*>(QStringLiteral("epochsField"));
        auto* image_size = form.findChild<QSpinBox*>(QStringLiteral("imageSizeField"));
        epochs->setValue(0);
        image_size->setValue(7);
        QCOMPARE(epochs->value(), 0);
        QTRY_VERIFY2(
            form.issueText(QStringLiteral("epochs")).contains(QStringLiteral("at least 1")),
            qPrintable(form.issueText(QStringLiteral("epochs"))));
        QVERIFY2(form.issueText(QStringLiteral("transform_args.image_size"))
                     .contains(QStringLiteral("between 16 and 4096, got [7,7]")),
                 qPrintable(form.issueText(QStringLiteral("transform_args.image_size"))));
        QCOMPARE(image_size->value(), 7);
        epochs->setValue(5);
        image_size->setValue(16);
        QTRY_VERIFY(form.issueText(QStringLiteral("epochs")).isEmpty());
        QVERIFY(form.issueText(QStringLiteral("transform_args.image_size")).isEmpty());
        // 0 typed is auto again (there was no way back to it but stepping below 0).
        image_size->setValue(0);
        QCOMPARE(image_size->text(), QStringLiteral("auto"));
        QCOMPARE(form.settings()["transform_args"]["image_size"], nlohmann::json("auto"));
    }

    // On a 1366 x 768 screen the longest hints (the JSON examples) are read whole.
    void longHintsFitTheirFields() {
        kiln::gui::RunConfigForm form;
        form.resize(1366, 768);
        form.show();
        form.setAdvancedVisible(true);
        for (const char* name : {"augmentationField", "methodArgsField"}) {
            auto* field = form.findChild<QLineEdit*>(QLatin1String(name));
            const int needed = field->fontMetrics().horizontalAdvance(field->placeholderText());
            QTRY_VERIFY2(field->contentsRect().width() >= needed, name);
        }
    }

    // Opened by a click on a 1366 x 768 page, Advanced scrolls up into view (its fields opened
    // below the fold).
    void openingAdvancedScrollsItIntoView() {
        QScrollArea page;
        auto* form = new kiln::gui::RunConfigForm;
        page.setWidget(form);
        page.setWidgetResizable(true);
        page.resize(1366, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.verticalScrollBar()->value(), 0);
        form->findChild<QToolButton*>(QStringLiteral("advancedToggle"))->click();
        QTRY_VERIFY(page.verticalScrollBar()->value() > 0);
        QVERIFY(form->advancedVisible());
    }

    // Advanced settings: folded until asked for, round-tripped with the rest, the engine's
    // defaults shown in the blank fields (following the task, method and optimizer), and the
    // engine's problems shown under their own field, unfolding the section.
    void advancedSettingsShowTheEnginesDefaults() {
        kiln::gui::RunConfigForm form;
        form.resize(900, 1400);
        form.show();
        kiln::gui::Project project;
        project.addDataset(data_);
        form.setDatasets(project.datasets());
        nlohmann::json settings = {{"task", "pretrain"},
                                   {"model", "smallcnn"},
                                   {"method", "simclr"},
                                   {"epochs", 2},
                                   {"batch_size", 8},
                                   {"transform_args", {{"image_size", {32, 32}}}},
                                   {"precision", "32-true"},
                                   {"seed", 0},
                                   {"out", "/tmp/run"},
                                   {"accelerator", "cpu"},
                                   {"data", QDir::cleanPath(data_).toStdString()},
                                   {"num_workers", 0},
                                   {"loggers", nlohmann::json::object()}};
        form.setSettings(settings);
        QVERIFY(!form.advancedVisible());
        auto* lr = form.findChild<QLineEdit*>(QStringLiteral("learningRateField"));
        auto* optim = form.findChild<QComboBox*>(QStringLiteral("optimField"));
        QVERIFY(!lr->isVisibleTo(&form));
        // SimCLR trains the small CNN with SGD at 0.12 per 256 images, a ResNet with LARS at
        // 0.3, both with 10 warm-up epochs.
        QCOMPARE(optim->itemText(0), QStringLiteral("auto (sgd)"));
        QVERIFY2(lr->placeholderText().startsWith(QStringLiteral("0.12 per 256 images")),
                 qPrintable(lr->placeholderText()));
        auto* model = form.findChild<QComboBox*>(QStringLiteral("modelField"));
        model->setCurrentText(QStringLiteral("resnet18"));
        QCOMPARE(optim->itemText(0), QStringLiteral("auto (lars)"));
        QVERIFY2(lr->placeholderText().startsWith(QStringLiteral("0.3 per 256 images")),
                 qPrintable(lr->placeholderText()));
        QVERIFY(form.findChild<QLineEdit*>(QStringLiteral("warmupEpochsField"))
                    ->placeholderText()
                    .startsWith(QStringLiteral("10")));
        model->setCurrentText(QStringLiteral("smallcnn"));
        // DINO and fine-tuning bring their own, DINO's by the model's family (SGD for CNNs,
        // AdamW for ViTs); another optimizer than the method's its own.
        form.findChild<QComboBox*>(QStringLiteral("methodField"))->setCurrentText("dino");
        QCOMPARE(optim->itemText(0), QStringLiteral("auto (sgd)"));
        QVERIFY(lr->placeholderText().startsWith(QStringLiteral("0.03 ")));
        model->setCurrentText(QStringLiteral("vit_tiny"));
        QCOMPARE(optim->itemText(0), QStringLiteral("auto (adamw)"));
        QVERIFY(lr->placeholderText().startsWith(QStringLiteral("0.0005")));
        optim->setCurrentText(QStringLiteral("lars"));
        QVERIFY(lr->placeholderText().startsWith(QStringLiteral("0.1 ")));
        model->setCurrentText(QStringLiteral("smallcnn"));
        auto* task = form.findChild<QComboBox*>(QStringLiteral("taskField"));
        task->setCurrentIndex(task->findData(QStringLiteral("image_classification")));
        optim->setCurrentIndex(0);
        QVERIFY(lr->placeholderText().startsWith(QStringLiteral("0.01 ")));
        task->setCurrentIndex(task->findData(QStringLiteral("pretrain")));

        // Everything round-trips, and the engine accepts it.
        settings["method"] = "dino";
        settings["optim"] = "sgd";
        settings["optim_args"] = {
            {"lr", 0.05}, {"weight_decay", 0.0001}, {"warmup_epochs", 1.0}, {"momentum", 0.8}};
        settings["gradient_accumulation_steps"] = 2;
        settings["transform_args"]["color_jitter"] = {{"prob", 0.5}};
        settings["callbacks"] = {{"model_checkpoint", {{"every_n_steps", 50}}}};
        settings["loggers"] = {
            {"wandb", {{"project", "kiln"}, {"offline", true}, {"tags", {"cpu"}}, {"name", "a"}}}};
        settings["method_args"] = {{"teacher_temp", 0.03}, {"momentum_start", 0.99}};
        form.setSettings(settings);
        const nlohmann::json round = form.settings();
        for (const char* key : {"optim", "optim_args", "gradient_accumulation_steps", "callbacks",
                                "loggers", "method_args"}) {
            QVERIFY2(round[key] == settings[key], key);
        }
        QCOMPARE(round["transform_args"]["color_jitter"],
                 settings["transform_args"]["color_jitter"]);
        const auto resolved = form.validate();
        QVERIFY2(resolved.has_value(), qPrintable(form.issueText(QStringLiteral("optim_args.lr"))));
        QCOMPARE(resolved->gradient_accumulation_steps, 2);

        // A problem in a folded field unfolds the section and shows under its own field.
        form.setAdvancedVisible(false);
        lr->setText(QStringLiteral("2e9"));
        QTRY_VERIFY2(!form.issueText(QStringLiteral("optim_args.lr")).isEmpty(),
                     qPrintable(form.issueText(QStringLiteral("optim_args.lr"))));
        QVERIFY(form.advancedVisible());
        QVERIFY(form.issueText(QStringLiteral("optim_args.weight_decay")).isEmpty());
        lr->clear();
        auto* augmentation = form.findChild<QLineEdit*>(QStringLiteral("augmentationField"));
        augmentation->setText(QStringLiteral(R"({"color_jiter": {"prob": 0.5}})"));
        QTRY_VERIFY2(form.issueText(QStringLiteral("augmentation")).contains("color_jiter"),
                     qPrintable(form.issueText(QStringLiteral("augmentation"))));
        QVERIFY(form.issueText(QStringLiteral("transform_args.image_size")).isEmpty());
        augmentation->setText(QStringLiteral("{not json"));
        QTRY_VERIFY2(form.issueText(QStringLiteral("augmentation")).contains("JSON object"),
                     qPrintable(form.issueText(QStringLiteral("augmentation"))));
        augmentation->clear();
        QTRY_VERIFY(form.issueText(QStringLiteral("augmentation")).isEmpty());
        // The method's settings: the chosen method's keys, with their defaults, in the tooltip;
        // another method's key named under the field.
        auto* method_args = form.findChild<QLineEdit*>(QStringLiteral("methodArgsField"));
        QVERIFY2(
            method_args->toolTip().contains(QStringLiteral("teacher_temp (by the dataset's size)")),
            qPrintable(method_args->toolTip()));
        QVERIFY(method_args->toolTip().contains(QStringLiteral("student_temp (0.1)")));
        QVERIFY(method_args->toolTip().contains(QStringLiteral("hidden_dim (2048)")));
        method_args->setText(QStringLiteral(R"({"decorrelation": 0.1})"));
        QTRY_VERIFY2(form.issueText(QStringLiteral("method_args")).contains("decorrelation"),
                     qPrintable(form.issueText(QStringLiteral("method_args"))));
        method_args->setText(QStringLiteral("[1]"));
        QTRY_VERIFY2(form.issueText(QStringLiteral("method_args")).contains("JSON object"),
                     qPrintable(form.issueText(QStringLiteral("method_args"))));
        form.findChild<QComboBox*>(QStringLiteral("methodField"))->setCurrentText("simclr");
        QVERIFY(method_args->toolTip().contains(QStringLiteral("temperature (0.1)")));
        QVERIFY2(method_args->toolTip().contains(QStringLiteral("hidden_dim (512)")) &&
                     method_args->toolTip().contains(QStringLiteral("decorrelation (0.3)")),
                 qPrintable(method_args->toolTip())); // the small CNN's recipe
        method_args->setText(QStringLiteral(R"({"decorrelation": 0.1})"));
        QTRY_VERIFY(form.issueText(QStringLiteral("method_args")).isEmpty());
        std::optional<kiln::TrainConfig> checked = form.validate();
        QVERIFY(checked.has_value());
        QCOMPARE(checked->method_args["decorrelation"], nlohmann::json(0.1));
        // Left unreadable there, it does not hold up fine-tuning, which has no such row.
        method_args->setText(QStringLiteral("{not json"));
        QTRY_VERIFY(!form.issueText(QStringLiteral("method_args")).isEmpty());
        task->setCurrentIndex(task->findData(QStringLiteral("image_classification")));
        checked = form.validate();
        QVERIFY(form.issueText(QStringLiteral("method_args")).isEmpty());
        QVERIFY2(checked.has_value() || !form.issueText(QStringLiteral("data")).isEmpty(),
                 "refused with nothing said");
        // Fine-tuning's own rate settings, layer-wise decay among them, checked by the engine.
        auto* layer_decay = form.findChild<QLineEdit*>(QStringLiteral("layerDecayField"));
        layer_decay->setText(QStringLiteral("0.75"));
        QCOMPARE(form.settings()["optim_args"]["layer_decay"], nlohmann::json(0.75));
        layer_decay->setText(QStringLiteral("2"));
        QTRY_VERIFY2(!form.issueText(QStringLiteral("optim_args.layer_decay")).isEmpty(),
                     qPrintable(form.issueText(QStringLiteral("optim_args.layer_decay"))));
        task->setCurrentIndex(task->findData(QStringLiteral("pretrain")));
        QVERIFY(!form.settings()
                     .value("optim_args", nlohmann::json::object())
                     .contains("layer_decay")); // pretraining has no backbone below a head
        layer_decay->clear();
        method_args->clear();
        kiln::test::saveScreenshot(form, QStringLiteral("run-configuration-advanced"));
    }

    void formListsEachGpuAndTrainsOnTheOneChosen() {
        kiln::gui::RunConfigForm form;
        kiln::system::HardwareInfo hardware;
        hardware.cpu_cores = 16;
        hardware.libtorch_has_cuda = true;
        for (const auto& [name, major] :
             {std::pair{"NVIDIA H200", 9}, std::pair{"Tesla V100", 7}}) {
            kiln::system::GpuInfo gpu;
            gpu.index = static_cast<int>(hardware.gpus.size());
            gpu.name = name;
            gpu.memory_total_mb = 143771;
            gpu.compute_major = major;
            hardware.gpus.push_back(gpu);
        }
        // The window probes the GPUs off the GUI thread: a project's choice of GPU and
        // precision, set before they are known, is kept until they are.
        auto* accelerator = form.findChild<QComboBox*>(QStringLiteral("acceleratorField"));
        auto* precision = form.findChild<QComboBox*>(QStringLiteral("precisionField"));
        form.setSettings({{"task", "pretrain"},
                          {"accelerator", "cuda"},
                          {"devices", {1}},
                          {"precision", "16-mixed"}});
        QCOMPARE(accelerator->currentData().toString(), QStringLiteral("auto"));
        form.setHardware(hardware);
        QCOMPARE(accelerator->currentData().toString(), QStringLiteral("cuda:1"));
        QCOMPARE(precision->currentText(), QStringLiteral("16-mixed"));
        QVERIFY(accelerator != nullptr);
        const int v100 = accelerator->findData(QStringLiteral("cuda:1"));
        QVERIFY(v100 >= 0);
        // The GPU's name and memory.
        QVERIFY2(accelerator->itemText(v100).contains(QStringLiteral("Tesla V100")) &&
                     accelerator->itemText(v100).contains(QStringLiteral("140")),
                 qPrintable(accelerator->itemText(v100)));
        accelerator->setCurrentIndex(v100);
        // bf16 needs Ampere; the V100 is older: offered disabled with the reason, fp16 allowed.
        auto* model = qobject_cast<QStandardItemModel*>(precision->model());
        QVERIFY(!model->item(precision->findText(QStringLiteral("bf16-mixed")))->isEnabled());
        QVERIFY(model->item(precision->findText(QStringLiteral("bf16-mixed")))
                    ->toolTip()
                    .contains(QStringLiteral("Tesla V100")));
        QVERIFY(model->item(precision->findText(QStringLiteral("16-mixed")))->isEnabled());
        // The chosen GPU is the one the run uses, and it comes back.
        const nlohmann::json settings = form.settings();
        QCOMPARE(settings["devices"], nlohmann::json::array({1}));
        QCOMPARE(settings["accelerator"], nlohmann::json("cuda"));
        form.setSettings(settings);
        QCOMPARE(accelerator->currentData().toString(), QStringLiteral("cuda:1"));
        accelerator->setCurrentIndex(accelerator->findData(QStringLiteral("cuda:0")));
        QVERIFY(model->item(precision->findText(QStringLiteral("bf16-mixed")))->isEnabled());

        // Loader workers' auto follows the devices: 16 cores over one GPU's process or two.
        auto* workers = form.findChild<QSpinBox*>(QStringLiteral("numWorkersField"));
        auto* devices = form.findChild<QSpinBox*>(QStringLiteral("devicesField"));
        QCOMPARE(workers->specialValueText(), QStringLiteral("auto (8)")); // one GPU: capped
        accelerator->setCurrentIndex(accelerator->findData(QStringLiteral("auto")));
        QCOMPARE(workers->specialValueText(), QStringLiteral("auto (7)")); // both GPUs
        devices->setValue(4);
        QCOMPARE(workers->specialValueText(), QStringLiteral("auto (3)"));
        accelerator->setCurrentIndex(accelerator->findData(QStringLiteral("cpu")));
        devices->setValue(0);
        QCOMPARE(workers->specialValueText(), QStringLiteral("auto (8)"));
    }

    // More folders than colours (a dataset of a thousand classes): the nine largest keep a
    // colour each and the rest are one grey group, so the legend stays short.
    void embeddingsOfManyFoldersFoldTheSmallest() {
        std::vector<std::string> names;
        for (int folder = 0; folder < 12; ++folder) {
            for (int i = 0; i <= folder; ++i) { // folder f holds f + 1 images
                names.push_back("f" + std::to_string(folder) + "/" + std::to_string(i) + ".png");
            }
        }
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("many.csv"));
        kiln::embed::write_embeddings(file.toStdString(), "csv", names,
                                      torch::randn({std::int64_t(names.size()), 4}));
        kiln::gui::EmbeddingsView view;
        QSignalSpy loaded(&view, &kiln::gui::EmbeddingsView::loaded);
        view.load(file, {});
        QVERIFY(loaded.wait(30000));
        QCOMPARE(view.groupCount(), 10);
        auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("embeddingsPlot"));
        QStringList legend;
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            legend << qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i))
                          ->plottable()
                          ->name();
        }
        QCOMPARE(legend.first(), QStringLiteral("f11")); // the largest first
        QVERIFY(!legend.contains(QStringLiteral("f2")));
        QCOMPARE(legend.last(), QStringLiteral("3 other folders")); // f0, f1 and f2: 6 points
        QCOMPARE(plot->graph(9)->dataCount(), 6);
    }

    void embeddingsViewGroupsByFolderAndFindsNeighbours() {
        // 30 embeddings in folders a/ and b/, each folder around its own direction, and b/7 a
        // copy of a/3.
        std::vector<std::string> names;
        torch::manual_seed(8);
        torch::Tensor values = torch::randn({30, 8}) * 0.1;
        for (int i = 0; i < 30; ++i) {
            names.push_back((i < 15 ? "a/" : "b/") + std::to_string(i % 15) + ".png");
            values[i][i < 15 ? 0 : 1] += 1.0;
        }
        values[22] = values[3] * 2.0;
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("view.csv"));
        kiln::embed::write_embeddings(file.toStdString(), "csv", names, values);
        kiln::gui::EmbeddingsView view;
        QSignalSpy loaded(&view, &kiln::gui::EmbeddingsView::loaded);
        view.load(file, {temp_.path()});
        QVERIFY(loaded.wait(30000));
        QCOMPARE(view.pointCount(), 30);
        QCOMPARE(view.groupCount(), 2);
        QVERIFY(view.hoverText(3).endsWith(QStringLiteral("a/3.png")));
        // The legend names the marks while the map shows some: the groups only at first.
        auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("embeddingsPlot"));
        const auto inLegend = [plot](const QString& name) {
            for (int g = 0; g < plot->graphCount(); ++g) {
                if (plot->graph(g)->name() == name) {
                    return plot->legend->hasItemWithPlottable(plot->graph(g));
                }
            }
            return false;
        };
        QCOMPARE(plot->legend->itemCount(), 2);
        view.selectPoint(3);
        QCOMPARE(view.neighbourNames().value(0), QStringLiteral("b/7.png")); // its copy first
        QVERIFY(inLegend(QStringLiteral("neighbours")));
        QVERIFY(!inLegend(QStringLiteral("selection")));
        // The neighbour rings and the selection are drawn in the text colour (white on the dark
        // theme), apart from every group's colour.
        QColor rings;
        std::vector<QColor> groups;
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QCPScatterStyle style = plot->graph(g)->scatterStyle();
            if (plot->graph(g)->name() == QStringLiteral("neighbours")) {
                rings = style.pen().color();
            } else if (plot->graph(g)->name() != QStringLiteral("selection")) {
                groups.push_back(style.pixmap().toImage().pixelColor(2, 2)); // a dot's middle
            }
        }
        QCOMPARE(rings, view.palette().color(QPalette::WindowText));
        QCOMPARE(groups.size(), std::size_t(2));
        QVERIFY(std::find(groups.begin(), groups.end(), rings) == groups.end());
        // UMAP and t-SNE draw the same points, each folder's together: every point's nearest
        // in the map is from its own folder. They map what the view holds: the file is not read
        // again.
        QVERIFY(QFile::remove(file));
        for (const QString& projection : {QStringLiteral("umap"), QStringLiteral("tsne")}) {
            QTRY_VERIFY(!view.isLoading());
            view.setProjection(projection);
            QVERIFY(loaded.wait(60000));
            QCOMPARE(view.projection(), projection);
            QCOMPARE(view.pointCount(), 30);
            int apart = 0;
            for (int i = 0; i < 30; ++i) {
                int nearest = -1;
                double best = 1e300;
                for (int j = 0; j < 30; ++j) {
                    const QPointF d = view.position(i) - view.position(j);
                    const double distance = QPointF::dotProduct(d, d);
                    if (j != i && j != 22 && i != 22 && distance < best) {
                        best = distance;
                        nearest = j;
                    }
                }
                apart += nearest >= 0 && (nearest < 15) == (i < 15) ? 1 : 0;
            }
            QVERIFY2(apart >= 27, qPrintable(QStringLiteral("%1 %2").arg(projection).arg(apart)));
        }
        // A projection chosen while a pick runs is drawn after it, and the axes name what is
        // drawn meanwhile.
        QTRY_VERIFY(!view.isLoading());
        QSignalSpy picked(&view, &kiln::gui::EmbeddingsView::pickingDone);
        kiln::SelectConfig pick;
        pick.n = 3;
        pick.strategy = "typical";
        view.selectForLabelling(pick);
        view.setProjection(QStringLiteral("pca"));
        QCOMPARE(plot->xAxis->label(), QStringLiteral("t-SNE 1"));
        QVERIFY(picked.wait(60000));
        QVERIFY(loaded.wait(60000));
        QCOMPARE(plot->xAxis->label(), QStringLiteral("first principal component"));
        QCOMPARE(view.selectedNames().size(), 3); // the same points, mapped again: still picked
        QVERIFY(inLegend(QStringLiteral("selection")));
        // Neighbours found after the pick are named before it, as always.
        view.selectPoint(3);
        const auto legendRow = [plot](const QString& name) {
            for (int i = 0; i < plot->legend->itemCount(); ++i) {
                auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
                if (item != nullptr && item->plottable()->name() == name) {
                    return i;
                }
            }
            return -1;
        };
        QVERIFY(legendRow(QStringLiteral("selection")) >= 0);
        QVERIFY(legendRow(QStringLiteral("neighbours")) >= 0);
        QVERIFY(legendRow(QStringLiteral("neighbours")) < legendRow(QStringLiteral("selection")));
        // A file opened while a pick runs is loaded after it (the pick stopped or done).
        const QString other = QDir(temp_.path()).filePath(QStringLiteral("other.csv"));
        kiln::embed::write_embeddings(other.toStdString(), "csv", {"c/1.png", "c/2.png"},
                                      torch::eye(2));
        QTRY_VERIFY(!view.isLoading());
        view.selectForLabelling(pick);
        view.load(other, {});
        QVERIFY(view.isLoading());
        QTRY_VERIFY_WITH_TIMEOUT(view.pointCount() == 2, 60000);
        QCOMPARE(loaded.last().at(1).toString(), other);
        // A projection that cannot map them (UMAP needs 3 points) fails once, and the choice
        // goes back to the map drawn.
        QSignalSpy failed(&view, &kiln::gui::EmbeddingsView::failed);
        QTRY_VERIFY(!view.isLoading());
        view.setProjection(QStringLiteral("umap"));
        QVERIFY(failed.wait(30000));
        QCOMPARE(view.projection(), QStringLiteral("pca"));
        QTest::qWait(300);
        QVERIFY(!view.isLoading());
        QCOMPARE(failed.size(), 1);

        QTRY_VERIFY(!view.isLoading()); // one file at a time
        view.load(QDir(temp_.path()).filePath(QStringLiteral("none.csv")), {});
        QVERIFY(failed.wait(30000));
    }

    void aValidationBeingComputedShowsAsPending() {
        kiln::gui::LivePlots plots;
        plots.show();
        plots.addPendingValidation(40);
        QVERIFY2(plots.validationTitle().contains(QStringLiteral("step 40")),
                 qPrintable(plots.validationTitle()));
        QCOMPARE(plots.validationCount(), 0); // no point before its value: never a false zero
        plots.addPendingValidation(80);
        kiln::train::ValidationMetrics metrics;
        metrics.step = 40;
        metrics.watched = "val_metric/map";
        metrics.values = {{"val_loss", 1.5}, {"val_metric/map", 0.25}};
        metrics.best = true;
        plots.addValidation(metrics);
        QCOMPARE(plots.validationCount(), 1);
        QVERIFY(!plots.validationTitle().contains(QStringLiteral("step 40")));
        QVERIFY(plots.validationTitle().contains(QStringLiteral("step 80")));
        QTest::qWait(100);
        kiln::test::saveScreenshot(plots, QStringLiteral("live-plots-pending-validation"));
        metrics.step = 80;
        plots.addValidation(metrics);
        QCOMPARE(plots.validationTitle(), QStringLiteral("Validation"));
    }

    void perClassResultsShowTheLatestValidation() {
        kiln::gui::PerClassResults results;
        kiln::train::ValidationMetrics metrics;
        metrics.step = 12;
        metrics.values = {{"val_metric/map", 0.5}};
        results.setValidation(metrics);
        QVERIFY(results.isHidden()); // no per-class values yet
        metrics.values = {{"val_metric/miou", 0.5},
                          {"val_metric_per_class/iou/road", 0.75},
                          {"val_metric_per_class/iou/car/truck", 0.125},
                          {"val_metric_per_class/top1_acc/road", 1.0}};
        results.setValidation(metrics);
        QVERIFY(!results.isHidden());
        QCOMPARE(results.value(QStringLiteral("road"), QStringLiteral("iou")),
                 QStringLiteral("0.750"));
        QCOMPARE(results.value(QStringLiteral("car/truck"), QStringLiteral("iou")),
                 QStringLiteral("0.125"));
        QCOMPARE(results.value(QStringLiteral("road"), QStringLiteral("top1_acc")),
                 QStringLiteral("1.000"));
        QCOMPARE(results.value(QStringLiteral("car/truck"), QStringLiteral("top1_acc")), QString());
        // The columns say what they hold in words; the logged keys are their tooltips.
        auto* table = results.findChild<QTableWidget*>(QStringLiteral("perClassTable"));
        QCOMPARE(table->horizontalHeaderItem(0)->text(), QStringLiteral("Class"));
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("IoU"));
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("Accuracy"));
        QCOMPARE(table->horizontalHeaderItem(2)->toolTip(),
                 QStringLiteral("val_metric_per_class/top1_acc/<class>"));
        // A validation without per-class values keeps the last table.
        metrics.values = {{"val_loss", 0.1}};
        results.setValidation(metrics);
        QCOMPARE(results.value(QStringLiteral("road"), QStringLiteral("iou")),
                 QStringLiteral("0.750"));
        // Classification and segmentation bring their confusion matrix: rows as percentages.
        metrics.confusion.classes = {"road", "car/truck"};
        metrics.confusion.counts = {3, 1, 0, 4};
        results.setValidation(metrics);
        QCOMPARE(results.confusionCell(0, 0), QStringLiteral("75.0%"));
        QCOMPARE(results.confusionCell(0, 1), QStringLiteral("25.0%"));
        QCOMPARE(results.confusionCell(1, 1), QStringLiteral("100.0%"));
        QCOMPARE(results.value(QStringLiteral("road"), QStringLiteral("iou")),
                 QStringLiteral("0.750")); // the table stays beside it
        results.resize(900, 260);
        results.show();
        QTest::qWait(50);
        kiln::test::saveScreenshot(results, QStringLiteral("per-class-results"));
        results.clear();
        QVERIFY(results.isHidden());

        // Detection brings each class's precision-recall curve (a class without labelled
        // objects has none); selected rows show theirs alone.
        kiln::train::ValidationMetrics detection;
        detection.step = 30;
        detection.values = {{"val_metric_per_class/map/cat", 0.5},
                            {"val_metric_per_class/map/dog", 0.25}};
        std::vector<double> falling(101, 0.0);
        for (std::size_t r = 0; r < 60; ++r) {
            falling[r] = 1.0 - r / 100.0;
        }
        detection.precision_recall = {
            {"cat", "dog", "bird"},
            {falling, std::vector<double>(101, 0.5), std::vector<double>(101, -1.0)}};
        results.setValidation(detection);
        QVERIFY(!results.isHidden());
        QCOMPARE(results.curveCount(), 2);
        results.findChild<QTableWidget*>(QStringLiteral("perClassTable"))->selectRow(1);
        QCOMPARE(results.curveCount(), 1);
        results.resize(900, 260);
        QTest::qWait(50);
        kiln::test::saveScreenshot(results, QStringLiteral("per-class-results-detection"));
        results.clear();
        QCOMPARE(results.curveCount(), 0);
    }

    // What predict wrote, read back beside the dataset's labels: detections matched to labelled
    // boxes at the browser's score, masks scored against labelled masks, and the browser's
    // filters and orders over them.
    void predictionsAreComparedWithTheDatasetsLabels() {
        namespace fs = std::filesystem;
        using kiln::gui::PredictionFilter;
        const QDir root(QDir(temp_.path()).filePath(QStringLiteral("predicted")));
        QDir().mkpath(root.filePath(QStringLiteral("images")));
        QDir().mkpath(root.filePath(QStringLiteral("masks")));
        QDir().mkpath(root.filePath(QStringLiteral("predicted-masks")));
        for (const char* name : {"a", "b"}) {
            QImage image(40, 30, QImage::Format_RGB32);
            image.fill(Qt::gray);
            QVERIFY(image.save(root.filePath(QStringLiteral("images/%1.png").arg(name))));
        }
        const QString labels = root.filePath(QStringLiteral("labels.json"));
        {
            QFile file(labels);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"({"images": [{"id": 1, "file_name": "a.png", "width": 40, "height": 30},
                {"id": 2, "file_name": "b.png", "width": 40, "height": 30}],
                "categories": [{"id": 3, "name": "cat"}, {"id": 7, "name": "dog"}],
                "annotations": [
                {"id": 1, "image_id": 1, "category_id": 3, "bbox": [0, 0, 20, 20], "area": 400,
                 "iscrowd": 0},
                {"id": 2, "image_id": 2, "category_id": 7, "bbox": [10, 5, 20, 20], "area": 400,
                 "iscrowd": 0}]})");
        }
        const QString results = root.filePath(QStringLiteral("results.json"));
        {
            QFile file(results);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"([{"file_name": "a.png", "image_id": 0, "category_id": 3,
                "bbox": [1, 1, 19, 19], "score": 0.9},
                {"file_name": "a.png", "image_id": 0, "category_id": 7,
                "bbox": [25, 10, 10, 10], "score": 0.3}])");
        }
        kiln::gui::PredictionSource source;
        source.task = QStringLiteral("object_detection");
        source.out = results;
        source.images = root.filePath(QStringLiteral("images"));
        source.classes = {"cat", "dog"};
        source.category_ids = {3, 7};
        source.labels = kiln::data::DatasetLayout{
            kiln::data::LabelKind::Coco, source.images.toStdString(), labels.toStdString()};
        auto read =
            std::make_shared<kiln::gui::PredictionResults>(kiln::gui::read_predictions(source));
        QVERIFY(read->labelled);
        QCOMPARE(read->images.size(), 2);
        const kiln::gui::PredictedImage& a = read->images[0];
        const kiln::gui::PredictedImage& b = read->images[1];
        QCOMPARE(a.name, QStringLiteral("a.png"));
        QCOMPARE(int(a.detections.size()), 2);
        QCOMPARE(a.size, (std::array<int, 2>{40, 30}));
        QCOMPARE(kiln::gui::disagreement(a, 0.5), 0.0);  // the cat found; the dog below 0.5
        QCOMPARE(kiln::gui::disagreement(a, 0.25), 1.0); // the dog that is not there
        QCOMPARE(kiln::gui::disagreement(b, 0.5), 1.0);  // the dog missed
        PredictionFilter filter;
        filter.min_score = 0.5;
        filter.order = PredictionFilter::Order::Disagreement;
        QCOMPARE(kiln::gui::filtered_images(*read, filter), (QVector<int>{1, 0}));
        filter.order = PredictionFilter::Order::MostConfident;
        QCOMPARE(kiln::gui::filtered_images(*read, filter), (QVector<int>{0, 1}));
        filter.class_index = 1; // dog: labelled in b, found in a only below 0.5
        QCOMPARE(kiln::gui::filtered_images(*read, filter), (QVector<int>{1}));
        filter.min_score = 0.25;
        QCOMPARE(kiln::gui::filtered_images(*read, filter).size(), 2);
        // COCO labels: each class's precision-recall curve from the evaluator (IoU 0.5).
        const kiln::train::PrecisionRecallCurves& curves = read->precision_recall;
        QCOMPARE(curves.classes, (std::vector<std::string>{"cat", "dog"}));
        QCOMPARE(curves.precision.size(), std::size_t(2));
        for (std::size_t r = 0; r < 101; ++r) {
            QCOMPARE(curves.precision[0].at(r), 1.0); // the cat found first
            QCOMPARE(curves.precision[1].at(r), 0.0); // the dog, where there is none
        }

        // In the browser: the boxes from the score up drawn over the thumbnail.
        kiln::gui::PredictionsBrowser browser(read, QStringLiteral("2 images"), {});
        browser.setFilter({-1, 0.5, PredictionFilter::Order::MostConfident});
        kiln::gui::PredictionTileModel* tiles = browser.tiles();
        QCOMPARE(tiles->data(tiles->index(0), Qt::DisplayRole).toString(),
                 QStringLiteral("a.png\n1 found, 1 labelled"));
        QCOMPARE(browser.curveCount(), 2);
        QCOMPARE(tiles->data(tiles->index(1), Qt::ForegroundRole).value<QColor>(),
                 QColor(200, 30, 30)); // b: the dog missed
        QTRY_VERIFY(!tiles->data(tiles->index(0), Qt::DecorationRole).isNull());
        const QImage drawn =
            tiles->data(tiles->index(0), Qt::DecorationRole).value<QPixmap>().toImage();
        QVERIFY(drawn.pixelColor(drawn.width() * 3 / 4, drawn.height() / 10) == QColor(Qt::gray));
        QVERIFY(drawn.pixelColor(drawn.width() / 40, drawn.height() / 3) != QColor(Qt::gray));
        browser.resize(1000, 420);
        browser.show();
        QTest::qWait(50);
        kiln::test::saveScreenshot(browser, QStringLiteral("predictions-browser-detection"));
        browser.setFilter({0, 0.5, PredictionFilter::Order::MostConfident});
        QCOMPARE(browser.curveCount(), 1);

        // Semantic masks: the share of labelled pixels a predicted mask gets wrong.
        for (const auto& [folder, wrong] :
             {std::pair{"masks", 0}, std::pair{"predicted-masks", 6}}) {
            for (const char* name : {"a", "b"}) {
                cv::Mat mask(30, 40, CV_8U, cv::Scalar(1));
                mask.rowRange(0, std::string(name) == "a" ? wrong : 0).setTo(2);
                cv::imwrite(
                    root.filePath(QStringLiteral("%1/%2.png").arg(folder, name)).toStdString(),
                    mask);
            }
        }
        source.task = QStringLiteral("semantic_segmentation");
        source.out = root.filePath(QStringLiteral("predicted-masks"));
        source.classes = {"background", "road", "car"};
        source.labels =
            kiln::data::DatasetLayout{kiln::data::LabelKind::Masks, source.images.toStdString(),
                                      root.filePath(QStringLiteral("masks")).toStdString()};
        const kiln::gui::PredictionResults masks = kiln::gui::read_predictions(source);
        QVERIFY(masks.labelled);
        QCOMPARE(masks.images[0].mask_classes, (QVector<int>{1, 2}));
        QCOMPARE(masks.images[0].mask_error, 0.2); // 6 of 30 rows
        QCOMPARE(masks.images[1].mask_error, 0.0);
        filter = {2, 0, PredictionFilter::Order::Disagreement}; // car: in a's mask only
        QCOMPARE(kiln::gui::filtered_images(masks, filter), (QVector<int>{0}));

        // A file that is not what predict writes: an error naming it.
        source.task = QStringLiteral("image_classification");
        source.out = labels;
        try {
            kiln::gui::read_predictions(source);
            QFAIL("a JSON read as a predictions CSV");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("labels.json")),
                     error.what());
        }
    }

    // Each kind of preview beside its labels: classes right (green) or wrong (red), masks in
    // their classes' colours, boxes hidden below the score threshold.
    void predictionPreviewsShowLabelsBesideThePrediction() {
        const QString folder = QDir(temp_.path()).filePath(QStringLiteral("previews"));
        QDir().mkpath(folder);
        const auto image = [&folder](const char* name) {
            const QString file = QDir(folder).filePath(QLatin1String(name));
            QImage grey(64, 64, QImage::Format_RGB32);
            grey.fill(QColor(128, 128, 128));
            grey.save(file);
            return std::filesystem::path(file.toStdString());
        };
        using kiln::train::PredictionPreview;
        kiln::train::PredictionPreviews previews;
        previews.classes = {"background", "cat", "dog"};
        PredictionPreview right;
        right.image = image("right.png");
        right.true_classes = {1};
        right.predicted_classes = {{1, 0.875F}};
        PredictionPreview wrong = right;
        wrong.image = image("wrong.png");
        wrong.predicted_classes = {{2, 0.625F}};
        PredictionPreview masks;
        masks.image = image("masks.png");
        masks.mask_width = masks.mask_height = 8;
        masks.true_mask.assign(64, 1);
        masks.predicted_mask.assign(64, 0); // all background: left clear
        PredictionPreview boxes;
        boxes.image = image("boxes.png");
        boxes.size = {64, 64};
        boxes.true_boxes = {{{8, 8, 40, 40}, 1, 1.0F}};
        boxes.predicted_boxes = {{{8, 8, 40, 40}, 1, 0.9F}, {{30, 30, 60, 60}, 2, 0.1F}};
        previews.images = {right, wrong, masks, boxes};

        kiln::gui::PredictionPreviewsView view;
        view.show();
        QVERIFY(view.isVisible());
        view.setPreviews(previews, 40);
        QCOMPARE(view.imageCount(), 4);
        for (int i = 0; i < 4; ++i) { // decoded on the thread pool, in any order
            QTRY_VERIFY(!view.tile(i, true).isNull() && !view.tile(i, false).isNull());
        }
        const QPoint border(2, kiln::gui::PredictionPreviewsView::kTileSide / 2);
        QCOMPARE(view.tile(0, true).pixelColor(border), QColor(44, 160, 44));
        QCOMPARE(view.tile(1, true).pixelColor(border), QColor(214, 39, 40));
        QVERIFY(view.predictionCaption(1).contains(QStringLiteral("true: cat")));
        QVERIFY(view.predictionCaption(1).contains(QStringLiteral("predicted: dog 0.63")));
        const QPoint middle(kiln::gui::PredictionPreviewsView::kTileSide / 2,
                            kiln::gui::PredictionPreviewsView::kTileSide / 2);
        QVERIFY(view.tile(2, false).pixelColor(middle) != QColor(128, 128, 128)); // class 1
        QCOMPARE(view.tile(2, true).pixelColor(middle), QColor(128, 128, 128));   // background
        QCOMPARE(view.scoreThreshold(), 0.3);
        QCOMPARE(view.shownBoxes(3), 1);
        const QImage above = view.tile(3, true);
        view.setScoreThreshold(0.0);
        QCOMPARE(view.shownBoxes(3), 2);
        QVERIFY(view.tile(3, true) != above);
        QVERIFY(view.predictionCaption(3).contains(QStringLiteral("2 boxes shown")));
        view.resize(900, 320);
        QTest::qWait(50);
        kiln::test::saveScreenshot(view, QStringLiteral("prediction-previews"));
        view.clear();
        QVERIFY(view.isHidden());
    }

    // A run's first step alone is a dot in a value range of its own (nothing was drawn, on the
    // last run's axes).
    void aLoneStepIsDrawn() {
        kiln::gui::LivePlots plots;
        plots.show();
        kiln::train::StepMetrics metrics;
        metrics.step = 1;
        metrics.loss = 5.0;
        metrics.lr = 0.1;
        plots.addStep(metrics);
        QTRY_VERIFY(plots.redrawCount() > 0);
        auto* loss = plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QCOMPARE(loss->graph(0)->scatterStyle().shape(), QCPScatterStyle::ssDisc);
        QVERIFY(loss->yAxis->range().contains(5.0) && loss->yAxis->range().size() <= 1.0 + 1e-9);
        QVERIFY(loss->yAxis2->range().contains(0.1) && loss->yAxis2->range().size() <= 0.02 + 1e-9);
        metrics.step = 2;
        metrics.loss = 4.0;
        plots.addStep(metrics);
        QTRY_COMPARE(loss->graph(0)->scatterStyle().shape(), QCPScatterStyle::ssNone);
    }

    void plotsKeepEveryStepAndRedrawAtMost25TimesASecond() {
        kiln::gui::LivePlots plots;
        plots.show();
        // Before the first step the empty axes say what will come; the first step hides it.
        auto* hint = plots.findChild<QLabel*>(QStringLiteral("noStepsHint"));
        QVERIFY(hint->isVisible() && hint->text().contains(QStringLiteral("Run ▸ Train")));
        // A run reading its data says it is starting, not that one could be started.
        plots.showStarting();
        QVERIFY(hint->isVisible() &&
                hint->text().startsWith(QStringLiteral("The run is starting")));
        const int before = plots.redrawCount();
        QElapsedTimer clock;
        clock.start();
        for (int step = 1; step <= 2000; ++step) {
            kiln::train::StepMetrics metrics;
            metrics.step = step;
            metrics.loss = 5.0 / step + (step % 7) * 0.01;
            metrics.data_wait = 0.1;
            plots.addStep(metrics);
            if (step % 100 == 0) {
                QCoreApplication::processEvents();
            }
        }
        QTest::qWait(200);
        const double seconds = clock.elapsed() / 1000.0;
        QCOMPARE(plots.stepCount(), 2000);
        const int redraws = plots.redrawCount() - before;
        QVERIFY(redraws >= 1);
        QVERIFY2(redraws <= 25 * seconds + 2,
                 qPrintable(QStringLiteral("%1 redraws in %2 s").arg(redraws).arg(seconds)));
        QVERIFY(plots.bestLoss() < 0.01);
        QVERIFY(plots.readout(QStringLiteral("loss"), 10.2).startsWith(QStringLiteral("step 10:")));
        QVERIFY(plots.readout(QStringLiteral("data_wait"), 3).contains(QStringLiteral("10.0%")));
        // Over time: the same data against seconds since the first step.
        plots.setTimeAxis(true);
        QVERIFY(plots.readout(QStringLiteral("loss"), 0.0).startsWith(QStringLiteral("step 1:")));
        QTest::qWait(100); // a redraw
        // The axis spans the seconds the data spans, not the 2000 steps.
        const QCPRange seconds_range =
            plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"))->xAxis->range();
        QVERIFY2(seconds_range.lower == 0 && seconds_range.upper <= seconds + 1,
                 qPrintable(
                     QStringLiteral("%1 to %2").arg(seconds_range.lower).arg(seconds_range.upper)));
        plots.setTimeAxis(false);
        QTest::qWait(100);
        QCOMPARE(plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"))->xAxis->range().upper,
                 2000.0);
        // A margin around the curves: none runs along the frame, 100% neither.
        const QCPRange utilisation =
            plots.findChild<QCustomPlot*>(QStringLiteral("cpuPlot"))->yAxis->range();
        QVERIFY(utilisation.lower < 0 && utilisation.upper > 100);
        const QCPRange losses =
            plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"))->yAxis->range();
        // The losses run from 5 / 2000 to 5 + 0.01 (step 1).
        QVERIFY2(losses.lower < 5.0 / 2000 && losses.upper > 5.01,
                 qPrintable(QStringLiteral("%1 to %2").arg(losses.lower).arg(losses.upper)));

        // Smoothing as TensorBoard's: the first value is the first loss, then an average.
        plots.setSmoothing(0.6);
        const QVector<double> smoothed = plots.smoothedLoss();
        QCOMPARE(smoothed.size(), 2000);
        QVERIFY(qAbs(smoothed[0] - 5.01) < 1e-12);
        QVERIFY(smoothed[1] < 5.01 && smoothed[1] > 2.5); // between the first two losses
        plots.setLogScale(true);
        QCOMPARE(plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"))->yAxis->scaleType(),
                 QCPAxis::stLogarithmic);
        plots.setLogScale(false);
        // A press on a plot (the start of a drag) stops following new steps; Reset View
        // follows again.
        auto* loss_plot = plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QTest::mousePress(loss_plot, Qt::LeftButton, {}, loss_plot->rect().center());
        QTest::mouseRelease(loss_plot, Qt::LeftButton, {}, loss_plot->rect().center());
        QVERIFY(!plots.followsNewSteps());
        loss_plot->xAxis->setRange(100, 200);
        kiln::train::StepMetrics later;
        later.step = 2001;
        later.loss = 0.001;
        plots.addStep(later);
        QTest::qWait(100);
        QCOMPARE(loss_plot->xAxis->range().upper, 200.0); // the user's view stays
        plots.findChild<QPushButton*>(QStringLiteral("resetViewButton"))->click();
        QTest::qWait(100);
        QCOMPARE(loss_plot->xAxis->range().upper, 2001.0);
        // Export: every step as CSV, the plots as PNG.
        const QString csv = QDir(temp_.path()).filePath(QStringLiteral("plots.csv"));
        const QString png = QDir(temp_.path()).filePath(QStringLiteral("plots.png"));
        QString error;
        QVERIFY2(plots.exportCsv(csv, &error), qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).trimmed().split('\n');
        QCOMPARE(rows.size(), 2002);
        QVERIFY(rows[0].startsWith(QStringLiteral("step,seconds,train_loss,lr,data_wait")));
        QVERIFY2(rows[1].startsWith(QStringLiteral("1,")) &&
                     rows[1].contains(QStringLiteral(",5.01,")),
                 qPrintable(rows[1]));
        QVERIFY2(plots.exportPng(png, &error), qPrintable(error));
        QVERIFY(QImage(png).width() > 100);
        QVERIFY(!plots.exportCsv(QStringLiteral("/nonexistent/folder/plots.csv"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent/folder/plots.csv")));
        plots.setSmoothing(0);
        // No GPU in these steps: the GPU plot says so.
        QVERIFY(!plots.showsGpus());
        QVERIFY(plots.findChild<QLabel*>(QStringLiteral("noGpuLabel"))->isVisible());
        QVERIFY(plots.findChild<QCustomPlot*>(QStringLiteral("gpuPlot"))->isHidden()); // folded
        QVERIFY(hint->isHidden());

        // With GPUs: utilisation and memory per GPU; what NVML could not measure is a gap.
        plots.clear();
        QVERIFY(hint->isVisible()); // a new run: nothing to plot yet
        for (int step = 1; step <= 3; ++step) {
            kiln::train::StepMetrics metrics;
            metrics.step = step;
            kiln::system::GpuSample first, second;
            first.index = 0;
            first.util_percent = 80;
            first.memory_used_mb = 2048;
            second.index = 1;
            second.memory_used_mb = 1024; // utilisation not supported
            metrics.gpus = {first, second};
            plots.addStep(metrics);
        }
        QTest::qWait(100);
        QVERIFY(plots.showsGpus());
        QVERIFY(!plots.findChild<QLabel*>(QStringLiteral("noGpuLabel"))->isVisible());
        QVERIFY(plots.findChild<QCustomPlot*>(QStringLiteral("gpuPlot"))->isVisible());
        const QString gpus = plots.readout(QStringLiteral("gpu"), 2);
        QVERIFY2(gpus.contains(QStringLiteral("GPU 0 80%, 2048 MB")), qPrintable(gpus));
        QVERIFY2(gpus.contains(QStringLiteral("GPU 1 n/a, 1024 MB")), qPrintable(gpus));
    }

    // The engine's warnings are listed above the run's plots, with the settings they name called
    // by the form's names: a repeated one is counted, and past five distinct ones the rest.
    void warningsAreListedWithTheFormsNamesAndCounted() {
        kiln::gui::LivePlotsPage page;
        const auto* box = page.findChild<QFrame*>(QStringLiteral("runWarnings"));
        const auto* text = page.findChild<QLabel*>(QStringLiteral("runWarningsText"));
        QVERIFY(box->isHidden());
        const auto names = [](const QString& key) {
            return key == QStringLiteral("batch_size") ? QStringLiteral("Batch size") : QString();
        };
        page.addWarning(QStringLiteral("batch_size=64 may need up to 10.9 GB"), names);
        page.addWarning(QStringLiteral("batch_size=64 may need up to 10.9 GB"), names);
        for (int i = 0; i < 7; ++i) {
            page.addWarning(QStringLiteral("skipping unreadable image: %1.png").arg(i), names);
        }
        QVERIFY(!box->isHidden());
        QVERIFY2(text->text().contains(
                     QStringLiteral("\n  - Batch size 64 may need up to 10.9 GB (2 times)\n")),
                 qPrintable(text->text()));
        QVERIFY2(text->text().contains(QStringLiteral("3.png")) &&
                     !text->text().contains(QStringLiteral("4.png")) &&
                     text->text().endsWith(
                         QStringLiteral("\n  - and 3 more (see train.log in the run's folder)")),
                 qPrintable(text->text()));
        page.clear(); // a new run
        QVERIFY(box->isHidden());
        QVERIFY(text->text().isEmpty());
    }

    // Studio has no terminal: a real run's warning (an image that cannot be decoded, skipped)
    // reaches the run's page while it trains.
    void aRunsWarningsReachItsPage() {
        const QString data = QDir(temp_.path()).filePath(QStringLiteral("with-a-broken-image"));
        writeImages(data);
        QFile broken(QDir(data).filePath(QStringLiteral("broken.png")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("not a PNG");
        broken.close();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        prepare(window, QStringLiteral("warnings"), 1, data + QStringLiteral("-project"));
        nlohmann::json settings = window.runConfiguration()->settings();
        settings["data"] = data.toStdString();
        window.runConfiguration()->setSettings(settings);
        QSignalSpy finished(window.session(), &kiln::gui::TrainingSession::finished);
        QSignalSpy failed(window.session(), &kiln::gui::TrainingSession::failed);
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY2(finished.wait(120000),
                 failed.isEmpty() ? "no end" : qPrintable(failed.first().first().toString()));
        const auto* text = window.findChild<QLabel*>(QStringLiteral("runWarningsText"));
        QTRY_VERIFY2(text->text().contains(QStringLiteral("skipping unreadable image")) &&
                         text->text().contains(QStringLiteral("broken.png")),
                     qPrintable(text->text()));
        QVERIFY(text->isVisible());

        // An embedding of that folder names the image it left out under the message's details.
        waitForHistory(window.runHistory()); // the dialog offers the run's model
        QVERIFY(window.projects()->addDataset(data));
        QSignalSpy embedded(window.embeddingSession(), &kiln::gui::EmbeddingSession::finished);
        const QString csv = QDir(temp_.path()).filePath(QStringLiteral("with-a-broken-image.csv"));
        QTimer::singleShot(0, &window, [&window, csv, data] {
            auto* dialog = window.findChild<kiln::gui::ExportEmbeddingsDialog*>();
            QVERIFY(dialog != nullptr);
            auto* dataset = dialog->findChild<QComboBox*>(QStringLiteral("datasetField"));
            dataset->setCurrentIndex(dataset->findData(data));
            QVERIFY(dataset->currentIndex() >= 0);
            dialog->setFormat(QStringLiteral("csv"));
            dialog->setOutput(csv);
            dialog->accept();
        });
        window.findChild<QAction*>("exportEmbeddingsAction")->trigger();
        QVERIFY(embedded.wait(60000));
        auto* info = window.findChild<QMessageBox*>(QStringLiteral("informationBox"));
        QVERIFY(info != nullptr);
        QVERIFY2(info->text().contains(QStringLiteral("1 unreadable image was left out")) &&
                     info->text().contains(QStringLiteral("Show Details")),
                 qPrintable(info->text()));
        QVERIFY2(info->detailedText().contains(QStringLiteral("skipping unreadable image")) &&
                     info->detailedText().contains(QStringLiteral("broken.png")),
                 qPrintable(info->detailedText()));
        info->close();
    }

    // Before Train, under the run time: what a CPU training step of the batch needs against the
    // free memory (probed once per model and views); a run Train would refuse is named as an
    // issue, with the batch that fits.
    void theFormEstimatesAStepsMemory() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        prepare(window, QStringLiteral("memory"), 1);
        window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->setCurrentIndex(1);
        kiln::gui::RunConfigForm* form = window.runConfiguration();
        QTRY_VERIFY2_WITH_TIMEOUT(form->memoryEstimate().startsWith(QStringLiteral(
                                      "Memory: a training step of 8 samples needs ")) &&
                                      form->memoryEstimate().contains(QStringLiteral("GB free")),
                                  qPrintable(form->memoryEstimate()), 60000);
        const auto* label = window.findChild<QLabel*>(QStringLiteral("memoryEstimate"));
        QVERIFY(label->isVisible());
        QVERIFY(label->styleSheet().isEmpty()); // plain: it fits
        // A fine-tuning task's own augmentations (a classifier's mixup) are read as its task
        // reads them, not taken for a mistake that leaves the run unestimated.
        const nlohmann::json pretraining = form->settings();
        nlohmann::json classifier = pretraining;
        classifier["task"] = "image_classification";
        classifier["transform_args"]["mixup"] = {{"prob", 0.5}};
        classifier["batch_size"] = 4; // a text that must be new
        form->setSettings(classifier);
        QTRY_VERIFY2_WITH_TIMEOUT(form->memoryEstimate().startsWith(QStringLiteral(
                                      "Memory: a training step of 4 samples needs ")),
                                  qPrintable(form->memoryEstimate()), 60000);
        form->setSettings(pretraining);

        // A fixed run time: nothing to time at the sizes below.
        form->applySetting(QStringLiteral("max_time"), QStringLiteral("600"));

        // DINO's prototypes are probed with its method: 262,144 of them (256 MB of weights a
        // head) take gigabytes a step whatever the batch.
        QTRY_VERIFY2_WITH_TIMEOUT(form->memoryEstimate().startsWith(QStringLiteral(
                                      "Memory: a training step of 8 samples needs ")),
                                  qPrintable(form->memoryEstimate()), 60000);
        const QString smallHeads = form->memoryEstimate();
        form->applySetting(QStringLiteral("method"), QStringLiteral("dino"));
        form->applySetting(QStringLiteral("method_args.output_dim"), QStringLiteral("262144"));
        const QRegularExpression gigabytes(QStringLiteral("needs [0-9.]+ GB to"));
        QTRY_VERIFY2_WITH_TIMEOUT(form->memoryEstimate().contains(gigabytes),
                                  qPrintable(smallHeads + " / " + form->memoryEstimate()), 60000);
        QVERIFY2(!smallHeads.contains(gigabytes), qPrintable(smallHeads));
        form->setSettings(pretraining);
        form->applySetting(QStringLiteral("max_time"), QStringLiteral("600"));

        // SimCLR's two 4096 px views a sample, 1,024 samples: terabytes.
        form->applySetting(QStringLiteral("batch_size"), QStringLiteral("1024"));
        form->applySetting(QStringLiteral("transform_args.image_size"),
                           QStringLiteral("[4096, 4096]"));
        QTRY_VERIFY2_WITH_TIMEOUT(
            form->memoryEstimate().startsWith(QStringLiteral(
                "Train would stop before the first step: batch_size=1024 needs at least ")) &&
                form->memoryEstimate().contains(
                    QStringLiteral("a sample of 2 views of 4096 x 4096 px")),
            qPrintable(form->memoryEstimate()), 60000);
        QVERIFY(label->styleSheet().contains(QStringLiteral("color")));

        // A run of several processes is not estimated, as the trainer does not check it.
        form->applySetting(QStringLiteral("devices"), QStringLiteral("2"));
        QTRY_VERIFY(form->memoryEstimate().isEmpty());
        QVERIFY(label->isHidden());
    }

    void trainFromTheWindow() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        prepare(window, QStringLiteral("train"), 2);
        kiln::test::saveScreenshot(window, QStringLiteral("datasets"));
        window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->setCurrentIndex(1);
        // Before the project's first run: an estimate from this computer's measured speed.
        QTRY_VERIFY2_WITH_TIMEOUT(window.runConfiguration()->estimate().startsWith(
                                      QStringLiteral("Estimated run time: about ")),
                                  qPrintable(window.runConfiguration()->estimate()), 60000);
        QVERIFY2(window.runConfiguration()->estimate().startsWith(
                     QStringLiteral("Estimated run time: about 1 minute (16 images x 2 epochs")) &&
                     window.runConfiguration()->estimate().contains(
                         QStringLiteral("measured for smallcnn at 16 px on this computer")),
                 qPrintable(window.runConfiguration()->estimate()));
        kiln::test::saveScreenshot(window, QStringLiteral("run-configuration"));

        QSignalSpy finished(window.session(), &kiln::gui::TrainingSession::finished);
        QSignalSpy failed(window.session(), &kiln::gui::TrainingSession::failed);
        StallMeter stalls;
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY(window.session()->isRunning());
        QVERIFY(window.findChild<QAction*>("stopAction")->isEnabled());
        QVERIFY(!window.findChild<QAction*>("closeProjectAction")->isEnabled());
        QVERIFY2(finished.wait(120000),
                 failed.isEmpty() ? "no end" : qPrintable(failed.first().first().toString()));
        // The GUI thread kept turning while the engine trained.
        // Measured, not asserted: a loaded machine stalls any thread (bench, not test).
        qInfo("longest event-loop stall during the run: %lld ms", stalls.longestMs());

        const auto summary = finished.first().first().value<kiln::train::RunSummary>();
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(summary.steps, 4);
        QTRY_VERIFY(!window.session()->isRunning());
        QVERIFY(window.findChild<QAction*>("trainAction")->isEnabled());
        QTest::qWait(100); // a last redraw
        QCOMPARE(window.livePlots()->stepCount(), 4);
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("adviceLabel"))
                    ->text()
                    .startsWith(QStringLiteral("Finished after 4 steps.")));
        kiln::test::saveScreenshot(window, QStringLiteral("live-plots"));

        // The run is in the project's history; its settings are the project's "last" preset.
        waitForHistory(window.runHistory());
        const auto* history = window.runHistory()->model();
        QCOMPARE(history->rowCount(), 1);
        QCOMPARE(
            history->data(history->index(0, kiln::gui::RunHistoryModel::Status), Qt::DisplayRole)
                .toString(),
            QStringLiteral("Finished"));
        QVERIFY(window.project()->isModified());
        QCOMPARE(window.project()->runPresets().at(0).toObject().value("name").toString(),
                 QStringLiteral("last"));
        // The form now estimates the next run from this one's speed: 16 images, 2 epochs.
        QTRY_VERIFY2(window.runConfiguration()->estimate().startsWith(
                         QStringLiteral("Estimated run time: about ")),
                     qPrintable(window.runConfiguration()->estimate()));
        QVERIFY2(
            window.runConfiguration()->estimate().contains(
                QStringLiteral("16 images x 2 epochs")) &&
                window.runConfiguration()->estimate().contains(QStringLiteral("the speed of run")),
            qPrintable(window.runConfiguration()->estimate()));
        // No estimate for a run of no epochs, nor of views the settings refuse.
        auto* epochs = window.findChild<QSpinBox*>(QStringLiteral("epochsField"));
        epochs->setValue(0);
        QTRY_VERIFY2(window.runConfiguration()->estimate().isEmpty(),
                     qPrintable(window.runConfiguration()->estimate()));
        epochs->setValue(2);
        window.findChild<QSpinBox*>(QStringLiteral("imageSizeField"))->setValue(7);
        QTRY_VERIFY2(window.runConfiguration()->estimate().isEmpty(),
                     qPrintable(window.runConfiguration()->estimate()));
        // Another image size has no run to go by.
        window.findChild<QSpinBox*>(QStringLiteral("imageSizeField"))->setValue(24);
        QTRY_VERIFY2(window.runConfiguration()->estimate().contains(QStringLiteral("at 24 px")),
                     qPrintable(window.runConfiguration()->estimate()));
        window.findChild<QSpinBox*>(QStringLiteral("imageSizeField"))->setValue(16);
        // Train again: a new run in a new folder, next to the first.
        finished.clear();
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!window.session()->isRunning());
        waitForHistory(window.runHistory());
        QCOMPARE(history->rowCount(), 2);
        QVERIFY(history->runs().at(0).directory != history->runs().at(1).directory);
        window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->setCurrentIndex(3);
        kiln::test::saveScreenshot(window, QStringLiteral("run-history"));

        // Run > Stop reaches an embedding too: it ends before writing anything.
        const QString stoppedCsv =
            QDir(temp_.path()).filePath(QStringLiteral("exported/stopped.csv"));
        QSignalSpy stopped(window.embeddingSession(), &kiln::gui::EmbeddingSession::stopped);
        QTimer::singleShot(0, &window, [&window, stoppedCsv] {
            auto* dialog = window.findChild<kiln::gui::ExportEmbeddingsDialog*>();
            QVERIFY(dialog != nullptr);
            dialog->setOutput(stoppedCsv);
            dialog->accept();
        });
        window.findChild<QAction*>("exportEmbeddingsAction")->trigger();
        QVERIFY(window.embeddingSession()->isRunning());
        QVERIFY(window.findChild<QAction*>("stopAction")->isEnabled());
        window.findChild<QAction*>("stopAction")->trigger();
        QVERIFY(stopped.count() > 0 || stopped.wait(60000));
        QTRY_VERIFY(!window.embeddingSession()->isRunning());
        QVERIFY(!QFileInfo::exists(stoppedCsv));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("stopped")),
                 qPrintable(window.statusBar()->currentMessage()));

        // Nothing to lasso before there are points, and a hint instead of empty axes.
        auto* lasso = window.findChild<QPushButton*>(QStringLiteral("lassoButton"));
        QVERIFY(lasso != nullptr && !lasso->isEnabled());
        auto* pages = window.findChild<QStackedWidget*>(QStringLiteral("embeddingsPages"));
        QVERIFY(pages != nullptr && pages->currentIndex() == 0);
        // File > Export Embeddings with the run's exported model: one row per image.
        const QString csv = QDir(temp_.path()).filePath(QStringLiteral("exported/embeddings.csv"));
        QSignalSpy embedded(window.embeddingSession(), &kiln::gui::EmbeddingSession::finished);
        QTimer::singleShot(0, &window, [&window, csv] {
            auto* dialog = window.findChild<kiln::gui::ExportEmbeddingsDialog*>();
            QVERIFY(dialog != nullptr);
            dialog->setFormat(QStringLiteral("csv"));
            dialog->setOutput(csv);
            // The run's model embeds at the size it trained at; where to write has Browse.
            auto* size = dialog->findChild<QSpinBox*>(QStringLiteral("imageSizeField"));
            QCOMPARE(size->value(), window.runHistory()->model()->runs().at(0).image_size);
            QVERIFY(dialog->findChild<QPushButton*>(QStringLiteral("outputFieldBrowse")) !=
                    nullptr);
            size->setValue(16);
            dialog->accept();
        });
        window.findChild<QAction*>("exportEmbeddingsAction")->trigger();
        QVERIFY(embedded.wait(60000));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 17); // header + 16 images
        QCOMPARE(rows[0].count(QLatin1Char(',')), 256);
        auto* info = window.findChild<QMessageBox*>(QStringLiteral("informationBox"));
        QVERIFY(info != nullptr && info->text().contains(QStringLiteral("embeddings.csv")));
        QVERIFY(info->text().startsWith(QStringLiteral("Wrote 16 embeddings of dimension 256")));
        info->close();
        // Exporting over that file asks first (it was replaced without a word); Cancel keeps the
        // dialog open and the file as it was.
        const QDateTime written = QFileInfo(csv).lastModified();
        bool asked = false;
        QTimer::singleShot(0, &window, [&window, &asked, csv] {
            auto* dialog = window.findChild<kiln::gui::ExportEmbeddingsDialog*>();
            QVERIFY(dialog != nullptr);
            dialog->setOutput(csv);
            QTimer::singleShot(0, dialog, [dialog, &asked] {
                auto* box = dialog->findChild<QMessageBox*>(QStringLiteral("replaceOutputBox"));
                asked = box != nullptr;
                if (box != nullptr) {
                    box->button(QMessageBox::Cancel)->click();
                }
            });
            dialog->accept();
            QVERIFY(dialog->isVisible());
            dialog->reject();
        });
        window.findChild<QAction*>("exportEmbeddingsAction")->trigger();
        QVERIFY(asked);
        QVERIFY(!window.embeddingSession()->isRunning());
        QCOMPARE(QFileInfo(csv).lastModified(), written);
        // The exported file opens in the Embeddings view (it may have loaded before this line:
        // waiting for its signal here raced with it).
        QTRY_COMPARE_WITH_TIMEOUT(window.embeddingsView()->pointCount(), 16, 60000);
        QVERIFY(lasso->isEnabled());
        QCOMPARE(pages->currentIndex(), 1); // the map
        // Reopened, the project draws its newest embeddings again without their being picked.
        {
            QVERIFY(window.projects()->saveProject());
            MainWindow reopened;
            QVERIFY(reopened.projects()->openProject(window.project()->file()));
            QTRY_COMPARE_WITH_TIMEOUT(reopened.embeddingsView()->pointCount(), 16, 30000);
        }
        QVERIFY(window.embeddingsView()->hoverText(0).contains(QStringLiteral("<img src=")));
        window.embeddingsView()->selectPoint(0);
        QCOMPARE(window.embeddingsView()->neighbourNames().size(), 10);
        // The neighbours are thumbnails with their similarities; a click on one selects it.
        auto* grid = window.findChild<QListWidget*>(QStringLiteral("neighbourList"));
        QCOMPARE(grid->count(), 11);
        // Each tile a quiet square until its thumbnail is decoded, then the thumbnail.
        const QImage loading = kiln::gui::thumbnailPlaceholder(72).toImage();
        const QImage unreadable = kiln::gui::thumbnailPlaceholder(72, true).toImage();
        QTRY_VERIFY(grid->item(10)->icon().pixmap(72).toImage() != loading);
        QVERIFY(grid->item(10)->icon().pixmap(72).toImage() != unreadable);
        const QString neighbour = window.embeddingsView()->neighbourNames().front();
        QVERIFY2(grid->item(1)->text().contains(QFileInfo(neighbour).fileName()),
                 qPrintable(grid->item(1)->text()));
        Q_EMIT grid->itemClicked(grid->item(1));
        QVERIFY(grid->item(0)->text().startsWith(QFileInfo(neighbour).fileName()));
        QVERIFY(!window.embeddingsView()->neighbourNames().contains(neighbour));
        // The lasso selects what it encircles, and exports their names.
        auto* view = window.embeddingsView();
        auto* scatter = window.findChild<QCustomPlot*>(QStringLiteral("embeddingsPlot"));
        const QCPRange xs = scatter->xAxis->range(), ys = scatter->yAxis->range();
        view->setLasso(true);
        view->selectInside(QPolygonF({{xs.lower, ys.lower},
                                      {xs.upper, ys.lower},
                                      {xs.upper, ys.upper},
                                      {xs.lower, ys.upper}}));
        QCOMPARE(view->selectedNames().size(), 16);
        QVERIFY(
            window.findChild<QPushButton*>(QStringLiteral("exportSelectionButton"))->isEnabled());
        const QString selection = QDir(temp_.path()).filePath(QStringLiteral("selection.txt"));
        QString error;
        QVERIFY2(view->exportSelection(selection, &error), qPrintable(error));
        QFile selected(selection);
        QVERIFY(selected.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(selected.readAll()).split('\n', Qt::SkipEmptyParts),
                 view->selectedNames());
        view->selectInside(QPolygonF({{xs.lower, ys.lower},
                                      {xs.lower + xs.size() / 1000, ys.lower},
                                      {xs.lower, ys.lower + ys.size() / 1000}}));
        QVERIFY(view->selectedNames().isEmpty());
        QVERIFY(
            !window.findChild<QPushButton*>(QStringLiteral("exportSelectionButton"))->isEnabled());
        view->setLasso(false);
        // Select for Labelling: the picks become the selection and the grid, and their images
        // copy to a folder once (never over a file already there).
        QSignalSpy picked(view, &kiln::gui::EmbeddingsView::pickingDone);
        kiln::SelectConfig pick;
        pick.n = 4;
        pick.strategy = "typical";
        view->selectForLabelling(pick);
        QVERIFY(picked.wait(60000));
        QCOMPARE(view->selectedNames().size(), 4);
        QCOMPARE(grid->count(), 4);
        QVERIFY(grid->item(0)->text().endsWith(QStringLiteral("#1")));
        const QString copies = QDir(temp_.path()).filePath(QStringLiteral("to-label"));
        QSignalSpy copied(view, &kiln::gui::EmbeddingsView::copyingDone);
        view->copySelection(copies); // on the job thread
        QVERIFY(copied.wait(60000));
        QCOMPARE(copied.takeFirst(), (QList<QVariant>{4, QString()}));
        for (const QString& name : view->selectedNames()) {
            QVERIFY(QFileInfo::exists(QDir(copies).filePath(name)));
        }
        view->copySelection(copies);
        QVERIFY(copied.wait(60000));
        const QList<QVariant> again = copied.takeFirst();
        QCOMPARE(again.at(0).toInt(), 0);
        QVERIFY(again.at(1).toString().contains(QStringLiteral("were not copied")));
        // A lasso selection after the pick: the grid shows it, as Export Selection and Copy
        // Images act on it (it kept saying "To label first" with the pick).
        auto* grid_title = window.findChild<QLabel*>(QStringLiteral("gridTitle"));
        QVERIFY(grid_title->text().contains(QStringLiteral("To label first")));
        view->selectInside(QPolygonF({{xs.lower, ys.lower},
                                      {xs.upper, ys.lower},
                                      {xs.upper, ys.upper},
                                      {xs.lower, ys.upper}}));
        QCOMPARE(grid->count(), 16);
        QVERIFY2(grid_title->text().contains(QStringLiteral("Selected")),
                 qPrintable(grid_title->text()));
        // The marks follow the theme's text colour (black squares were lost on the dark one).
        QPalette dark = view->palette();
        dark.setColor(QPalette::WindowText, Qt::white);
        view->setPalette(dark);
        bool restyled = false;
        for (int i = 0; i < scatter->graphCount(); ++i) {
            if (scatter->graph(i)->name() == QStringLiteral("selection")) {
                restyled = scatter->graph(i)->scatterStyle().pen().color() == QColor(Qt::white);
            }
        }
        QVERIFY(restyled);
        view->setPalette(QPalette());
        view->selectInside(QPolygonF());
        QCOMPARE(grid->count(), 0);
        QVERIFY(grid_title->text().contains(QStringLiteral("Nearest neighbours")));
        view->selectForLabelling(pick);
        QVERIFY(picked.wait(60000));
        // The next batch goes around the images labelled already (the folder they were copied
        // to), as kiln select's already_labelled does.
        const QStringList first_batch = view->selectedNames();
        pick.already_labelled = copies.toStdString();
        view->selectForLabelling(pick);
        QVERIFY(picked.wait(60000));
        QCOMPARE(view->selectedNames().size(), 4);
        for (const QString& name : view->selectedNames()) {
            QVERIFY2(!first_batch.contains(name), qPrintable(name));
        }
        auto* pick_status = window.findChild<QLabel*>(QStringLiteral("selectionStatus"));
        QVERIFY2(pick_status->text().contains(QStringLiteral("4 labelled already")),
                 qPrintable(pick_status->text()));
        // A labelled image the embeddings lack is the engine's error, in the status.
        const QString stray = QDir(copies).filePath(QStringLiteral("stray.png"));
        QVERIFY(QImage(8, 8, QImage::Format_RGB32).save(stray));
        view->selectForLabelling(pick);
        QTRY_VERIFY_WITH_TIMEOUT(
            pick_status->text().contains(QStringLiteral("not in the embeddings")), 60000);
        QVERIFY(QFile::remove(stray));
        view->selectPoint(0);
        QTRY_VERIFY(grid->item(10)->icon().pixmap(72).toImage() != loading);
        // The Embeddings tab opened itself; a zoom is undone by Reset View.
        QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->currentIndex(), 4);
        const QCPRange full = scatter->xAxis->range();
        scatter->xAxis->setRange(full.lower, full.lower + full.size() / 10);
        window.findChild<QPushButton*>(QStringLiteral("resetEmbeddingsViewButton"))->click();
        QCOMPARE(scatter->xAxis->range().size(), full.size());
        kiln::test::saveScreenshot(window, QStringLiteral("embeddings"));
        // The project remembers the file: listed in the Embeddings tab, and again after the
        // project is saved and reopened.
        auto* remembered = window.findChild<QComboBox*>(QStringLiteral("projectEmbeddings"));
        QCOMPARE(window.project()->embeddings(), QStringList{QDir::cleanPath(csv)});
        QCOMPARE(remembered->itemData(0).toString(), QDir::cleanPath(csv));
        QVERIFY(window.projects()->saveProject());
        const QString project_file = window.project()->file();
        QVERIFY(window.projects()->openProject(project_file));
        QCOMPARE(window.project()->embeddings(), QStringList{QDir::cleanPath(csv)});
        QCOMPARE(remembered->count(), 1);
        QVERIFY(remembered->isEnabled());
        QCOMPARE(remembered->itemText(0), QStringLiteral("embeddings.csv"));
    }

    // The dialogs that write a file open wide enough to show the path they suggest.
    void settingsDialogsShowTheirSuggestedPathsWhole() {
        const QString folder =
            QDir(temp_.path()).filePath(QStringLiteral("a-somewhat-long-project"));
        QVERIFY(QDir().mkpath(folder));
        kiln::gui::Project project;
        QString error;
        QVERIFY2(project.save(QDir(folder).filePath(QStringLiteral("p.kiln")), &error),
                 qPrintable(error));
        QVERIFY(project.addDataset(data_));
        kiln::gui::ExportEmbeddingsDialog embeddings(project, {});
        kiln::gui::PredictDialog predict(project, {});
        kiln::gui::ExportModelDialog model(folder, {});
        for (QDialog* dialog : std::initializer_list<QDialog*>{&embeddings, &predict, &model}) {
            dialog->show();
            QVERIFY(QTest::qWaitForWindowExposed(dialog));
            const auto* out = dialog->findChild<QLineEdit*>(QStringLiteral("outputField"));
            // Or as wide as it goes, 90% of the screen (a test's temporary folder can be long).
            const int widest = dialog->screen()->availableGeometry().width() * 9 / 10;
            QVERIFY2(out->contentsRect().width() >=
                             out->fontMetrics().horizontalAdvance(out->text()) ||
                         dialog->width() >= widest,
                     qPrintable(QStringLiteral("%1: %2 px for %3 px of %4")
                                    .arg(dialog->objectName())
                                    .arg(out->contentsRect().width())
                                    .arg(out->fontMetrics().horizontalAdvance(out->text()))
                                    .arg(out->text())));
            dialog->close();
        }
    }

    void labellingPickDialogOffersWhatKilnSelectDoes() {
        kiln::gui::LabellingPickDialog dialog(500, temp_.path());
        const kiln::config::KeySpec* strategy = kiln::config::select_schema().find("strategy");
        auto* strategies = dialog.findChild<QComboBox*>(QStringLiteral("labellingStrategyField"));
        QCOMPARE(strategies->count(), int(strategy->choices.size()));
        for (int i = 0; i < strategies->count(); ++i) {
            QCOMPARE(strategies->itemData(i).toString().toStdString(), strategy->choices[i]);
        }
        QCOMPARE(strategies->currentData().toString().toStdString(),
                 strategy->default_value.get<std::string>());
        auto* whiten = dialog.findChild<QCheckBox*>(QStringLiteral("whitenField"));
        QCOMPARE(whiten->toolTip().toStdString(),
                 kiln::config::select_schema().find("whiten")->help);
        // A tenth of the images (the dialog's own), and kiln select's defaults: typical, nothing
        // left out, no whitening.
        kiln::SelectConfig pick = dialog.pick();
        QCOMPARE(pick.n, 50.0);
        QCOMPARE(pick.strategy, std::string("typical"));
        QVERIFY(!pick.already_labelled && !pick.exclude_duplicates && !pick.whiten);
        QCOMPARE(pick.duplicate_threshold, kiln::SelectConfig().duplicate_threshold);
        // Choices carry over; a labelled folder that does not exist keeps the dialog open.
        strategies->setCurrentIndex(strategies->findData(QStringLiteral("diverse")));
        whiten->setChecked(true);
        dialog.findChild<QCheckBox*>(QStringLiteral("excludeDuplicatesField"))->setChecked(true);
        auto* labelled = dialog.findChild<QLineEdit*>(QStringLiteral("labelledField"));
        labelled->setText(QDir(temp_.path()).filePath(QStringLiteral("no-such-folder")));
        dialog.show();
        kiln::test::saveScreenshot(dialog, QStringLiteral("select-for-labelling"));
        dialog.accept();
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("problemLabel"))
                    ->text()
                    .contains(QStringLiteral("does not exist")));
        labelled->setText(temp_.path());
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        pick = dialog.pick();
        QCOMPARE(pick.strategy, std::string("diverse"));
        QVERIFY(pick.whiten && pick.exclude_duplicates);
        QCOMPARE(QString::fromStdString(pick.already_labelled->string()), temp_.path());
        labelled->clear(); // cleared is none
        QVERIFY(!dialog.pick().already_labelled);
    }

    void fineTuneFromTheWindowStartingFromAPretrainingRun() {
        // Two class folders (white and black images) for training and validation.
        const QString labelled = QDir(temp_.path()).filePath(QStringLiteral("labelled"));
        for (const QString& split : {QStringLiteral("train"), QStringLiteral("val")}) {
            for (int i = 0; i < 16; ++i) {
                const QString folder =
                    QStringLiteral("%1/%2/%3")
                        .arg(labelled, split,
                             i % 2 == 0 ? QStringLiteral("white") : QStringLiteral("black"));
                QDir().mkpath(folder);
                QImage image(20, 20, QImage::Format_RGB32);
                image.fill(i % 2 == 0 ? QColor(230, 230 - i, 230) : QColor(20 + i, 20, 20));
                QVERIFY(image.save(QStringLiteral("%1/%2.png").arg(folder).arg(i)));
            }
        }
        MainWindow window;
        window.resize(1200, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        prepare(window, QStringLiteral("finetune"), 1);
        QVERIFY(window.projects()->addDataset(labelled + QStringLiteral("/train")));
        QVERIFY(window.projects()->addDataset(labelled + QStringLiteral("/val")));
        // A pretraining run to start from, its kNN monitor on the labelled datasets: the
        // Validation panel plots val_metric/knn_top1 while it trains.
        auto* knn_train = window.findChild<QComboBox*>(QStringLiteral("knnMonitorTrainField"));
        auto* knn_val = window.findChild<QComboBox*>(QStringLiteral("knnMonitorValField"));
        knn_train->setCurrentIndex(knn_train->findData(labelled + QStringLiteral("/train")));
        knn_val->setCurrentIndex(knn_val->findData(labelled + QStringLiteral("/val")));
        QVERIFY(knn_train->currentIndex() > 0 && knn_val->currentIndex() > 0);
        QSignalSpy finished(window.session(), &kiln::gui::TrainingSession::finished);
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(!window.session()->isRunning());
        QCOMPARE(finished.first().first().value<kiln::train::RunSummary>().watch_metric,
                 std::string("val_metric/knn_top1"));
        QTRY_COMPARE(window.livePlots()->validationCount(), 1);
        kiln::test::saveScreenshot(window, QStringLiteral("live-plots-knn-monitor"));
        const QString pretrained =
            QDir::cleanPath(QString::fromStdString(finished.first()
                                                       .first()
                                                       .value<kiln::train::RunSummary>()
                                                       .checkpoint.parent_path()
                                                       .parent_path()
                                                       .string()));

        // The task selector shows each task's own settings.
        auto* form = window.runConfiguration();
        auto* task = form->findChild<QComboBox*>(QStringLiteral("taskField"));
        auto* method = form->findChild<QComboBox*>(QStringLiteral("methodField"));
        auto* masks = form->findChild<QLineEdit*>(QStringLiteral("trainMasksField"));
        auto* backbone = form->findChild<QComboBox*>(QStringLiteral("backboneField"));
        window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->setCurrentIndex(1);
        task->setCurrentIndex(task->findData(QStringLiteral("semantic_segmentation")));
        QVERIFY(masks->isVisible() && !method->isVisible());
        QTest::qWait(50); // the form's layout settles
        kiln::test::saveScreenshot(window, QStringLiteral("run-configuration-segmentation"));
        // Distillation asks for its teacher, and a listed run gives its exported model.
        auto* teacher = form->findChild<QComboBox*>(QStringLiteral("teacherField"));
        task->setCurrentIndex(task->findData(QStringLiteral("pretrain")));
        QVERIFY(!teacher->isVisible());
        method->setCurrentText(QStringLiteral("distillation"));
        QVERIFY(teacher->isVisible());
        teacher->setCurrentIndex(teacher->findData(
            QDir(pretrained).filePath(QStringLiteral("exported_models/exported_last.pt"))));
        QVERIFY(teacher->currentIndex() > 0);
        QCOMPARE(
            QString::fromStdString(form->settings()["method_args"]["teacher"].get<std::string>()),
            QDir(pretrained).filePath(QStringLiteral("exported_models/exported_last.pt")));
        method->setCurrentText(QStringLiteral("simclr"));
        QVERIFY(!teacher->isVisible() && !form->settings().contains("method_args"));
        auto* annotations = form->findChild<QLineEdit*>(QStringLiteral("trainAnnotationsField"));
        task->setCurrentIndex(task->findData(QStringLiteral("object_detection")));
        QVERIFY(annotations->isVisible() && !masks->isVisible() && !method->isVisible());
        QVERIFY(!knn_train->isVisible() && !form->settings().contains("knn_monitor"));
        annotations->setText(QStringLiteral("/data/train.json"));
        form->findChild<QLineEdit*>(QStringLiteral("valAnnotationsField"))
            ->setText(QStringLiteral("/data/val.json"));
        const nlohmann::json detection = form->settings();
        QCOMPARE(detection["data"]["train"]["annotations"], nlohmann::json("/data/train.json"));
        QCOMPARE(detection["data"]["val"]["annotations"], nlohmann::json("/data/val.json"));
        QTest::qWait(50);
        kiln::test::saveScreenshot(window, QStringLiteral("run-configuration-detection"));
        // A YOLO dataset instead: its data.yaml holds the splits and names.
        auto* labels = form->findChild<QComboBox*>(QStringLiteral("detectionLabelsField"));
        auto* yolo = form->findChild<QLineEdit*>(QStringLiteral("yoloDataField"));
        QVERIFY(labels->isVisible() && !yolo->isVisible());
        labels->setCurrentIndex(labels->findData(QStringLiteral("yolo")));
        QVERIFY(yolo->isVisible() && !annotations->isVisible());
        QVERIFY(!form->findChild<QComboBox*>(QStringLiteral("valDataField"))->isVisible());
        yolo->setText(QStringLiteral("/nowhere/data.yaml"));
        const nlohmann::json from_yaml = form->settings();
        QCOMPARE(from_yaml["data"], nlohmann::json("/nowhere/data.yaml"));
        QVERIFY(!form->validate());
        QVERIFY2(form->issueText(QStringLiteral("yolo")).contains(QStringLiteral("/nowhere")),
                 qPrintable(form->issueText(QStringLiteral("yolo"))));
        form->setSettings(from_yaml); // and back: the YAML, as YOLO
        QCOMPARE(labels->currentData().toString(), QStringLiteral("yolo"));
        QCOMPARE(yolo->text(), QStringLiteral("/nowhere/data.yaml"));
        QVERIFY(form->findChild<QComboBox*>(QStringLiteral("modelField"))->isVisible());
        QVERIFY(backbone->isVisible());
        QTest::qWait(200);
        kiln::test::saveScreenshot(window, QStringLiteral("run-configuration-detection-yolo"));
        labels->setCurrentIndex(labels->findData(QStringLiteral("coco")));
        task->setCurrentIndex(task->findData(QStringLiteral("image_classification")));
        QVERIFY(!masks->isVisible() && backbone->isVisible());
        // The pretraining run is offered as the backbone, by its folder's name (once Run History
        // has read the runs).
        QTRY_VERIFY2(backbone->findData(pretrained) > 0, qPrintable(pretrained));
        const int offered = backbone->findData(pretrained);
        QCOMPARE(backbone->itemText(offered), QFileInfo(pretrained).fileName());
        const int runs_offered = backbone->count();
        backbone->setCurrentIndex(offered);
        // Renamed in Run History, it is offered under its new name, and stays chosen.
        auto* runs = window.runHistory()->model();
        int row = 0;
        while (row < runs->rowCount() && runs->runs().at(row).directory != pretrained) {
            ++row;
        }
        QVERIFY(row < runs->rowCount());
        QVERIFY(runs->setData(runs->index(row, kiln::gui::RunHistoryModel::Run),
                              QStringLiteral("warm start"), Qt::EditRole));
        QCOMPARE(backbone->itemText(offered),
                 QStringLiteral("warm start (%1)").arg(QFileInfo(pretrained).fileName()));
        QCOMPARE(backbone->currentIndex(), offered);
        form->findChild<QComboBox*>(QStringLiteral("dataField"))->setCurrentIndex(1);
        // Validation never defaults to the training images: a held-out tenth, unless chosen.
        auto* valField = form->findChild<QComboBox*>(QStringLiteral("valDataField"));
        QCOMPARE(valField->currentData().toString(),
                 QLatin1String(kiln::gui::RunConfigForm::kHoldOut));
        QCOMPARE(form->settings()["data"]["val_split"], nlohmann::json(0.1));
        valField->setCurrentIndex(valField->findData(
            form->findChild<QComboBox*>(QStringLiteral("dataField"))->currentData()));
        form->validate();
        QVERIFY(form->issueText(QStringLiteral("val")).contains(QStringLiteral("training images")));
        valField->setCurrentIndex(
            valField->findData(QDir::cleanPath(labelled + QStringLiteral("/val"))));
        form->validate();
        QVERIFY(
            !form->issueText(QStringLiteral("val")).contains(QStringLiteral("training images")));
        form->findChild<QSpinBox*>(QStringLiteral("epochsField"))->setValue(3);
        const nlohmann::json settings = form->settings();
        QCOMPARE(settings["task"], nlohmann::json("image_classification"));
        QVERIFY(!settings.contains("method"));
        QCOMPARE(
            QString::fromStdString(settings["model_args"]["backbone_weights"].get<std::string>()),
            pretrained);
        QCOMPARE(QString::fromStdString(settings["data"]["val"].get<std::string>()),
                 QDir::cleanPath(labelled + QStringLiteral("/val")));
        QTest::qWait(50);
        kiln::test::saveScreenshot(window, QStringLiteral("run-configuration-classification"));

        finished.clear();
        QSignalSpy failed(window.session(), &kiln::gui::TrainingSession::failed);
        StallMeter stalls;
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY2(finished.wait(120000),
                 failed.isEmpty() ? "no end" : qPrintable(failed.first().first().toString()));
        QTRY_VERIFY(!window.session()->isRunning());
        qInfo("longest event-loop stall during the fine-tuning: %lld ms", stalls.longestMs());
        const auto summary = finished.first().first().value<kiln::train::RunSummary>();
        QVERIFY(summary.best_value.has_value());
        QTest::qWait(100); // a last redraw
        QCOMPARE(window.livePlots()->validationCount(), 3);
        QVERIFY(window.livePlots()
                    ->readout(QStringLiteral("validation"), 1)
                    .contains(QStringLiteral("top-1 accuracy"))); // val_metric/top1_acc_micro
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("adviceLabel"))
                    ->text()
                    .contains(QStringLiteral("Best top-1 accuracy")));
        QVERIFY(window.findChild<kiln::gui::PerClassResults*>()->isVisible());
        kiln::test::saveScreenshot(window, QStringLiteral("live-plots-fine-tuning"));
        // A fine-tuning run is not offered as a backbone to start from.
        QCOMPARE(backbone->count(), runs_offered);
        // Run History shows its task and its best validation value.
        waitForHistory(window.runHistory());
        const auto* history = window.runHistory()->model();
        const auto column = [history](int row, int column) {
            return history->data(history->index(row, column), Qt::DisplayRole).toString();
        };
        QCOMPARE(column(0, kiln::gui::RunHistoryModel::Method), QStringLiteral("classification"));
        const QString best = column(0, kiln::gui::RunHistoryModel::BestValidation);
        QVERIFY2(best.startsWith(QStringLiteral("top-1 accuracy ")), qPrintable(best));
        const double top1 = best.section(QLatin1Char(' '), -1).toDouble();
        QVERIFY2(top1 > 0 && top1 <= 1, qPrintable(best));
        // The pretraining run's best is its kNN monitor's.
        QVERIFY2(column(1, kiln::gui::RunHistoryModel::BestValidation)
                     .startsWith(QStringLiteral("kNN top-1 ")),
                 qPrintable(column(1, kiln::gui::RunHistoryModel::BestValidation)));
        window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->setCurrentIndex(3);
        kiln::test::saveScreenshot(window, QStringLiteral("run-history-fine-tuning"));

        // Export Model for the selected run: its best checkpoint, the whole classifier, as ONNX.
        window.findChild<QTableView*>(QStringLiteral("runTable"))->selectRow(0);
        const QString onnx = QDir(temp_.path()).filePath(QStringLiteral("models/classifier.onnx"));
        QTimer::singleShot(0, &window, [&window, onnx] {
            auto* dialog = window.findChild<kiln::gui::ExportModelDialog*>();
            QVERIFY(dialog != nullptr);
            auto* model = dialog->findChild<QComboBox*>(QStringLiteral("modelSourceField"));
            QVERIFY2(model->currentData().toString().endsWith(QStringLiteral("best.ckpt")),
                     qPrintable(model->currentData().toString()));
            QVERIFY(model->currentText().contains(QStringLiteral("classification, ")));
            dialog->setOutput(onnx);
            kiln::test::saveScreenshot(*dialog, QStringLiteral("export-model"));
            dialog->accept();
        });
        window.findChild<QPushButton*>(QStringLiteral("exportRunModelButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<QMessageBox*>(QStringLiteral("informationBox")) != nullptr, 60000);
        auto* exported = window.findChild<QMessageBox*>(QStringLiteral("informationBox"));
        QVERIFY2(exported->text().startsWith(QStringLiteral("Exported the image_classification")),
                 qPrintable(exported->text()));
        QVERIFY(exported->text().contains(QStringLiteral("logits [batch, 2]")));
        exported->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the box goes
        QVERIFY(QFileInfo(onnx).size() > 10000);

        // Run > Predict with that model on the validation images: classes as a CSV, with
        // progress, and the event loop never waits for it.
        const QString csv = QDir(temp_.path()).filePath(QStringLiteral("predictions/val.csv"));
        const QString val = labelled + QStringLiteral("/val");
        QTimer::singleShot(0, &window, [&window, csv, val] {
            auto* dialog = window.findChild<kiln::gui::PredictDialog*>();
            QVERIFY(dialog != nullptr);
            auto* model = dialog->findChild<QComboBox*>(QStringLiteral("modelSourceField"));
            QCOMPARE(model->count(),
                     1); // the fine-tuning run; the pretraining one predicts nothing
            QVERIFY(dialog->findChild<QLineEdit*>(QStringLiteral("outputField"))
                        ->text()
                        .endsWith(QStringLiteral(".csv")));
            dialog->setData(val);
            dialog->setOutput(csv);
            // At the size the model trained at unless the user picks one.
            QCOMPARE(dialog->settings()["image_size"], nlohmann::json("auto"));
            dialog->findChild<QSpinBox*>(QStringLiteral("imageSizeField"))->setValue(24);
            kiln::test::saveScreenshot(*dialog, QStringLiteral("predict"));
            dialog->accept();
            QCOMPARE(dialog->config()->image_height, 24);
            QCOMPARE(dialog->config()->image_width, 24);
        });
        StallMeter predict_stalls;
        window.findChild<QAction*>("predictAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<kiln::gui::PredictionsBrowser*>() != nullptr,
                                 60000);
        qInfo("longest event-loop stall during the prediction: %lld ms",
              predict_stalls.longestMs());
        QFile predictions(csv);
        QVERIFY(predictions.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(predictions.readAll()).trimmed().split('\n').size(), 17);

        // The predictions open in a browser: every image, its class and score, the dataset's
        // class folders as labels; a class filter, and the disagreeing ones first.
        auto* browser = window.findChild<kiln::gui::PredictionsBrowser*>();
        QVERIFY(browser->findChild<QLabel*>(QStringLiteral("predictionSummary"))
                    ->text()
                    .startsWith(QStringLiteral("Predicted 16 images (image_classification) into")));
        kiln::gui::PredictionTileModel* tiles = browser->tiles();
        QCOMPARE(tiles->rowCount(), 16);
        auto* count = browser->findChild<QLabel*>(QStringLiteral("predictionCount"));
        QCOMPARE(count->text(), QStringLiteral("16 of 16 images"));
        auto* order = browser->findChild<QComboBox*>(QStringLiteral("predictionOrder"));
        const int by_disagreement =
            order->findData(int(kiln::gui::PredictionFilter::Order::Disagreement));
        QVERIFY(by_disagreement >= 0); // class folders are labels
        order->setCurrentIndex(by_disagreement);
        const QString first = tiles->data(tiles->index(0), Qt::DisplayRole).toString();
        const QString last = tiles->data(tiles->index(15), Qt::DisplayRole).toString();
        QVERIFY2(!last.contains(QStringLiteral("label:")), qPrintable(last)); // agrees
        if (first.contains(QStringLiteral("label:"))) { // a wrong one: shown red
            QCOMPARE(tiles->data(tiles->index(0), Qt::ForegroundRole).value<QColor>(),
                     QColor(200, 30, 30));
        }
        auto* classes = browser->findChild<QComboBox*>(QStringLiteral("predictionClassFilter"));
        QCOMPARE(classes->count(), 3); // all, and the two classes
        classes->setCurrentIndex(1);
        QVERIFY(tiles->rowCount() >= 8); // its 8 labelled images, and those predicted as it
        for (int row = 0; row < tiles->rowCount(); ++row) {
            QVERIFY(tiles->data(tiles->index(row), Qt::DisplayRole)
                        .toString()
                        .contains(classes->currentText()));
        }
        QCOMPARE(count->text(), QStringLiteral("%1 of 16 images").arg(tiles->rowCount()));
        classes->setCurrentIndex(0);
        QTRY_VERIFY(!tiles->data(tiles->index(0), Qt::DecorationRole).isNull());
        kiln::test::saveScreenshot(*browser, QStringLiteral("predictions-browser"));
        QVERIFY(browser->findChild<QLabel*>(QStringLiteral("predictionWarnings")) == nullptr);
        browser->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the browser goes
        QTRY_VERIFY(window.findChild<kiln::gui::PredictionsBrowser*>() == nullptr);

        // A folder with an image that cannot be read: the browser names it.
        const QString mixed =
            QDir(temp_.path()).filePath(QStringLiteral("to-predict-with-a-broken-image"));
        QVERIFY(QDir().mkpath(mixed));
        const QString one =
            QDir(val).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot).first().absoluteFilePath();
        const QString image = QDir(one).entryInfoList(QDir::Files).first().absoluteFilePath();
        QVERIFY(QFile::copy(image, QDir(mixed).filePath(QStringLiteral("good.png"))));
        QFile broken(QDir(mixed).filePath(QStringLiteral("broken.png")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("not a PNG");
        broken.close();
        QTimer::singleShot(0, &window, [&window, mixed] {
            auto* dialog = window.findChild<kiln::gui::PredictDialog*>();
            QVERIFY(dialog != nullptr);
            dialog->setData(mixed);
            dialog->setOutput(mixed + QStringLiteral("-predictions.csv"));
            dialog->accept();
        });
        window.findChild<QAction*>("predictAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<kiln::gui::PredictionsBrowser*>() != nullptr,
                                 60000);
        browser = window.findChild<kiln::gui::PredictionsBrowser*>();
        QCOMPARE(browser->tiles()->rowCount(), 1);
        auto* warnings = browser->findChild<QLabel*>(QStringLiteral("predictionWarnings"));
        QVERIFY(warnings != nullptr);
        QVERIFY2(warnings->text().contains(QStringLiteral("skipping unreadable image")) &&
                     warnings->text().contains(QStringLiteral("broken.png")),
                 qPrintable(warnings->text()));
        browser->close();
    }

    void detectionFromTheWindowKeepsTheEventLoopTurningDuringEvaluation() {
        // Scenes of shapes with COCO boxes, made by the engine's generator.
        const std::filesystem::path root = QDir(temp_.path()).filePath("scenes").toStdString();
        std::filesystem::create_directories(root);
        kiln::test::write_shapes_idx(root / "idx-images", root / "idx-labels", 64);
        kiln::test::write_shape_scenes(root / "idx-images", root / "idx-labels", root, 64, 24, 8);
        const auto path = [&root](const char* split, const char* what) {
            return (root / split / what).string();
        };
        MainWindow window;
        window.resize(1200, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.projects()->newProject());
        QVERIFY(window.projects()->addDataset(QString::fromStdString(path("train", "images"))));
        QVERIFY(window.projects()->addDataset(QString::fromStdString(path("val", "images"))));
        QVERIFY(window.projects()->saveProjectAs(
            QDir(temp_.path()).filePath(QStringLiteral("detect.kiln"))));
        window.runConfiguration()->setSettings(
            {{"task", "object_detection"},
             {"model", "smallcnn"},
             {"epochs", 3},
             {"batch_size", 8},
             {"transform_args", {{"image_size", {64, 64}}}},
             {"num_workers", 0},
             {"accelerator", "cpu"},
             {"data",
              {{"train",
                {{"images", path("train", "images")},
                 {"annotations", path("train", "annotations.json")}}},
               {"val",
                {{"images", path("val", "images")},
                 {"annotations", path("val", "annotations.json")}}}}}});
        QSignalSpy finished(window.session(), &kiln::gui::TrainingSession::finished);
        QSignalSpy failed(window.session(), &kiln::gui::TrainingSession::failed);
        QSignalSpy validated(window.session(), &kiln::gui::TrainingSession::validationFinished);
        QSignalSpy pending(window.session(), &kiln::gui::TrainingSession::validationPending);
        StallMeter stalls;
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY2(finished.wait(120000),
                 failed.isEmpty()
                     ? qPrintable(window.runConfiguration()->issueText("data") +
                                  window.runConfiguration()->issueText("transform_args.image_size"))
                     : qPrintable(failed.first().first().toString()));
        QTRY_VERIFY(!window.session()->isRunning());
        // COCO mAP is computed on its own thread after each epoch; the window never waits for
        // it. How long the event loop stalls is a figure, printed, not a pass mark: a loaded
        // machine stretches it.
        qInfo("longest event-loop stall during the detection run: %lld ms", stalls.longestMs());
        QCOMPARE(validated.count(), 3);
        QCOMPARE(pending.count(), 3); // each mAP was computed beside training, not in its way
        QTest::qWait(100);
        QCOMPARE(window.livePlots()->validationCount(), 3);
        QVERIFY(window.livePlots()
                    ->readout(QStringLiteral("validation"), 6)
                    .contains(QStringLiteral("mAP")));
        QCOMPARE(window.livePlots()->validationTitle(), QStringLiteral("Validation"));
        // The last evaluation's previews: 8 validation images, their boxes beside the
        // detector's, the score threshold hiding the weak ones.
        const auto last = validated.last().first().value<kiln::train::ValidationMetrics>();
        auto* previews = window.findChild<kiln::gui::PredictionPreviewsView*>(
            QStringLiteral("predictionPreviews"));
        QVERIFY(previews->isVisible());
        QCOMPARE(previews->imageCount(), 8);
        QTRY_VERIFY_WITH_TIMEOUT(!previews->tile(7, true).isNull(), 10000);
        previews->setScoreThreshold(0.0);
        QCOMPARE(previews->shownBoxes(0), int(last.previews.images[0].predicted_boxes.size()));
        previews->setScoreThreshold(1.0);
        QCOMPARE(previews->shownBoxes(0), 0);
        previews->setScoreThreshold(0.3);
        window.findChild<QScrollArea*>(QStringLiteral("livePlotsScroll"))
            ->ensureWidgetVisible(previews);
        QTest::qWait(50);
        kiln::test::saveScreenshot(window, QStringLiteral("live-plots-detection-previews"));
        // Each class's AP, unasked, in the per-class table under the plots.
        auto* perClass = window.findChild<kiln::gui::PerClassResults*>();
        QVERIFY(perClass != nullptr && perClass->isVisible());
        for (const std::string& name : last.previews.classes) {
            const QString shown =
                perClass->value(QString::fromStdString(name), QStringLiteral("map"));
            QVERIFY2(!shown.isEmpty(), name.c_str());
        }
        // And each labelled class's precision-recall curve, from the same evaluation.
        QCOMPARE(last.precision_recall.classes, last.previews.classes);
        QVERIFY(perClass->curveCount() > 0);
        window.findChild<QScrollArea*>(QStringLiteral("livePlotsScroll"))
            ->ensureWidgetVisible(perClass);
        QTest::qWait(50);
        kiln::test::saveScreenshot(window, QStringLiteral("live-plots-detection-per-class-ap"));
    }

    void trainOnTwoProcessesFromTheWindow() {
        // Studio's training thread launches the second rank as a copy of this program, which
        // main() below turns into a rank process.
        MainWindow window;
        window.show();
        prepare(window, QStringLiteral("two-processes"), 2);
        nlohmann::json settings = window.runConfiguration()->settings();
        settings["devices"] = 2;
        window.runConfiguration()->setSettings(settings);
        window.findChild<QCheckBox*>(QStringLiteral("syncBatchnormField"))->setChecked(true);
        QCOMPARE(window.runConfiguration()->settings().value("sync_batchnorm", false), true);
        QSignalSpy finished(window.session(), &kiln::gui::TrainingSession::finished);
        QSignalSpy failed(window.session(), &kiln::gui::TrainingSession::failed);
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY2(finished.wait(120000),
                 failed.isEmpty() ? "no end" : qPrintable(failed.first().first().toString()));
        const auto summary = finished.first().first().value<kiln::train::RunSummary>();
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(summary.steps, 4); // 16 images, a global batch of 8 split over 2 ranks
        QTRY_VERIFY(!window.session()->isRunning());
        QTest::qWait(100);
        QCOMPARE(window.livePlots()->stepCount(), 4);
        QFile log(QString::fromStdString(
            (summary.checkpoint.parent_path().parent_path() / "train.log").string()));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(log.readAll().contains("the 2 ranks ended with identical weights"));
    }

    void cpuBoundAdviceOffersToOptimizeTheDataset() {
        MainWindow window;
        window.show();
        prepare(window, QStringLiteral("advice"), 1);
        auto* button = window.findChild<QPushButton*>(QStringLiteral("optimizeAdviceButton"));
        kiln::train::RunSummary summary;
        summary.steps = 10;
        kiln::system::Advice advice;
        advice.bottleneck = kiln::system::Bottleneck::DataloaderCpu;
        advice.diagnosis = "dataloader CPU-bound";
        advice.advice = {"kiln optimize-dataset"};
        summary.advice = advice;
        Q_EMIT window.session()->finished(summary);
        QVERIFY(!button->isHidden());
        QVERIFY(window.findChild<QLabel*>(QStringLiteral("adviceLabel"))
                    ->text()
                    .contains(QStringLiteral("dataloader CPU-bound")));
        // Studio's advice says the form's words: its fields, and its button for the command.
        QVERIFY2(window.findChild<QLabel*>(QStringLiteral("adviceLabel"))
                     ->text()
                     .contains(QStringLiteral("- Optimize Dataset (the button below)")),
                 qPrintable(window.findChild<QLabel*>(QStringLiteral("adviceLabel"))->text()));
        // The advice folds away under its heading, and opens again.
        auto* toggle = window.findChild<QToolButton*>(QStringLiteral("adviceToggle"));
        auto* advice_label = window.findChild<QLabel*>(QStringLiteral("adviceLabel"));
        QVERIFY(!toggle->isHidden());
        toggle->click();
        QVERIFY(advice_label->parentWidget()->isHidden());
        toggle->click();
        QVERIFY(!advice_label->parentWidget()->isHidden());
        // With the advice shown, the window still fits a 1366x768 laptop: the page scrolls.
        window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->setCurrentIndex(2);
        QCoreApplication::processEvents();
        QVERIFY2(window.minimumSizeHint().height() < 600 && window.minimumSizeHint().width() < 900,
                 qPrintable(QStringLiteral("%1x%2")
                                .arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        window.resize(1280, 680);
        QTRY_COMPARE(window.height(), 680);
        kiln::test::saveScreenshot(window, QStringLiteral("live-plots-laptop"));
        advice.bottleneck = kiln::system::Bottleneck::Model;
        advice.advice = {"use mixed precision: precision=bf16-mixed",
                         "use more loader workers (num_workers)"};
        advice.changes = {{"precision", "bf16-mixed"}, {"num_workers", "3"}};
        summary.advice = advice;
        Q_EMIT window.session()->finished(summary);
        QVERIFY(button->isHidden()); // not the advice for a model-bound run
        const QString text = window.findChild<QLabel*>(QStringLiteral("adviceLabel"))->text();
        QVERIFY2(text.contains(QStringLiteral("use mixed precision: Precision bf16-mixed")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("use more loader workers (Loader workers)")));
        // Each setting the advice would change is one click from the form.
        auto* precision = window.findChild<QPushButton*>(QStringLiteral("applyAdvice_precision"));
        QVERIFY(precision != nullptr && precision->isVisible());
        QCOMPARE(precision->text(), QStringLiteral("Set Precision to bf16-mixed"));
        QTest::qWait(50); // laid out with the new advice
        window.findChild<QScrollArea*>(QStringLiteral("livePlotsScroll"))
            ->ensureWidgetVisible(precision);
        kiln::test::saveScreenshot(window, QStringLiteral("advice-settings"));
        precision->click();
        QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->currentIndex(), 1);
        QCOMPARE(window.runConfiguration()->settings().value("precision", std::string()),
                 std::string("bf16-mixed"));
        window.findChild<QPushButton*>(QStringLiteral("applyAdvice_num_workers"))->click();
        QCOMPARE(window.runConfiguration()->settings().value("num_workers", 0), 3);
        // A run without advice leaves no buttons behind.
        summary.advice.reset();
        Q_EMIT window.session()->finished(summary);
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("applyAdvice_precision")) == nullptr);
    }

    void stopEndsTheRunAfterItsStep() {
        MainWindow window;
        window.show();
        prepare(window, QStringLiteral("stop"), 20);
        QSignalSpy steps(window.session(), &kiln::gui::TrainingSession::stepFinished);
        QSignalSpy finished(window.session(), &kiln::gui::TrainingSession::finished);
        QSignalSpy failed(window.session(), &kiln::gui::TrainingSession::failed);
        window.findChild<QAction*>("trainAction")->trigger();
        QTRY_VERIFY2_WITH_TIMEOUT(steps.count() >= 3,
                                  failed.isEmpty()
                                      ? qPrintable(window.runConfiguration()->issueText("data") +
                                                   window.runConfiguration()->issueText("out"))
                                      : qPrintable(failed.first().first().toString()),
                                  60000);
        // While it runs, no other project replaces this one (nor its plots).
        kiln::gui::Project* const running = window.project();
        QVERIFY(!window.projects()->newProject());
        QCOMPARE(window.project(), running);
        auto* refused = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
        QVERIFY(refused != nullptr && refused->text().contains(QStringLiteral("Run ▸ Stop")));
        refused->close();
        window.findChild<QAction*>("stopAction")->trigger();
        QVERIFY(finished.wait(60000));
        const auto summary = finished.first().first().value<kiln::train::RunSummary>();
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Cancelled);
        QVERIFY(summary.steps < 20 * 2);
        QVERIFY(QFileInfo::exists(QString::fromStdString(summary.checkpoint.string())));
        waitForHistory(window.runHistory());
        const auto* history = window.runHistory()->model();
        QCOMPARE(
            history->data(history->index(0, kiln::gui::RunHistoryModel::Status), Qt::DisplayRole)
                .toString(),
            QStringLiteral("Stopped"));
        // Resume is offered beside the status, in the Run menu and in the history; the one
        // beside the status continues the same run to the end.
        QTRY_VERIFY(!window.session()->isRunning());
        window.runHistory()->table()->selectRow(0);
        auto* resume = window.findChild<QPushButton*>(QStringLiteral("resumeRunButton"));
        QVERIFY(resume->isEnabled());
        auto* resumeAction = window.findChild<QAction*>(QStringLiteral("resumeAction"));
        QTRY_VERIFY(resumeAction->isEnabled());
        auto* resumeStopped =
            window.findChild<QPushButton*>(QStringLiteral("resumeStoppedRunButton"));
        QVERIFY(resumeStopped->isVisible());
        kiln::test::saveScreenshot(window, QStringLiteral("stopped-run-resume"));
        const int runs = history->rowCount(); // this project shares its folder with another
        finished.clear();
        resumeStopped->click();
        QVERIFY(finished.wait(120000));
        const auto resumed = finished.first().first().value<kiln::train::RunSummary>();
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(resumed.steps, 40);
        QTRY_VERIFY(!window.session()->isRunning());
        waitForHistory(window.runHistory());
        QCOMPARE(history->rowCount(), runs); // the same run, not a new one
        QCOMPARE(
            history->data(history->index(0, kiln::gui::RunHistoryModel::Status), Qt::DisplayRole)
                .toString(),
            QStringLiteral("Finished"));
        QCOMPARE(
            history->data(history->index(0, kiln::gui::RunHistoryModel::Steps), Qt::DisplayRole)
                .toString(),
            QStringLiteral("40"));
        window.runHistory()->table()->selectRow(0);
        QVERIFY(!resume->isEnabled()); // a finished run has nothing to resume
        QVERIFY(!resumeAction->isEnabled());
        QVERIFY(!resumeStopped->isVisible());
        // The plots show the whole run, the part before the stop and the resumed part.
        QTRY_COMPARE(window.livePlots()->stepCount(), 40);
        QVERIFY(window.livePlots()
                    ->readout(QStringLiteral("loss"), 1)
                    .startsWith(QStringLiteral("step 1:")));

        // Reopened, the project shows its last run in Live Plots.
        QVERIFY(window.projects()->saveProject());
        const QString file = window.project()->file();
        MainWindow reopened;
        QVERIFY(reopened.projects()->openProject(file));
        QTRY_COMPARE(reopened.livePlots()->stepCount(), 40);
        // Another project does not keep it.
        QVERIFY(reopened.projects()->newProject());
        QCOMPARE(reopened.livePlots()->stepCount(), 0);
    }
};

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], kiln::distributed::kRankProcessArgument) == 0) {
        return kiln::train::rank_process_main(); // rank 1 of trainOnTwoProcessesFromTheWindow
    }
    QApplication app(argc, argv);
    TrainingTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_training.moc"
