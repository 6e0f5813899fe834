#include "track/run_store.h"

#include "core/error.h"
#include "core/json_text.h"
#include "core/log.h"
#include "core/text.h"
#include "track/run_directory.h"
#include "track/run_lock.h"
#include "track/step_values.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sqlite3.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace kiln::track {
namespace {

constexpr const char* kStatusNames[] = {"running", "finished", "failed", "cancelled",
                                        "interrupted"};

// Version n migrates from schema n to n + 1; run.db's PRAGMA user_version says how far it is.
constexpr const char* kMigrations[] = {
    R"sql(
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        status TEXT NOT NULL,
        method TEXT NOT NULL DEFAULT '',
        model TEXT NOT NULL DEFAULT '',
        host TEXT NOT NULL DEFAULT '',
        pid INTEGER NOT NULL DEFAULT 0,
        started REAL NOT NULL,
        ended REAL,
        config TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        advice TEXT NOT NULL DEFAULT '');
    CREATE TABLE metrics (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch INTEGER NOT NULL,
        key TEXT NOT NULL,
        value REAL NOT NULL,
        wall_time REAL NOT NULL);
    CREATE INDEX metrics_by_run_key_step ON metrics(run_id, key, step);
    CREATE TABLE events (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        wall_time REAL NOT NULL,
        level TEXT NOT NULL,
        message TEXT NOT NULL);
    CREATE INDEX events_by_run ON events(run_id, wall_time);
    CREATE TABLE artifacts (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        wall_time REAL NOT NULL,
        UNIQUE(run_id, kind, path));
    )sql",
    R"sql(
    ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
    )sql",
    R"sql(
    ALTER TABLE runs ADD COLUMN heartbeat REAL;
    )sql",
    R"sql(
    ALTER TABLE runs ADD COLUMN paused REAL NOT NULL DEFAULT 0;
    )sql",
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == RunReader::kSchemaVersion,
              "one migration per schema version");

bool process_alive(std::int64_t pid) {
    return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

// Whether the process recording `run` (in `out`) as running still lives: on this host its pid
// says so, and its out's lock where there is one (the pid may be another process's now);
// elsewhere (a shared filesystem) its writer's heartbeat, or its newest record where there is
// no heartbeat (schema 2), must be recent.
bool still_running(const RunRecord& run, const std::filesystem::path& out) {
    if (run.host == host_name()) {
        return process_alive(run.pid) && run_holds_its_out(out).value_or(true);
    }
    const double last_sign = run.heartbeat > 0 ? run.heartbeat : run.last_activity;
    return unix_seconds() - last_sign < RunReader::kHeartbeatTimeout;
}

RunStatus parse_status(const std::string& text) {
    for (int i = 0; i < 5; ++i) {
        if (text == kStatusNames[i]) {
            return static_cast<RunStatus>(i);
        }
    }
    return RunStatus::Interrupted;
}

// The database was locked by another connection past SQLite's busy timeout (a long read of
// Studio's on a network disk): worth trying again, unlike a full disk or a damaged file.
class DatabaseBusy : public Error {
public:
    using Error::Error;
};

[[noreturn]] void throw_sqlite_error(sqlite3* db, const std::string& message) {
    const int code = sqlite3_errcode(db) & 0xff;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
        throw DatabaseBusy(message);
    }
    throw Error(message);
}

// A prepared statement bound by position; errors name the database file.
class Statement {
public:
    Statement(sqlite3* db, const std::filesystem::path& file, const char* sql)
        : db_(db), file_(file) {
        if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK) {
            fail("prepare");
        }
    }
    ~Statement() { sqlite3_finalize(statement_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value) {
        sqlite3_bind_int64(statement_, index, value);
        return *this;
    }
    Statement& bind(int index, double value) {
        sqlite3_bind_double(statement_, index, value);
        return *this;
    }
    Statement& bind(int index, const std::string& value) {
        sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()),
                          SQLITE_TRANSIENT);
        return *this;
    }
    // True while there is a row to read.
    bool step() {
        const int result = sqlite3_step(statement_);
        if (result == SQLITE_ROW) {
            return true;
        }
        if (result != SQLITE_DONE) {
            fail("write");
        }
        return false;
    }
    void run_and_reset() {
        step();
        sqlite3_reset(statement_);
        sqlite3_clear_bindings(statement_);
    }
    std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
    double real(int column) const { return sqlite3_column_double(statement_, column); }
    std::string text(int column) const {
        const auto* value = sqlite3_column_text(statement_, column);
        return value == nullptr ? std::string()
                                : std::string(reinterpret_cast<const char*>(value),
                                              sqlite3_column_bytes(statement_, column));
    }

