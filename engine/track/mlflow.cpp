#include "track/mlflow.h"

#include "config/config_overrides.h"
#include "config/logger_settings.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "core/text.h"
#include "track/run_directory.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <httplib.h>
#include <map>
#include <random>
#include <set>
#include <unistd.h>

namespace kiln::track {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxMetricsPerBatch = 1000; // MLflow's log-batch limits
constexpr std::size_t kMaxParamsPerBatch = 100;
// The longest a run's end waits for a tracking server: SLURM gives a job 30 s after SIGTERM.
constexpr auto kEndBudget = std::chrono::seconds(10);

// Aborts `client`'s requests once `budget` has passed, until it is destroyed: what is still
// unsent then is given up (run.db and metrics.jsonl have it).
class RequestDeadline {
public:
    RequestDeadline(httplib::Client& client, std::atomic<bool>& expired,
                    std::chrono::steady_clock::duration budget)
        : watcher_([this, &client, &expired, budget] {
              std::unique_lock<std::mutex> lock(mutex_);
              if (done_changed_.wait_for(lock, budget, [this] { return done_; })) {
                  return;
              }
              expired = true;
              while (!done_) { // stop() ends the request in flight only: repeat until done
                  client.stop();
                  done_changed_.wait_for(lock, std::chrono::milliseconds(50));
              }
          }) {}
    ~RequestDeadline() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        done_changed_.notify_all();
        watcher_.join();
    }
    RequestDeadline(const RequestDeadline&) = delete;
    RequestDeadline& operator=(const RequestDeadline&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable done_changed_;
    bool done_ = false;
    std::thread watcher_;
};

long long milliseconds(double unix_seconds) {
    return static_cast<long long>(unix_seconds * 1000);
}

std::string random_run_id() {
    std::random_device device;
    std::mt19937_64 random(device());
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(random()),
                  static_cast<unsigned long long>(random()));
    return text;
}

std::string user_name() {
    const char* user = std::getenv("USER");
    return user != nullptr ? user : "";
}

// YAML single-quoted scalar.
std::string yaml_quoted(const std::string& text) {
    std::string result = "'";
    for (char c : text) {
        result += c == '\'' ? std::string("''") : std::string(1, c);
    }
    return result + "'";
}

std::string file_uri(const fs::path& path) {
    return "file://" + fs::absolute(path).string();
}

// MLflow's file store: mlruns/<experiment id>/<run id>/{meta.yaml, metrics, params, tags}.
class FileStore : public MlflowStore {
public:
    explicit FileStore(fs::path root) : root_(std::move(root)) {}
    ~FileStore() override {
        for (auto& [key, file] : metric_files_) {
            std::fclose(file);
        }
    }

    std::string start_run(const MlflowSettings& settings, double start_time) override {
        std::error_code error;
        fs::create_directories(root_, error);
        if (error) {
            throw Error("cannot create the MLflow store \"" + root_.string() +
                        "\": " + error.message() + "; check loggers.mlflow.tracking_uri");
        }
        experiment_id_ = find_or_create_experiment(settings.experiment_name, start_time);
        run_id_ = random_run_id();
        run_dir_ = root_ / experiment_id_ / run_id_;
        for (const char* part : {"metrics", "params", "tags", "artifacts"}) {
            fs::create_directories(run_dir_ / part);
        }
        run_name_ = settings.run_name.empty() ? run_id_.substr(0, 8) : settings.run_name;
        start_time_ = start_time;
        write_meta("null", 1);
        write_tag("mlflow.runName", run_name_);
        write_tag("mlflow.user", user_name());
        write_tag("mlflow.source.name", "kiln");
        return run_id_;
    }

    void log_params(const std::vector<std::pair<std::string, std::string>>& params) override {
        for (const auto& [key, value] : params) {
            write_file(run_dir_ / "params" / key, value);
        }
    }

    void log_metrics(std::int64_t step, double wall_time, const MetricValues& values) override {
        for (const auto& [key, value] : values) {
            std::FILE*& file = metric_files_[key];
            if (file == nullptr) {
                const fs::path path = run_dir_ / "metrics" / key;
                fs::create_directories(path.parent_path());
                file = std::fopen(path.c_str(), "a");
                if (file == nullptr) {
                    throw Error("cannot write \"" + path.string() + "\": " + std::strerror(errno));
                }
            }
            std::fprintf(file, "%lld %.17g %lld\n", milliseconds(wall_time), value,
                         static_cast<long long>(step));
            std::fflush(file);
        }
    }

