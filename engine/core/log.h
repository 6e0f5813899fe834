#pragma once

#include <functional>
#include <string>
#include <utility>

namespace kiln::log {

enum class Level { Debug, Info, Warning, Error };

std::string to_string(Level level);

using Sink = std::function<void(Level, const std::string& message)>;

// A line held until where it is written exists (a run's train.log).
struct Line {
    Level level = Level::Info;
    std::string message;
};

// The job the calling thread works for; 0 outside any job (the command line's one job).
int current_job();

// Makes the calling thread work for a job until the scope ends: a new one (Studio starts each
// run, embedding or scan as one), or `job` for a thread started on a job's behalf.
class JobScope {
public:
    JobScope();
    explicit JobScope(int job);
    ~JobScope();
    JobScope(const JobScope&) = delete;
    JobScope& operator=(const JobScope&) = delete;

    int job() const { return job_; }

private:
    int job_;
    int outer_;
};

// `function`, to be run on a new thread for the job of the thread that wraps it, so that the
// lines that thread logs (a loader's skipped image) reach its job's sinks.
template <typename Function> auto for_this_job(Function function) {
    return [job = current_job(), function = std::move(function)](auto&&... arguments) mutable {
        const JobScope scope(job);
        return function(std::forward<decltype(arguments)>(arguments)...);
    };
}

// Routes log lines to a sink (train.log, the GUI, the terminal) for as long as the object
// lives. A sink registered within a job hears only that job's lines, so that a run's train.log
// and Studio's list of its warnings hold none of what another job logs beside it; one
// registered outside any job hears every line. Warnings and errors no sink hears go to stderr.
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
