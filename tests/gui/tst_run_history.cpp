// Kiln Studio's Run History: the runs of a project read from their run.db files.

#include "app/application.h"
#include "app/main_window.h"
#include "plots/qcustomplot.h"
#include "project/project.h"
#include "runs/run_history.h"
#include "track/run_directory.h"
#include "track/run_store.h"

#include <QAction>
#include <QDir>
#include <QHeaderView>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <sqlite3.h>

using kiln::gui::RunHistoryModel;

namespace {

// A finished run of `steps` steps in `directory`, its loss falling to 1/steps.
void recordRun(const QString& directory, int steps, double started_offset) {
    QDir().mkpath(directory);
    kiln::track::RunStore store(kiln::track::RunDirectory(directory.toStdString()).run_db());
    const std::int64_t run = store.begin_run("{}", "simclr", "resnet18");
    for (int step = 1; step <= steps; ++step) {
        store.add_metrics(
            run, step, 0,
            {{"train_loss", 1.0 / step}, {"data_wait", 0.25}, {"images_per_second", 100.0}},
            1700000000.0 + started_offset + step);
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

} // namespace

class RunHistoryTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        kiln::gui::configureApplication(*qApp);
        QSettings().clear();
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
        QVERIFY(window.newProject());
        QVERIFY(window.saveProjectAs(dir.filePath(QStringLiteral("p.kiln"))));
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
        QCOMPARE(
            model->headerData(RunHistoryModel::Loss, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("Final loss"));

        // Several runs selected: their loss curves overlaid, one each.
        QTableView* table = window.runHistory()->table();
        table->selectAll();
        QCOMPARE(window.runHistory()->curveCount(), 2);
        table->clearSelection();
        QCOMPARE(window.runHistory()->curveCount(), 0);
        auto* curves = window.runHistory()->findChild<QCustomPlot*>(QStringLiteral("runCurves"));
        QVERIFY(!curves->legend->visible());
        QCOMPARE(curves->xAxis->range().upper, 1.0);
        // Columns fit what they show; none stretches across the table.
        QVERIFY(!table->horizontalHeader()->stretchLastSection());

        // Delete asks first; Cancel keeps the run, Yes removes its directory.
        table->selectRow(1);
        const auto answer = [&](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, &window, [&window, button] {
                auto* box = window.findChild<QMessageBox*>(QStringLiteral("deleteRunBox"));
                QVERIFY(box != nullptr);
                QVERIFY(box->text().contains(QStringLiteral("first")));
                box->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        QVERIFY(!window.runHistory()->deleteSelectedRun());
        QVERIFY(QDir(runs + QStringLiteral("/first")).exists());
        answer(QMessageBox::Yes);
        QVERIFY(window.runHistory()->deleteSelectedRun());
        QVERIFY(!QDir(runs + QStringLiteral("/first")).exists());
        waitForHistory(window.runHistory());
        QCOMPARE(model->rowCount(), 1);

        // A new run appears on Refresh.
        recordRun(runs + QStringLiteral("/third"), 2, 2000);
        window.findChild<QPushButton*>(QStringLiteral("refreshRunsButton"))->click();
        waitForHistory(window.runHistory());
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(cell(0, RunHistoryModel::Run), QStringLiteral("third"));
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
        QCOMPARE(kiln::gui::read_runs(QString()).size(), 0); // an unsaved project
    }
};

QTEST_MAIN(RunHistoryTest)
#include "tst_run_history.moc"