private:
    [[noreturn]] void fail(const char* what) const {
        const std::string message = sqlite3_errmsg(db_);
        // "no such table" or "no such column": a database of another program or shape.
        throw_sqlite_error(
            db_, "cannot " + std::string(what) + " \"" + file_.string() + "\": " + message +
                     (message.rfind("no such ", 0) == 0
                          ? "; it is not a run.db Kiln wrote, or it is damaged"
                          : "; check that the disk has space and the file is not damaged"));
    }

    sqlite3* db_;
    const std::filesystem::path& file_;
    sqlite3_stmt* statement_ = nullptr;
};

// A time from a run.db someone else wrote: NaN, negative or past the year 9999 reads as 0
// (unknown), never as a value that would overflow a date or a duration.
double unix_time(double seconds) {
    constexpr double kYear10000 = 253402300800.0;
    return seconds >= 0.0 && seconds < kYear10000 ? seconds : 0.0;
}

RunRecord read_run(const Statement& row) {
    RunRecord run;
    run.id = row.integer(0);
    run.status = parse_status(row.text(1));
    run.method = row.text(2);
    run.model = row.text(3);
    run.host = row.text(4);
    run.pid = row.integer(5);
    run.started = unix_time(row.real(6));
    run.ended = unix_time(row.real(7));
    run.config = row.text(8);
    run.summary = row.text(9);
    run.advice = row.text(10);
    run.last_activity = std::max(run.started, unix_time(row.real(11)));
    run.labels.name = row.text(12);
    run.labels.notes = row.text(13);
    run.heartbeat = unix_time(row.real(15));
    run.paused = unix_time(row.real(16));
    const nlohmann::json tags = parse_json_or_discarded(row.text(14));
    if (tags.is_array()) {
        for (const nlohmann::json& tag : tags) {
            if (tag.is_string()) {
                run.labels.tags.push_back(tag.get<std::string>());
            }
        }
    }
    return run;
}

// `run` as readers report it: interrupted when its process is gone.
RunRecord with_liveness(RunRecord run, const std::filesystem::path& out) {
    if (run.status == RunStatus::Running && !still_running(run, out)) {
        run.status = RunStatus::Interrupted;
        run.ended = run.heartbeat > 0 ? run.heartbeat : run.last_activity;
    }
    return run;
}

constexpr const char* kSelectRuns =
    "SELECT id, status, method, model, host, pid, started, COALESCE(ended, 0), config, summary, "
    "advice, COALESCE((SELECT MAX(wall_time) FROM metrics WHERE metrics.run_id = runs.id), 0), "
    "name, notes, tags, COALESCE(heartbeat, 0), paused FROM runs";

// An SQLite URI naming `file` (its path percent-encoded) with `query`.
std::string sqlite_uri(const std::filesystem::path& file, const std::string& query) {
    static const char* hex = "0123456789abcdef";
    std::string uri = "file:";
    for (const unsigned char ch : std::filesystem::absolute(file).string()) {
        if (std::isalnum(ch) || std::strchr("/._-~", ch) != nullptr) {
            uri += static_cast<char>(ch);
        } else {
            uri += {'%', hex[ch >> 4], hex[ch & 15]};
        }
    }
    return uri + "?" + query;
}

// A read-only connection to `file`, readable (its schema version read), or nullptr with the
// reason in `problem`.
sqlite3* open_read_only(const std::filesystem::path& file, const std::string& query,
                        std::string& problem) {
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(sqlite_uri(file, query).c_str(), &db, flags, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 5000);
        if (sqlite3_exec(db, "PRAGMA user_version", nullptr, nullptr, nullptr) == SQLITE_OK) {
            return db;
        }
    }
    problem = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return nullptr;
}