    void end_run(const std::string& status, double end_time) override {
        const int code = status == "FINISHED" ? 3 : status == "FAILED" ? 4 : 5;
        write_meta(std::to_string(milliseconds(end_time)), code);
    }

private:
    std::string find_or_create_experiment(const std::string& name, double now) {
        long long largest = -1;
        for (const auto& entry : fs::directory_iterator(root_)) {
            refuse_unless_regular_file(entry.path() / "meta.yaml", "MLflow experiment file");
            std::ifstream meta(entry.path() / "meta.yaml");
            std::string line;
            while (std::getline(meta, line)) {
                if (line == "name: " + yaml_quoted(name) || line == "name: " + name) {
                    return entry.path().filename().string();
                }
            }
            char* end = nullptr;
            const std::string id = entry.path().filename().string();
            const long long number = std::strtoll(id.c_str(), &end, 10);
            if (end != nullptr && *end == '\0' && !id.empty()) {
                largest = std::max(largest, number);
            }
        }
        // MLflow's file store keeps experiment 0 for "Default".
        const std::string id = name == "Default" ? "0" : std::to_string(std::max(largest, 0LL) + 1);
        const fs::path directory = root_ / id;
        fs::create_directories(directory);
        write_file(directory / "meta.yaml",
                   "artifact_location: " + yaml_quoted(file_uri(directory)) + "\ncreation_time: " +
                       std::to_string(milliseconds(now)) + "\nexperiment_id: " + yaml_quoted(id) +
                       "\nlast_update_time: " + std::to_string(milliseconds(now)) +
                       "\nlifecycle_stage: active\nname: " + yaml_quoted(name) + "\n");
        return id;
    }

    void write_meta(const std::string& end_time, int status) {
        write_file(run_dir_ / "meta.yaml",
                   "artifact_uri: " + yaml_quoted(file_uri(run_dir_ / "artifacts")) +
                       "\nend_time: " + end_time +
                       "\nentry_point_name: ''\nexperiment_id: " + yaml_quoted(experiment_id_) +
                       "\nlifecycle_stage: active\nname: ''\nrun_id: " + run_id_ +
                       "\nrun_name: " + yaml_quoted(run_name_) + "\nrun_uuid: " + run_id_ +
                       "\nsource_name: ''\nsource_type: 4\nsource_version: ''\nstart_time: " +
                       std::to_string(milliseconds(start_time_)) +
                       "\nstatus: " + std::to_string(status) +
                       "\ntags: []\nuser_id: " + yaml_quoted(user_name()) + "\n");
    }

    void write_tag(const std::string& key, const std::string& value) {
        write_file(run_dir_ / "tags" / key, value);
    }

    static void write_file(const fs::path& path, const std::string& text) {
        fs::create_directories(path.parent_path());
        write_file_atomically(path, text, Durability::Buffered);
    }

    fs::path root_;
    fs::path run_dir_;
    std::string experiment_id_;
    std::string run_id_;
    std::string run_name_;
    double start_time_ = 0;
    std::map<std::string, std::FILE*> metric_files_;
};

// The text at `pointer` in an answer, or "": whatever answered may not be MLflow (a login page
// behind a proxy answers 200 too), and nlohmann's const operator[] on a missing key is undefined.
std::string text_at(const nlohmann::json& answer, const char* pointer) {
    const nlohmann::json::json_pointer where(pointer);
    return answer.contains(where) && answer.at(where).is_string()
               ? answer.at(where).get<std::string>()
               : "";
}

// `value` as MLflow's JSON takes a double: a number, or "NaN", "Infinity" or "-Infinity" (which
// JSON has no number for; written as null, the server refused the whole batch).
nlohmann::json json_number(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "Infinity" : "-Infinity";
    }
    return value;
}

// A request the server refused as invalid (HTTP 400: a metric's name it does not accept):
// sending it again cannot help.
class RefusedRequest : public Error {
public:
    using Error::Error;
};

// A tracking server's REST API (api/2.0/mlflow). Metrics are queued and sent in batches once
// a second by a sender thread, so a slow server does not slow training.
class RestStore : public MlflowStore {
public:
    explicit RestStore(const std::string& uri) : uri_(uri) {
        const std::size_t scheme_end = uri.find("://");
        const std::size_t path_start = uri.find('/', scheme_end + 3);
        client_ = std::make_unique<httplib::Client>(uri.substr(0, path_start));
        prefix_ = path_start == std::string::npos ? "" : uri.substr(path_start);
        while (!prefix_.empty() && prefix_.back() == '/') {
            prefix_.pop_back();
        }
        client_->set_connection_timeout(10);
        client_->set_read_timeout(30);
        if (const char* token = std::getenv("MLFLOW_TRACKING_TOKEN")) {
            client_->set_bearer_token_auth(token);
        } else if (const char* user = std::getenv("MLFLOW_TRACKING_USERNAME")) {
            const char* password = std::getenv("MLFLOW_TRACKING_PASSWORD");
            client_->set_basic_auth(user, password != nullptr ? password : "");
        }
    }

