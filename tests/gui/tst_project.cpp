// Kiln Studio projects: *.kiln files, their round trip, bad files, and the window's handling of
// them (title, unsaved changes, recent files, errors).

#include "app/application.h"
#include "app/main_window.h"
#include "app/project_pages.h"
#include "app/start_page.h"
#include "common/bar_chart.h"
#include "common/image_conversion.h"
#include "config/task_names.h"
#include "core/error.h"
#include "datasets/augmentation_preview.h"
#include "datasets/dataset_scan.h"
#include "datasets/optimize_dialog.h"
#include "datasets/thumbnail_model.h"
#include "project/demo_project.h"
#include "project/project.h"
#include "support/screenshot.h"
#include "support/shape_scenes.h"
#include "support/shapes_idx.h"
#include "training/run_config_form.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <opencv2/imgcodecs.hpp>
#include <sys/stat.h>

using kiln::gui::MainWindow;
using kiln::gui::Project;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// Answers the next "unsaved changes" question with `button`.
void answerUnsavedChanges(MainWindow& window, QMessageBox::StandardButton button) {
    QTimer::singleShot(0, &window, [&window, button] {
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("unsavedChangesBox"));
        QVERIFY(box != nullptr);
        box->button(button)->click();
    });
}

} // namespace

class ProjectTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;

    QString makeFolder(const QString& name) {
        QDir(temp_.path()).mkpath(name);
        return QDir(temp_.path()).filePath(name);
    }

    // Opens `file` in `window`, shown at 1280x720: the error box that opening showed, or
    // nullptr when it showed none or did not open the project.
    static QMessageBox* openShowingAnError(MainWindow& window, const QString& file) {
        window.resize(1280, 720);
        window.show();
        if (!window.projects()->openProject(file)) {
            return nullptr;
        }
        auto* error = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
        return error != nullptr && error->isVisible() ? error : nullptr;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        kiln::gui::configureApplication(*qApp);
        QSettings().clear();
    }

    void saveAndOpenRoundTrip() {
        const QString flowers = makeFolder(QStringLiteral("data/flowers"));
        const QString birds = makeFolder(QStringLiteral("elsewhere/birds"));
        Project project;
        QSignalSpy modified(&project, &Project::modifiedChanged);
        QVERIFY(project.addDataset(flowers));
        QVERIFY(!project.addDataset(flowers + QStringLiteral("/"))); // the same folder
        QVERIFY(project.addDataset(birds));
        project.setRunPresets(QJsonArray{QJsonObject{{"name", "quick"}, {"epochs", 5}}});
        project.setUiState(QJsonObject{{"view", "datasets"}});
        QVERIFY(project.isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(project.displayName(), QStringLiteral("Untitled"));

        const QString file = QDir(temp_.path()).filePath(QStringLiteral("projects/one.kiln"));
        QDir(temp_.path()).mkpath(QStringLiteral("projects"));
        QString error;
        QVERIFY2(project.save(file, &error), qPrintable(error));
        QVERIFY(!project.isModified());
        QCOMPARE(project.displayName(), QStringLiteral("one"));

        // On disk: a format version and paths relative to the file.
        const QJsonObject root = QJsonDocument::fromJson(readAll(file)).object();
        QCOMPARE(root.value("format_version").toInt(), Project::kFormatVersion);
        QCOMPARE(root.value("datasets").toArray().at(0).toObject().value("path").toString(),
                 QStringLiteral("../data/flowers"));

        Project opened;
        QVERIFY2(opened.load(file, &error), qPrintable(error));
        QCOMPARE(opened.datasets().size(), 2);
        QCOMPARE(opened.datasets().at(0).path, QDir::cleanPath(flowers));
        QCOMPARE(opened.datasets().at(1).name, QStringLiteral("birds"));
        QCOMPARE(opened.runPresets(), project.runPresets());
        QCOMPARE(opened.uiState(), project.uiState());
        QVERIFY(!opened.isModified());
        QVERIFY(opened.missingDatasets().isEmpty());

        // Saved elsewhere, the relative paths follow; the folders stay the same.
        QVERIFY(opened.save(QDir(temp_.path()).filePath(QStringLiteral("moved.kiln")), &error));
        Project moved;
        QVERIFY(moved.load(QDir(temp_.path()).filePath(QStringLiteral("moved.kiln")), &error));
        QCOMPARE(moved.datasets().at(1).path, QDir::cleanPath(birds));
    }

    void badFilesAreClearErrorsAndChangeNothing() {
        const QString folder = makeFolder(QStringLiteral("bad"));
        Project project;
        project.addDataset(makeFolder(QStringLiteral("kept")));
        const auto expectError = [&](const QByteArray& contents, const QString& expected) {
            const QString file = QDir(folder).filePath(QStringLiteral("bad.kiln"));
            writeAll(file, contents);
            QString error;
            QVERIFY(!project.load(file, &error));
            QVERIFY2(error.contains(expected), qPrintable(error));
            QVERIFY(error.contains(QStringLiteral("bad.kiln")));
            QCOMPARE(readAll(file), contents);      // nothing overwritten
            QCOMPARE(project.datasets().size(), 1); // the open project is as it was
            QVERIFY(project.isModified());
        };
        expectError("{\"format_version\": 1, \"datasets\": [", QStringLiteral("at byte"));
        expectError("[1, 2]", QStringLiteral("no JSON object"));
        expectError("{\"datasets\": []}", QStringLiteral("no valid format_version"));
        expectError("{\"format_version\": 7}",
                    QStringLiteral("newer Kiln Studio (project format 7"));
        expectError("{\"format_version\": 1, \"datasets\": [{\"name\": \"x\"}]}",
                    QStringLiteral("dataset 1 has no path"));
        QString error;
        QVERIFY(!project.load(QDir(folder).filePath(QStringLiteral("none.kiln")), &error));
        QVERIFY(error.contains(QStringLiteral("Cannot open")));

        // A missing dataset folder opens, and says so.
        const QString file = QDir(folder).filePath(QStringLiteral("missing.kiln"));
        writeAll(file, "{\"format_version\": 1, \"datasets\": [{\"path\": \"gone\"}]}");
        QVERIFY(project.load(file, &error));
        QCOMPARE(project.missingDatasets(), QStringList{QDir(folder).filePath("gone")});
    }

    // A project from someone else is held to what Studio writes: its names lead no file out of
    // its folder, its lists are bounded, it names no device or pipe, and what it holds is shown
    // as written (Qt renders a label that looks like HTML, and reads the files an <img> names:
    // a dataset path holding <img src=/dev/zero> froze Studio and filled its memory).
    void aProjectFromSomeoneElseIsHeldToWhatStudioWrites() {
        const QDir folder(makeFolder(QStringLiteral("given")));
        const QString file = folder.filePath(QStringLiteral("given.kiln"));
        const auto load = [&](const QByteArray& contents, QString* error) {
            writeAll(file, contents);
            Project project;
            const bool loaded = project.load(file, error);
            return std::pair{loaded,
                             loaded ? project.datasets() : QList<kiln::gui::DatasetEntry>()};
        };
        QString error;
        const auto [loaded, datasets] = load(R"({"format_version": 1, "datasets": [
            {"path": "flowers", "name": "../../../Documents/thesis"},
            {"path": "birds", "name": "a/b"}, {"path": "cats", "name": ".."}]})",
                                             &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(datasets.at(0).name, QStringLiteral("flowers"));
        QCOMPARE(datasets.at(1).name, QStringLiteral("birds"));
        QCOMPARE(datasets.at(2).name, QStringLiteral("cats"));

        QByteArray many = "{\"format_version\": 1, \"datasets\": [";
        for (int i = 0; i <= Project::kMaxDatasets; ++i) {
            many += (i > 0 ? ", " : "") + QByteArray("{\"path\": \"d\", \"kind\": \"images\"}");
        }
        QVERIFY(!load(many + "]}", &error).first);
        QVERIFY2(error.contains(QStringLiteral("1001 datasets")) &&
                     error.contains(QStringLiteral("at most 1000")),
                 qPrintable(error));

        const QString fifo = folder.filePath(QStringLiteral("labels.json"));
        QVERIFY(mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(!load(R"({"format_version": 1, "datasets": [
            {"path": "coco", "kind": "coco", "labels": "labels.json"}]})",
                      &error)
                     .first);
        QVERIFY2(error.contains(QStringLiteral("labels.json")) &&
                     error.contains(QStringLiteral("device or a pipe")),
                 qPrintable(error));
        QVERIFY(!load(R"({"format_version": 1, "embeddings": ["/dev/zero"]})", &error).first);
        QVERIFY2(error.contains(QStringLiteral("/dev/zero")), qPrintable(error));
        Project project;
        QVERIFY(!project.load(QStringLiteral("/dev/zero"), &error));
        QVERIFY2(error.contains(QStringLiteral("not a file")), qPrintable(error));

        // The newest 20 embeddings files are kept, as Studio keeps them; a TorchScript teacher
        // keeps its prefix through a save and an open.
        QByteArray embeddings = "[";
        for (int i = 0; i < 30; ++i) {
            embeddings += (i > 0 ? ", \"" : "\"") + QByteArray::number(i) + ".csv\"";
        }
        writeAll(file, "{\"format_version\": 1, \"embeddings\": " + embeddings +
                           "], \"run_presets\": [{\"name\": \"last\", \"settings\": "
                           "{\"method_args\": {\"teacher\": \"torchscript:/abs/t.pt\"}}}]}");
        QVERIFY2(project.load(file, &error), qPrintable(error));
        QCOMPARE(project.embeddings().size(), Project::kMaxEmbeddings);
        QVERIFY(project.save(file, &error));
        QVERIFY(project.load(file, &error));
        QCOMPARE(project.runPresets()[0]
                     .toObject()["settings"]
                     .toObject()["method_args"]
                     .toObject()["teacher"]
                     .toString(),
                 QStringLiteral("torchscript:/abs/t.pt"));

        // Shown as written: the dataset's path in the Datasets tab, the error naming it.
        const QString image = folder.filePath(QStringLiteral("big.png"));
        QImage(2000, 2000, QImage::Format_RGB32).save(image);
        const QString hostile = QStringLiteral("<img src=%1 width=2000>").arg(image);
        writeAll(file, QJsonDocument(
                           QJsonObject{{"format_version", 1},
                                       {"datasets", QJsonArray{QJsonObject{{"path", hostile},
                                                                           {"kind", "images"}}}}})
                           .toJson());
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(window.projects()->openProject(file));
        QTRY_VERIFY(window.findChild<QLabel*>(QStringLiteral("datasetStats"))
                        ->text()
                        .contains(QStringLiteral("<img src=")));
        QTest::qWait(400); // the Run Configuration's check, which quotes the path
        int quoting = 0;
        for (const QLabel* label : window.findChildren<QLabel*>()) {
            if (label->text().contains(QStringLiteral("<img src="))) {
                ++quoting;
                QVERIFY2(label->textFormat() == Qt::PlainText,
                         qPrintable(label->objectName() + QStringLiteral(": ") + label->text()));
            }
        }
        QVERIFY(quoting > 0);
    }

    void datasetScanShowsWhatAFolderHolds() {
        const QString folder = makeFolder(QStringLiteral("scan"));
        for (int i = 0; i < 5; ++i) {
            QImage image(i < 3 ? 100 : 300, i < 3 ? 50 : 300, QImage::Format_RGB32);
            image.fill(Qt::gray);
            QVERIFY(image.save(QDir(folder).filePath(QStringLiteral("%1.png").arg(i))));
        }
        QDir(folder).mkpath(QStringLiteral("sub"));
        QImage large(1200, 800, QImage::Format_RGB32);
        large.fill(Qt::darkGreen);
        QVERIFY(large.save(QDir(folder).filePath(QStringLiteral("sub/a.jpg"))));
        QVERIFY(large.save(QDir(folder).filePath(QStringLiteral("sub/b.JPG"))));
        writeAll(QDir(folder).filePath(QStringLiteral("broken.png")), "not a png at all");
        writeAll(QDir(folder).filePath(QStringLiteral("notes.txt")), "not an image");

        kiln::gui::DatasetScanner scanner;
        QSignalSpy finished(&scanner, &kiln::gui::DatasetScanner::finished);
        QSignalSpy progress(&scanner, &kiln::gui::DatasetScanner::progress);
        scanner.scan(folder);
        QVERIFY(finished.wait(30000));
        const auto stats = finished.first().at(1).value<kiln::gui::DatasetStats>();
        QCOMPARE(stats.images, 7);
        QCOMPARE(stats.formats.value(QStringLiteral("png")), 6);
        QCOMPARE(stats.formats.value(QStringLiteral("jpg")), 2);
        QVERIFY(!stats.formats.contains(QStringLiteral("txt")));
        QCOMPARE(stats.unreadable.size(), 1);
        QVERIFY(stats.labels == nullptr); // images at the top: no class folders, no labels
        QVERIFY(stats.unreadable.first().endsWith(QStringLiteral("broken.png")));
        // 100 px: under 256; 300 px: 256-511; 1200 px: 1024-2047.
        QCOMPARE(stats.longest_side, (std::array<qint64, 5>{3, 2, 0, 2, 0}));
        QVERIFY(stats.bytes > 0);
        QCOMPARE(progress.last().at(1).toLongLong(), 8); // every image file was looked at
        QCOMPARE(kiln::gui::DatasetScanner::sizeClass(2048), 4);
        QCOMPARE(kiln::gui::DatasetScanner::sizeClass(255), 0);

        // Thumbnails are made only for what is asked for, and small.
        kiln::gui::ThumbnailModel thumbnails;
        thumbnails.setFiles(stats.files);
        QCOMPARE(thumbnails.rowCount(), 7);
        // Asked for, it is a quiet square until decoded, so the grid keeps its shape.
        const QImage loading =
            kiln::gui::thumbnailPlaceholder(kiln::gui::ThumbnailModel::kSide).toImage();
        QCOMPARE(
            thumbnails.data(thumbnails.index(5), Qt::DecorationRole).value<QPixmap>().toImage(),
            loading);
        QTRY_COMPARE(thumbnails.loadedCount(), 1);
        const QPixmap thumbnail =
            thumbnails.data(thumbnails.index(5), Qt::DecorationRole).value<QPixmap>();
        QVERIFY(!thumbnail.isNull() && thumbnail.toImage() != loading);
        QVERIFY(thumbnail.width() <= kiln::gui::ThumbnailModel::kSide &&
                thumbnail.height() <= kiln::gui::ThumbnailModel::kSide);
        // WebP (what optimize-dataset may write) through the engine's decoder, as training
        // reads it; a file the engine cannot read shows a crossed square.
        const QString webp = QDir(makeFolder(QStringLiteral("webp"))).filePath("c.webp");
        QVERIFY(cv::imwrite(webp.toStdString(), cv::Mat(40, 80, CV_8UC3, cv::Scalar(0, 0, 255))));
        kiln::gui::ThumbnailModel more;
        more.setFiles({webp, QDir(folder).filePath(QStringLiteral("broken.png"))});
        more.data(more.index(1), Qt::DecorationRole);
        more.data(more.index(0), Qt::DecorationRole);
        QTRY_COMPARE(more.loadedCount(), 2);
        const QImage red = more.data(more.index(0), Qt::DecorationRole).value<QPixmap>().toImage();
        QCOMPARE(red.size(),
                 QSize(kiln::gui::ThumbnailModel::kSide, kiln::gui::ThumbnailModel::kSide / 2));
        QCOMPARE(red.pixelColor(10, 10).red(), 255);
        QCOMPARE(more.data(more.index(1), Qt::DecorationRole).value<QPixmap>().toImage(),
                 kiln::gui::thumbnailPlaceholder(kiln::gui::ThumbnailModel::kSide, true).toImage());

        // The window shows it for the selected dataset; a scan that ends while another tab is
        // shown sizes the overview when the Datasets tab is shown: whole, where there is room.
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(window.projects()->newProject());
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("projectTabs"));
        tabs->setCurrentIndex(1);
        QVERIFY(window.projects()->addDataset(folder));
        window.findChild<QListWidget*>(QStringLiteral("datasetList"))->setCurrentRow(0);
        auto* details = window.findChild<QLabel*>(QStringLiteral("datasetStats"));
        QTRY_VERIFY_WITH_TIMEOUT(details->text().startsWith(QStringLiteral("7 readable images")),
                                 30000);
        tabs->setCurrentIndex(0);
        auto* overview = window.findChild<QScrollArea*>(QStringLiteral("datasetOverviewScroll"));
        QTRY_VERIFY(overview->isVisible());
        QTRY_COMPARE(overview->verticalScrollBar()->maximum(), 0);
        QVERIFY(details->text().contains(QStringLiteral("png 6")));
        QVERIFY(details->text().contains(QStringLiteral("1 unreadable file, left out")));
        QVERIFY(details->text().contains(QStringLiteral("broken.png")));
        auto* grid = window.findChild<QListView*>(QStringLiteral("thumbnailGrid"));
        QCOMPARE(grid->model()->rowCount(), 7);

        // Optimize: a JPEG copy at most 64 px, added to the project as a dataset.
        const QString optimized = QDir(temp_.path()).filePath(QStringLiteral("scan-small"));
        bool done = false;
        QString summary;
        QTimer::singleShot(0, &window, [&] {
            auto* dialog = window.findChild<kiln::gui::OptimizeDatasetDialog*>();
            QVERIFY(dialog != nullptr);
            dialog->setDestination(optimized);
            dialog->setMaxSize(64);
            connect(dialog, &kiln::gui::OptimizeDatasetDialog::finished, dialog,
                    [&, dialog](bool succeeded) {
                        done = succeeded;
                        summary = dialog->result();
                        dialog->accept();
                    });
            // The copy's size is estimated before anything is written.
            QTRY_VERIFY_WITH_TIMEOUT(!dialog->isEstimating(), 30000);
            QVERIFY2(dialog->estimateText().startsWith(QStringLiteral("8 files")),
                     qPrintable(dialog->estimateText()));
            dialog->findChild<QPushButton*>(QStringLiteral("startOptimizeButton"))->click();
        });
        window.findChild<QPushButton*>(QStringLiteral("optimizeDatasetButton"))->click();
        QVERIFY2(done, qPrintable(summary));
        QVERIFY2(summary.startsWith(QStringLiteral("Wrote 7 images")), qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("1 unreadable file skipped")));
        QCOMPARE(window.project()->datasets().size(), 2);
        QCOMPARE(window.project()->datasets().at(1).path, QDir::cleanPath(optimized));
        QImage small(QDir(optimized).filePath(QStringLiteral("sub/a.jpg")));
        QCOMPARE(std::max(small.width(), small.height()), 64);

        answerUnsavedChanges(window, QMessageBox::Discard);
        QVERIFY(window.close());
    }

    // 28 px PNGs of a flat grey are already smaller than any JPEG of them: the dialog says so
    // before writing anything, and the button becomes Optimize Anyway.
    void optimizeWarnsWhenTheCopyWouldBeLarger() {
        const QString folder = makeFolder(QStringLiteral("tiny-pngs"));
        QImage tiny(28, 28, QImage::Format_Grayscale8);
        tiny.fill(QColor(90, 90, 90));
        for (int i = 0; i < 30; ++i) {
            tiny.setPixelColor(i % 28, i % 28, QColor(200, 200, 200));
            QVERIFY(tiny.save(QDir(folder).filePath(QStringLiteral("%1.png").arg(i))));
        }
        kiln::gui::OptimizeDatasetDialog dialog(folder);
        dialog.setMaxSize(0);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isEstimating(), 30000);
        QVERIFY(dialog.estimatedLarger());
        QVERIFY2(dialog.estimateText().contains(QStringLiteral("larger than the dataset")),
                 qPrintable(dialog.estimateText()));
        auto* start = dialog.findChild<QPushButton*>(QStringLiteral("startOptimizeButton"));
        QCOMPARE(start->text(), QStringLiteral("Optimize Anyway"));
        QVERIFY(start->isEnabled());
        QVERIFY(!QDir(folder + QStringLiteral("-optimized")).exists()); // nothing written yet
        dialog.resize(520, 320);
        kiln::test::saveScreenshot(dialog, QStringLiteral("optimize-larger"));
    }

    void augmentationPreviewShowsTheMethodsViews() {
        const QString folder = makeFolder(QStringLiteral("preview"));
        QImage image(64, 48, QImage::Format_RGB32);
        for (int y = 0; y < 48; ++y) {
            for (int x = 0; x < 64; ++x) {
                image.setPixelColor(x, y, QColor(x * 4, y * 5, (x + y) * 2));
            }
        }
        const QString file = QDir(folder).filePath(QStringLiteral("sample.png"));
        QVERIFY(image.save(file));
        kiln::gui::AugmentationPreview preview;
        preview.setSettings("simclr", {{"image_size", {16, 16}}});
        preview.setImage(file);
        QCOMPARE(preview.viewCount(), 2); // SimCLR's two views
        QCOMPARE(preview.view(0).size(), QSize(16, 16));
        const QImage first = preview.view(0);
        QTest::mouseClick(&preview, Qt::LeftButton);
        QVERIFY(preview.view(0) != first); // a new roll
        preview.setSettings("dino", {{"image_size", {96, 96}}});
        QVERIFY(preview.viewCount() > 2); // two global views and the local ones
        QCOMPARE(preview.view(0).size(), QSize(96, 96));
        preview.setSettings("dino", {{"image_size", {32, 32}}});
        QCOMPARE(preview.viewCount(), 2); // local views under 32 px are left out
        preview.setSettings("simclr", {{"image_sise", {16, 16}}});
        QCOMPARE(preview.viewCount(), 0);
        QVERIFY2(preview.message().contains(QStringLiteral("transform_args.image_sise")),
                 qPrintable(preview.message()));
        preview.setImage(QDir(folder).filePath(QStringLiteral("missing.png")));
        QVERIFY(preview.message().contains(QStringLiteral("cannot be read")));
    }

    // Adding and removing datasets and changing their labels are undone and redone whole: a
    // removed dataset comes back where it was, with its labels.
    void datasetEditsCanBeUndone() {
        const QString flowers = makeFolder(QStringLiteral("undo/flowers"));
        const QString birds = makeFolder(QStringLiteral("undo/birds"));
        const QString masks = makeFolder(QStringLiteral("undo/masks"));
        const auto names = [](const Project& project) {
            QStringList listed;
            for (const kiln::gui::DatasetEntry& dataset : project.datasets()) {
                listed << dataset.name + QLatin1Char(':') + dataset.kind + QLatin1Char(':') +
                              dataset.labels;
            }
            return listed.join(QLatin1Char(' '));
        };
        Project project;
        QUndoStack* history = project.undoStack();
        QVERIFY(project.addDataset(flowers) && project.addDataset(birds));
        project.setDatasetLabels(0, QStringLiteral("masks"), masks);
        const QString edited = names(project);
        project.removeDataset(0);
        QCOMPARE(names(project), QStringLiteral("birds:images:"));
        QCOMPARE(history->undoText(), QStringLiteral("Remove Dataset \"flowers\""));
        history->undo();
        QCOMPARE(names(project), edited);
        QCOMPARE(history->undoText(), QStringLiteral("Change Labels of \"flowers\""));
        history->undo();
        QCOMPARE(names(project), QStringLiteral("flowers:images: birds:images:"));
        history->undo();
        history->undo();
        QVERIFY(project.datasets().isEmpty() && !history->canUndo());
        for (int step = 0; step < 4; ++step) {
            history->redo();
        }
        QCOMPARE(names(project), QStringLiteral("birds:images:"));

        // Undone back to where it was saved, the project has no unsaved changes.
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("undo/u.kiln"));
        QString error;
        QVERIFY2(project.save(file, &error), qPrintable(error));
        QVERIFY(project.addDataset(flowers) && project.isModified());
        history->undo();
        QVERIFY(!project.isModified());
        history->redo();
        QVERIFY(project.isModified());
        history->undo();

        // Opening a file starts a new history.
        QVERIFY2(project.load(file, &error), qPrintable(error));
        QVERIFY(!history->canUndo() && !history->canRedo());
    }

    // Edit ▸ Undo and Redo act on the open project's history, and on no other project's.
    void editUndoFollowsTheOpenProject() {
        const QString data = makeFolder(QStringLiteral("undo-window/data"));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* undo = window.findChild<QAction*>(QStringLiteral("undoAction"));
        auto* redo = window.findChild<QAction*>(QStringLiteral("redoAction"));
        QVERIFY(!undo->isEnabled() && !redo->isEnabled());
        QVERIFY(window.projects()->newProject());
        QVERIFY(window.projects()->addDataset(data));
        QVERIFY(undo->isEnabled());
        QVERIFY2(undo->text().contains(QStringLiteral("Add Dataset \"data\"")),
                 qPrintable(undo->text()));
        undo->trigger();
        QVERIFY(window.project()->datasets().isEmpty());
        QVERIFY(redo->isEnabled() && !undo->isEnabled());
        redo->trigger();
        QCOMPARE(window.project()->datasets().size(), 1);
        QCOMPARE(window.findChild<QListWidget*>(QStringLiteral("datasetList"))->count(), 1);
        // While Run History is shown they act on its edits of runs' names, tags and notes.
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("projectTabs"));
        tabs->setCurrentIndex(kiln::gui::ProjectPages::kRunHistory);
        QVERIFY(!undo->isEnabled());
        tabs->setCurrentIndex(kiln::gui::ProjectPages::kDatasets);
        QVERIFY2(undo->isEnabled() && undo->text().contains(QStringLiteral("Add Dataset")),
                 qPrintable(undo->text()));
        answerUnsavedChanges(window, QMessageBox::Discard);
        QVERIFY(window.projects()->newProject());
        QVERIFY(!undo->isEnabled() && !redo->isEnabled());
    }

    void windowTracksTheProject() {
        const QString data = makeFolder(QStringLiteral("window/data"));
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("window/w.kiln"));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.findChild<QAction*>("saveProjectAction")->isEnabled());

        QVERIFY(window.projects()->newProject());
        QVERIFY(window.findChild<QAction*>("saveProjectAction")->isEnabled());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Untitled")));
        // Train with no dataset: the form says what is missing, before any offer to save.
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY(window.findChild<QMessageBox*>(QStringLiteral("saveFirstBox")) == nullptr);
        QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("projectTabs"))->currentIndex(),
                 int(kiln::gui::ProjectPages::kRunConfiguration));
        QVERIFY(!window.runConfiguration()->issueText(QStringLiteral("data")).isEmpty());
        QVERIFY(window.projects()->addDataset(data));
        QVERIFY(window.isWindowModified());
        auto* list = window.findChild<QListWidget*>(QStringLiteral("datasetList"));
        QCOMPARE(list->count(), 1);
        QVERIFY(list->item(0)->text().startsWith(QStringLiteral("data - ")));

        // Train on a project never saved: Studio offers to save it (Cancel trains nothing).
        QTimer::singleShot(0, &window, [&window] {
            auto* box = window.findChild<QMessageBox*>(QStringLiteral("saveFirstBox"));
            QVERIFY(box != nullptr);
            QVERIFY(box->button(QMessageBox::Save) != nullptr);
            box->button(QMessageBox::Cancel)->click();
        });
        window.findChild<QAction*>("trainAction")->trigger();
        QVERIFY(window.findChild<QMessageBox*>(QStringLiteral("saveFirstBox")) == nullptr);

        QVERIFY(window.projects()->saveProjectAs(file));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("w[*]")));
        const QStringList recent =
            QSettings().value(QStringLiteral("recentProjects")).toStringList();
        QCOMPARE(recent.value(0), QFileInfo(file).absoluteFilePath());
        QCOMPARE(window.findChild<QMenu*>(QStringLiteral("recentMenu"))->actions().size(),
                 recent.size());

        // Unsaved changes: Cancel keeps the project, Discard drops them.
        window.projects()->addDataset(makeFolder(QStringLiteral("window/more")));
        answerUnsavedChanges(window, QMessageBox::Cancel);
        QVERIFY(!window.projects()->closeProject());
        QVERIFY(window.project() != nullptr);
        answerUnsavedChanges(window, QMessageBox::Discard);
        QVERIFY(window.projects()->closeProject());
        QVERIFY(window.project() == nullptr);
        QVERIFY(!window.findChild<QAction*>("closeProjectAction")->isEnabled());

        // kiln-studio FILE.kiln, or Open: the saved state comes back.
        QVERIFY(window.projects()->openProject(file));
        QCOMPARE(window.project()->datasets().size(), 1);
        QVERIFY(!window.isWindowModified());

        // A bad file is reported and the open project stays.
        const QString bad = QDir(temp_.path()).filePath(QStringLiteral("window/bad.kiln"));
        writeAll(bad, "{\"format_version\": 99}");
        QVERIFY(!window.projects()->openProject(bad));
        auto* error = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
        QVERIFY(error != nullptr && error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("newer Kiln Studio")));
        error->close();
        QCOMPARE(window.project()->file(), QFileInfo(file).absoluteFilePath());

        // Run settings never leak into another project: a new one starts from the defaults.
        window.runConfiguration()->setSettings(
            {{"task", "image_classification"},
             {"epochs", 33},
             {"model_args", {{"backbone_weights", "/elsewhere/run"}}}});
        QCOMPARE(window.runConfiguration()->settings()["epochs"], nlohmann::json(33));
        QTimer::singleShot(0, &window, [&window] { // if the edit counts as a change: drop it
            if (auto* box = window.findChild<QMessageBox*>(QStringLiteral("unsavedChangesBox"))) {
                box->button(QMessageBox::Discard)->click();
            }
        });
        QVERIFY(window.projects()->newProject());
        const nlohmann::json fresh = window.runConfiguration()->settings();
        QCOMPARE(fresh["task"], nlohmann::json("pretrain"));
        QCOMPARE(fresh["epochs"],
                 nlohmann::json(kiln::task_traits(kiln::TaskKind::Pretraining).default_epochs));
        QVERIFY(!fresh.contains("model_args") || !fresh["model_args"].contains("backbone_weights"));
        QVERIFY(window.projects()->openProject(file));

        // Closing the window with unsaved changes asks too.
        window.projects()->addDataset(makeFolder(QStringLiteral("window/third")));
        answerUnsavedChanges(window, QMessageBox::Cancel);
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        answerUnsavedChanges(window, QMessageBox::Discard);
        QVERIFY(window.close());
    }

    // A project opens with its last run's settings, the dataset they name included (not the
    // first of the project's datasets).
    void theLastRunSettingsComeBackWithTheirDataset() {
        const QString first = makeFolder(QStringLiteral("preset/first"));
        const QString second = makeFolder(QStringLiteral("preset/second"));
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("preset/p.kiln"));
        MainWindow window;
        QVERIFY(window.projects()->newProject());
        QVERIFY(window.projects()->addDataset(first));
        QVERIFY(window.projects()->addDataset(second));
        const std::string chosen = QDir::cleanPath(second).toStdString();
        window.project()->setRunPresets(QJsonArray{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("last")},
                        {QStringLiteral("settings"),
                         QJsonObject{{QStringLiteral("task"), QStringLiteral("pretrain")},
                                     {QStringLiteral("data"), QString::fromStdString(chosen)}}}}});
        QVERIFY(window.projects()->saveProjectAs(file));
        QVERIFY(window.projects()->closeProject());
        QVERIFY(window.projects()->openProject(file));
        QCOMPARE(window.runConfiguration()->settings()["data"], nlohmann::json(chosen));
    }

    // A project file given by someone else, with values of the wrong type at every level: the
    // window opens it without crashing, names the run settings it could not use, shows the
    // defaults in their place, and the project saves and trains from there.
    void aProjectWithWrongValuesOpensWithDefaultsNamed() {
        const QString data = makeFolder(QStringLiteral("wrong/images"));
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("wrong/given.kiln"));
        writeAll(file, R"({"format_version": 1, "runs_folder": 7, "ui": [1],
            "embeddings": [5, {}, "missing.npy"],
            "datasets": [{"path": "images", "kind": "coco", "labels": 5, "name": []}],
            "run_presets": [{"name": "last", "settings": {
                "task": "image_classification", "epochs": "ten", "sync_batchnorm": "yes",
                "num_workers": 1e300,
                "batch_size": -4, "transform_args": {"image_size": "big"},
                "model_args": [1], "optim_args": "fast", "callbacks": {"model_checkpoint": 3},
                "loggers": {"mlflow": {"tracking_uri": 5}, "wandb": {"project": []}},
                "data": {"train": 7, "val": {"annotations": {}}}}},
                5, {"name": "other", "settings": "x"}]})");
        MainWindow window;
        QMessageBox* error = openShowingAnError(window, file);
        QVERIFY(error != nullptr);
        for (const char* key : {"epochs", "sync_batchnorm", "batch_size", "image_size"}) {
            QVERIFY2(error->text().contains(QLatin1String(key)), qPrintable(error->text()));
        }
        error->close();
        const nlohmann::json settings = window.runConfiguration()->settings();
        const kiln::TaskTraits& traits = kiln::task_traits(kiln::TaskKind::ImageClassification);
        QCOMPARE(settings["task"], nlohmann::json("image_classification"));
        QCOMPARE(settings["epochs"], nlohmann::json(traits.default_epochs));
        QCOMPARE(settings["batch_size"], nlohmann::json(traits.default_batch_size));
        QVERIFY(!settings.contains("sync_batchnorm"));
        QCOMPARE(settings["num_workers"], nlohmann::json("auto")); // 1e300 was undefined
        QCOMPARE(window.project()->datasets().size(), 1);
        QCOMPARE(window.project()->datasets().front().path, QDir::cleanPath(data));
        QVERIFY(window.projects()->saveProjectAs(
            QDir(temp_.path()).filePath(QStringLiteral("wrong/s.kiln"))));
        QVERIFY(window.findChild<QAction*>("trainAction")->isEnabled());
    }

    // A project given by someone else whose last settings name TorchScript modules (code that
    // runs when loaded): they leave the form, named in a message, and nothing loads them.
    void aProjectsTorchScriptModulesAreNotLoaded() {
        const QString data = makeFolder(QStringLiteral("scripted/images"));
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("scripted/given.kiln"));
        writeAll(file, R"({"format_version": 1, "datasets": [{"path": "images"}],
            "run_presets": [{"name": "last", "settings": {"task": "pretrain", "data": "images",
                "model": "torchscript:payload.pt", "method": "distillation",
                "method_args": {"teacher": "torchscript:teacher.pt"}}}]})");
        MainWindow window;
        QMessageBox* error = openShowingAnError(window, file);
        QVERIFY(error != nullptr);
        QVERIFY2(error->text().contains(QStringLiteral("model: torchscript:")) &&
                     error->text().contains(QStringLiteral("payload.pt")) &&
                     error->text().contains(QStringLiteral("method_args.teacher: torchscript:")),
                 qPrintable(error->text()));
        error->close();
        const nlohmann::json settings = window.runConfiguration()->settings();
        QVERIFY2(settings.dump().find("torchscript") == std::string::npos, settings.dump().c_str());
        QCOMPARE(settings["data"], nlohmann::json(QDir::cleanPath(data).toStdString()));
    }

    // A folder of generated scenes (images/, masks/, COCO and YOLO files): added, it is a YOLO
    // set whose images are images/; the Datasets tab counts its objects per class as the
    // annotations hold them, draws the boxes over the thumbnails, lists a wrong labels path as
    // a problem, and follows a change of kind, which the project keeps.
    void labelledDatasetsShowTheirLabels() {
        namespace fs = std::filesystem;
        const fs::path root = makeFolder(QStringLiteral("labelled")).toStdString();
        kiln::test::write_shapes_idx(root / "idx-images", root / "idx-labels", 32);
        kiln::test::write_shape_scenes(root / "idx-images", root / "idx-labels", root, 96, 6, 2);
        const QString train = QString::fromStdString((root / "train").string());

        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(window.projects()->newProject());
        // No dataset yet: a hint, and nothing to remove or optimize.
        QVERIFY(window.findChild<QWidget*>(QStringLiteral("noDatasetsHint"))->isVisible());
        auto* remove = window.findChild<QPushButton*>(QStringLiteral("removeDatasetButton"));
        QVERIFY(!remove->isEnabled());
        QVERIFY(window.projects()->addDataset(train));
        const kiln::gui::DatasetEntry added = window.project()->datasets().at(0);
        QCOMPARE(added.kind, QStringLiteral("yolo"));
        QCOMPARE(added.path, train + QStringLiteral("/images"));
        QCOMPARE(added.labels, train + QStringLiteral("/data.yaml"));
        // The new dataset is selected, its details shown at once.
        QCOMPARE(window.findChild<QListWidget*>(QStringLiteral("datasetList"))->currentRow(), 0);
        QVERIFY(remove->isEnabled());

        // Objects per class, as annotations.json (the same scenes) counts them.
        const QJsonObject coco =
            QJsonDocument::fromJson(readAll(train + QStringLiteral("/annotations.json"))).object();
        QMap<qint64, qint64> objects;
        for (const QJsonValue& annotation : coco.value(QStringLiteral("annotations")).toArray()) {
            ++objects[annotation.toObject().value(QStringLiteral("category_id")).toInteger()];
        }
        auto* classes = window.findChild<kiln::gui::BarChart*>(QStringLiteral("classChart"));
        QTRY_VERIFY_WITH_TIMEOUT(classes->isVisible(), 30000);
        const QJsonArray categories = coco.value(QStringLiteral("categories")).toArray();
        QCOMPARE(classes->bars().size(), categories.size());
        for (int c = 0; c < categories.size(); ++c) {
            const QJsonObject category = categories.at(c).toObject();
            QCOMPARE(classes->bars().at(c).label,
                     category.value(QStringLiteral("name")).toString());
            QCOMPARE(classes->bars().at(c).value,
                     objects.value(category.value(QStringLiteral("id")).toInteger()));
        }
        auto* summary = window.findChild<QLabel*>(QStringLiteral("labelSummary"));
        QVERIFY2(summary->text().startsWith(
                     QStringLiteral("Training split: %1 objects")
                         .arg(coco.value(QStringLiteral("annotations")).toArray().size())),
                 qPrintable(summary->text()));

        // The page does not scroll around its scrolling grid: below the overview, a row of
        // thumbnails and the augmentations stay inside a 1280 x 720 window.
        auto* grid = window.findChild<QListView*>(QStringLiteral("thumbnailGrid"));
        auto* preview = window.findChild<QScrollArea*>(QStringLiteral("augmentationPreviewScroll"));
        QTRY_VERIFY(preview->mapTo(&window, QPoint(0, preview->height())).y() <= window.height());
        QVERIFY(grid->height() >= kiln::gui::ThumbnailModel::kSide);

        // The label browser: a thumbnail with its boxes drawn differs from the plain one.
        auto* thumbnails = qobject_cast<kiln::gui::ThumbnailModel*>(grid->model());
        QCOMPARE(thumbnails->rowCount(), 6); // the images, not the masks beside them
        const auto thumbnail = [thumbnails] {
            thumbnails->data(thumbnails->index(0), Qt::DecorationRole);
            [&] { QTRY_VERIFY_WITH_TIMEOUT(thumbnails->loadedCount() >= 1, 30000); }();
            return thumbnails->data(thumbnails->index(0), Qt::DecorationRole)
                .value<QPixmap>()
                .toImage();
        };
        const QImage labelled = thumbnail();
        QVERIFY(!labelled.isNull());
        kiln::test::saveScreenshot(window, QStringLiteral("datasets-labels"));
        window.findChild<QCheckBox*>(QStringLiteral("showLabelsCheck"))->setChecked(false);
        QVERIFY(thumbnail() != labelled);
        // A clicked thumbnail previews its own augmentations, after the original.
        Q_EMIT grid->clicked(thumbnails->index(2));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<QLabel*>(QStringLiteral("augmentationArrow")) != nullptr, 30000);

        // The bar between overview and images, once dragged, stays where the user put it
        // through the scans below.
        auto* panes = window.findChild<QSplitter*>(QStringLiteral("datasetPanes"));
        QSplitterHandle* bar = panes->handle(1);
        const QList<int> fitted = panes->sizes();
        QTest::mousePress(bar, Qt::LeftButton, {}, QPoint(bar->width() / 2, 1));
        QTest::mouseMove(bar, QPoint(bar->width() / 2, 41));
        QTest::mouseRelease(bar, Qt::LeftButton, {}, QPoint(bar->width() / 2, 41));
        const QList<int> chosen = panes->sizes();
        QVERIFY(chosen.at(0) > fitted.at(0));

        // Masks: the YOLO data.yaml is not kept as their folder, which is asked for, with one
        // problem naming the fix.
        auto* kind = window.findChild<QComboBox*>(QStringLiteral("labelKindCombo"));
        kind->setCurrentIndex(kind->findData(QStringLiteral("masks")));
        Q_EMIT kind->activated(kind->currentIndex());
        QCOMPARE(window.project()->datasets().at(0).kind, QStringLiteral("masks"));
        QCOMPARE(window.project()->datasets().at(0).labels, QString());
        auto* problems = window.findChild<QListWidget*>(QStringLiteral("labelProblems"));
        QTRY_VERIFY_WITH_TIMEOUT(problems->isVisible(), 30000);
        QCOMPARE(problems->count(), 1);
        QVERIFY2(problems->item(0)->text().contains(QStringLiteral("no folder of masks is named")),
                 qPrintable(problems->item(0)->text()));
        kiln::test::saveScreenshot(window, QStringLiteral("datasets-label-problem"));
        auto* path = window.findChild<QLineEdit*>(QStringLiteral("labelsPathField"));
        path->setText(train + QStringLiteral("/masks"));
        Q_EMIT path->editingFinished();
        QTRY_VERIFY_WITH_TIMEOUT(!problems->isVisible() && classes->isVisible(), 30000);
        QCOMPARE(panes->sizes(), chosen);
        const QJsonObject names =
            QJsonDocument::fromJson(readAll(train + QStringLiteral("/classes.json"))).object();
        QCOMPARE(classes->bars().size(), names.size());
        QCOMPARE(classes->bars().at(0).label, names.value(QStringLiteral("0")).toString());
        QVERIFY(classes->bars().at(0).value > 0); // every scene has background
        QTRY_VERIFY(summary->isVisible());
        const QString masksSummary = summary->text();

        // Kept by the project, the labels relative to it.
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("labelled/l.kiln"));
        QVERIFY(window.projects()->saveProjectAs(file));
        QVERIFY(readAll(file).contains("\"labels\": \"train/masks\""));
        Project reopened;
        QString error;
        QVERIFY2(reopened.load(file, &error), qPrintable(error));
        QCOMPARE(reopened.datasets().at(0).kind, QStringLiteral("masks"));
        QCOMPARE(reopened.datasets().at(0).labels, train + QStringLiteral("/masks"));
        // COCO: the masks folder is no annotation file; the JSON given then is kept.
        kind->setCurrentIndex(kind->findData(QStringLiteral("coco")));
        Q_EMIT kind->activated(kind->currentIndex());
        QCOMPARE(window.project()->datasets().at(0).labels, QString());
        QVERIFY(path->text().isEmpty());
        path->setText(train + QStringLiteral("/annotations.json"));
        Q_EMIT path->editingFinished();
        QCOMPARE(window.project()->datasets().at(0).kind, QStringLiteral("coco"));
        QCOMPARE(window.project()->datasets().at(0).labels,
                 train + QStringLiteral("/annotations.json"));
        QTRY_VERIFY_WITH_TIMEOUT(summary->isVisible() && summary->text() != masksSummary, 30000);
        // Undone back to the masks, the page shows what they hold again, not the COCO file's.
        window.project()->undoStack()->undo();
        window.project()->undoStack()->undo();
        QCOMPARE(window.project()->datasets().at(0).kind, QStringLiteral("masks"));
        QTRY_COMPARE_WITH_TIMEOUT(summary->text(), masksSummary, 30000);
        window.project()->undoStack()->redo();
        window.project()->undoStack()->redo();
        QVERIFY(window.projects()->saveProject());
        QVERIFY(window.close());
    }

    void projectsMove() {
        // A project with its data and a run beside it, and a preset naming them.
        const QString data = makeFolder(QStringLiteral("move/a/images"));
        const QString runs = makeFolder(QStringLiteral("move/a/runs/20260101-000000"));
        const QString file = QDir(temp_.path()).filePath(QStringLiteral("move/a/p.kiln"));
        Project project;
        project.addDataset(data);
        const QJsonObject settings{
            {"data", data},
            {"model", "resnet18"},
            {"out", ""},
            {"model_args", QJsonObject{{"backbone_weights", QFileInfo(runs).absolutePath()}}},
            {"classes_stay", "not a path"}};
        project.setRunPresets(QJsonArray{QJsonObject{{"name", "last"}, {"settings", settings}}});
        // Embeddings it exported: newest first, each once.
        project.rememberEmbeddings(QDir(temp_.path()).filePath(QStringLiteral("move/a/old.csv")));
        project.rememberEmbeddings(QDir(temp_.path()).filePath(QStringLiteral("move/a/e.csv")));
        project.rememberEmbeddings(QDir(temp_.path()).filePath(QStringLiteral("move/a/old.csv")));
        QCOMPARE(project.embeddings().size(), 2);
        QVERIFY(project.embeddings().front().endsWith(QStringLiteral("/old.csv")));
        QString error;
        QVERIFY2(project.save(file, &error), qPrintable(error));
        QCOMPARE(QJsonDocument::fromJson(readAll(file)).object().value("embeddings").toArray(),
                 (QJsonArray{"old.csv", "e.csv"}));
        // On disk, paths relative to the file; in memory, absolute.
        const QJsonObject stored = QJsonDocument::fromJson(readAll(file))
                                       .object()
                                       .value("run_presets")
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value("settings")
                                       .toObject();
        QCOMPARE(stored.value("data").toString(), QStringLiteral("images"));
        QCOMPARE(stored.value("model_args").toObject().value("backbone_weights").toString(),
                 QStringLiteral("runs"));
        QCOMPARE(stored.value("out").toString(), QString());
        QCOMPARE(stored.value("classes_stay").toString(), QStringLiteral("not a path"));

        // The folder moves: the preset's paths follow it.
        const QString moved = QDir(temp_.path()).filePath(QStringLiteral("move/b"));
        QVERIFY(QDir().rename(QDir(temp_.path()).filePath(QStringLiteral("move/a")), moved));
        Project reopened;
        QVERIFY2(reopened.load(moved + QStringLiteral("/p.kiln"), &error), qPrintable(error));
        const QJsonObject loaded =
            reopened.runPresets().at(0).toObject().value("settings").toObject();
        QCOMPARE(loaded.value("data").toString(), moved + QStringLiteral("/images"));
        QCOMPARE(reopened.datasets().first().path, moved + QStringLiteral("/images"));
        QCOMPARE(reopened.embeddings(), (QStringList{moved + QStringLiteral("/old.csv"),
                                                     moved + QStringLiteral("/e.csv")}));

        // Saved As into another folder, the project keeps its run history where it is.
        const QString elsewhere = makeFolder(QStringLiteral("move/elsewhere"));
        QVERIFY(reopened.save(elsewhere + QStringLiteral("/copy.kiln"), &error));
        QCOMPARE(reopened.runsFolder(), moved + QStringLiteral("/runs"));
        Project copy;
        QVERIFY(copy.load(elsewhere + QStringLiteral("/copy.kiln"), &error));
        QCOMPARE(copy.runsFolder(), moved + QStringLiteral("/runs"));
        QCOMPARE(copy.runPresets().at(0).toObject().value("settings").toObject().value("data"),
                 QJsonValue(moved + QStringLiteral("/images")));
    }

    void startPageOffersProjects() {
        const QString data = makeFolder(QStringLiteral("start/data"));
        const QString kept = QDir(temp_.path()).filePath(QStringLiteral("start/kept.kiln"));
        const QString gone = QDir(temp_.path()).filePath(QStringLiteral("start/gone.kiln"));
        Project project;
        project.addDataset(data);
        QString error;
        QVERIFY2(project.save(kept, &error), qPrintable(error));
        QSettings().setValue(QStringLiteral("recentProjects"), QStringList{kept, gone});

        MainWindow window;
        window.resize(1000, 640);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* page = window.findChild<kiln::gui::StartPage*>();
        QVERIFY(page != nullptr && page->isVisible());
        for (const char* name :
             {"startNewProjectButton", "startOpenProjectButton", "startDemoProjectButton"}) {
            QVERIFY2(page->findChild<QPushButton*>(QLatin1String(name))->isVisible(), name);
        }
        // Recent projects with their paths; one no longer there says so.
        auto* recent = page->findChild<QListWidget*>(QStringLiteral("recentProjectList"));
        QCOMPARE(recent->count(), 2);
        QVERIFY(recent->item(0)->text().startsWith(QStringLiteral("kept\n")));
        QVERIFY(recent->item(0)->text().contains(QDir::toNativeSeparators(kept)));
        QVERIFY(recent->item(1)->text().contains(QStringLiteral("(not found)")));
        kiln::test::saveScreenshot(window, QStringLiteral("start-page"));

        // A recent project opens with one activation; New Project starts an empty one.
        Q_EMIT recent->itemActivated(recent->item(0));
        QVERIFY(window.project() != nullptr);
        QCOMPARE(window.project()->file(), QFileInfo(kept).absoluteFilePath());
        QVERIFY(!page->isVisible());
        QVERIFY(window.projects()->closeProject());
        QVERIFY(page->isVisible());
        page->findChild<QPushButton*>(QStringLiteral("startNewProjectButton"))->click();
        QVERIFY(window.project() != nullptr && window.project()->file().isEmpty());
        QVERIFY(window.projects()->closeProject());
    }

    void demoProjectImportsFashionMnist() {
        const QString fashionMnist = kiln::gui::defaultFashionMnistFolder();
        if (!QFileInfo::exists(fashionMnist + QStringLiteral("/train-images-idx3-ubyte.gz"))) {
            QSKIP("Fashion-MNIST is not installed (Debian's dataset-fashion-mnist)");
        }
        // A missing source or a stop leaves nothing behind, with an error naming the fix.
        const QString folder = makeFolder(QStringLiteral("demo"));
        kiln::gui::DemoProjectOptions options{temp_.path() + QStringLiteral("/none"), folder, 50};
        const auto noProgress = [](qint64, qint64) {};
        try {
            kiln::gui::makeDemoProject(options, kiln::StopToken(), noProgress);
            QFAIL("a missing Fashion-MNIST was accepted");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains("apt install dataset-fashion-mnist"),
                     error.what());
        }
        options.fashionMnist = fashionMnist;
        kiln::StopToken stop;
        const QString stopped =
            kiln::gui::makeDemoProject(options, stop, [&stop](qint64 done, qint64) {
                if (done == 20) {
                    stop.request_stop();
                }
            });
        QVERIFY(stopped.isEmpty());
        QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());

        // From the start page: imported on a thread with progress, then opened, ready to train.
        const QString demo = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                                 .filePath(QStringLiteral("demo"));
        QDir(demo).removeRecursively(); // from an earlier run of this test
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* progress = window.findChild<QProgressBar*>(QStringLiteral("demoProgress"));
        window.findChild<QPushButton*>(QStringLiteral("startDemoProjectButton"))->click();
        QVERIFY(progress->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(window.project() != nullptr, 120000);
        QVERIFY(!progress->isVisible());
        QCOMPARE(window.project()->file(), kiln::gui::demoProjectFile(demo));
        QCOMPARE(window.project()->datasets().size(), 1);
        const QDir images(window.project()->datasets().first().path);
        QCOMPARE(images.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 10);
        qint64 count = 0;
        for (const QString& label : images.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            count += QDir(images.filePath(label)).entryList(QDir::Files).size();
        }
        QCOMPARE(count, 10000);
        const nlohmann::json settings = window.runConfiguration()->settings();
        QCOMPARE(settings.value("model", ""), std::string("smallcnn_v2"));
        QCOMPARE(settings.value("method", ""), std::string("simclr"));
        QCOMPARE(settings.value("epochs", 0), 15);
        QCOMPARE(settings.value("data", ""), images.path().toStdString());
        // Its Datasets tab shows the images per class of its class folders.
        QCOMPARE(window.project()->datasets().at(0).kind, QStringLiteral("class_folders"));
        auto* classes = window.findChild<kiln::gui::BarChart*>(QStringLiteral("classChart"));
        QTRY_COMPARE_WITH_TIMEOUT(classes->bars().size(), 10, 30000);
        // Fashion-MNIST's class names, not its labels' numbers.
        QStringList names;
        for (const auto& bar : classes->bars()) {
            names << bar.label;
            if (bar.label == QStringLiteral("T-shirt or top")) {
                QCOMPARE(bar.value, 942); // label 0
            }
        }
        QVERIFY2(names.contains(QStringLiteral("T-shirt or top")) &&
                     names.contains(QStringLiteral("Ankle boot")),
                 qPrintable(names.join(QLatin1Char(','))));
        // Its image size is auto, and the augmentation preview shows the views a run makes of
        // the 28 px images: 32 px, not the methods' 224.
        QCOMPARE(settings["transform_args"].value("image_size", nlohmann::json()),
                 nlohmann::json("auto"));
        auto* preview = window.findChild<kiln::gui::AugmentationPreview*>();
        QVERIFY(preview != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(preview->viewCount() > 0, 30000);
        QCOMPARE(preview->view(0).size(), QSize(32, 32));
        // Opening it again reuses the import.
        QVERIFY(window.projects()->closeProject());
        window.projects()->openDemoProject();
        QTRY_VERIFY_WITH_TIMEOUT(window.project() != nullptr, 10000);
        QCOMPARE(window.project()->file(), kiln::gui::demoProjectFile(demo));
    }
};

QTEST_MAIN(ProjectTest)
#include "tst_project.moc"