// A read-only connection cannot remove the WAL files it opened (`runs show` left them beside
// every run.db it read). A read-write connection that reads and then closes as the last one
// removes them; SQLite's locks keep them while a writer still has the file open. Only an empty
// WAL (what reading made) on a local disk: one that holds a crashed writer's commits is left
// for a writer to apply, and locks on a shared filesystem may not reach another host's writer.
void remove_wal_files_left_by_reading(const std::filesystem::path& file) {
    std::error_code error;
    const std::uintmax_t wal_size = std::filesystem::file_size(file.string() + "-wal", error);
    if (error || wal_size != 0 || on_network_filesystem(file)) {
        return;
    }
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI;
    if (sqlite3_open_v2(sqlite_uri(file, "mode=rw").c_str(), &db, flags, nullptr) == SQLITE_OK) {
        sqlite3_exec(db, "PRAGMA user_version", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
}

// A run.db may come from someone else, and SQLite runs what its schema says: a view named
// `runs` over an endless recursive query hung `kiln runs list`, one over zeroblob()s took
// gigabytes. Kiln's schema has plain tables and indexes only, and no value near the length
// limit.
void guard_against_its_schema(sqlite3* db, const std::filesystem::path& file) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 64 << 20);
    // SQLite stores each statement's opening words normalised ("CREATE TABLE ..."): anything
    // else (a view, a trigger, a virtual table however spelt) is not Kiln's.
    Statement code(db, file,
                   "SELECT type, name FROM sqlite_master WHERE NOT ("
                   "(type = 'table' AND sql LIKE 'CREATE TABLE %') OR "
                   "(type = 'index' AND (sql IS NULL OR sql LIKE 'CREATE INDEX %' OR "
                   "sql LIKE 'CREATE UNIQUE INDEX %'))) LIMIT 1");
    if (code.step()) {
        throw Error("\"" + terminal_text(file.string()) + "\" holds the " +
                    terminal_text(code.text(0)) + " \"" + terminal_text(code.text(1)) +
                    "\", of a kind a Kiln run database never has: it is not one, or it was "
                    "altered; give the run.db that `kiln train` wrote");
    }
    // A generated column is an expression SQLite evaluates on every read: 300 rows whose
    // summary was hex(zeroblob(30000000)) took 18 GB from a 53 KB file.
    Statement generated(db, file,
                        "SELECT t.name, c.name FROM sqlite_master AS t, pragma_table_xinfo(t.name) "
                        "AS c WHERE t.type = 'table' AND c.hidden IN (2, 3) LIMIT 1");
    if (generated.step()) {
        throw Error("\"" + terminal_text(file.string()) + "\" computes the column \"" +
                    terminal_text(generated.text(1)) + "\" of its table \"" +
                    terminal_text(generated.text(0)) +
                    "\" from an expression, which a Kiln run database never does: it is not one, "
                    "or it was altered; give the run.db that `kiln train` wrote");
    }
}

int schema_version(sqlite3* db, const std::filesystem::path& file) {
    Statement version(db, file, "PRAGMA user_version");
    version.step();
    return static_cast<int>(version.integer(0));
}

// A file SQLite made whose schema was never written: a run killed as it created its run.db.
bool holds_no_schema(sqlite3* db, const std::filesystem::path& file) {
    Statement objects(db, file, "SELECT count(*) FROM sqlite_master");
    objects.step();
    return objects.integer(0) == 0;
}

// A negative version indexed the migrations before their start (a crafted run.db crashed Kiln).
Error damaged_schema(const std::filesystem::path& file, int version) {
    return Error("\"" + file.string() +
                 "\" is damaged or not a Kiln run database (schema version " +
                 std::to_string(version) + "); give the run.db that `kiln train` wrote");
}

Error newer_schema(const std::filesystem::path& file, int version) {
    return Error("\"" + file.string() + "\" was written by a newer Kiln (schema version " +
                 std::to_string(version) + "; this Kiln reads up to " +
                 std::to_string(RunReader::kSchemaVersion) + "): upgrade Kiln to open it");
}

} // namespace