    ~RestStore() override {
        const RequestDeadline deadline(*client_, gave_up_, kEndBudget);
        stop_sender();
    }

    std::string start_run(const MlflowSettings& settings, double start_time) override {
        std::string experiment_id;
        const nlohmann::json found =
            call("GET",
                 "experiments/get-by-name?experiment_name=" +
                     httplib::detail::encode_query_param(settings.experiment_name),
                 nullptr, true);
        if (found.contains("experiment")) {
            experiment_id = text_at(found, "/experiment/experiment_id");
        } else {
            experiment_id =
                text_at(call("POST", "experiments/create", {{"name", settings.experiment_name}}),
                        "/experiment_id");
        }
        nlohmann::json tags =
            nlohmann::json::array({{{"key", "mlflow.source.name"}, {"value", "kiln"}},
                                   {{"key", "mlflow.user"}, {"value", user_name()}}});
        nlohmann::json request = {{"experiment_id", experiment_id},
                                  {"start_time", milliseconds(start_time)},
                                  {"tags", tags}};
        if (!settings.run_name.empty()) {
            request["run_name"] = settings.run_name;
        }
        const nlohmann::json created = call("POST", "runs/create", request);
        run_id_ = text_at(created, "/run/info/run_id");
        if (run_id_.empty()) {
            throw Error("the MLflow server at " + uri_ + " created no run: it answered " +
                        quoted_excerpt(created.dump()) + "; is that address an MLflow server?");
        }
        sender_ = std::thread(log::for_this_job([this] { send_loop(); }));
        return run_id_;
    }

    void log_params(const std::vector<std::pair<std::string, std::string>>& params) override {
        for (std::size_t start = 0; start < params.size(); start += kMaxParamsPerBatch) {
            nlohmann::json batch = nlohmann::json::array();
            for (std::size_t i = start; i < std::min(params.size(), start + kMaxParamsPerBatch);
                 ++i) {
                batch.push_back({{"key", params[i].first}, {"value", params[i].second}});
            }
            call("POST", "runs/log-batch", {{"run_id", run_id_}, {"params", batch}});
        }
    }

    void log_metrics(std::int64_t step, double wall_time, const MetricValues& values) override {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& [key, value] : values) {
            if (refused_keys_.contains(key)) {
                continue; // said once, when refused
            }
            queued_.push_back({{"key", key},
                               {"value", json_number(value)},
                               {"timestamp", milliseconds(wall_time)},
                               {"step", step}});
        }
    }

    void end_run(const std::string& status, double end_time) override {
        const RequestDeadline deadline(*client_, gave_up_, kEndBudget);
        stop_sender();
        send_queued(); // the last batches, in the caller's thread
        std::size_t unsent = 0;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            unsent = queued_.size();
        }
        if (unsent > 0) {
            log::warning(std::to_string(unsent) + " metric values could not be sent to MLflow at " +
                         uri_ + "; run.db and metrics.jsonl have them");
        }
        call("POST", "runs/update",
             {{"run_id", run_id_}, {"status", status}, {"end_time", milliseconds(end_time)}});
    }

