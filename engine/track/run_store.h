#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

struct sqlite3;

namespace kiln::track {

// A run's status in run.db. `interrupted` is what a `running` run is when the process that ran
// it is gone (killed, crashed, power cut): reported by readers, recorded by the next run.
enum class RunStatus { Running, Finished, Failed, Cancelled, Interrupted };
std::string to_string(RunStatus status);

// What a person says about a run (Studio's Run History): a name instead of the folder's, notes,
// tags. Empty until set.
struct RunLabels {
    std::string name;
    std::string notes;
    std::vector<std::string> tags;
};

struct RunRecord {
    std::int64_t id = 0;
    RunStatus status = RunStatus::Running;
    std::string method;
    std::string model;
    std::string host;
    std::int64_t pid = 0;
    double started = 0;       // Unix seconds
    double ended = 0;         // 0 while running
    double last_activity = 0; // the newest metric or event
    double heartbeat = 0;     // the writer's last sign of life (0 before schema 3)
    double paused = 0;        // seconds between its ends and its resumes, not in its duration
    std::string config;       // the resolved configuration, JSON
    std::string summary;      // JSON written at the end, or empty
    std::string advice;       // the bottleneck advisor's diagnosis and advice, JSON, or empty
    RunLabels labels;
};

struct MetricPoint {
    std::int64_t step = 0;
    std::int64_t epoch = 0;
    std::string key;
    double value = 0;
    double wall_time = 0;
};

struct EventRecord {
    double wall_time = 0;
    std::string level;
    std::string message;
};

struct ArtifactRecord {
    std::string kind; // checkpoint, exported_model, embeddings
    std::string path;
    double wall_time = 0;
};

// What a table of runs shows about one: from the run record and its metrics.
struct RunOverview {
    std::int64_t steps = 0; // the last step with a train_loss
    double final_loss = 0;  // train_loss at that step
    double duration = 0;    // seconds, to the end or the last activity
    double median_images_per_second = 0;
    double median_data_wait = 0; // fraction
    std::string task;            // as config.json names it: pretrain, image_classification, ...
    std::string watch_metric;    // fine-tuning: the metric that picks best.ckpt
    std::optional<double> best_validation; // its best value so far, once validated
};

// out/run.db: every run in a run directory with its metrics at full resolution, its log events
// and its artifacts. SQLite with a schema version (PRAGMA user_version) and migrations; a newer
// schema than this Kiln knows is refused rather than damaged. WAL mode, so that readers never
// block the run, on a local filesystem; WAL needs shared memory, which network filesystems do
// not give, so on NFS, CIFS and the like the file keeps a rollback journal instead (readers
// then wait for the writer's commits, at most a second apart).
//
// A reader: opens the file read-only (`mode=ro`, or `immutable` where even that cannot be had:
// read-only media), starts no thread and writes no record, so `kiln runs` works on a copy on a
// DVD and never changes what another host is writing (it removes only the empty WAL files its
// reading made on a local disk, when no writer has the file open). A run recorded as running is
// reported as interrupted when its process is gone: on this host from its pid, on another host (a
// cluster run on a shared filesystem) when its writer's heartbeat, beaten every second, is
// older than kHeartbeatTimeout.
class RunReader {
public:
    static constexpr int kSchemaVersion = 4;
    static constexpr double kHeartbeatTimeout = 60.0; // seconds

    // Throws kiln::Error naming the file when it is missing, not a run database, or of an older
    // schema on media it cannot upgrade.
    explicit RunReader(const std::filesystem::path& file);
    virtual ~RunReader();
    RunReader(const RunReader&) = delete;
    RunReader& operator=(const RunReader&) = delete;

    std::vector<RunRecord> runs() const;
    std::optional<RunRecord> run(std::int64_t id) const;
    // All metrics of a run (of one key when `key` is given), by step then key.
    std::vector<MetricPoint> metrics(std::int64_t run, const std::string& key = {}) const;
    std::vector<std::string> metric_keys(std::int64_t run) const;
    std::vector<EventRecord> events(std::int64_t run) const;
    std::vector<ArtifactRecord> artifacts(std::int64_t run) const;