std::string to_string(RunStatus status) {
    return kStatusNames[static_cast<int>(status)];
}

RunReader::RunReader(const std::filesystem::path& file) : file_(file) {
    if (!std::filesystem::exists(file)) {
        throw Error("there is no run database \"" + file.string() +
                    "\"; give a run directory that `kiln train` wrote");
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) { // a FIFO blocked the reader for good
        throw Error("\"" + file.string() +
                    "\" is not a file; a run database is the run.db that `kiln train` writes");
    }
    // mode=ro still needs the WAL's shared memory; immutable is for media nothing writes.
    std::string problem;
    db_ = open_read_only(file, "mode=ro", problem);
    if (db_ == nullptr) {
        std::string ignored;
        db_ = open_read_only(file, "immutable=1", ignored);
    }
    if (db_ == nullptr) {
        throw Error("cannot read \"" + file.string() + "\": " + problem +
                    "; is it a Kiln run database?");
    }
    close_unless_trusted();
    const int version = schema_version(db_, file_);
    if (version > kSchemaVersion || version < 1) { // 0: no Kiln table, nothing to upgrade
        const bool empty = version == 0 && holds_no_schema(db_, file_);
        sqlite3_close(db_);
        db_ = nullptr;
        if (empty) { // not written by a reader: it may be any empty file handed over
            throw Error("\"" + file.string() +
                        "\" holds no runs: a run stopped as it made it, before recording "
                        "anything, or it is an empty file; run the training again (with "
                        "overwrite=true) or give the run.db of a run that trained");
        }
        throw version > kSchemaVersion ? newer_schema(file_, version)
                                       : damaged_schema(file_, version);
    }
    if (version < kSchemaVersion) { // upgraded in place once, as any writer would
        sqlite3_close(db_);
        db_ = nullptr;
        try {
            const RunStore upgrade(file, RunStore::Role::Editor);
        } catch (const Error& error) {
            throw Error("\"" + file.string() + "\" was written by an older Kiln (schema version " +
                        std::to_string(version) + ") and cannot be upgraded where it is: " +
                        error.what() + "; open a copy on writable storage");
        }
        db_ = open_read_only(file, "mode=ro", problem);
        if (db_ == nullptr) {
            throw Error("cannot read \"" + file.string() + "\": " + problem);
        }
        close_unless_trusted();
    }
}

