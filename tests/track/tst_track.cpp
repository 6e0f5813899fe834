// Run tracking: the SQLite run store (schema, batched commits, a kill -9 mid-run, resume).

#include "core/error.h"
#include "track/run_store.h"
#include "track/step_values.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sqlite3.h>
#include <thread>

namespace track = kiln::track;

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string integrity_check(const std::filesystem::path& file) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nullptr);
    std::string result = "no answer";
    if (sqlite3_step(statement) == SQLITE_ROW) {
        result = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return result;
}

// The child process of killedWriterLosesAtMostTheLastSecond: records a step every 10 ms and
// prints "step wall_time" once the store has the step queued, until it is killed.
int write_until_killed(const char* file) {
    track::RunStore store(file);
    const std::int64_t run = store.begin_run("{}", "simclr", "smallcnn");
    for (std::int64_t step = 1;; ++step) {
        const double now = now_seconds();
        store.add_metrics(run, step, 0, {{"train_loss", 1.0 / step}, {"data_wait", 0.1}}, now);
        std::printf("%lld %.6f\n", static_cast<long long>(step), now);
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

class TrackTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void schemaIsVersionedAndMigrated() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        {
            track::RunStore store(file);
            const std::int64_t run = store.begin_run("{\"epochs\": 1}", "dino", "resnet18");
            QCOMPARE(run, std::int64_t{1});
        }
        {
            track::RunStore store(file);
            QCOMPARE(store.runs().size(), std::size_t{1});
            QCOMPARE(store.runs()[0].method, std::string("dino"));
            // This process is alive and on this host: the run is still running.
            QCOMPARE(store.runs()[0].status, track::RunStatus::Running);
        }
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db);
        sqlite3_exec(db, "PRAGMA user_version=7", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        try {
            track::RunStore newer(file);
            QFAIL("a newer schema was opened");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("newer Kiln (schema version 7"), error.what());
        }
        const std::filesystem::path junk = dir.filePath("junk.db").toStdString();
        std::ofstream(junk) << "this is not a database, but it is long enough to look like one "
                               "to a reader that only checks the size of the file header";
        try {
            track::RunStore store(junk);
            QFAIL("junk was opened");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("junk.db"), error.what());
        }
        try {
            track::RunStore store(dir.filePath("missing/run.db").toStdString(), false);
            QFAIL("a missing database was opened");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("no run database"), error.what());
        }
    }

    void queuedRowsAreCommittedWithinASecond() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        track::RunStore writer(file);
        const std::int64_t run = writer.begin_run("{}", "simclr", "smallcnn");
        writer.add_metrics(run, 1, 0, {{"train_loss", 2.5}, {"lr", 0.1}}, now_seconds());
        writer.add_event(run, "warning", "a warning", now_seconds());
        writer.add_artifact(run, "checkpoint", "/x/last.ckpt", now_seconds());
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        // Another connection (as `kiln runs` or the GUI would open it) sees them, unflushed.
        const track::RunStore reader(file);
        QCOMPARE(reader.metrics(run).size(), std::size_t{2});
        QCOMPARE(reader.metrics(run, "lr").at(0).value, 0.1);
        QCOMPARE(reader.metric_keys(run), (std::vector<std::string>{"lr", "train_loss"}));
        QCOMPARE(reader.events(run).at(0).message, std::string("a warning"));
        QCOMPARE(reader.artifacts(run).at(0).path, std::string("/x/last.ckpt"));
    }

    void killedWriterLosesAtMostTheLastSecond() {
        QTemporaryDir dir;
        const QString file = dir.filePath("run.db");
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {"--write-until-killed", file});
        QVERIFY(child.waitForStarted());
        std::vector<std::pair<std::int64_t, double>> printed;
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2500);
        QByteArray pending;
        while (std::chrono::steady_clock::now() < until) {
            child.waitForReadyRead(100);
            pending += child.readAllStandardOutput();
        }
        const double killed_at = now_seconds();
        child.kill(); // SIGKILL: no destructor, no final commit
        QVERIFY(child.waitForFinished());
        for (const QByteArray& line : pending.split('\n')) {
            const QList<QByteArray> fields = line.split(' ');
            if (fields.size() == 2) {
                printed.emplace_back(fields[0].toLongLong(), fields[1].toDouble());
            }
        }
        QVERIFY2(printed.size() > 50, qPrintable(QString::number(printed.size())));

        QCOMPARE(integrity_check(file.toStdString()), std::string("ok"));
        const track::RunStore store(file.toStdString());
        const std::vector<track::RunRecord> runs = store.runs();
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs[0].status, track::RunStatus::Interrupted);
        QVERIFY(runs[0].ended >= runs[0].started);
        const std::vector<track::MetricPoint> losses = store.metrics(runs[0].id, "train_loss");
        std::int64_t must_have = 0; // every step queued more than a second before the kill
        for (const auto& [step, wall_time] : printed) {
            if (wall_time < killed_at - 1.2) {
                must_have = step;
            }
        }
        QVERIFY(must_have > 0);
        qInfo("killed after step %lld; %zu steps stored, %lld were due",
              static_cast<long long>(printed.back().first), losses.size(),
              static_cast<long long>(must_have));
        QVERIFY2(
            static_cast<std::int64_t>(losses.size()) >= must_have,
            qPrintable(
                QStringLiteral("%1 steps stored, %2 expected").arg(losses.size()).arg(must_have)));
        for (std::size_t i = 0; i < losses.size(); ++i) {
            QCOMPARE(losses[i].step, static_cast<std::int64_t>(i) + 1);
        }
    }

    void stepValuesNameEveryMetric() {
        kiln::train::StepMetrics metrics;
        metrics.loss = 2.0;
        metrics.data_wait = 0.25;
        kiln::system::GpuSample gpu;
        gpu.index = 1;
        gpu.util_percent = 80;
        gpu.memory_used_mb = 1000;
        metrics.gpus.push_back(gpu); // utilisation and memory used, but no total
        const track::MetricValues values = track::step_values(metrics);
        std::map<std::string, double> by_key(values.begin(), values.end());
        QCOMPARE(by_key.at("train_loss"), 2.0);
        QCOMPARE(by_key.at("data_wait"), 0.25);
        QVERIFY(by_key.count("profiling/batch_time") && by_key.count("system/mem_rss_mb"));
        QCOMPARE(by_key.at("system/gpu_util/1"), 80.0);
        QCOMPARE(by_key.at("system/gpu_mem_used_mb/1"), 1000.0);
        QVERIFY(!by_key.count("system/gpu_mem_total_mb/1"));
    }

    void resumeContinuesTheRun() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        track::RunStore store(file);
        const std::int64_t run = store.begin_run("{}", "simclr", "smallcnn");
        for (std::int64_t step = 1; step <= 10; ++step) {
            store.add_metrics(run, step, 0, {{"train_loss", 1.0}}, now_seconds());
        }
        store.finish_run(run, track::RunStatus::Cancelled, "{}", "");
        // The checkpoint was made after step 6: steps 7-10 are repeated by the resumed run.
        QCOMPARE(store.resume_run("{}", "simclr", "smallcnn", 6), run);
        QCOMPARE(store.run(run)->status, track::RunStatus::Running);
        QCOMPARE(store.metrics(run).size(), std::size_t{6});
        store.add_metrics(run, 7, 0, {{"train_loss", 0.5}}, now_seconds());
        store.finish_run(run, track::RunStatus::Finished, "{\"steps\": 7}", "");
        const track::RunRecord record = *store.run(run);
        QCOMPARE(record.status, track::RunStatus::Finished);
        QCOMPARE(record.summary, std::string("{\"steps\": 7}"));
        QCOMPARE(store.metrics(run, "train_loss").back().value, 0.5);
        QVERIFY(!store.run(99));
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--write-until-killed") {
        return write_until_killed(argv[2]);
    }
    QCoreApplication app(argc, argv);
    TrackTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_track.moc"
