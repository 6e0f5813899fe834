// Kiln Studio's Run History: the runs of a project read from their run.db files.

#include "app/application.h"
#include "app/main_window.h"
#include "embeddings/export_dialog.h"
#include "plots/qcustomplot.h"
#include "project/project.h"
#include "runs/run_comparison.h"
#include "runs/run_history.h"
#include "support/screenshot.h"
#include "track/run_directory.h"
#include "track/run_lock.h"
#include "track/run_store.h"
#include "training/training_session.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

using kiln::gui::RunHistoryModel;

namespace {

// A finished run of `steps` steps in `directory`, its loss falling to 1/steps, with `config`
// as its settings; with `validate`, a top-1 accuracy every 5 steps.
void recordRun(const QString& directory, int steps, double started_offset,
               const std::string& config = "{}", bool validate = false) {
    QDir().mkpath(directory);
    kiln::track::RunStore store(kiln::track::RunDirectory(directory.toStdString()).run_db());
    const std::int64_t run = store.begin_run(config, "simclr", "resnet18");
    for (int step = 1; step <= steps; ++step) {
        store.add_metrics(
            run, step, 0,
            {{"train_loss", 1.0 / step}, {"data_wait", 0.25}, {"images_per_second", 100.0}},
            1700000000.0 + started_offset + step);
        if (validate && step % 5 == 0) {
            store.add_metrics(run, step, 0,
                              {{"val_metric/top1", 0.1 * step}, {"val_metric/top1/cat", 0.5}},
                              1700000000.0 + started_offset + step);
        }
    }
    store.finish_run(run, kiln::track::RunStatus::Finished, "{}", "");
}

// Makes the newest run of `directory` look like one whose process was killed.
void orphanRun(const QString& directory) {
    sqlite3* db = nullptr;
    sqlite3_open(QDir(directory).filePath(QStringLiteral("run.db")).toUtf8().constData(), &db);
    sqlite3_exec(db, "UPDATE runs SET status = 'running', ended = NULL, pid = 2147483600", nullptr,
                 nullptr, nullptr);
    sqlite3_close(db);
}

// The history reads run.db files on a thread: wait until what it shows is current.
void waitForHistory(const kiln::gui::RunHistoryView* view) {
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRefreshing(), 10000);
}

// The selected runs' curves are read off the GUI thread; waits until they are drawn.
void waitForCurves(const kiln::gui::RunHistoryView* view) {
    QTRY_VERIFY_WITH_TIMEOUT(!view->isReadingCurves(), 10000);
}

} // namespace

class RunHistoryTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        kiln::gui::configureApplication(*qApp);
        QSettings().clear();
    }

    // Run records come with projects from others: a setting of the wrong type hides no run
    // beside it, and a record naming a TorchScript module is not resumed from (loading one
    // runs its code; Kiln loads it only where the user names it).
    // A test that failed while a column was hidden leaves no hidden column to the next.
    void init() { QSettings().remove(QStringLiteral("runHistory/hiddenColumns")); }

    void recordsFromOthersAreReadWithCare() {
        QTemporaryDir dir;
        const QString runs = dir.filePath(QStringLiteral("runs"));
        recordRun(runs + QStringLiteral("/mixed"), 3, 0,
                  R"({"transform_args": "x", "optim_args": 5})");
        recordRun(runs + QStringLiteral("/mixed"), 4, 100, R"({"optim_args": {"lr": 0.5}})");
        const QString module = dir.filePath(QStringLiteral("module.pt"));
        QFile(module).open(QIODevice::WriteOnly);
        recordRun(runs + QStringLiteral("/scripted"), 2, 200,
                  nlohmann::json{{"model", "torchscript:" + module.toStdString()},
                                 {"data", dir.path().toStdString()},
                                 {"epochs", 1}}
                      .dump());
        kiln::gui::MainWindow window;
        window.show();
        QVERIFY(window.projects()->newProject());
        QVERIFY(window.projects()->saveProjectAs(dir.filePath(QStringLiteral("p.kiln"))));
        window.findChild<QAction*>("runHistoryViewAction")->trigger();
        waitForHistory(window.runHistory());
        QCOMPARE(window.runHistory()->model()->rowCount(), 3);
        Q_EMIT window.runHistory()->resumeRequested(runs + QStringLiteral("/scripted"));
        auto* error = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
        QVERIFY(error != nullptr);
        QVERIFY2(error->text().contains(QStringLiteral("never from a name stored in a file")),
                 qPrintable(error->text()));
        QVERIFY(!window.session()->isRunning());
    }

    void tableShowsTheProjectsRuns() {
        QTemporaryDir dir;
        const QString runs = dir.filePath(QStringLiteral("runs"));
        recordRun(runs + QStringLiteral("/first"), 10, 0);
        recordRun(runs + QStringLiteral("/second"), 4, 1000);
        orphanRun(runs + QStringLiteral("/second"));
        QDir().mkpath(runs + QStringLiteral("/not-a-run"));

        kiln::gui::MainWindow window;
        window.show();
        QVERIFY(window.projects()->newProject());
        QVERIFY(window.projects()->saveProjectAs(dir.filePath(QStringLiteral("p.kiln"))));
        QCOMPARE(window.project()->runsFolder(), QDir::cleanPath(runs));
        window.findChild<QAction*>("runHistoryViewAction")->trigger();
        waitForHistory(window.runHistory());

        const RunHistoryModel* model = window.runHistory()->model();
        QCOMPARE(model->rowCount(), 2);
        const auto cell = [&](int row, int column) {
            return model->data(model->index(row, column), Qt::DisplayRole).toString();
        };
        // Newest first; the killed run reads interrupted.
        QCOMPARE(cell(0, RunHistoryModel::Run), QStringLiteral("second"));
        QCOMPARE(cell(0, RunHistoryModel::Status), QStringLiteral("Interrupted"));
        QCOMPARE(cell(1, RunHistoryModel::Run), QStringLiteral("first"));
        QCOMPARE(cell(1, RunHistoryModel::Status), QStringLiteral("Finished"));
        QCOMPARE(RunHistoryModel::statusText(QStringLiteral("cancelled")),
                 QStringLiteral("Stopped"));
        QCOMPARE(cell(1, RunHistoryModel::Method), QStringLiteral("simclr"));
        QCOMPARE(cell(1, RunHistoryModel::Model), QStringLiteral("resnet18"));
        QCOMPARE(cell(1, RunHistoryModel::Steps), QStringLiteral("10"));
        QCOMPARE(cell(1, RunHistoryModel::Loss), QStringLiteral("0.1000"));
        QCOMPARE(cell(1, RunHistoryModel::Throughput), QStringLiteral("100.0"));
        QCOMPARE(cell(1, RunHistoryModel::DataWait), QStringLiteral("25.0%"));
        const QLocale before;
        QLocale::setDefault(QLocale::German); // numbers as the language writes them
        QCOMPARE(cell(1, RunHistoryModel::Loss), QStringLiteral("0,1000"));
        QCOMPARE(cell(1, RunHistoryModel::DataWait), QStringLiteral("25,0%"));
        QLocale::setDefault(before);
        // Short headers, so that every column fits a 1366 px screen; the tooltip says the rest.
        QCOMPARE(
            model->headerData(RunHistoryModel::Loss, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("Loss"));
        QCOMPARE(
            model->headerData(RunHistoryModel::Loss, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QStringLiteral("Training loss at the last step"));
        window.resize(1366, 768);
        QTableView* shown = window.runHistory()->table();
        QTRY_VERIFY2(shown->horizontalHeader()->length() <= shown->viewport()->width(),
                     qPrintable(QStringLiteral("%1 px of columns in %2")
                                    .arg(shown->horizontalHeader()->length())
                                    .arg(shown->viewport()->width())));
        // Columns are chosen from the header's menu, and stay chosen in the next window.
        QMenu* columns = window.runHistory()->columnMenu();
        QCOMPARE(columns->actions().size(), RunHistoryModel::ColumnCount - 1); // the run stays
        QAction* notes = columns->actions().last();
        QVERIFY(notes->isChecked());
        notes->toggle();
        QVERIFY(shown->isColumnHidden(RunHistoryModel::Notes));
        delete columns;
        {
            kiln::gui::RunHistoryView another;
            QVERIFY(another.table()->isColumnHidden(RunHistoryModel::Notes));
            another.setColumnShown(RunHistoryModel::Notes, true);
        }
        QVERIFY(!kiln::gui::RunHistoryView().table()->isColumnHidden(RunHistoryModel::Notes));

        // Several runs selected: their loss curves overlaid, one each.
        QTableView* table = window.runHistory()->table();
        table->selectAll();
        waitForCurves(window.runHistory());
        QCOMPARE(window.runHistory()->curveCount(), 2);
        table->clearSelection();
        waitForCurves(window.runHistory());
        QCOMPARE(window.runHistory()->curveCount(), 0);
        // Nothing selected: nothing to open, delete, export or resume.
        for (const char* button : {"openRunFolderButton", "deleteRunButton", "exportRunModelButton",
                                   "resumeRunButton"}) {
            QVERIFY2(
                !window.runHistory()->findChild<QPushButton*>(QLatin1String(button))->isEnabled(),
                button);
        }
        table->selectRow(0);
        QVERIFY(window.runHistory()
                    ->findChild<QPushButton*>(QStringLiteral("deleteRunButton"))
                    ->isEnabled());
        table->clearSelection();
        auto* curves = window.runHistory()->findChild<QCustomPlot*>(QStringLiteral("runCurves"));
        waitForCurves(window.runHistory());
        QVERIFY(!curves->legend->visible());
        QCOMPARE(curves->xAxis->range().upper, 1.0);
        QVERIFY2(curves->axisRect()->width() > curves->width() / 2, // it was squeezed to 50 px
                 qPrintable(QString::number(curves->axisRect()->width())));
        // Columns fit what they show; none stretches across the table.
        QVERIFY(!table->horizontalHeader()->stretchLastSection());

        // Delete asks first; Cancel keeps the run, Yes removes its directory.
        table->selectRow(1);
        const auto answer = [&](QMessageBox::StandardButton button,
                                const QString& run = QStringLiteral("first")) {
            QTimer::singleShot(0, &window, [&window, button, run] {
                auto* box = window.findChild<QMessageBox*>(QStringLiteral("deleteRunBox"));
                QVERIFY(box != nullptr);
                QVERIFY(box->text().contains(run));
                box->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        QVERIFY(!window.runHistory()->deleteSelectedRun());
        QVERIFY(QDir(runs + QStringLiteral("/first")).exists());
        // A run still writing there (its lock held, as `kiln train` holds it) is not deleted.
        {
            const kiln::track::RunLock writing((runs + QStringLiteral("/first")).toStdString());
            answer(QMessageBox::Yes);
            QVERIFY(!window.runHistory()->deleteSelectedRun());
            QVERIFY(QFileInfo::exists(runs + QStringLiteral("/first/run.db")));
            auto* refused = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
            QVERIFY(refused != nullptr && refused->isVisible());
            QVERIFY2(refused->text().contains(QStringLiteral("in use by another Kiln run")),
                     qPrintable(refused->text()));
            refused->close();
        }
        answer(QMessageBox::Yes);
        QVERIFY(window.runHistory()->deleteSelectedRun());
        QVERIFY(!QDir(runs + QStringLiteral("/first")).exists());
        waitForHistory(window.runHistory());
        QCOMPARE(model->rowCount(), 1);
        // A run written into a folder that holds the user's own files: only the run's files go
        // (the whole folder went), and the message says what was kept.
        const QString second = runs + QStringLiteral("/second");
        QFile mine(second + QStringLiteral("/thesis.txt"));
        QVERIFY(mine.open(QIODevice::WriteOnly));
        mine.close();
        table->selectRow(0);
        answer(QMessageBox::Yes, QStringLiteral("second"));
        QVERIFY(window.runHistory()->deleteSelectedRun());
        QVERIFY(QFileInfo::exists(second + QStringLiteral("/thesis.txt")));
        QVERIFY(!QFileInfo::exists(second + QStringLiteral("/run.db")));
        auto* kept = window.findChild<QMessageBox*>(QStringLiteral("informationBox"));
        QVERIFY(kept != nullptr && kept->text().contains(QStringLiteral("were kept")));
        kept->close();
        waitForHistory(window.runHistory());
        QCOMPARE(model->rowCount(), 0);

        // A new run appears on Refresh.
        recordRun(runs + QStringLiteral("/third"), 2, 2000);
        window.findChild<QPushButton*>(QStringLiteral("refreshRunsButton"))->click();
        waitForHistory(window.runHistory());
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(cell(0, RunHistoryModel::Run), QStringLiteral("third"));
    }

    // Runs named, tagged and annotated in place (kept in run.db), sorted, filtered, their
    // validation curves overlaid and their settings compared.
    void runsAreLabelledSortedFilteredAndCompared() {
        QTemporaryDir dir;
        const QString runs = dir.filePath(QStringLiteral("runs"));
        recordRun(
            runs + QStringLiteral("/a"), 12, 0,
            R"({"data": ["/data/fashion-mnist/train"], "epochs": 10, "optim_args": {"lr": 0.3},
                      "transform_args": {"image_size": [32, 32]}, "seed": 0})",
            true);
        recordRun(runs + QStringLiteral("/b"), 20, 1000,
                  R"({"data": ["/data/fashion-mnist/train"], "steps": 20, "optim_args": {},
                      "transform_args": {"image_size": [64, 64]}, "seed": 0})",
                  true);
        recordRun(runs + QStringLiteral("/c"), 3, 2000);
        kiln::gui::RunHistoryView view;
        view.resize(1200, 700);
        view.show();
        // A folder without runs says what the table will hold; one with runs shows them.
        view.setFolder(dir.filePath(QStringLiteral("none-yet")));
        waitForHistory(&view);
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("noRunsHint"))->isVisible());
        view.setFolder(runs);
        waitForHistory(&view);
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("noRunsHint"))->isHidden());
        RunHistoryModel* model = view.model();
        QCOMPARE(model->rowCount(), 3);
        QTableView* table = view.table();
        const auto shown = [&](int row, int column) {
            return table->model()->index(row, column).data().toString();
        };
        // Newest first, with what each trained on.
        QCOMPARE(shown(0, RunHistoryModel::Run), QStringLiteral("c"));
        QCOMPARE(shown(2, RunHistoryModel::Dataset), QStringLiteral("fashion-mnist/train"));
        QCOMPARE(shown(2, RunHistoryModel::Length), QStringLiteral("10 epochs"));
        QCOMPARE(shown(1, RunHistoryModel::Length), QStringLiteral("20 steps"));
        QCOMPARE(shown(2, RunHistoryModel::ImageSize), QStringLiteral("32"));
        QCOMPARE(shown(2, RunHistoryModel::LearningRate), QStringLiteral("0.3"));
        QCOMPARE(shown(1, RunHistoryModel::LearningRate), QStringLiteral("auto"));

        // Renamed and tagged in place; run.db keeps it, so a refresh shows it again. The curve
        // of a selected run takes its new name at once.
        auto* curves = view.findChild<QCustomPlot*>(QStringLiteral("runCurves"));
        const auto hint = [curves] { // over the empty plot: "Select runs in the table..."
            for (int i = 0; i < curves->itemCount(); ++i) {
                if (curves->item(i)->objectName() == QStringLiteral("runCurvesHint")) {
                    return curves->item(i)->visible();
                }
            }
            return false;
        };
        QVERIFY(hint());
        table->selectRow(2);
        waitForCurves(&view);
        QCOMPARE(curves->graphCount(), 1);
        QVERIFY(!hint());
        QCOMPARE(curves->graph(0)->name(), QStringLiteral("a"));
        const QModelIndex name = table->model()->index(2, RunHistoryModel::Run);
        QVERIFY(table->model()->flags(name) & Qt::ItemIsEditable);
        QVERIFY(!(table->model()->flags(table->model()->index(2, RunHistoryModel::Steps)) &
                  Qt::ItemIsEditable));
        QVERIFY(table->model()->setData(name, QStringLiteral("baseline")));
        waitForCurves(&view);
        QCOMPARE(curves->graph(0)->name(), QStringLiteral("baseline"));
        table->clearSelection();
        QVERIFY(table->model()->setData(table->model()->index(2, RunHistoryModel::Tags),
                                        QStringLiteral(" cpu, quick ,cpu")));
        QVERIFY(table->model()->setData(table->model()->index(2, RunHistoryModel::Notes),
                                        QStringLiteral("first try\nlr 0.3 diverged once")));
        // Each edit is undone and redone (Edit ▸ Undo while Run History is shown), in run.db
        // too; giving a cell its own text again is no edit.
        QUndoStack* edits = model->undoStack();
        QCOMPARE(edits->count(), 3);
        QCOMPARE(edits->undoText(), QStringLiteral("Edit Notes of \"baseline\""));
        const auto recordedName = [&runs] {
            kiln::track::RunStore store(
                kiln::track::RunDirectory((runs + QStringLiteral("/a")).toStdString()).run_db());
            return store.runs().at(0).labels.name;
        };
        edits->undo();
        edits->undo();
        QCOMPARE(shown(2, RunHistoryModel::Tags), QString());
        QCOMPARE(edits->undoText(), QStringLiteral("Rename Run \"a\""));
        edits->undo();
        QCOMPARE(shown(2, RunHistoryModel::Run), QStringLiteral("a"));
        QCOMPARE(recordedName(), std::string());
        for (int i = 0; i < 3; ++i) {
            edits->redo();
        }
        QCOMPARE(recordedName(), std::string("baseline"));
        QCOMPARE(shown(2, RunHistoryModel::Tags), QStringLiteral("cpu, quick"));
        QVERIFY(table->model()->setData(name, QStringLiteral("baseline")));
        QCOMPARE(edits->count(), 3);
        view.refresh();
        waitForHistory(&view);
        QCOMPARE(shown(2, RunHistoryModel::Run), QStringLiteral("baseline"));
        QCOMPARE(shown(2, RunHistoryModel::Tags), QStringLiteral("cpu, quick"));
        QCOMPARE(shown(2, RunHistoryModel::Notes), QStringLiteral("first try"));
        QTextDocument tooltip; // the notes as written, though they looked like HTML
        tooltip.setHtml(
            table->model()->index(2, RunHistoryModel::Notes).data(Qt::ToolTipRole).toString());
        QCOMPARE(tooltip.toPlainText(), QStringLiteral("first try\nlr 0.3 diverged once"));
        {
            kiln::track::RunStore store(
                kiln::track::RunDirectory((runs + QStringLiteral("/a")).toStdString()).run_db());
            QCOMPARE(store.runs().at(0).labels.name, std::string("baseline"));
            QCOMPARE(store.runs().at(0).labels.tags, (std::vector<std::string>{"cpu", "quick"}));
        }

        // Sorted by a column's value, not its text: 3 < 12 < 20 steps.
        table->sortByColumn(RunHistoryModel::Steps, Qt::AscendingOrder);
        QCOMPARE(shown(0, RunHistoryModel::Steps), QStringLiteral("3"));
        QCOMPARE(shown(1, RunHistoryModel::Steps), QStringLiteral("12"));
        QCOMPARE(shown(2, RunHistoryModel::Steps), QStringLiteral("20"));
        // Filtered by any cell: a tag, then a dataset.
        view.findChild<QLineEdit*>(QStringLiteral("runFilter"))->setText(QStringLiteral("QUICK"));
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(shown(0, RunHistoryModel::Run), QStringLiteral("baseline"));
        view.setFilterText(QStringLiteral("diverged")); // the second line of a note
        QCOMPARE(table->model()->rowCount(), 1);
        view.setFilterText(QStringLiteral("fashion"));
        QCOMPARE(table->model()->rowCount(), 2);

        // Two runs of one task: their validation curves overlaid, one point per evaluation;
        // per-class values are not offered.
        table->selectAll();
        QCOMPARE(view.selectedRuns().size(), 2);
        waitForCurves(&view);
        QVERIFY(view.curveMetrics().contains(QStringLiteral("val_metric/top1")));
        QVERIFY(!view.curveMetrics().contains(QStringLiteral("val_metric/top1/cat")));
        view.setCurveMetric(QStringLiteral("val_metric/top1"));
        waitForCurves(&view);
        QCOMPARE(view.curveCount(), 2);
        QCOMPARE(curves->graph(0)->data()->size(), 2); // 12 steps: validated at 5 and 10
        // The axis names the metric as people read it; one Kiln does not name, by its key's end.
        QCOMPARE(curves->yAxis->label(), QStringLiteral("top1"));
        view.setCurveMetric(QStringLiteral("train_loss"));
        waitForCurves(&view);
        QCOMPARE(curves->yAxis->label(), QStringLiteral("training loss"));
        // The list names them so too, with the key in the tooltip.
        auto* metric = view.findChild<QComboBox*>(QStringLiteral("curveMetric"));
        QCOMPARE(metric->currentText(), QStringLiteral("training loss"));
        QCOMPARE(metric->itemData(metric->currentIndex(), Qt::ToolTipRole).toString(),
                 QStringLiteral("train_loss"));
        view.setCurveMetric(QStringLiteral("val_metric/top1"));
        waitForCurves(&view);
        kiln::test::saveScreenshot(view, QStringLiteral("run-history-labelled-filtered"));

        // Compared: results, the last evaluation (the better run in bold), the settings that
        // differ marked, the shared ones hidden until asked for.
        auto* compare = view.findChild<QPushButton*>(QStringLiteral("compareRunsButton"));
        QVERIFY(compare->isEnabled());
        compare->click();
        auto* dialog = view.findChild<kiln::gui::RunComparisonDialog*>();
        QVERIFY(dialog != nullptr);
        QTableWidget* comparison = dialog->table();
        QCOMPARE(comparison->columnCount(), 2);
        const int top1 = dialog->rowOf(QStringLiteral("val_metric/top1"));
        QVERIFY(top1 >= 0);
        QCOMPARE(dialog->rowOf(QStringLiteral("val_metric/top1/cat")), -1);
        const int better = comparison->item(top1, 0)->text() == QStringLiteral("2.0000") ? 0 : 1;
        QCOMPARE(comparison->item(top1, better)->text(), QStringLiteral("2.0000")); // 20 steps
        QVERIFY(comparison->item(top1, better)->font().bold());
        QVERIFY(!comparison->item(top1, 1 - better)->font().bold());
        // epochs, steps, optim_args.lr (and optim_args, empty in b) and image_size differ;
        // data and seed do not.
        QCOMPARE(dialog->differingSettings(), 5);
        const int seed = dialog->rowOf(QStringLiteral("seed"));
        const int size = dialog->rowOf(QStringLiteral("transform_args.image_size"));
        QVERIFY(seed >= 0 && size >= 0);
        QVERIFY(comparison->isRowHidden(seed));
        QVERIFY(!comparison->isRowHidden(size));
        QVERIFY(comparison->verticalHeaderItem(size)->font().bold());
        dialog->resize(760, 600);
        kiln::test::saveScreenshot(*dialog, QStringLiteral("run-history-compare"));
        dialog->findChild<QCheckBox*>(QStringLiteral("onlyDifferences"))->setChecked(false);
        QVERIFY(!comparison->isRowHidden(seed));
        dialog->close();

        // One run selected: nothing to compare.
        table->selectRow(0);
        QVERIFY(!compare->isEnabled());
    }

    // A run killed before it exported its model still gives one to embed: its checkpoint; the
    // best checkpoint before the last, wherever a run offers a model; embedded at the size it
    // trained at.
    void aRunWithOnlyACheckpointOffersIt() {
        QTemporaryDir dir;
        const kiln::track::RunDirectory run(dir.filePath(QStringLiteral("killed")).toStdString());
        std::filesystem::create_directories(run.checkpoints());
        kiln::gui::RunRow row;
        row.directory = QString::fromStdString(run.root().string());
        row.model = QStringLiteral("smallcnn");
        row.method = QStringLiteral("simclr");
        QVERIFY(row.checkpoint().isEmpty()); // nothing yet: not offered
        QVERIFY(row.pretrainedModel().isEmpty());
        QFile last(QString::fromStdString(run.last_checkpoint().string()));
        QVERIFY(last.open(QIODevice::WriteOnly));
        last.close();
        QCOMPARE(row.checkpoint(), QString::fromStdString(run.last_checkpoint().string()));
        // A fine-tuning or a distillation can start from it too, until it exports its model.
        QCOMPARE(row.pretrainedModel(), QString::fromStdString(run.last_checkpoint().string()));
        kiln::gui::RunRow finetuning = row;
        finetuning.method.clear();
        QVERIFY(finetuning.pretrainedModel().isEmpty()); // not a pretraining run
        const kiln::gui::Project project;
        {
            kiln::gui::ExportEmbeddingsDialog dialog(project, {row});
            auto* model = dialog.findChild<QComboBox*>(QStringLiteral("modelSourceField"));
            QCOMPARE(model->count(), 1);
            QCOMPARE(model->currentData().toString(), row.checkpoint());
            // Its image size unrecorded, the engine reads it from the model.
            QCOMPARE(dialog.settings()["image_size"], nlohmann::json("auto"));
            row.image_size = 32;
            const kiln::gui::ExportEmbeddingsDialog sized(project, {row});
            QCOMPARE(sized.settings()["image_size"], nlohmann::json(32));
        }
        QFile best(QString::fromStdString(run.best_checkpoint().string()));
        QVERIFY(best.open(QIODevice::WriteOnly));
        best.close();
        QCOMPARE(row.checkpoint(), QString::fromStdString(run.best_checkpoint().string()));
        std::filesystem::create_directories(run.exported_models());
        QFile exported(QString::fromStdString(run.exported_last().string()));
        QVERIFY(exported.open(QIODevice::WriteOnly));
        exported.close();
        QCOMPARE(row.pretrainedModel(), QString::fromStdString(run.exported_last().string()));
        const kiln::gui::ExportEmbeddingsDialog none(project, {});
        QVERIFY(none.findChild<QComboBox*>(QStringLiteral("modelSourceField"))
                    ->placeholderText()
                    .contains(QStringLiteral("Browse")));
    }

    void unreadableDatabasesAreReported() {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("broken")));
        QFile junk(dir.filePath(QStringLiteral("broken/run.db")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        QStringList problems;
        QCOMPARE(kiln::gui::read_runs(dir.path(), &problems).size(), 0);
        QCOMPARE(problems.size(), 1);
        QVERIFY(problems[0].contains(QStringLiteral("run.db")));
        QVERIFY2(problems[0].startsWith(QDir::toNativeSeparators(dir.filePath("broken")) + ": "),
                 qPrintable(problems[0]));
        QCOMPARE(kiln::gui::read_runs(QString()).size(), 0); // an unsaved project
        // The table says which run.db it could not read, instead of "no runs yet".
        kiln::gui::RunHistoryView view;
        view.resize(1000, 500);
        view.show();
        view.setFolder(dir.path());
        waitForHistory(&view);
        kiln::test::saveScreenshot(view, QStringLiteral("run-history-unreadable"));
        const auto* unreadable = view.findChild<QLabel*>(QStringLiteral("unreadableRuns"));
        QVERIFY(unreadable->isVisible());
        QVERIFY2(unreadable->text().contains(QStringLiteral("1 run database could not be read")) &&
                     unreadable->text().contains(QStringLiteral("broken")),
                 qPrintable(unreadable->text()));
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("noRunsHint"))->isHidden());
    }
};

QTEST_MAIN(RunHistoryTest)
#include "tst_run_history.moc"