void RunReader::close_unless_trusted() {
    try {
        guard_against_its_schema(db_, file_);
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

RunReader::RunReader(const std::filesystem::path& file, Access access) : file_(file) {
    if (access != Access::Create && !std::filesystem::exists(file)) {
        throw Error("there is no run database \"" + file.string() +
                    "\"; give a run directory that `kiln train` wrote");
    }
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX |
                      (access == Access::Create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        throw Error("cannot open \"" + file.string() + "\": " + message);
    }
    sqlite3_busy_timeout(db_, 5000);
    close_unless_trusted();
}

RunReader::~RunReader() {
    const bool read_only = db_ != nullptr && sqlite3_db_readonly(db_, "main") == 1;
    sqlite3_close(db_);
    if (read_only) {
        remove_wal_files_left_by_reading(file_);
    }
}

RunStore::RunStore(const std::filesystem::path& file, Role role)
    : RunReader(file, role == Role::Recorder ? Access::Create : Access::ReadWrite) {
    try {
        // WAL: readers never block the run; NORMAL: a commit survives the process being
        // killed (only a power cut can lose the last commits).
        execute(on_network_filesystem(file) ? "PRAGMA journal_mode=DELETE"
                                            : "PRAGMA journal_mode=WAL");
        execute("PRAGMA synchronous=NORMAL");
        execute("PRAGMA foreign_keys=ON");
        migrate();
        if (role == Role::Recorder) {
            mark_interrupted_runs();
        }
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
    writer_ = std::thread(log::for_this_job([this] { writer_loop(); }));
}

RunStore::~RunStore() {
    {
        const std::lock_guard<std::mutex> lock(queue_mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    writer_.join();
}

void RunReader::execute(const std::string& sql) const {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string text = message != nullptr ? message : sqlite3_errmsg(db_);
        sqlite3_free(message);
        throw_sqlite_error(db_, "cannot use \"" + file_.string() + "\": " + text +
                                    "; is it a Kiln run database, and is the disk writable?");
    }
}

void RunStore::migrate() {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    const int version = schema_version(db_, file_);
    if (version > kSchemaVersion) {
        throw newer_schema(file_, version);
    }
    if (version < 0) {
        throw damaged_schema(file_, version);
    }
    if (version == kSchemaVersion) {
        return;
    }
    execute("BEGIN IMMEDIATE");
    try {
        // Another process may have migrated the file between the read above and the lock.
        for (int from = schema_version(db_, file_); from < kSchemaVersion; ++from) {
            execute(kMigrations[from]);
        }
        execute("PRAGMA user_version=" + std::to_string(kSchemaVersion));
        execute("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void RunStore::mark_interrupted_runs() {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    std::vector<std::int64_t> gone;
    {
        Statement running(db_, file_,
                          (std::string(kSelectRuns) + " WHERE status = 'running'").c_str());
        while (running.step()) {
            const RunRecord run = read_run(running);
            // The recorder's process holds the out's lock, so the lock cannot tell; a row of
            // this very pid from before (a container's pid 1 again) is a run that ended.
            const bool this_process = run.host == host_name() && run.pid == ::getpid();
            if (this_process || !still_running(run, file_.parent_path())) {
                gone.push_back(run.id);
            }
        }
    }
    Statement mark(db_, file_,
                   "UPDATE runs SET status = 'interrupted', ended = MAX(started, "
                   "COALESCE((SELECT MAX(wall_time) FROM metrics WHERE run_id = ?1), 0), "
                   "COALESCE((SELECT MAX(wall_time) FROM events WHERE run_id = ?1), 0), "
                   "COALESCE(heartbeat, 0)) WHERE id = ?1");
    for (std::int64_t id : gone) {
        mark.bind(1, id).run_and_reset();
    }
}

std::int64_t RunStore::begin_run(const std::string& config_json, const std::string& method,
                                 const std::string& model) {
    std::int64_t id = 0;
    {
        const std::lock_guard<std::mutex> lock(db_mutex_);
        Statement insert(db_, file_,
                         "INSERT INTO runs (status, method, model, host, pid, started, config, "
                         "heartbeat) VALUES ('running', ?, ?, ?, ?, ?, ?, ?5)");
        insert.bind(1, method).bind(2, model).bind(3, host_name());
        insert.bind(4, static_cast<std::int64_t>(getpid()))
            .bind(5, unix_seconds())
            .bind(6, config_json);
        insert.step();
        id = sqlite3_last_insert_rowid(db_);
    }
    const std::lock_guard<std::mutex> lock(queue_mutex_);
    recording_.push_back(id);
    return id;
}

std::int64_t RunStore::resume_run(const std::string& config_json, const std::string& method,
                                  const std::string& model, std::int64_t from_step) {
    std::int64_t id = 0;
    {
        const std::lock_guard<std::mutex> lock(db_mutex_);
        Statement newest(db_, file_, "SELECT id FROM runs ORDER BY id DESC LIMIT 1");
        if (newest.step()) {
            id = newest.integer(0);
        }
    }
    if (id == 0) {
        return begin_run(config_json, method, model);
    }
    flush();
    const std::lock_guard<std::mutex> lock(db_mutex_);
    // The time since the run ended (or was last seen) is not part of its duration.
    Statement update(db_, file_,
                     "UPDATE runs SET status = 'running', host = ?1, pid = ?2, config = ?3, "
                     "method = ?4, model = ?5, heartbeat = ?6, paused = paused + "
                     "MAX(0, ?6 - COALESCE(ended, heartbeat, started)), ended = NULL "
                     "WHERE id = ?7");
    update.bind(1, host_name()).bind(2, static_cast<std::int64_t>(getpid())).bind(3, config_json);
    update.bind(4, method).bind(5, model).bind(6, unix_seconds()).bind(7, id);
    update.step();
    Statement drop(db_, file_, "DELETE FROM metrics WHERE run_id = ? AND step > ?");
    drop.bind(1, id).bind(2, from_step);
    drop.step();
    const std::lock_guard<std::mutex> queue_lock(queue_mutex_);
    recording_.push_back(id);
    return id;
}

void RunStore::queue(Row row) {
    {
        const std::lock_guard<std::mutex> lock(queue_mutex_);
        if (!write_error_.empty()) {
            throw Error(write_error_);
        }
        queued_.push_back(std::move(row));
    }
}

void RunStore::add_metrics(std::int64_t run, std::int64_t step, std::int64_t epoch,
                           const std::vector<std::pair<std::string, double>>& values,
                           double wall_time) {
    for (const auto& [key, value] : values) {
        queue({Row::Kind::Metric, run, step, epoch, key, {}, value, wall_time});
    }
}

void RunStore::add_event(std::int64_t run, const std::string& level, const std::string& message,
                         double wall_time) {
    queue({Row::Kind::Event, run, 0, 0, level, message, 0, wall_time});
}

void RunStore::add_artifact(std::int64_t run, const std::string& kind, const std::string& path,
                            double wall_time) {
    queue({Row::Kind::Artifact, run, 0, 0, kind, path, 0, wall_time});
}

void RunStore::write_rows(std::vector<Row>& rows) {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    execute("BEGIN IMMEDIATE");
    try {
        Statement metric(db_, file_,
                         "INSERT INTO metrics (run_id, step, epoch, key, value, wall_time) "
                         "VALUES (?, ?, ?, ?, ?, ?)");
        Statement event(
            db_, file_,
            "INSERT INTO events (run_id, wall_time, level, message) VALUES (?, ?, ?, ?)");
        Statement artifact(db_, file_,
                           "INSERT OR REPLACE INTO artifacts (run_id, kind, path, wall_time) "
                           "VALUES (?, ?, ?, ?)");
        for (const Row& row : rows) {
            switch (row.kind) {
            case Row::Kind::Metric:
                metric.bind(1, row.run).bind(2, row.step).bind(3, row.epoch).bind(4, row.key);
                metric.bind(5, row.value).bind(6, row.wall_time).run_and_reset();
                break;
            case Row::Kind::Event:
                event.bind(1, row.run).bind(2, row.wall_time).bind(3, row.key).bind(4, row.text);
                event.run_and_reset();
                break;
            case Row::Kind::Artifact:
                artifact.bind(1, row.run).bind(2, row.key).bind(3, row.text).bind(4, row.wall_time);
                artifact.run_and_reset();
                break;
            }
        }
        execute("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
    rows.clear();
}

// How long rows wait out a database locked past SQLite's busy timeout (another connection's
// long read on a network disk) before the run is told run.db cannot be written.
constexpr std::chrono::seconds kBusyPatience{30};

// The runs this store records are alive: said once a second, for readers on other hosts.
void RunStore::beat_heartbeat() {
    std::vector<std::int64_t> runs;
    {
        const std::lock_guard<std::mutex> lock(queue_mutex_);
        runs = recording_;
    }
    if (runs.empty()) {
        return;
    }
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement beat(db_, file_, "UPDATE runs SET heartbeat = ? WHERE id = ?");
    for (const std::int64_t run : runs) {
        beat.bind(1, unix_seconds()).bind(2, run).run_and_reset();
    }
}

void RunStore::writer_loop() {
    std::vector<Row> rows; // taken from the queue, not yet committed
    bool busy = false;     // the last write met a database locked past SQLite's busy timeout
    std::chrono::steady_clock::time_point busy_since;
    std::unique_lock<std::mutex> lock(queue_mutex_);
    while (true) {
        // A busy database is tried again a second later, whoever waits.
        wake_.wait_for(lock, std::chrono::seconds(1), [this, &busy] {
            return !busy && (stopping_ || flush_requested_ > flushed_);
        });
        const std::uint64_t requested = flush_requested_;
        std::move(queued_.begin(), queued_.end(), std::back_inserter(rows));
        queued_.clear();
        const bool stop = stopping_;
        lock.unlock();
        std::string failure;
        try {
            if (!rows.empty()) {
                write_rows(rows);
            }
            busy = false;
        } catch (const DatabaseBusy& error) {
            const auto now = std::chrono::steady_clock::now();
            busy_since = busy ? busy_since : now;
            busy = true;
            if (now - busy_since >= kBusyPatience) {
                failure = error.what();
            }
        } catch (const Error& error) {
            failure = error.what();
        }
        if (!busy) {
            try {
                beat_heartbeat();
            } catch (const Error&) {
                // A full disk: the next beat tries again, and rows report their own failure.
            }
        }
        if (!failure.empty() && stop) { // no write of the run's is left to report it
            log::warning("run.db: " + std::to_string(rows.size()) +
                         " rows were not recorded: " + failure);
        }
        lock.lock();
        if (!failure.empty()) {
            // Reported to the training thread on its next write: nothing is dropped silently.
            write_error_ = failure;
            rows.clear();
            busy = false;
        }
        if (rows.empty()) {
            flushed_ = requested;
            written_.notify_all();
            if (stop) {
                return;
            }
        }
    }
}

void RunStore::flush() {
    std::unique_lock<std::mutex> lock(queue_mutex_);
    const std::uint64_t wanted = ++flush_requested_;
    wake_.notify_all();
    written_.wait(lock, [&] { return flushed_ >= wanted || !write_error_.empty(); });
    if (!write_error_.empty()) {
        throw Error(write_error_);
    }
}

void RunStore::finish_run(std::int64_t run, RunStatus status, const std::string& summary_json,
                          const std::string& advice_json) {
    flush();
    {
        const std::lock_guard<std::mutex> lock(queue_mutex_);
        recording_.erase(std::remove(recording_.begin(), recording_.end(), run), recording_.end());
    }
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement update(db_, file_,
                     "UPDATE runs SET status = ?, ended = ?, summary = ?, advice = ? WHERE id = ?");
    update.bind(1, to_string(status)).bind(2, unix_seconds()).bind(3, summary_json);
    update.bind(4, advice_json).bind(5, run);
    update.step();
}

void RunStore::set_labels(std::int64_t run, const RunLabels& labels) {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement update(db_, file_, "UPDATE runs SET name = ?, notes = ?, tags = ? WHERE id = ?");
    update.bind(1, labels.name).bind(2, labels.notes).bind(3, nlohmann::json(labels.tags).dump());
    update.bind(4, run);
    update.step();
}

std::vector<RunRecord> RunReader::runs() const {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement select(db_, file_, (std::string(kSelectRuns) + " ORDER BY id").c_str());
    std::vector<RunRecord> records;
    while (select.step()) {
        records.push_back(with_liveness(read_run(select), file_.parent_path()));
    }
    return records;
}

std::optional<RunRecord> RunReader::run(std::int64_t id) const {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement select(db_, file_, (std::string(kSelectRuns) + " WHERE id = ?").c_str());
    select.bind(1, id);
    if (!select.step()) {
        return std::nullopt;
    }
    return with_liveness(read_run(select), file_.parent_path());
}

std::vector<MetricPoint> RunReader::metrics(std::int64_t run, const std::string& key) const {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement select(db_, file_,
                     key.empty() ? "SELECT step, epoch, key, value, wall_time FROM metrics "
                                   "WHERE run_id = ? ORDER BY step, key"
                                 : "SELECT step, epoch, key, value, wall_time FROM metrics "
                                   "WHERE run_id = ? AND key = ? ORDER BY step");
    select.bind(1, run);
    if (!key.empty()) {
        select.bind(2, key);
    }
    std::vector<MetricPoint> points;
    while (select.step()) {
        points.push_back(
            {select.integer(0), select.integer(1), select.text(2), select.real(3), select.real(4)});
    }
    return points;
}

std::vector<std::string> RunReader::metric_keys(std::int64_t run) const {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement select(db_, file_, "SELECT DISTINCT key FROM metrics WHERE run_id = ? ORDER BY key");
    select.bind(1, run);
    std::vector<std::string> keys;
    while (select.step()) {
        keys.push_back(select.text(0));
    }
    return keys;
}

std::vector<EventRecord> RunReader::events(std::int64_t run) const {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement select(db_, file_,
                     "SELECT wall_time, level, message FROM events WHERE run_id = ? "
                     "ORDER BY wall_time, rowid");
    select.bind(1, run);
    std::vector<EventRecord> events;
    while (select.step()) {
        events.push_back({select.real(0), select.text(1), select.text(2)});
    }
    return events;
}

std::vector<ArtifactRecord> RunReader::artifacts(std::int64_t run) const {
    const std::lock_guard<std::mutex> lock(db_mutex_);
    Statement select(db_, file_,
                     "SELECT kind, path, wall_time FROM artifacts WHERE run_id = ? ORDER BY rowid");
    select.bind(1, run);
    std::vector<ArtifactRecord> artifacts;
    while (select.step()) {
        artifacts.push_back({select.text(0), select.text(1), select.real(2)});
    }
    return artifacts;
}

RunOverview RunReader::overview(const RunRecord& run) const {
    RunOverview overview;
    const double end = run.ended > 0 ? run.ended : std::max(run.last_activity, run.heartbeat);
    overview.duration = run.started > 0 ? std::max(0.0, end - run.started - run.paused) : 0.0;
    const std::vector<MetricPoint> losses = metrics(run.id, "train_loss");
    if (!losses.empty()) {
        overview.steps = losses.back().step;
        overview.final_loss = losses.back().value;
    }
    auto median_of = [&](const std::string& key) {
        std::vector<double> values;
        for (const MetricPoint& point : metrics(run.id, key)) {
            values.push_back(point.value);
        }
        if (values.empty()) {
            return 0.0;
        }
        const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
        std::nth_element(values.begin(), middle, values.end());
        return *middle;
    };
    overview.median_images_per_second = median_of("images_per_second");
    overview.median_data_wait = median_of("data_wait");
    // The watched metric: as the run's summary names it (a multilabel set watches mAP), else
    // as its settings do while it runs.
    const nlohmann::json config = parse_json_or_discarded(run.config);
    const nlohmann::json summary = parse_json_or_discarded(run.summary);
    overview.task = text_setting(config, "task", "pretrain");
    overview.watch_metric =
        text_setting(summary, "watch_metric", text_setting(config, "watch_metric", ""));
    if (!overview.watch_metric.empty()) {
        for (const MetricPoint& point : metrics(run.id, overview.watch_metric)) {
            overview.best_validation =
                std::max(overview.best_validation.value_or(point.value), point.value);
        }
    }
    return overview;
}

bool on_network_filesystem(const std::filesystem::path& path) {
    struct statfs info{};
    const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
    if (statfs(folder.c_str(), &info) != 0) {
        return false;
    }
    // NFS, SMB, CIFS, SMB2, Ceph, Lustre, GPFS, AFS, 9p (statfs(2)'s magic numbers).
    constexpr unsigned long kNetworkFilesystems[] = {0x6969,     0x517B,     0xFF534D42,
                                                     0xFE534D42, 0x00C36400, 0x0BD00BD0,
                                                     0x47504653, 0x5346414F, 0x01021997};
    const auto type = static_cast<unsigned long>(info.f_type) & 0xFFFFFFFFUL;
    return std::find(std::begin(kNetworkFilesystems), std::end(kNetworkFilesystems), type) !=
           std::end(kNetworkFilesystems);
}

void record_model_artifact(const std::filesystem::path& model, const std::string& kind,
                           const std::filesystem::path& file) {
    const std::optional<RunDirectory> run = RunDirectory::of_model(model);
    if (!run) {
        return;
    }
    const std::filesystem::path database = run->run_db();
    try {
        RunStore store(database, RunStore::Role::Editor);
        const std::vector<RunRecord> runs = store.runs();
        if (!runs.empty()) {
            store.add_artifact(runs.back().id, kind, std::filesystem::absolute(file).string(),
                               unix_seconds());
            store.flush();
        }
    } catch (const Error& error) {
        log::warning("could not record " + file.string() + " in " + database.string() + ": " +
                     error.what());
    }
}

} // namespace kiln::track