    RunOverview overview(const RunRecord& run) const;

    const std::filesystem::path& file() const { return file_; }

protected:
    enum class Access { ReadWrite, Create };
    RunReader(const std::filesystem::path& file, Access access);
    void execute(const std::string& sql) const;
    // Refuses a database whose schema would run code Kiln's never has, closing it.
    void close_unless_trusted();

    std::filesystem::path file_;
    sqlite3* db_ = nullptr;
    mutable std::mutex db_mutex_; // one statement at a time on the connection
};

// The writer of run.db. Writes from the training thread only queue rows; a writer thread
// commits them in one transaction at least once a second (with the heartbeat of the runs it
// records), so a killed process loses at most the last second, or what waits out a database
// another connection holds locked (for at most 30 s; then the run is told).
class RunStore : public RunReader {
public:
    using RunReader::kSchemaVersion;
    enum class Role {
        // The run recording into its out (holding its lock): creates the file, and marks the
        // runs recorded as running whose process is gone as interrupted.
        Recorder,
        // Labels and artifacts added by others (Studio's Run History, `kiln embed`): the file
        // must exist, and no run's status is touched.
        Editor
    };

    // Opens and migrates the database. Throws kiln::Error naming the file when it cannot.
    explicit RunStore(const std::filesystem::path& file, Role role = Role::Recorder);
    ~RunStore() override; // commits what is queued

    // A new run, status running, owned by this process.
    std::int64_t begin_run(const std::string& config_json, const std::string& method,
                           const std::string& model);
    // Continues the newest run (resume_interrupted): running again, and the metrics of steps
    // after `from_step`, which the resumed run repeats, are dropped. A new run when there is none.
    std::int64_t resume_run(const std::string& config_json, const std::string& method,
                            const std::string& model, std::int64_t from_step);

    void add_metrics(std::int64_t run, std::int64_t step, std::int64_t epoch,
                     const std::vector<std::pair<std::string, double>>& values, double wall_time);
    void add_event(std::int64_t run, const std::string& level, const std::string& message,
                   double wall_time);
    void add_artifact(std::int64_t run, const std::string& kind, const std::string& path,
                      double wall_time);
    // Commits everything queued, then records the end of the run.
    void finish_run(std::int64_t run, RunStatus status, const std::string& summary_json,
                    const std::string& advice_json);
    // Returns once everything queued is committed (waiting out a busy database as the writer
    // thread does); throws kiln::Error when run.db cannot be written.
    void flush();
    // Names, annotates or tags a run (any time, also while it trains).
    void set_labels(std::int64_t run, const RunLabels& labels);

private:
    struct Row {
        enum class Kind { Metric, Event, Artifact } kind;
        std::int64_t run;
        std::int64_t step;
        std::int64_t epoch;
        std::string key;  // metric key, event level, artifact kind
        std::string text; // event message, artifact path
        double value;
        double wall_time;
    };

    void migrate();
    void mark_interrupted_runs();
    void write_rows(std::vector<Row>& rows);
    void beat_heartbeat();
    void writer_loop();
    void queue(Row row);

    std::mutex queue_mutex_;
    std::condition_variable wake_;
    std::vector<Row> queued_;
    std::vector<std::int64_t> recording_; // the runs this store records, for their heartbeat
    std::string write_error_;             // the writer thread's failure, reported on the next write
    std::condition_variable written_;     // the writer committed what flush() waits for
    std::uint64_t flush_requested_ = 0;
    std::uint64_t flushed_ = 0;
    bool stopping_ = false;
    std::thread writer_;
};

// True when `path` lies on a network filesystem (NFS, CIFS/SMB, and the like), where SQLite's
// WAL mode cannot be used.
bool on_network_filesystem(const std::filesystem::path& path);

// Records `file` (embeddings made with a run's model) as an artifact of that run when `model`
// is a run's checkpoint or export (out/checkpoints/last.ckpt, out/exported_models/*.pt): the
// newest run in out/run.db. A model from elsewhere records nothing; a failure is a warning, as
// the file itself is written.
void record_model_artifact(const std::filesystem::path& model, const std::string& kind,
                           const std::filesystem::path& file);

} // namespace kiln::track