private:
    nlohmann::json call(const std::string& method, const std::string& endpoint,
                        const nlohmann::json& body, bool missing_is_empty = false) {
        if (gave_up_) {
            throw given_up();
        }
        const std::string path = prefix_ + "/api/2.0/mlflow/" + endpoint;
        const httplib::Result result =
            method == "GET" ? client_->Get(path.c_str())
                            : client_->Post(path.c_str(), body.dump(), "application/json");
        if (!result && gave_up_) {
            throw given_up();
        }
        if (!result) {
            throw Error("cannot reach the MLflow server at " + uri_ + " (" +
                        httplib::to_string(result.error()) +
                        "); check loggers.mlflow.tracking_uri and that the server runs");
        }
        if (result->status == 404 && missing_is_empty) {
            return nlohmann::json::object();
        }
        if (result->status != 200) {
            const std::string message = "the MLflow server at " + uri_ + " answered " + endpoint +
                                        " with HTTP " + std::to_string(result->status) + ": " +
                                        result->body;
            if (result->status == 400) {
                throw RefusedRequest(message);
            }
            throw Error(message);
        }
        const nlohmann::json answer = nlohmann::json::parse(result->body, nullptr, false);
        return answer.is_discarded() ? nlohmann::json::object() : answer;
    }

    Error given_up() const {
        return Error("gave up on the MLflow server at " + uri_ + " after " +
                     std::to_string(kEndBudget.count()) +
                     " s at the end of the run; run.db and metrics.jsonl have every metric");
    }

    // Sends queued metrics in batches; on failure they stay queued for the next attempt.
    void send_queued() {
        while (true) {
            nlohmann::json batch = nlohmann::json::array();
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                const std::size_t count = std::min(queued_.size(), kMaxMetricsPerBatch);
                if (count == 0) {
                    return;
                }
                for (std::size_t i = 0; i < count; ++i) {
                    batch.push_back(queued_[i]);
                }
            }
            try {
                call("POST", "runs/log-batch", {{"run_id", run_id_}, {"metrics", batch}});
            } catch (const RefusedRequest&) {
                if (!send_one_at_a_time(batch)) {
                    return;
                }
                continue;
            } catch (const std::exception& error) { // on this thread, nothing may escape
                warn_unreachable(error);
                return;
            }
            const std::lock_guard<std::mutex> lock(mutex_);
            queued_.erase(queued_.begin(), queued_.begin() + static_cast<long>(batch.size()));
        }
    }

    // The queued metrics of `batch` (the queue's first), one request each, after the server
    // refused them together: a metric it refuses (a name it does not accept) is left out, and
    // its later values too, with a warning, so that one name costs no other metric and is not
    // sent again every second. A server that refuses every metric of several names refuses
    // something else (the run): they stay queued, as when it cannot be reached (false).
    bool send_one_at_a_time(const nlohmann::json& batch) {
        std::map<std::string, std::string> refused; // name: the server's answer
        std::size_t kept = 0;                       // queued first, refused in this pass
        bool any_sent = false;
        for (const nlohmann::json& metric : batch) {
            const std::string key = metric.value("key", std::string());
            if (refused.contains(key)) { // its other values go with it
                ++kept;
                continue;
            }
            try {
                call("POST", "runs/log-batch",
                     {{"run_id", run_id_}, {"metrics", nlohmann::json::array({metric})}});
            } catch (const RefusedRequest& refusal) {
                refused.emplace(key, refusal.what());
                ++kept;
                continue;
            } catch (const std::exception& error) {
                warn_unreachable(error);
                return false;
            }
            any_sent = true;
            const std::lock_guard<std::mutex> lock(mutex_);
            queued_.erase(queued_.begin() + static_cast<long>(kept));
        }
        if (!any_sent && refused.size() > 1) {
            warn_unreachable(Error(refused.begin()->second));
            return false;
        }
        for (const auto& [key, answer] : refused) {
            log::warning("MLflow refused the metric \"" + key +
                         "\", which is left out of MLflow "
                         "from now on (run.db and metrics.jsonl have it): " +
                         answer);
        }
        const std::lock_guard<std::mutex> lock(mutex_);
        std::erase_if(queued_, [&refused](const nlohmann::json& queued) {
            return refused.contains(queued.value("key", std::string()));
        });
        for (const auto& entry : refused) {
            refused_keys_.insert(entry.first);
        }
        return true;
    }

    void warn_unreachable(const std::exception& error) {
        if (!warned_) {
            log::warning(std::string(error.what()) + "; retrying every second");
            warned_ = true;
        }
    }

    void send_loop() {
        std::unique_lock<std::mutex> lock(stop_mutex_);
        while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
            lock.unlock();
            send_queued();
            lock.lock();
        }
    }

    void stop_sender() {
        {
            const std::lock_guard<std::mutex> lock(stop_mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (sender_.joinable()) {
            sender_.join();
        }
    }

    std::string uri_;
    std::string prefix_;
    std::unique_ptr<httplib::Client> client_;
    std::atomic<bool> gave_up_{false}; // the end's time is spent: no more requests
    std::string run_id_;
    std::mutex mutex_;
    std::vector<nlohmann::json> queued_;
    std::set<std::string> refused_keys_; // left out of MLflow: the server refused them
    bool warned_ = false;
    std::mutex stop_mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread sender_;
};

} // namespace

