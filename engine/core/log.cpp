#include "core/log.h"

#include <iostream>
#include <map>
#include <mutex>

namespace kiln::log {
namespace {

struct Registry {
    std::mutex mutex;
    std::map<int, Sink> sinks;
    int next_id = 0;
};

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

ScopedSink::ScopedSink(Sink sink) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    id_ = r.next_id++;
    r.sinks.emplace(id_, std::move(sink));
}

ScopedSink::~ScopedSink() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.sinks.erase(id_);
}

void write(Level level, const std::string& message) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (r.sinks.empty()) {
        if (level >= Level::Warning) {
            std::cerr << to_string(level) << ": " << message << std::endl;
        }
        return;
    }
    for (const auto& [id, sink] : r.sinks) {
        sink(level, message);
    }
}

} // namespace kiln::log
