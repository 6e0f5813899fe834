// Run tracking: the SQLite run store (schema, batched commits, a kill -9 mid-run, resume), and
// the loggers, read back by their own programs (TensorBoard, MLflow, Weights & Biases).

#include "config/config_overrides.h"
#include "core/error.h"
#include "core/log.h"
#include "support/error_text.h"
#include "support/file_size_limit.h"
#include "support/python.h"
#include "tensorboard_event.pb.h"
#include "track/fan_out.h"
#include "track/guarded_logger.h"
#include "track/loggers.h"
#include "track/mlflow.h"
#include "track/remaining_time.h"
#include "track/run_directory.h"
#include "track/run_files.h"
#include "track/run_lock.h"
#include "track/run_recorder.h"
#include "track/run_store.h"
#include "track/step_values.h"
#include "track/tensorboard.h"
#include "track/wandb.h"
#include "wandb_record.pb.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <arpa/inet.h>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <httplib.h>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <optional>
#include <random>
#include <set>
#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

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

// A stand-in MLflow server's answers to a run's start: experiment "1", run "r".
void answerRunCreation(httplib::Server& server) {
    server.Get("/api/2.0/mlflow/experiments/get-by-name", [](const httplib::Request&,
                                                             httplib::Response& response) {
        response.set_content(R"({"experiment": {"experiment_id": "1"}})", "application/json");
    });
    server.Post(
        "/api/2.0/mlflow/runs/create", [](const httplib::Request&, httplib::Response& response) {
            response.set_content(R"({"run": {"info": {"run_id": "r"}}})", "application/json");
        });
}

} // namespace

// TensorBoard's own reader of the event files in a folder: {tag: [[step, value], ...]}.
constexpr char kTensorBoardScalars[] =
    "import json, sys\n"
    "from tensorboard.backend.event_processing.event_accumulator import EventAccumulator\n"
    "events = EventAccumulator(sys.argv[1], size_guidance={'scalars': 0})\n"
    "events.Reload()\n"
    "print(json.dumps({tag: [[e.step, e.value] for e in events.Scalars(tag)]\n"
    "                  for tag in events.Tags()['scalars']}))\n";

class TrackTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // An out that cannot be made is named with the reason, not the lock file's "No such file
    // or directory".
    void aRunLockNamesTheOutItCannotMake() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath(QStringLiteral("a-file")).toStdString();
        std::ofstream(file) << "x";
        QVERIFY(kiln::test::throwsContaining([&] { const kiln::track::RunLock lock(file / "run"); },
                                             "cannot create out \"" + (file / "run").string() +
                                                 "\": Not a directory"));
    }

    // A logger that fails mid-run is switched off with one warning, never failing the run.
    void aFailingLoggerIsAWarningNotAFailure() {
        struct Flaky : track::TrainObserver {
            int steps = 0;
            void on_step(const track::StepMetrics&) override {
                if (++steps == 3) {
                    throw std::runtime_error("runs/update: 503 Service Unavailable");
                }
            }
        };
        auto flaky = std::make_unique<Flaky>();
        const Flaky* inner = flaky.get();
        std::vector<std::string> warnings;
        const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& text) {
            if (level == kiln::log::Level::Warning) {
                warnings.push_back(text);
            }
        });
        track::GuardedLogger logger("MLflow", std::move(flaky));
        track::StepMetrics metrics;
        for (int step = 1; step <= 5; ++step) {
            metrics.step = step;
            logger.on_step(metrics);
        }
        logger.on_end({});
        QCOMPARE(inner->steps, 3); // off after its failure
        QVERIFY(logger.failed());
        QCOMPARE(logger.missed_events(), std::int64_t(3)); // steps 4, 5 and the end
        QCOMPARE(warnings.size(), std::size_t(2));
        QVERIFY2(warnings[0].find("MLflow failed at step 3: runs/update: 503") != std::string::npos,
                 warnings[0].c_str());
        QVERIFY(warnings[1].find("missed 3 events") != std::string::npos);
    }

    // run.db past a full disk refuses every line: its sink throws. A warning from a thread of
    // the run's (a rank's monitor) ended the process there, and the failure reached no logger
    // after the first that could not record it.
    void aRecordThatCannotBeWrittenTakesNothingElseWithIt() {
        std::vector<std::string> heard;
        const kiln::log::ScopedSink failing([](kiln::log::Level, const std::string&) {
            throw kiln::Error("cannot write run.db: No space left on device");
        });
        const kiln::log::ScopedSink recording(
            [&](kiln::log::Level, const std::string& text) { heard.push_back(text); });
        std::thread([] { kiln::log::warning("rank 1: a line of its own"); }).join();
        QCOMPARE(heard, std::vector<std::string>{"rank 1: a line of its own"});

        struct Failing : track::TrainObserver {
            void on_failure(const std::string&) override { throw kiln::Error("run.db: full"); }
        };
        struct Marking : track::TrainObserver {
            std::string failure;
            void on_failure(const std::string& message) override { failure = message; }
        };
        Failing run_db;
        Marking mlflow;
        track::FanOut observers({&run_db, &mlflow});
        QVERIFY(kiln::test::throwsContaining([&] { observers.on_failure("out of memory"); },
                                             "run.db: full"));
        QCOMPARE(mlflow.failure, std::string("out of memory"));
    }

    void schemaIsVersionedAndMigrated() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        {
            track::RunStore store(file);
            const std::int64_t run = store.begin_run("{\"epochs\": 1}", "dino", "resnet18");
            QCOMPARE(run, std::int64_t{1});
        }
        {
            const track::RunReader store(file);
            QCOMPARE(store.runs().size(), std::size_t{1});
            QCOMPARE(store.runs()[0].method, std::string("dino"));
            // This process is alive and on this host: to a reader the run is still running (a
            // recorder of this process would mark it interrupted: it holds the out's lock).
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
        // A negative version indexed the migrations before their start: a crash, or bytes run as
        // SQL. Refused by readers and writers alike.
        sqlite3_open(file.c_str(), &db);
        sqlite3_exec(db, "PRAGMA user_version=-2147483648", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(file); },
                                             "damaged or not a Kiln run database (schema "
                                             "version -2147483648)"));
        QVERIFY(kiln::test::throwsContaining([&] { track::RunStore store(file); },
                                             "schema version -2147483648"));
        // A reader neither writes a database without Kiln's tables (an empty file it was
        // handed, through a link, became one) nor waits on a FIFO.
        const std::filesystem::path empty = dir.filePath("empty.db").toStdString();
        std::ofstream{empty};
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(empty); },
                                             "holds no runs: a run stopped as it made it"));
        QCOMPARE(std::filesystem::file_size(empty), std::uintmax_t{0});
        // As SQLite leaves it when the run is killed before its schema is written: said so,
        // not called damaged. A database of other tables is not a Kiln one.
        const std::filesystem::path unwritten = dir.filePath("unwritten.db").toStdString();
        sqlite3_open(unwritten.c_str(), &db);
        sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(unwritten); },
                                             "holds no runs"));
        sqlite3_open(unwritten.c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE photos(name TEXT)", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(unwritten); },
                                             "(schema version 0)"));
        const std::filesystem::path fifo = dir.filePath("fifo.db").toStdString();
        QVERIFY(mkfifo(fifo.c_str(), 0600) == 0);
        QVERIFY(
            kiln::test::throwsContaining([&] { track::RunReader reader(fifo); }, "is not a file"));
        // A schema that runs code: `runs` as a view of an endless recursive query (it hung
        // `kiln runs list`), a trigger that a resumed run's writes would fire, a virtual table.
        // Each a copy of `file` altered by SQL, as someone could hand it over (empty when SQLite
        // refused the SQL).
        const auto altered = [&](const char* name, const std::string& sql) {
            const std::filesystem::path copy = dir.filePath(name).toStdString();
            std::filesystem::copy_file(file, copy);
            sqlite3* handed = nullptr;
            sqlite3_open(copy.c_str(), &handed);
            const int result = sqlite3_exec(handed, ("PRAGMA user_version=4; " + sql).c_str(),
                                            nullptr, nullptr, nullptr);
            sqlite3_close(handed);
            return result == SQLITE_OK ? copy : std::filesystem::path();
        };
        const std::filesystem::path endless =
            altered("endless.db", "ALTER TABLE runs RENAME TO kept; CREATE VIEW runs AS WITH "
                                  "RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                                  "SELECT kept.* FROM kept, n");
        QVERIFY(!endless.empty());
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(endless); },
                                             "holds the view \"runs\", of a kind a Kiln run "
                                             "database never has"));
        const std::filesystem::path triggered =
            altered("triggered.db", "CREATE TRIGGER grow AFTER INSERT ON metrics BEGIN INSERT "
                                    "INTO metrics SELECT * FROM metrics; END");
        QVERIFY(!triggered.empty());
        QVERIFY(kiln::test::throwsContaining([&] { track::RunStore store(triggered); },
                                             "holds the trigger \"grow\""));
        const std::filesystem::path virtual_table =
            altered("virtual.db", "CREATE VIRTUAL TABLE words USING fts5(w)");
        QVERIFY(!virtual_table.empty());
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(virtual_table); },
                                             "holds the table \"words\""));
        // A generated column: an expression evaluated on every read of the row.
        const std::filesystem::path generated = altered(
            "generated.db", "ALTER TABLE runs ADD COLUMN big TEXT AS (hex(zeroblob(1000)))");
        QVERIFY(!generated.empty());
        QVERIFY(kiln::test::throwsContaining([&] { track::RunReader reader(generated); },
                                             "computes the column \"big\" of its table \"runs\""));
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
            track::RunStore store(dir.filePath("missing/run.db").toStdString(),
                                  track::RunStore::Role::Editor);
            QFAIL("a missing database was opened");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("no run database"), error.what());
        }
    }

    // Schema 2 adds a run's name, notes and tags; a schema-1 database gains them, empty.
    void labelsAreKeptAndOldDatabasesGainThem() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        {
            track::RunStore store(file);
            store.begin_run("{}", "simclr", "smallcnn");
        }
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db);
        QCOMPARE(sqlite3_exec(db,
                              "ALTER TABLE runs DROP COLUMN name; ALTER TABLE runs DROP COLUMN "
                              "notes; ALTER TABLE runs DROP COLUMN tags; ALTER TABLE runs DROP "
                              "COLUMN heartbeat; ALTER TABLE runs DROP COLUMN paused; "
                              "PRAGMA user_version=1",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        {
            track::RunStore store(file);
            const track::RunRecord run = store.runs().at(0);
            QVERIFY(run.labels.name.empty() && run.labels.notes.empty() && run.labels.tags.empty());
            QCOMPARE(run.method, std::string("simclr"));
            store.set_labels(run.id, {"baseline", "lr too high?\nretry with 0.1", {"cpu", "a, b"}});
        }
        track::RunStore store(file);
        const track::RunLabels labels = store.runs().at(0).labels;
        QCOMPARE(labels.name, std::string("baseline"));
        QCOMPARE(labels.notes, std::string("lr too high?\nretry with 0.1"));
        QCOMPARE(labels.tags, (std::vector<std::string>{"cpu", "a, b"}));
    }

    // Readers write nothing and judge a run on another host (a cluster run on a shared
    // filesystem) by its writer's heartbeat; the next run recorded in the folder marks it.
    void readersJudgeOtherHostsByTheirHeartbeat() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        const auto raw = [&](const std::string& sql) {
            sqlite3* db = nullptr;
            sqlite3_open(file.c_str(), &db);
            std::string value;
            sqlite3_exec(
                db, sql.c_str(),
                [](void* out, int, char** values, char**) {
                    *static_cast<std::string*>(out) = values[0] != nullptr ? values[0] : "";
                    return 0;
                },
                &value, nullptr);
            sqlite3_close(db);
            return value;
        };
        {
            track::RunStore writer(file);
            const std::int64_t run = writer.begin_run("{}", "simclr", "smallcnn");
            const double first = std::stod(raw("SELECT heartbeat FROM runs"));
            QTRY_VERIFY_WITH_TIMEOUT(std::stod(raw("SELECT heartbeat FROM runs")) > first, 20000);
            writer.finish_run(run, track::RunStatus::Finished, "{}", "");
        }
        const std::string now = std::to_string(now_seconds());
        raw("UPDATE runs SET status = 'running', ended = NULL, host = 'gpu-node-7', pid = 1, "
            "heartbeat = " +
            now);
        QCOMPARE(track::RunReader(file).runs().at(0).status, track::RunStatus::Running);
        {
            track::RunStore editor(file, track::RunStore::Role::Editor);
            editor.set_labels(1, {"cluster run", "", {}});
        }
        QCOMPARE(raw("SELECT status FROM runs"), std::string("running"));

        raw("UPDATE runs SET heartbeat = " + std::to_string(now_seconds() - 3600));
        const track::RunRecord stale = track::RunReader(file).runs().at(0);
        QCOMPARE(stale.status, track::RunStatus::Interrupted);
        QVERIFY(stale.ended < now_seconds() - 3000);
        QCOMPARE(raw("SELECT status FROM runs"), std::string("running")); // read, not written
        {
            const track::RunStore next_run(file);
        }
        QCOMPARE(raw("SELECT status FROM runs"), std::string("interrupted"));
        QCOMPARE(track::RunReader(file).runs().at(0).labels.name, std::string("cluster run"));

        // On this host a live pid is not enough: pids are reused (a container starts them at 1
        // again), and the run's out lock says whether a run holds it.
        raw("UPDATE runs SET status = 'running', ended = NULL, host = '" +
            kiln::track::host_name() + "', pid = " + std::to_string(::getpid()));
        QCOMPARE(track::RunReader(file).runs().at(0).status, track::RunStatus::Running); // no lock
        {
            const track::RunLock holder(file.parent_path());
            QCOMPARE(track::RunReader(file).runs().at(0).status, track::RunStatus::Running);
        }
        QCOMPARE(track::RunReader(file).runs().at(0).status, track::RunStatus::Interrupted);
        // A run resumed in a container that gave it the killed run's pid holds the lock itself:
        // its recorder marks the row of its own pid as the interrupted run it is.
        const track::RunLock next(file.parent_path()); // readers never keep a run from its out
        QCOMPARE(track::RunReader(file).runs().at(0).status, track::RunStatus::Running);
        {
            const track::RunStore resumed(file);
        }
        QCOMPARE(raw("SELECT status FROM runs"), std::string("interrupted"));
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

    // Another connection holding run.db locked past SQLite's busy timeout (5 s; a long read on
    // a network disk) delays the rows; it dropped them and stopped the run at its next step.
    void rowsWaitOutADatabaseLockedForAWhile() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        track::RunStore writer(file);
        const std::int64_t run = writer.begin_run("{}", "simclr", "smallcnn");
        sqlite3* other = nullptr;
        QCOMPARE(sqlite3_open(file.c_str(), &other), SQLITE_OK);
        QCOMPARE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
        std::thread release([other] {
            std::this_thread::sleep_for(std::chrono::milliseconds(7000));
            sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
            sqlite3_close(other);
        });
        writer.add_metrics(run, 1, 0, {{"train_loss", 2.5}}, now_seconds());
        writer.flush(); // as at a checkpoint: returns once the row is committed
        release.join();
        QCOMPARE(writer.metrics(run, "train_loss").size(), std::size_t{1});
        writer.add_metrics(run, 2, 0, {{"train_loss", 2.0}}, now_seconds()); // no error
        writer.flush();
        QCOMPARE(writer.metrics(run, "train_loss").size(), std::size_t{2});
    }

    // A run resumed a day after it ended ran for its training time, not for a day and more.
    void aResumedRunsDurationLeavesOutThePause() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        const auto duration = [&](const track::RunReader& reader) {
            return reader.overview(reader.runs().at(0)).duration;
        };
        {
            track::RunStore store(file);
            const std::int64_t run = store.begin_run("{}", "simclr", "smallcnn");
            store.finish_run(run, track::RunStatus::Cancelled, "{}", "");
        }
        sqlite3* db = nullptr;
        sqlite3_open(file.c_str(), &db); // it ran for 100 s and ended 1,000 s ago
        QCOMPARE(sqlite3_exec(db, "UPDATE runs SET started = ended - 1100, ended = ended - 1000",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        track::RunStore store(file);
        QVERIFY(std::abs(duration(store) - 100) < 1e-3);
        const std::int64_t run = store.resume_run("{}", "simclr", "smallcnn", 0);
        const double running = duration(store); // to its heartbeat, before any new metric
        QVERIFY2(running >= 100 && running < 160, qPrintable(QString::number(running)));
        store.finish_run(run, track::RunStatus::Finished, "{}", "");
        const double resumed = duration(store);
        QVERIFY2(resumed >= 100 && resumed < 160, qPrintable(QString::number(resumed)));
        QVERIFY(store.runs().at(0).paused >= 1000);
    }

    // `kiln runs show` and Studio read run.db read-only; that left SQLite's -wal and -shm
    // beside every database they had read, but must not remove them from under a writer.
    void readersLeaveNoFilesBesideTheDatabase() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run.db").toStdString();
        const auto files_in_folder = [&] { return QDir(dir.path()).entryList(QDir::Files); };
        std::int64_t run = 0;
        {
            track::RunStore writer(file);
            run = writer.begin_run("{}", "simclr", "smallcnn");
            writer.add_metrics(run, 1, 0, {{"train_loss", 2.0}}, now_seconds());
            QVERIFY(QFile::exists(dir.filePath("run.db-wal")));
            writer.flush();
            {
                const track::RunReader reader(file);
                QCOMPARE(reader.metrics(run).size(), std::size_t{1});
            }
            QVERIFY(QFile::exists(dir.filePath("run.db-wal"))); // the writer's, kept
            writer.add_metrics(run, 2, 0, {{"train_loss", 1.0}}, now_seconds());
        }
        QCOMPARE(files_in_folder(), QStringList{"run.db"});
        {
            const track::RunReader reader(file);
            QCOMPARE(reader.metrics(run).size(), std::size_t{2});
            QCOMPARE(reader.runs().size(), std::size_t{1});
        }
        QCOMPARE(files_in_folder(), QStringList{"run.db"});
    }

    void killedWriterLosesAtMostTheLastSecond() {
        QTemporaryDir dir;
        const QString file = dir.filePath("run.db");
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {"--write-until-killed", file});
        QVERIFY(child.waitForStarted());
        std::vector<std::pair<std::int64_t, double>> printed;
        // The child is killed 2.5 s after its first step (it may start slowly on a loaded
        // machine) and once it has printed more than 50.
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
        std::optional<std::chrono::steady_clock::time_point> first_step;
        QByteArray pending;
        while (std::chrono::steady_clock::now() < give_up) {
            child.waitForReadyRead(100);
            pending += child.readAllStandardOutput();
            const auto now = std::chrono::steady_clock::now();
            if (!first_step && pending.contains('\n')) {
                first_step = now;
            }
            if (first_step && now - *first_step > std::chrono::milliseconds(2500) &&
                pending.count('\n') > 50) {
                break;
            }
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
        kiln::track::StepMetrics metrics;
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

    void remainingTimeIsTheMeanStepTimesTheStepsToGo() {
        QCOMPARE(track::clock_text(65), std::string("1:05"));
        QCOMPARE(track::clock_text(3725), std::string("1:02:05"));
        QCOMPARE(track::clock_text(-3), std::string("0:00"));
        track::RemainingTime remaining;
        remaining.start();
        kiln::track::StepMetrics metrics;
        metrics.total_steps = 100;
        metrics.step = 51; // a resumed run: its first step here is 51
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const double first = remaining.after_step(metrics);
        QVERIFY(first > 0);
        metrics.step = 100;
        QCOMPARE(remaining.after_step(metrics), 0.0);
        // 49 steps to go after one step took `first / 49` seconds; a second step that took
        // about as long leaves 48 of them.
        metrics.step = 52;
        const double second = remaining.after_step(metrics);
        QVERIFY(second > 0 && second < first);
    }

    void tensorboardEventsReadBack() {
        QTemporaryDir dir;
        std::filesystem::path file;
        {
            track::TensorBoardWriter writer(dir.path().toStdString());
            file = writer.file();
            writer.add_scalars(1, 1000.5, {{"train_loss", 2.5}, {"data_wait", 0.0}});
            writer.add_scalars(2, 1001.5, {{"train_loss", 2.25}, {"profiling/batch_time", 0.125}});
        }
        QVERIFY(file.filename().string().rfind("events.out.tfevents.", 0) == 0);
        // Known CRC-32C values (RFC 3720's test vector, and of "123456789").
        QCOMPARE(track::crc32c(std::string(32, '\0')), 0x8a9136aau);
        QCOMPARE(track::crc32c("123456789"), 0xe3069283u);
        const std::vector<std::string> records = track::read_tfrecords(file);
        QCOMPARE(records.size(), std::size_t{3});
        kiln::tensorboard::Event event;
        QVERIFY(event.ParseFromString(records[0]));
        QCOMPARE(event.file_version(), std::string("brain.Event:2"));
        QVERIFY(event.ParseFromString(records[1]));
        QCOMPARE(event.step(), std::int64_t{1});
        QCOMPARE(event.wall_time(), 1000.5);
        QCOMPARE(event.summary().value_size(), 2);
        QCOMPARE(event.summary().value(0).tag(), std::string("train_loss"));
        QCOMPARE(event.summary().value(0).simple_value(), 2.5f);
        // A zero is written (TensorFlow's oneof), not dropped as a proto3 default.
        QVERIFY(event.summary().value(1).has_simple_value());
        QVERIFY(event.ParseFromString(records[2]));
        QCOMPARE(event.summary().value(1).tag(), std::string("profiling/batch_time"));
        QCOMPARE(event.summary().value(1).simple_value(), 0.125f);

        // A flipped byte or a cut file is found, with where.
        std::string bytes;
        {
            std::ifstream in(file, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), {});
        }
        for (const auto& [damage, expected] : {std::pair{std::string("flip"), "CRC does not match"},
                                               std::pair{std::string("cut"), "truncated"}}) {
            std::string broken = bytes;
            if (damage == "flip") {
                broken[broken.size() - 6] ^= 1;
            } else {
                broken.resize(broken.size() - 3);
            }
            const std::filesystem::path copy = dir.filePath("broken").toStdString();
            std::ofstream(copy, std::ios::binary) << broken;
            try {
                track::read_tfrecords(copy);
                QFAIL("damage went unnoticed");
            } catch (const kiln::Error& error) {
                QVERIFY2(QString(error.what()).contains(expected), error.what());
            }
        }
    }

    void tensorboardsOwnReaderReadsEveryScalar() {
        if (!kiln::test::pythonHas(QStringLiteral("tensorboard"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("tensorboard")));
        }
        QTemporaryDir dir;
        std::map<std::string, std::vector<std::pair<std::int64_t, float>>> written;
        {
            track::TensorBoardWriter writer(dir.path().toStdString());
            for (std::int64_t step = 1; step <= 120; ++step) {
                std::vector<std::pair<std::string, double>> values = {
                    {"train_loss", 3.0 / double(step)},
                    {"profiling/batch_time", 0.1 + 1e-3 * double(step % 7)},
                    {"data_wait", step % 5 == 0 ? 0.0 : 0.01 * double(step)}};
                if (step % 40 == 0) {
                    values.emplace_back("val_metric/map", 0.001 * double(step));
                }
                for (const auto& [tag, value] : values) {
                    written[tag].emplace_back(step, static_cast<float>(value));
                }
                writer.add_scalars(step, 1700000000.0 + double(step), values);
            }
        }
        const auto read = kiln::test::runPython(kTensorBoardScalars, {dir.path()});
        QVERIFY2(read.exit_code == 0, qPrintable(read.errors));
        const nlohmann::json scalars = nlohmann::json::parse(read.output.toStdString());
        QCOMPARE(scalars.size(), written.size());
        for (const auto& [tag, points] : written) {
            const nlohmann::json& seen = scalars.at(tag);
            QCOMPARE(seen.size(), points.size());
            for (std::size_t i = 0; i < points.size(); ++i) {
                QCOMPARE(seen[i][0].get<std::int64_t>(), points[i].first);
                QCOMPARE(static_cast<float>(seen[i][1].get<double>()), points[i].second);
            }
        }
    }

    // A run killed after step 17 and resumed from its checkpoint of step 12 logs steps 13 to 17
    // again: TensorBoard shows each step once, the resumed run's.
    void tensorboardShowsAResumedRunsStepsOnce() {
        if (!kiln::test::pythonHas(QStringLiteral("tensorboard"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("tensorboard")));
        }
        QTemporaryDir dir;
        {
            track::TensorBoardWriter killed(dir.path().toStdString());
            for (std::int64_t step = 1; step <= 17; ++step) {
                killed.add_scalars(step, 1700000000.0 + double(step), {{"train_loss", 1.0}});
            }
        }
        {
            track::TensorBoardWriter resumed(dir.path().toStdString());
            resumed.on_resume(12);
            for (std::int64_t step = 13; step <= 20; ++step) {
                resumed.add_scalars(step, 1700000100.0 + double(step), {{"train_loss", 2.0}});
            }
        }
        const auto read = kiln::test::runPython(kTensorBoardScalars, {dir.path()});
        QVERIFY2(read.exit_code == 0, qPrintable(read.errors));
        const nlohmann::json points =
            nlohmann::json::parse(read.output.toStdString()).at("train_loss");
        QCOMPARE(points.size(), std::size_t(20));
        for (std::size_t i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i][0].get<std::int64_t>(), std::int64_t(i) + 1);
            QCOMPARE(points[i][1].get<double>(), i < 12 ? 1.0 : 2.0);
        }
    }

    // A TCP port on the loopback that nothing listens on now.
    static int freePort() {
        const int socket = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address);
        ::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length);
        ::close(socket);
        return ntohs(address.sin_port);
    }

    // A Kiln run logged to `tracking_uri`, as MLflow's own client reads it back: the run's
    // metric histories and parameters, as JSON.
    static nlohmann::json logAndReadWithMlflow(const std::string& tracking_uri) {
        track::MlflowSettings settings;
        settings.tracking_uri = tracking_uri;
        settings.experiment_name = "interop";
        settings.run_name = "kiln-run";
        std::string run_id;
        {
            const auto store = track::make_mlflow_store(settings);
            run_id = store->start_run(settings, 1700000000.0);
            store->log_params(
                kiln::config::flatten_settings({{"epochs", 3}, {"optim_args", {{"lr", 0.3}}}}));
            for (int step = 1; step <= 30; ++step) {
                store->log_metrics(step, 1700000000.0 + step,
                                   {{"train_loss", 1.0 / step}, {"profiling/data_time", 0.5}});
            }
            store->end_run("FINISHED", 1700000100.0);
        }
        // MLflow 3 reads a file store only when told to: it keeps it in maintenance mode.
        const auto read = kiln::test::runPython(
            QStringLiteral(
                "import json, os, sys\n"
                "os.environ['MLFLOW_ALLOW_FILE_STORE'] = 'true'\n"
                "from mlflow.tracking import MlflowClient\n"
                "client = MlflowClient(sys.argv[1])\n"
                "run = client.get_run(sys.argv[2])\n"
                "print(json.dumps({'status': run.info.status, 'name': run.info.run_name,\n"
                "  'params': run.data.params,\n"
                "  'metrics': {key: [[m.step, m.value, m.timestamp] for m in\n"
                "    sorted(client.get_metric_history(run.info.run_id, key),\n"
                "           key=lambda m: m.step)] for key in run.data.metrics}}))\n"),
            {QString::fromStdString(tracking_uri), QString::fromStdString(run_id)});
        if (read.exit_code != 0) {
            qWarning("%s", qPrintable(read.errors));
            return {};
        }
        return nlohmann::json::parse(read.output.toStdString());
    }

    static void checkMlflowRun(const nlohmann::json& run) {
        QCOMPARE(run["status"], nlohmann::json("FINISHED"));
        QCOMPARE(run["name"], nlohmann::json("kiln-run"));
        QCOMPARE(run["params"]["optim_args.lr"], nlohmann::json("0.3"));
        const nlohmann::json& loss = run["metrics"]["train_loss"];
        QCOMPARE(loss.size(), std::size_t{30});
        for (int step = 1; step <= 30; ++step) {
            QCOMPARE(loss[step - 1][0].get<int>(), step);
            QCOMPARE(loss[step - 1][1].get<double>(), 1.0 / step);
            QCOMPARE(loss[step - 1][2].get<std::int64_t>(), 1700000000000LL + 1000LL * step);
        }
        QCOMPARE(run["metrics"]["profiling/data_time"].size(), std::size_t{30});
    }

    void mlflowsClientReadsTheFileStore() {
        if (!kiln::test::pythonHas(QStringLiteral("mlflow"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("mlflow")));
        }
        QTemporaryDir dir;
        const nlohmann::json run =
            logAndReadWithMlflow("file:" + dir.filePath("mlruns").toStdString());
        QVERIFY(!run.empty());
        checkMlflowRun(run);
    }

    void aRealMlflowServerReceivesTheRun() {
        if (!kiln::test::pythonHas(QStringLiteral("mlflow"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("mlflow")));
        }
        QTemporaryDir dir;
        const int port = freePort();
        QProcess server;
        server.setProcessChannelMode(QProcess::MergedChannels);
        server.setStandardOutputFile(dir.filePath("server.log")); // a full pipe would stall it
        server.start(kiln::test::python(),
                     {"-m", "mlflow", "server", "--host", "127.0.0.1", "--port",
                      QString::number(port), "--workers", "1", "--backend-store-uri",
                      "sqlite:///" + dir.filePath("mlflow.db"), "--default-artifact-root",
                      dir.filePath("artifacts")});
        QVERIFY(server.waitForStarted());
        const auto serverLog = [&dir] {
            QFile log(dir.filePath("server.log"));
            return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
        };
        httplib::Client client("127.0.0.1", port);
        client.set_connection_timeout(1);
        client.set_read_timeout(5);
        bool up = false;
        for (int attempt = 0; attempt < 240 && !up; ++attempt) { // up to a minute
            const auto answer = client.Get("/health");
            up = answer && answer->status == 200;
            if (!up) {
                QVERIFY2(server.state() == QProcess::Running, serverLog().constData());
                std::this_thread::sleep_for(std::chrono::milliseconds(250));
            }
        }
        QVERIFY2(up, serverLog().constData());
        const nlohmann::json run = logAndReadWithMlflow("http://127.0.0.1:" + std::to_string(port));
        server.terminate();
        if (!server.waitForFinished(10000)) {
            server.kill();
            server.waitForFinished();
        }
        QVERIFY(!run.empty());
        checkMlflowRun(run);
    }

    void mlflowFileStoreLayout() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.filePath("mlruns").toStdString();
        track::MlflowSettings settings;
        settings.tracking_uri = "file:" + root.string();
        settings.experiment_name = "pretraining";
        settings.run_name = "smallcnn-simclr";
        std::string run_id;
        {
            const auto store = track::make_mlflow_store(settings);
            run_id = store->start_run(settings, 1700000000.25);
            store->log_params(
                kiln::config::flatten_settings({{"epochs", 3}, {"optim_args", {{"lr", 0.3}}}}));
            store->log_metrics(1, 1700000001.5,
                               {{"train_loss", 2.5}, {"profiling/data_time", 0.01}});
            store->log_metrics(2, 1700000002.5, {{"train_loss", 2.0}});
            store->end_run("FINISHED", 1700000003.0);
        }
        QCOMPARE(run_id.size(), std::size_t{32});
        auto read = [](const std::filesystem::path& path) {
            std::ifstream in(path);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const std::filesystem::path experiment = root / "1";
        QVERIFY(read(experiment / "meta.yaml").find("name: 'pretraining'") != std::string::npos);
        const std::filesystem::path run = experiment / run_id;
        const std::string meta = read(run / "meta.yaml");
        QVERIFY2(meta.find("status: 3\n") != std::string::npos, meta.c_str());
        QVERIFY(meta.find("start_time: 1700000000250\n") != std::string::npos);
        QVERIFY(meta.find("end_time: 1700000003000\n") != std::string::npos);
        QVERIFY(meta.find("run_id: " + run_id) != std::string::npos);
        QCOMPARE(read(run / "metrics" / "train_loss"),
                 std::string("1700000001500 2.5 1\n1700000002500 2 2\n"));
        QCOMPARE(read(run / "metrics" / "profiling" / "data_time"),
                 std::string("1700000001500 0.01 1\n"));
        QCOMPARE(read(run / "params" / "optim_args.lr"), std::string("0.3"));
        QCOMPARE(read(run / "params" / "epochs"), std::string("3"));
        QCOMPARE(read(run / "tags" / "mlflow.runName"), std::string("smallcnn-simclr"));
        // A second run of the same experiment joins it.
        const auto again = track::make_mlflow_store(settings);
        const std::string second = again->start_run(settings, 1700000010.0);
        QVERIFY(std::filesystem::exists(experiment / second / "meta.yaml"));
        QVERIFY(!std::filesystem::exists(root / "2"));
        // A store from someone else with a FIFO for an experiment's file: named, not waited on.
        std::filesystem::create_directories(root / "7");
        QVERIFY(mkfifo((root / "7" / "meta.yaml").c_str(), 0600) == 0);
        track::MlflowSettings fresh = settings; // an experiment to look for in every folder
        fresh.experiment_name = "fine-tuning";
        QVERIFY(kiln::test::throwsContaining(
            [&] { track::make_mlflow_store(fresh)->start_run(fresh, 1700000020.0); },
            "MLflow experiment file \"" + (root / "7" / "meta.yaml").string() + "\" is a pipe"));
    }

    // Metric names hold class names from annotations someone else made: whatever they hold,
    // the file store writes inside the run's folder, under a name MLflow accepts.
    void mlflowKeysStayInTheRunsFolder() {
        QCOMPARE(track::mlflow_key("val_metric/top1"), std::string("val_metric/top1"));
        QCOMPARE(track::mlflow_key("val_metric_per_class/map/traffic light"),
                 std::string("val_metric_per_class/map/traffic light"));
        // A class's name is one part, whatever slashes it holds: "person" is a file, and
        // "person/rider" cannot need it as a folder.
        QCOMPARE(track::mlflow_key(track::per_class_metric("map", "person/rider")),
                 std::string("val_metric_per_class/map/person_rider"));
        QCOMPARE(track::mlflow_key("a/../../x"), std::string("a/__/__/x"));
        QCOMPARE(track::mlflow_key("/etc/passwd"), std::string("_/etc/passwd"));
        QCOMPARE(track::mlflow_key("map/"), std::string("map/_"));
        QCOMPARE(track::mlflow_key("map/./b"), std::string("map/_/b"));
        QCOMPARE(track::mlflow_key("iou/cat?*:\\x"), std::string("iou/cat____x"));
        QCOMPARE(track::mlflow_key("iou/\xE7\x8C\xAB"), std::string("iou/\xE7\x8C\xAB")); // 猫
        const std::string long_name = "iou/" + std::string(199, 'a') + "\xE7\x8C\xAB";
        QCOMPARE(track::mlflow_key(long_name), "iou/" + std::string(199, 'a'));

        QTemporaryDir dir;
        const std::filesystem::path root = dir.filePath("store/mlruns").toStdString();
        track::MlflowSettings settings;
        settings.tracking_uri = "file:" + root.string();
        kiln::TrainConfig config;
        track::MlflowLogger logger(settings, config);
        logger.on_start(config, 1, 1);
        track::ValidationMetrics metrics;
        metrics.step = 1;
        metrics.values = {{"val_metric_per_class/map/../../../../../../escaped", 0.5},
                          {"val_metric_per_class/map/", 0.25},
                          {track::per_class_metric("map", "person"), 0.75},
                          {track::per_class_metric("map", "person/rider"), 0.125},
                          {"a/../../../../../../../escaped", 0.5},
                          {track::per_class_metric("map", "person_rider"), 0.5}};
        logger.on_validation(metrics);
        // Two names of one key are two metrics, each under its key all run long.
        metrics.step = 2;
        metrics.values = {{track::per_class_metric("map", "person_rider"), 0.625},
                          {track::per_class_metric("map", "person/rider"), 0.25}};
        logger.on_validation(metrics);
        logger.on_end({});
        std::set<std::string> metric_files;
        for (const auto& entry :
             std::filesystem::recursive_directory_iterator(dir.path().toStdString())) {
            QVERIFY2(entry.path().string().rfind(root.string(), 0) == 0 ||
                         entry.path() == root.parent_path(),
                     entry.path().c_str());
            if (entry.is_regular_file() && entry.path().parent_path().filename() == "map") {
                metric_files.insert(entry.path().filename().string());
            }
            QVERIFY2(entry.path().filename() != "escaped" ||
                         entry.path().parent_path().filename() == "__",
                     entry.path().c_str());
        }
        QCOMPARE(metric_files, (std::set<std::string>{".._.._.._.._.._.._escaped", "_", "person",
                                                      "person_rider", "person_rider_2"}));
        const auto history = [&](const std::string& name) {
            std::vector<double> values;
            for (const auto& entry :
                 std::filesystem::recursive_directory_iterator(dir.path().toStdString())) {
                if (entry.path().filename() == name) {
                    std::ifstream file(entry.path());
                    for (std::string line; std::getline(file, line);) {
                        values.push_back(std::stod(line.substr(line.find(' ') + 1)));
                    }
                }
            }
            return values;
        };
        QCOMPARE(history("person_rider"), (std::vector<double>{0.125, 0.25}));
        QCOMPARE(history("person_rider_2"), (std::vector<double>{0.5, 0.625}));
    }

    void mlflowRestApi() {
        // A stand-in tracking server that records what it is asked.
        httplib::Server server;
        std::mutex mutex;
        std::vector<std::pair<std::string, nlohmann::json>> calls;
        auto record = [&](const httplib::Request& request, httplib::Response& response,
                          const nlohmann::json& answer, int status = 200) {
            const std::lock_guard<std::mutex> lock(mutex);
            calls.emplace_back(request.path, request.body.empty()
                                                 ? nlohmann::json(request.params.size())
                                                 : nlohmann::json::parse(request.body));
            response.status = status;
            response.set_content(answer.dump(), "application/json");
        };
        server.Get("/prefix/api/2.0/mlflow/experiments/get-by-name",
                   [&](const httplib::Request& request, httplib::Response& response) {
                       record(request, response, {{"error_code", "RESOURCE_DOES_NOT_EXIST"}}, 404);
                   });
        server.Post("/prefix/api/2.0/mlflow/experiments/create",
                    [&](const httplib::Request& request, httplib::Response& response) {
                        record(request, response, {{"experiment_id", "7"}});
                    });
        server.Post("/prefix/api/2.0/mlflow/runs/create",
                    [&](const httplib::Request& request, httplib::Response& response) {
                        record(request, response, {{"run", {{"info", {{"run_id", "abc"}}}}}});
                    });
        for (const char* endpoint :
             {"/prefix/api/2.0/mlflow/runs/log-batch", "/prefix/api/2.0/mlflow/runs/update"}) {
            server.Post(endpoint,
                        [&](const httplib::Request& request, httplib::Response& response) {
                            record(request, response, nlohmann::json::object());
                        });
        }
        const int port = server.bind_to_any_port("127.0.0.1");
        std::thread serving([&] { server.listen_after_bind(); });

        track::MlflowSettings settings;
        settings.tracking_uri = "http://127.0.0.1:" + std::to_string(port) + "/prefix/";
        settings.experiment_name = "pretraining";
        settings.run_name = "first";
        {
            const auto store = track::make_mlflow_store(settings);
            QCOMPARE(store->start_run(settings, 1700000000.0), std::string("abc"));
            store->log_params({{"epochs", "3"}});
            for (int step = 1; step <= 700; ++step) { // 1,400 values: two batches
                store->log_metrics(step, 1700000000.0 + step,
                                   {{"train_loss", 1.0 / step}, {"lr", 0.1}});
            }
            store->end_run("FINISHED", 1700000999.0);
        }
        server.stop();
        serving.join();

        std::map<std::string, int> counts;
        std::size_t metric_values = 0;
        for (const auto& [path, body] : calls) {
            ++counts[path.substr(std::string("/prefix/api/2.0/mlflow/").size())];
            if (body.contains("metrics")) {
                metric_values += body["metrics"].size();
                QVERIFY(body["metrics"].size() <= 1000);
                QCOMPARE(body["run_id"], nlohmann::json("abc"));
            }
        }
        QCOMPARE(counts["experiments/get-by-name"], 1);
        QCOMPARE(counts["experiments/create"], 1);
        QCOMPARE(counts["runs/create"], 1);
        QCOMPARE(counts["runs/update"], 1);
        QCOMPARE(metric_values, std::size_t{1400});
        const nlohmann::json& created = calls[2].second;
        QCOMPARE(created["experiment_id"], nlohmann::json("7"));
        QCOMPARE(created["run_name"], nlohmann::json("first"));
        QCOMPARE(created["start_time"], nlohmann::json(1700000000000LL));
        const nlohmann::json& update = calls.back().second;
        QCOMPARE(update["status"], nlohmann::json("FINISHED"));
        QCOMPARE(update["end_time"], nlohmann::json(1700000999000LL));

        // No server: a clear error before any training.
        settings.tracking_uri = "http://127.0.0.1:" + std::to_string(port);
        try {
            track::make_mlflow_store(settings)->start_run(settings, 0);
            QFAIL("an absent server was reached");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("cannot reach the MLflow server"),
                     error.what());
        }
        // Something else answering (a proxy's login page): named, not read as a run.
        httplib::Server login;
        login.set_pre_routing_handler([](const httplib::Request&, httplib::Response& response) {
            response.set_content("<html>sign in</html>", "text/html");
            return httplib::Server::HandlerResponse::Handled;
        });
        const int login_port = login.bind_to_any_port("127.0.0.1");
        std::thread answering([&] { login.listen_after_bind(); });
        settings.tracking_uri = "http://127.0.0.1:" + std::to_string(login_port);
        QString not_mlflow;
        try {
            track::make_mlflow_store(settings)->start_run(settings, 0);
        } catch (const kiln::Error& error) {
            not_mlflow = error.what();
        }
        login.stop();
        answering.join();
        QVERIFY2(not_mlflow.contains("is that address an MLflow server?"), qPrintable(not_mlflow));
        settings.tracking_uri = "databricks://workspace";
        try {
            track::make_mlflow_store(settings);
            QFAIL("an unsupported URI was accepted");
        } catch (const kiln::Error& error) {
            QVERIFY(QString(error.what()).contains("not supported"));
        }
    }

    // A metric the server refuses (a name it does not accept) is left out of MLflow with one
    // warning; the other metrics of its batch and its later steps still go, and the refused one
    // is not sent again every second.
    void mlflowLeavesOutAMetricTheServerRefuses() {
        httplib::Server server;
        std::mutex mutex;
        std::vector<std::string> logged; // "key@step"
        int refusals = 0;
        answerRunCreation(server);
        server.Post("/api/2.0/mlflow/runs/update",
                    [](const httplib::Request&, httplib::Response& response) {
                        response.set_content("{}", "application/json");
                    });
        server.Post("/api/2.0/mlflow/runs/log-batch", [&](const httplib::Request& request,
                                                          httplib::Response& response) {
            const nlohmann::json body = nlohmann::json::parse(request.body);
            const std::lock_guard<std::mutex> lock(mutex);
            for (const nlohmann::json& metric : body.value("metrics", nlohmann::json::array())) {
                if (metric.at("key") == "val_metric_per_class/map/\u20ac") {
                    ++refusals;
                    response.status = 400;
                    response.set_content(R"({"error_code": "INVALID_PARAMETER_VALUE"})",
                                         "application/json");
                    return;
                }
            }
            for (const nlohmann::json& metric : body.value("metrics", nlohmann::json::array())) {
                if (!metric.at("value").is_number()) { // MLflow's strings for what JSON lacks
                    if (metric.at("value").is_null()) {
                        ++refusals;
                        response.status = 400;
                        return;
                    }
                    logged.push_back(metric.at("key").get<std::string>() + "=" +
                                     metric.at("value").get<std::string>());
                    continue;
                }
                logged.push_back(metric.at("key").get<std::string>() + "@" +
                                 metric.at("step").dump());
            }
            response.set_content("{}", "application/json");
        });
        const int port = server.bind_to_any_port("127.0.0.1");
        std::thread serving([&] { server.listen_after_bind(); });
        track::MlflowSettings settings;
        settings.tracking_uri = "http://127.0.0.1:" + std::to_string(port);
        std::vector<std::string> warnings;
        {
            const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& text) {
                if (level == kiln::log::Level::Warning) {
                    warnings.push_back(text);
                }
            });
            const auto store = track::make_mlflow_store(settings);
            store->start_run(settings, 1700000000.0);
            for (int step = 1; step <= 3; ++step) {
                store->log_metrics(step, 1700000001.0,
                                   {{"train_loss", 1.0},
                                    {"val_metric_per_class/map/\u20ac", 0.5},
                                    {"val_loss", 2.0}});
            }
            store->log_metrics(4, 1700000001.0,
                               {{"grad_norm", std::numeric_limits<double>::infinity()},
                                {"train_loss", std::numeric_limits<double>::quiet_NaN()}});
            store->end_run("FINISHED", 1700000002.0);
        }
        server.stop();
        serving.join();
        const std::vector<std::string> expected = {
            "train_loss@1", "val_loss@1", "train_loss@2",       "val_loss@2",
            "train_loss@3", "val_loss@3", "grad_norm=Infinity", "train_loss=NaN"};
        QCOMPARE(logged, expected);
        QCOMPARE(refusals, 2); // in the batch, then alone; never again
        QVERIFY2(warnings.size() == 1,
                 qPrintable(QString::fromStdString(warnings.empty() ? "" : warnings.back())));
        QVERIFY2(warnings.front().find("MLflow refused the metric") != std::string::npos &&
                     warnings.front().find("run.db and metrics.jsonl have it") != std::string::npos,
                 warnings.front().c_str());
    }

    // A server that stops answering mid-run does not hold the run's exit: the end gives up on
    // it (its time is bounded; SLURM allows 30 s after SIGTERM) with a clear error.
    void hangingMlflowServerDoesNotHoldTheEnd() {
        httplib::Server server;
        std::mutex mutex;
        std::condition_variable released_changed;
        bool released = false;
        answerRunCreation(server);
        for (const char* endpoint :
             {"/api/2.0/mlflow/runs/log-batch", "/api/2.0/mlflow/runs/update"}) {
            server.Post(endpoint, [&](const httplib::Request&, httplib::Response& response) {
                std::unique_lock<std::mutex> lock(mutex);
                released_changed.wait_for(lock, std::chrono::minutes(5), [&] { return released; });
                response.set_content("{}", "application/json");
            });
        }
        const int port = server.bind_to_any_port("127.0.0.1");
        std::thread serving([&] { server.listen_after_bind(); });
        track::MlflowSettings settings;
        settings.tracking_uri = "http://127.0.0.1:" + std::to_string(port);
        QString message;
        {
            const auto store = track::make_mlflow_store(settings);
            store->start_run(settings, 1700000000.0);
            store->log_metrics(1, 1700000001.0, {{"train_loss", 1.0}});
            try {
                store->end_run("FINISHED", 1700000002.0); // returns while the server still hangs
            } catch (const kiln::Error& error) {
                message = error.what();
            }
        }
        {
            const std::lock_guard<std::mutex> lock(mutex);
            released = true;
        }
        released_changed.notify_all();
        server.stop();
        serving.join();
        QVERIFY2(message.contains(QStringLiteral("gave up on the MLflow server")),
                 qPrintable(message));
    }

    // Records of every size, so that chunks end at every distance from a block's end (W&B's
    // writer writes an empty FIRST chunk where exactly a header fits) and records span blocks.
    void wandbTransactionLogFramesRecordsAcrossBlocks() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("run-x.wandb").toStdString();
        std::vector<std::string> written;
        {
            track::WandbTransactionLog log(file);
            std::mt19937 random(7);
            for (int i = 0; i < 400; ++i) {
                const std::size_t size = i % 50 == 49 ? 70000 : 1 + random() % 700;
                std::string record(size, '\0');
                for (char& byte : record) {
                    byte = static_cast<char>(random());
                }
                log.append(record);
                written.push_back(record);
            }
            QVERIFY_THROWS_EXCEPTION(kiln::Error, track::WandbTransactionLog{file}); // exists
        }
        QVERIFY(track::read_wandb_records(file) == written);

        // A writer killed mid-record: the records before it are kept, as `wandb sync` keeps them.
        std::ifstream in(file, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        const std::filesystem::path cut = dir.filePath("run-cut.wandb").toStdString();
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 5);
        const auto kept = track::read_wandb_records(cut);
        QCOMPARE(kept.size(), written.size() - 1);
        QVERIFY(std::equal(kept.begin(), kept.end(), written.begin()));

        // A damaged byte is an error that names the file and where.
        bytes[40000] = static_cast<char>(bytes[40000] ^ 0x10);
        const std::filesystem::path damaged = dir.filePath("run-damaged.wandb").toStdString();
        std::ofstream(damaged, std::ios::binary) << bytes;
        try {
            track::read_wandb_records(damaged);
            QFAIL("a damaged log was read");
        } catch (const kiln::Error& error) {
            QVERIFY2(std::string(error.what()).find("run-damaged.wandb") != std::string::npos,
                     error.what());
        }
        std::ofstream(damaged, std::ios::binary) << "not W&B";
        QVERIFY_THROWS_EXCEPTION(kiln::Error, track::read_wandb_records(damaged));
    }

    // A resumed run's rows follow the earlier parts' numeric _steps; another writer's log may
    // hold steps that are no number, negative or beyond int64, and those are no steps.
    void wandbResumeSkipsStepsThatAreNoNumbers() {
        QTemporaryDir dir;
        kiln::TrainConfig config;
        config.out = dir.path().toStdString();
        const std::filesystem::path earlier =
            track::RunDirectory(config.out).wandb() / "offline-run-20200101_000000-abc123";
        std::filesystem::create_directories(earlier);
        {
            track::WandbTransactionLog log(earlier / "run-abc123.wandb");
            for (const std::string step :
                 {"\"three\"", "4", "-1", "99999999999999999999", "{}", "70 steps"}) {
                kiln::wandb::Record record;
                auto* item = record.mutable_history()->add_item();
                item->add_nested_key("_step");
                item->set_value_json(step);
                log.append(record.SerializeAsString());
            }
        }
        kiln::config::WandbSettings settings;
        settings.project = "p";
        track::WandbLogger logger(settings, config.out);
        logger.on_resume(4);
        logger.on_start(config, 10, 10);
        track::StepMetrics metrics;
        metrics.step = 5;
        logger.on_step(metrics);
        logger.on_end({});
        QCOMPARE(logger.run_folder().filename().string().substr(28), std::string("abc123"));
        std::vector<std::string> steps;
        for (const std::string& bytes :
             track::read_wandb_records(logger.run_folder() / "run-abc123.wandb")) {
            kiln::wandb::Record record;
            QVERIFY(record.ParseFromString(bytes));
            for (const kiln::wandb::Item& item : record.history().item()) {
                if (item.nested_key(0) == "_step") {
                    steps.push_back(item.value_json());
                }
            }
        }
        QCOMPARE(steps, std::vector<std::string>{"5"});
    }

    void wandbSettingsFollowWandbsConventions() {
        const QByteArray mode = qgetenv("WANDB_MODE");
        qunsetenv("WANDB_MODE");
        try {
            kiln::config::wandb_settings({{"project", "p"}});
            QFAIL("an online run was accepted");
        } catch (const kiln::Error& error) {
            QVERIFY2(std::string(error.what()).find("WANDB_MODE=offline") != std::string::npos,
                     error.what());
        }
        const auto offline = kiln::config::wandb_settings({{"project", "p"},
                                                           {"name", "n"},
                                                           {"offline", true},
                                                           {"log_model", false},
                                                           {"version", nullptr},
                                                           {"tags", {"a", "b"}}});
        QVERIFY(offline.has_value());
        QCOMPARE(offline->project, std::string("p"));
        QCOMPARE(offline->tags.size(), std::size_t{2});
        QVERIFY_THROWS_EXCEPTION(
            kiln::Error, kiln::config::wandb_settings({{"offline", true}, {"projekt", "p"}}));
        QVERIFY_THROWS_EXCEPTION(
            kiln::Error, kiln::config::wandb_settings({{"offline", true}, {"log_model", true}}));
        QVERIFY_THROWS_EXCEPTION(
            kiln::Error, kiln::config::wandb_settings({{"offline", true}, {"version", "a/b"}}));
        qputenv("WANDB_MODE", "offline");
        QVERIFY(kiln::config::wandb_settings(nullptr).has_value());
        kiln::TrainConfig config;
        config.loggers = {{"tensorboard", nullptr}, {"wandb", {{"project", "p"}}}};
        const auto loggers = track::make_loggers(config);
        QCOMPARE(loggers.size(), std::size_t{1});
        const auto* guarded = dynamic_cast<const track::GuardedLogger*>(loggers.front().get());
        QVERIFY(guarded != nullptr &&
                dynamic_cast<const track::WandbLogger*>(&guarded->logger()) != nullptr);
        qputenv("WANDB_MODE", "disabled");
        QVERIFY(!kiln::config::wandb_settings({{"offline", true}}).has_value());
        if (mode.isNull()) {
            qunsetenv("WANDB_MODE");
        } else {
            qputenv("WANDB_MODE", mode);
        }
    }

    // Every record of the offline runs under `wandb_dir`, as W&B's own reader (`wandb leet
    // inspect --json`, wandb-core's Go reader) decodes them: one JSON object per record.
    static std::vector<nlohmann::json> readWithWandb(const QString& wandb_dir) {
        const auto read = kiln::test::runPython(
            QStringLiteral(
                "import glob, json, os, subprocess, sys, tempfile\n"
                "home = tempfile.mkdtemp()\n"
                "env = dict(os.environ, HOME=home, WANDB_CONFIG_DIR=home, WANDB_CACHE_DIR=home)\n"
                "for path in sorted(glob.glob(sys.argv[1] + '/offline-run-*/run-*.wandb')):\n"
                "    out = subprocess.run([sys.executable, '-m', 'wandb', 'leet', 'inspect',\n"
                "                          '--json', path], env=env, check=True,\n"
                "                         capture_output=True, text=True).stdout\n"
                "    for line in out.splitlines():\n"
                "        print(json.dumps({'file': path, 'record': json.loads(line)}))\n"),
            {wandb_dir});
        if (read.exit_code != 0) {
            qWarning("%s", qPrintable(read.errors));
            return {};
        }
        std::vector<nlohmann::json> records;
        for (const QString& line : read.output.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            records.push_back(nlohmann::json::parse(line.toStdString()));
        }
        return records;
    }

    // A metrics line the disk has no room for is taken back whole: metrics.jsonl keeps whole
    // lines (a file size limit stands in for a full disk), and the error names the file.
    void aMetricsLineThatCannotBeWrittenIsTakenBack() {
        QTemporaryDir dir;
        kiln::TrainConfig config;
        config.out = dir.path().toStdString();
        const std::filesystem::path metrics = std::filesystem::path(config.out) / "metrics.jsonl";
        track::RunFiles files(config, {});
        track::StepMetrics step;
        step.step = 1;
        files.on_step(step);
        const auto written = std::filesystem::file_size(metrics);
        step.step = 2;
        QString message;
        {
            const kiln::test::FileSizeLimit full(written + 40); // less than a line
            QVERIFY(full.applied());
            try {
                files.on_step(step);
            } catch (const kiln::Error& error) {
                message = QString::fromStdString(error.what());
            }
        }
        QVERIFY2(message.contains(QString::fromStdString(metrics.string())), qPrintable(message));
        QCOMPARE(std::filesystem::file_size(metrics), written);
        step.step = 3; // room again: the file goes on
        files.on_step(step);
        std::ifstream in(metrics);
        std::string line;
        std::vector<std::int64_t> steps;
        while (std::getline(in, line)) {
            steps.push_back(nlohmann::json::parse(line).at("step").get<std::int64_t>());
        }
        QCOMPARE(steps, (std::vector<std::int64_t>{1, 3}));
    }

    void wandbsOwnReaderReadsTheOfflineRun() {
        if (!kiln::test::pythonHas(QStringLiteral("wandb"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("wandb")));
        }
        QTemporaryDir dir;
        kiln::TrainConfig config;
        config.out = dir.path().toStdString();
        config.model = "resnet18";
        config.method = "simclr";
        config.epochs = 3;
        config.optim_args = {{"lr", 0.3}};
        kiln::config::WandbSettings settings;
        settings.project = "kiln-interop";
        settings.name = "first";
        settings.tags = {"cpu"};
        const auto step_metrics = [](std::int64_t step) {
            track::StepMetrics metrics;
            metrics.step = step;
            metrics.epoch = (step - 1) / 10;
            metrics.loss = 3.0 / double(step);
            metrics.lr = 0.3;
            metrics.batch_time = 0.1 + 1e-3 * double(step % 7);
            metrics.data_time = 0.02;
            metrics.data_wait = 0.02 / (0.12 + 1e-3 * double(step % 7));
            metrics.images_per_second = 1000.0 / double(step);
            metrics.cpu_util = 0.5;
            metrics.rss_mb = 812.5;
            return metrics;
        };
        std::map<std::string, std::vector<std::pair<std::int64_t, double>>> logged;
        const auto log_step = [&](track::TrainObserver& logger, std::int64_t step) {
            const auto metrics = step_metrics(step);
            logger.on_step(metrics);
            for (const auto& [name, value] : track::step_values(metrics)) {
                logged[name].emplace_back(step, value);
            }
        };
        {
            track::WandbLogger logger(settings, config.out);
            logger.on_start(config, 640, 30);
            for (std::int64_t step = 1; step <= 20; ++step) {
                log_step(logger, step);
                if (step % 10 == 0) {
                    track::ValidationMetrics validation;
                    validation.step = step;
                    validation.epoch = (step - 1) / 10;
                    validation.values = {{"val_metric/top1", 0.03 * double(step)}};
                    logger.on_validation(validation);
                    logged["val_metric/top1"].emplace_back(step, 0.03 * double(step));
                }
            }
            track::RunSummary stopped;
            stopped.status = track::RunSummary::Status::Cancelled;
            logger.on_end(stopped);
        }
        {
            // Resumed from the checkpoint after step 20: the same W&B run, rows after the first's.
            settings.name = "first (resumed)";
            track::WandbLogger logger(settings, config.out);
            logger.on_resume(20);
            logger.on_start(config, 640, 30);
            for (std::int64_t step = 21; step <= 30; ++step) {
                log_step(logger, step);
            }
            logger.on_end({});
        }

        const auto records = readWithWandb(dir.filePath(QStringLiteral("wandb")));
        QVERIFY(!records.empty());
        std::set<std::string> files, run_ids;
        std::vector<int> exit_codes;
        std::int64_t next_row = 0;
        std::map<std::string, std::vector<std::pair<std::int64_t, double>>> read;
        for (const nlohmann::json& entry : records) {
            files.insert(entry["file"].get<std::string>());
            const nlohmann::json& record = entry["record"];
            const std::string type = record["type"];
            if (type == "run") {
                const nlohmann::json& run = record["run"];
                run_ids.insert(run["run_id"].get<std::string>());
                QCOMPARE(run["project"], nlohmann::json("kiln-interop"));
                QCOMPARE(run["tags"], nlohmann::json({"cpu"}));
                QCOMPARE(run["config"]["update"]["model"], nlohmann::json("resnet18"));
                QCOMPARE(run["config"]["update"]["optim_args"]["lr"], nlohmann::json(0.3));
                QCOMPARE(run.value("resumed", false), run_ids.size() > 1 || files.size() > 1);
            } else if (type == "history") {
                const nlohmann::json& row = record["history"]["item"];
                QCOMPARE(row["_step"].get<std::int64_t>(), next_row++);
                QVERIFY(row["_timestamp"].get<double>() > 1.7e9);
                const std::int64_t step = row["trainer/global_step"];
                for (const auto& [name, value] : row.items()) {
                    if (name[0] != '_' && name != "trainer/global_step" && name != "epoch") {
                        read[name].emplace_back(step, value.get<double>());
                    }
                }
            } else if (type == "exit") {
                exit_codes.push_back(record["exit"].value("exit_code", 0));
            }
        }
        QCOMPARE(files.size(), std::size_t{2});
        QCOMPARE(run_ids.size(), std::size_t{1});
        QCOMPARE(next_row, std::int64_t{32});             // 30 steps and 2 validations
        QCOMPARE(exit_codes, (std::vector<int>{130, 0})); // stopped, then finished
        QVERIFY(logged.count("profiling/batch_time") == 1 && logged.count("data_wait") == 1 &&
                logged.count("system/cpu_util") == 1);
        QCOMPARE(read.size(), logged.size());
        for (const auto& [name, points] : logged) {
            QVERIFY2(read[name] == points, name.c_str()); // every value, to the last bit
        }
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

    // A resume that cannot start leaves its reason on the run it meant to continue, which stays
    // as it was (resumable); a new run that cannot start is recorded as a failed run.
    void aResumeThatCannotStartLeavesItsReasonOnTheRun() {
        QTemporaryDir dir;
        kiln::TrainConfig config;
        config.out = dir.path().toStdString();
        config.model = "smallcnn";
        {
            track::RunRecorder first(config);
            first.on_start(config, 10, 10);
            track::StepMetrics metrics;
            metrics.step = 1;
            first.on_step(metrics);
            track::RunSummary stopped;
            stopped.status = track::RunSummary::Status::Cancelled;
            first.on_end(stopped);
        }
        config.resume_interrupted = true;
        track::RunRecorder(config).on_failure("the checkpoint is damaged");
        config.resume_interrupted = false;
        track::RunRecorder(config).on_failure("no images");
        const track::RunStore store(track::RunDirectory(config.out).run_db());
        const std::vector<track::RunRecord> runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].status, track::RunStatus::Cancelled);
        QCOMPARE(store.events(runs[0].id).back().message,
                 std::string("resuming failed: the checkpoint is damaged"));
        QCOMPARE(runs[1].status, track::RunStatus::Failed);
        QCOMPARE(store.events(runs[1].id).back().message, std::string("no images"));
    }

    void recordedHistoryIsWhatTheTrainerReported() {
        QTemporaryDir dir;
        track::RunStore store(dir.filePath("run.db").toStdString());
        const std::int64_t run = store.begin_run("{}", "", "smallcnn");
        std::vector<track::StepMetrics> reported;
        for (std::int64_t step = 1; step <= 4; ++step) {
            track::StepMetrics metrics;
            metrics.step = step;
            metrics.epoch = (step - 1) / 2;
            metrics.loss = 1.0 / double(step);
            metrics.lr = 0.1;
            metrics.data_wait = 0.25;
            metrics.images_per_second = 100.0 + double(step);
            metrics.cpu_util = 0.5;
            kiln::system::GpuSample gpu;
            gpu.index = 1;
            gpu.util_percent = 90.0;
            gpu.memory_used_mb = 1024.0;
            metrics.gpus = {gpu};
            reported.push_back(metrics);
            store.add_metrics(run, step, metrics.epoch, track::step_values(metrics),
                              1000.0 + double(step));
            if (step % 2 == 0) { // an evaluation after every second step
                store.add_metrics(run, step, metrics.epoch,
                                  {{"val_loss", 0.5}, {"val_metric/top1", step == 2 ? 0.8 : 0.7}},
                                  1000.5 + double(step));
            }
        }
        store.flush();
        const track::RecordedHistory history =
            track::recorded_history(store.metrics(run), "val_metric/top1");
        QCOMPARE(history.steps.size(), std::size_t(4));
        for (std::size_t i = 0; i < 4; ++i) {
            const track::StepMetrics& got = history.steps[i];
            QCOMPARE(got.step, reported[i].step);
            QCOMPARE(got.epoch, reported[i].epoch);
            QVERIFY(got.loss == reported[i].loss);
            QVERIFY(got.images_per_second == reported[i].images_per_second);
            QVERIFY(got.data_wait == 0.25 && got.cpu_util == 0.5 && got.lr == 0.1);
            QCOMPARE(got.gpus.size(), std::size_t(1));
            QCOMPARE(got.gpus[0].index, 1);
            QVERIFY(*got.gpus[0].util_percent == 90.0 && *got.gpus[0].memory_used_mb == 1024.0);
            QVERIFY(history.step_wall_times[i] == 1001.0 + double(i));
        }
        QCOMPARE(history.validations.size(), std::size_t(2));
        QCOMPARE(history.validations[0].step, std::int64_t(2));
        QVERIFY(history.validations[0].best);  // 0.8
        QVERIFY(!history.validations[1].best); // 0.7 is not better
        QCOMPARE(history.validations[1].watched, std::string("val_metric/top1"));
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