MlflowSettings mlflow_settings(const nlohmann::json& settings, const fs::path& out) {
    MlflowSettings result = config::mlflow_settings(settings);
    if (result.tracking_uri.empty()) {
        result.tracking_uri = "file:" + RunDirectory(out).mlruns().string();
    }
    return result;
}

std::string mlflow_key(const std::string& given) {
    constexpr std::size_t kMostPartBytes = 200; // a file name holds 255
    std::string name = given;
    // A class's name is one part of a per-class metric's key: its slashes would make the
    // metric of class "person" the folder of class "person/rider"'s.
    if (name.starts_with(kPerClassMetricPrefix)) {
        const std::size_t class_start = name.find('/', kPerClassMetricPrefix.size());
        if (class_start != std::string::npos) {
            std::replace(name.begin() + static_cast<long>(class_start) + 1, name.end(), '/', '_');
        }
    }
    std::string key;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = std::min(name.find('/', start), name.size());
        std::string part = name.substr(start, end - start);
        for (char& c : part) {
            const auto byte = static_cast<unsigned char>(c);
            const bool kept = byte >= 0x80 || std::isalnum(byte) != 0 || c == '_' || c == '-' ||
                              c == '.' || c == ' ';
            c = kept ? c : '_';
        }
        if (part.size() > kMostPartBytes) {
            std::size_t cut = kMostPartBytes;
            while (cut > 0 && (static_cast<unsigned char>(part[cut]) & 0xC0) == 0x80) {
                --cut; // not within a UTF-8 character
            }
            part.resize(cut);
        }
        if (part.empty() || part == "." || part == "..") {
            part = std::string(std::max<std::size_t>(1, part.size()), '_');
        }
        key += (start == 0 ? "" : "/") + part;
        if (end == name.size()) {
            return key;
        }
        start = end + 1;
    }
}

std::unique_ptr<MlflowStore> make_mlflow_store(const MlflowSettings& settings) {
    const std::string& uri = settings.tracking_uri;
    config::check_mlflow_tracking_uri(uri);
    if (uri.rfind("http://", 0) == 0 || uri.rfind("https://", 0) == 0) {
        return std::make_unique<RestStore>(uri);
    }
    std::string path = uri;
    for (const char* scheme : {"file://", "file:"}) {
        if (path.rfind(scheme, 0) == 0) {
            path = path.substr(std::strlen(scheme));
            break;
        }
    }
    return std::make_unique<FileStore>(path);
}

MlflowLogger::MlflowLogger(const MlflowSettings& settings, const TrainConfig&)
    : settings_(settings), store_(make_mlflow_store(settings)) {}

const std::string& MlflowKeys::operator()(const std::string& name) {
    if (const auto known = keys_.find(name); known != keys_.end()) {
        return known->second;
    }
    const std::string plain = mlflow_key(name);
    std::string key = plain;
    for (int copy = 2; taken_.contains(key); ++copy) {
        key = plain + "_" + std::to_string(copy);
    }
    if (key != plain) {
        log::warning("MLflow: \"" + name + "\" would share the key \"" + plain +
                     "\" with another name; it is logged as \"" + key + "\"");
    }
    taken_.insert(key);
    return keys_.emplace(name, std::move(key)).first->second;
}

namespace {

template <typename Pairs> Pairs with_mlflow_keys(Pairs pairs, MlflowKeys& keys) {
    for (auto& [key, value] : pairs) {
        key = keys(key);
    }
    return pairs;
}

} // namespace

void MlflowLogger::on_start(const TrainConfig& config, std::int64_t, std::int64_t) {
    run_id_ = store_->start_run(settings_, unix_seconds());
    store_->log_params(with_mlflow_keys(config::flatten_settings(to_json(config)), param_keys_));
}

void MlflowLogger::on_step(const StepMetrics& metrics) {
    store_->log_metrics(metrics.step, unix_seconds(),
                        with_mlflow_keys(step_values(metrics), metric_keys_));
}

void MlflowLogger::on_validation(const ValidationMetrics& metrics) {
    store_->log_metrics(metrics.step, unix_seconds(),
                        with_mlflow_keys(metrics.values, metric_keys_));
}

void MlflowLogger::on_end(const RunSummary& summary) {
    store_->end_run(summary.status == RunSummary::Status::Finished ? "FINISHED" : "KILLED",
                    unix_seconds());
}

void MlflowLogger::on_failure(const std::string&) {
    if (!run_id_.empty()) {
        store_->end_run("FAILED", unix_seconds());
    }
}

} // namespace kiln::track
