#include "core/log.h"

#include <atomic>
#include <exception>
#include <iostream>
#include <map>
#include <mutex>

namespace kiln::log {
namespace {

struct Registered {
    Sink sink;
    int job = 0; // 0: hears every job
};

struct Registry {
    std::mutex mutex;
    std::map<int, Registered> sinks;
    int next_id = 0;
};

std::atomic<int> last_job{0};
thread_local int this_threads_job = 0;

Registry& registry() {
    static Registry instance;
    return instance;
}

} // namespace

std::string to_string(Level level) {
    switch (level) {
    case Level::Debug:
        return "debug";
    case Level::Info:
        return "info";
    case Level::Warning:
        return "warning";
    case Level::Error:
        return "error";
    }
    return "info";
}

int current_job() {
    return this_threads_job;
}

JobScope::JobScope() : JobScope(++last_job) {}

JobScope::JobScope(int job) : job_(job), outer_(this_threads_job) {
    this_threads_job = job;
}

JobScope::~JobScope() {
    this_threads_job = outer_;
}

ScopedSink::ScopedSink(Sink sink) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    id_ = r.next_id++;
    r.sinks.emplace(id_, Registered{std::move(sink), current_job()});
}

ScopedSink::~ScopedSink() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.sinks.erase(id_);
}

void write(Level level, const std::string& message) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    const int job = current_job();
    bool heard = false;
    for (const auto& [id, registered] : r.sinks) {
        if (registered.job == 0 || registered.job == job) {
            // A sink that cannot take the line (run.db past a full disk) must not take the
            // thread that logs with it: a warning from a monitor thread ended the process.
            try {
                registered.sink(level, message);
                heard = true;
            } catch (const std::exception&) {
            }
        }
    }
    if (!heard && level >= Level::Warning) {
        std::cerr << to_string(level) << ": " << message << std::endl;
    }
}

} // namespace kiln::log
