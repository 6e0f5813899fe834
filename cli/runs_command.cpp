#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/log.h"
#include "core/text.h"
#include "progress.h"
#include "track/run_directory.h"
#include "track/run_store.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

namespace kiln::cli {
namespace {

namespace fs = std::filesystem;

struct RunsArguments {
    std::string run;  // a run directory or its run.db
    long long id = 0; // 0: the newest run in it
    std::string format = "csv";
    std::string out; // export: a file instead of stdout
    bool overwrite = false;
};

// Where `runs export` may write: a new file, or (with --overwrite) a file that is neither a
// device (a rename replaced /dev/full with the CSV) nor the database being read, nor one of the
// run's own files (its log, checkpoints and models).
void check_export_target(const fs::path& out, const fs::path& database, bool overwrite) {
    std::error_code error;
    const fs::path inside =
        fs::weakly_canonical(out, error)
            .lexically_relative(fs::weakly_canonical(database, error).parent_path());
    if (!inside.empty() && *inside.begin() != ".." &&
        kiln::track::RunDirectory::is_run_entry(inside.begin()->string())) {
        throw Error("--out \"" + out.string() + "\" is the run's own " + inside.string() +
                    "; give a file outside the run's files");
    }
    if (!fs::exists(out, error)) {
        return;
    }
    if (!fs::is_regular_file(out, error)) {
        throw Error("--out \"" + out.string() + "\" exists and is not a file; give a file name");
    }
    if (fs::equivalent(out, database, error)) {
        throw Error("--out \"" + out.string() +
                    "\" is the run database being exported; give another file");
    }
    if (!overwrite) {
        throw Error("--out \"" + out.string() +
                    "\" exists; add --overwrite to replace it, or give another file");
    }
}

// A run directory, or its run.db, to the database file.
fs::path database_of(const std::string& run) {
    const fs::path path(run);
    if (fs::is_directory(path)) {
        return kiln::track::RunDirectory(path).run_db();
    }
    return path;
}

std::string local_time(double unix_seconds) {
    if (unix_seconds <= 0) { // the store's "unknown"
        return "unknown";
    }
    const auto seconds = static_cast<std::time_t>(unix_seconds);
    std::tm local{};
    localtime_r(&seconds, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
    return text;
}

// The shortest text that reads back as the same double.
std::string shortest(double value) {
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// The run with `id`, or the newest.
track::RunRecord pick_run(const track::RunReader& store, long long id) {
    if (id > 0) {
        const std::optional<track::RunRecord> run = store.run(id);
        if (!run) {
            throw Error("\"" + store.file().string() + "\" has no run " + std::to_string(id) +
                        "; `kiln runs list` shows the ids");
        }
        return *run;
    }
    const std::vector<track::RunRecord> runs = store.runs();
    if (runs.empty()) {
        throw Error("\"" + store.file().string() + "\" has no runs yet");
    }
    return runs.back();
}

int run_runs_list(const std::string& directory, std::ostream& out) {
    const fs::path root(directory);
    if (!fs::is_directory(root)) {
        throw Error("\"" + directory + "\" is not a directory; give the folder that holds runs");
    }
    std::vector<fs::path> databases;
    if (fs::exists(kiln::track::RunDirectory(root).run_db())) {
        databases.push_back(kiln::track::RunDirectory(root).run_db());
    }
    for (auto entry =
             fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
         entry != fs::recursive_directory_iterator(); ++entry) {
        if (entry.depth() >= 2) {
            entry.disable_recursion_pending();
        }
        if (entry->is_directory() &&
            fs::exists(kiln::track::RunDirectory(entry->path()).run_db())) {
            databases.push_back(kiln::track::RunDirectory(entry->path()).run_db());
        }
    }
    std::sort(databases.begin(), databases.end());
    if (databases.empty()) {
        out << "no runs under " << directory << "\n";
        return 0;
    }
    char line[512];
    std::snprintf(line, sizeof line, "%-28s %4s  %-11s  %-7s %-10s %-16s %9s %7s %9s %8s %9s\n",
                  "RUN", "ID", "STATUS", "METHOD", "MODEL", "STARTED", "DURATION", "STEPS", "LOSS",
                  "IMG/S", "DATA_WAIT");
    out << line;
    for (const fs::path& database : databases) {
        const std::string name = terminal_text(fs::relative(database.parent_path(), root).string());
        std::string lines; // a database's rows, printed once it read whole
        try {
            const track::RunReader store(database);
            for (const track::RunRecord& run : store.runs()) {
                const track::RunOverview overview = store.overview(run);
                std::snprintf(
                    line, sizeof line,
                    "%-28s %4lld  %-11s  %-7s %-10s %-16s %9s %7lld %9.4f %8.1f %8.1f%%\n",
                    name.c_str(), static_cast<long long>(run.id),
                    track::to_string(run.status).c_str(), terminal_text(run.method).c_str(),
                    terminal_text(run.model).c_str(), local_time(run.started).c_str(),
                    clock_text(overview.duration).c_str(), static_cast<long long>(overview.steps),
                    overview.final_loss, overview.median_images_per_second,
                    100.0 * overview.median_data_wait);
                lines += line;
            }
        } catch (const std::exception& error) { // one damaged run.db hid every run after it
            log::warning(std::string("skipped: ") + error.what());
            continue;
        }
        out << lines;
    }
    return 0;
}

int run_runs_show(const RunsArguments& arguments, std::ostream& out) {
    const track::RunReader store(database_of(arguments.run));
    const track::RunRecord run = pick_run(store, arguments.id);
    const track::RunOverview overview = store.overview(run);
    out << "run " << run.id << " in " << terminal_text(store.file().string()) << "\n";
    if (!run.labels.name.empty()) {
        out << "  name       " << terminal_text(run.labels.name) << "\n";
    }
    if (!run.labels.tags.empty()) {
        std::string tags;
        for (const std::string& tag : run.labels.tags) {
            tags += (tags.empty() ? "" : ", ") + tag;
        }
        out << "  tags       " << terminal_text(tags) << "\n";
    }
    if (!run.labels.notes.empty()) {
        out << "  notes      " << terminal_text(run.labels.notes) << "\n";
    }
    out << "  status     " << track::to_string(run.status) << "\n";
    out << "  method     " << terminal_text(run.method) << ", model " << terminal_text(run.model)
        << "\n";
    out << "  host       " << terminal_text(run.host) << " (pid " << run.pid << ")\n";
    out << "  started    " << local_time(run.started) << ", ran " << clock_text(overview.duration)
        << "\n";
    out << "  steps      " << overview.steps << ", final loss "
        << format("%.4f", overview.final_loss) << "\n";
    if (overview.best_validation) {
        out << "  task       " << terminal_text(overview.task) << ", best "
            << terminal_text(overview.watch_metric) << " "
            << format("%.4f", *overview.best_validation) << "\n";
    }
    out << "  throughput " << format("%.1f", overview.median_images_per_second)
        << " images/s (median), data_wait " << format("%.1f", 100.0 * overview.median_data_wait)
        << "% (median)\n";
    // What run.db holds may come from anyone's run: text of another shape is left out.
    const auto text = [](const nlohmann::json& value) {
        return value.is_string() ? terminal_text(value.get<std::string>()) : std::string();
    };
    const nlohmann::json advice = parse_json_or_discarded(run.advice);
    if (advice.is_object()) {
        out << "  bottleneck " << text(advice.value("diagnosis", nlohmann::json())) << "\n";
        for (const auto& item : advice.value("advice", nlohmann::json::array())) {
            out << "             - " << text(item) << "\n";
        }
    }
    const nlohmann::json summary = parse_json_or_discarded(run.summary);
    if (summary.is_object() && summary.contains("error")) {
        out << "  error      " << text(summary["error"]) << "\n";
    }
    const std::vector<track::ArtifactRecord> artifacts = store.artifacts(run.id);
    for (const track::ArtifactRecord& artifact : artifacts) {
        const std::string kind = terminal_text(artifact.kind);
        out << "  " << kind << (kind.size() < 11 ? std::string(11 - kind.size(), ' ') : " ")
            << terminal_text(artifact.path) << "\n";
    }
    out << "metrics (count, last, min, max):\n";
    for (const std::string& key : store.metric_keys(run.id)) {
        const std::vector<track::MetricPoint> points = store.metrics(run.id, key);
        double low = points.front().value, high = low;
        for (const track::MetricPoint& point : points) {
            low = std::min(low, point.value);
            high = std::max(high, point.value);
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %-26s %7zu %12.6g %12.6g %12.6g\n",
                      terminal_text(key).c_str(), points.size(), points.back().value, low, high);
        out << line;
    }
    const std::vector<track::EventRecord> events = store.events(run.id);
    out << "events (last " << std::min<std::size_t>(events.size(), 10) << " of " << events.size()
        << "):\n";
    for (std::size_t i = events.size() > 10 ? events.size() - 10 : 0; i < events.size(); ++i) {
        out << "  " << local_time(events[i].wall_time) << " " << terminal_text(events[i].level)
            << ": " << terminal_text(events[i].message) << "\n";
    }
    return 0;
}

int run_runs_export(const RunsArguments& arguments, std::ostream& out) {
    if (arguments.format != "csv" && arguments.format != "jsonl") {
        throw Error("unknown export format '" + arguments.format + "'; use csv or jsonl");
    }
    const fs::path database = database_of(arguments.run);
    if (!arguments.out.empty()) {
        check_export_target(arguments.out, database, arguments.overwrite);
    }
    const track::RunReader store(database);
    const track::RunRecord run = pick_run(store, arguments.id);
    const std::vector<std::string> keys = store.metric_keys(run.id);
    struct Row {
        std::int64_t epoch = 0;
        double wall_time = 0;
        std::map<std::string, double> values;
    };
    std::map<std::int64_t, Row> rows;
    for (const track::MetricPoint& point : store.metrics(run.id)) {
        Row& row = rows[point.step];
        row.epoch = point.epoch;
        row.wall_time = std::max(row.wall_time, point.wall_time);
        row.values[point.key] = point.value;
    }
    std::ostringstream text;
    if (arguments.format == "csv") {
        text << "step,epoch,time";
        for (const std::string& key : keys) {
            text << "," << csv_field(key); // a key from someone's run.db may hold a comma
        }
        text << "\n";
        for (const auto& [step, row] : rows) {
            text << step << "," << row.epoch << "," << shortest(row.wall_time);
            for (const std::string& key : keys) {
                text << ",";
                const auto found = row.values.find(key);
                if (found != row.values.end()) {
                    text << shortest(found->second);
                }
            }
            text << "\n";
        }
    } else {
        for (const auto& [step, row] : rows) {
            nlohmann::json line = {{"step", step}, {"epoch", row.epoch}, {"time", row.wall_time}};
            for (const auto& [key, value] : row.values) {
                line[key] = value;
            }
            // Keys from someone's run.db (a class name in Latin-1) may not be UTF-8.
            text << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        }
    }
    if (arguments.out.empty()) {
        out << text.str();
    } else {
        write_file_atomically(arguments.out, text.str());
        out << "wrote " << rows.size() << " steps of run " << run.id << " to " << arguments.out
            << "\n";
    }
    return 0;
}

} // namespace

void add_runs_commands(CLI::App& app, Commands& commands) {
    CLI::App* runs = app.add_subcommand("runs", "the runs recorded in run directories (run.db)");
    runs->require_subcommand(1);
    auto runs_directory = std::make_shared<std::string>(".");
    CLI::App* runs_list = runs->add_subcommand("list", "a table of every run under a folder");
    runs_list->add_option("dir", *runs_directory, "a run directory or a folder of them")
        ->capture_default_str();
    auto runs_arguments = std::make_shared<RunsArguments>();
    CLI::App* runs_show = runs->add_subcommand("show", "one run: status, figures, advice, events");
    CLI::App* runs_export =
        runs->add_subcommand("export", "a run's metrics, one row per step, as csv or jsonl");
    for (CLI::App* command : {runs_show, runs_export}) {
        command->add_option("run", runs_arguments->run, "a run directory or its run.db")
            ->required();
        command->add_option("--id", runs_arguments->id, "which run in it (default: the newest)")
            ->check(CLI::PositiveNumber);
    }
    runs_export->add_option("--format", runs_arguments->format, "csv or jsonl")
        ->check(CLI::IsMember({"csv", "jsonl"}))
        ->capture_default_str();
    runs_export->add_option("--out", runs_arguments->out, "write to this file (default: stdout)");
    runs_export->add_flag("--overwrite", runs_arguments->overwrite,
                          "replace the --out file if it exists");
    commands.add(runs_list, [runs_directory](std::ostream& out) {
        return run_runs_list(*runs_directory, out);
    });
    commands.add(runs_show, [runs_arguments](std::ostream& out) {
        return run_runs_show(*runs_arguments, out);
    });
    commands.add(runs_export, [runs_arguments](std::ostream& out) {
        return run_runs_export(*runs_arguments, out);
    });
}

} // namespace kiln::cli
