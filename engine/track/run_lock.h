#pragma once

#include <filesystem>
#include <optional>

namespace kiln::track {

// Whether a process holds `out`'s run lock: a run records its pid, and a pid can be reused (in a
// container, pids start again at 1). nullopt where out has no lock file. Holds the lock shared
// for a moment to find out, which RunLock waits out.
std::optional<bool> run_holds_its_out(const std::filesystem::path& out);

// The run's claim on its `out` folder for its lifetime: an advisory lock (flock) on the
// folder's .kiln.lock, which names the holder's pid and host. A second run into the same out,
// from this process or another on a filesystem with working flock, gets a kiln::Error naming
// the holder instead of mixing its files into the first run's. The lock ends with the object or
// with the process, however it dies; the file stays (removing it would race with a new holder).
class RunLock {
public:
    explicit RunLock(const std::filesystem::path& out); // creates out when needed
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

private:
    int descriptor_ = -1;
};

} // namespace kiln::track
