#pragma once

#include <functional>
#include <string>

namespace kiln::log {

enum class Level { Debug, Info, Warning, Error };

std::string to_string(Level level);

using Sink = std::function<void(Level, const std::string& message)>;

// A line held until where it is written exists (a run's train.log).
struct Line {
    Level level = Level::Info;
    std::string message;
};

// Routes log lines to every registered sink (train.log, the GUI, the terminal) for as long as
// the object lives. With no sink registered, warnings and errors go to stderr.
class ScopedSink {
public:
    explicit ScopedSink(Sink sink);
    ~ScopedSink();
    ScopedSink(const ScopedSink&) = delete;
    ScopedSink& operator=(const ScopedSink&) = delete;

private:
    int id_;
};

void write(Level level, const std::string& message);
inline void debug(const std::string& message) {
    write(Level::Debug, message);
}
inline void info(const std::string& message) {
    write(Level::Info, message);
}
inline void warning(const std::string& message) {
    write(Level::Warning, message);
}
inline void error(const std::string& message) {
    write(Level::Error, message);
}

} // namespace kiln::log
