#include "distributed/launcher.h"

#include "core/error.h"
#include "core/log.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace kiln::distributed {
namespace {

struct Child {
    int rank = 0;
    pid_t pid = -1;
    int stderr_fd = -1;
    std::string partial_line;
    std::string last_error;    // the last "error: " line it printed
    std::optional<int> status; // waitpid's, once it exited
};

constexpr int kStoppedExitCode = 130; // the run was stopped, on every rank at the same step

bool failed(const Child& child) {
    return child.status &&
           !(WIFEXITED(*child.status) &&
             (WEXITSTATUS(*child.status) == 0 || WEXITSTATUS(*child.status) == kStoppedExitCode));
}

std::string describe_failure(const Child& child) {
    std::string text = "rank " + std::to_string(child.rank) + " failed: ";
    if (!child.last_error.empty()) {
        return text + child.last_error;
    }
    if (WIFSIGNALED(*child.status)) {
        const int signal = WTERMSIG(*child.status);
        return text + "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
    }
    return text + "exited with code " + std::to_string(WEXITSTATUS(*child.status));
}

// torchrun's variables for one rank, replacing any the parent has.
std::vector<std::string> rank_environment(const RankEnvironment& node, int local_rank,
                                          int master_port) {
    const std::vector<std::pair<std::string, std::string>> values = {
        {"RANK", std::to_string(node.rank + local_rank)},
        {"LOCAL_RANK", std::to_string(local_rank)},
        {"WORLD_SIZE", std::to_string(node.world_size)},
        {"LOCAL_WORLD_SIZE", std::to_string(node.local_world_size)},
        {"NODE_RANK", std::to_string(node.node_rank)},
        {"MASTER_ADDR", node.master_addr},
        {"MASTER_PORT", std::to_string(master_port)},
    };
    std::vector<std::string> environment;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string text = *entry;
        const std::string name = text.substr(0, text.find('='));
        if (std::none_of(values.begin(), values.end(),
                         [&](const auto& value) { return value.first == name; })) {
            environment.push_back(text);
        }
    }
    for (const auto& [name, value] : values) {
        environment.push_back(name + "=" + value);
    }
    return environment;
}

void close_descriptors_from(int first, int highest) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, ~0U, 0) == 0) {
        return;
    }
#endif
    for (int fd = first; fd <= highest; ++fd) {
        close(fd);
    }
}

} // namespace

class LocalRanks::Monitor {
public:
    Monitor(const std::string& config_json, const RankEnvironment& node, int master_port) {
        const std::string executable = std::filesystem::read_symlink("/proc/self/exe").string();
        try {
            for (int local_rank = 1; local_rank < node.local_world_size; ++local_rank) {
                children_.push_back(start(executable, config_json, node, local_rank, master_port));
            }
        } catch (const Error&) { // none of the ranks started so far may stay behind
            for (const Child& child : children_) {
                kill(child.pid, SIGKILL);
                waitpid(child.pid, nullptr, 0);
                close(child.stderr_fd);
            }
            throw;
        }
        thread_ = std::thread(log::for_this_job([this] { watch(); }));
    }

    ~Monitor() {
        std::unique_lock<std::mutex> lock(mutex_);
        signal_running(SIGTERM);
        if (!changed_.wait_for(lock, std::chrono::seconds(5), [&] { return all_exited(); })) {
            signal_running(SIGKILL);
        }
        changed_.wait(lock, [&] { return all_exited(); });
        lock.unlock();
        thread_.join();
    }

    std::optional<std::string> failure(std::chrono::milliseconds wait) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait_for(lock, wait, [&] { return first_failure() != nullptr; });
        const Child* child = first_failure();
        return child ? std::optional<std::string>(describe_failure(*child)) : std::nullopt;
    }

    void wait_for_exit(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait_for(lock, timeout, [&] { return all_exited(); });
        if (const Child* child = first_failure()) {
            throw Error(describe_failure(*child));
        }
        for (const Child& child : children_) {
            if (!child.status) {
                throw Error("rank " + std::to_string(child.rank) + " did not end within " +
                            std::to_string(timeout.count() / 1000) +
                            " s after the run finished; it was stopped");
            }
        }
    }

private:
    static Child start(const std::string& executable, const std::string& config_json,
                       const RankEnvironment& node, int local_rank, int master_port) {
        Child child;
        child.rank = node.rank + local_rank;
        // The whole config is in the pipe before the child exists: nothing can block on it.
        int config_pipe[2];
        int error_pipe[2];
        if (pipe2(config_pipe, O_CLOEXEC) != 0 || pipe2(error_pipe, O_CLOEXEC) != 0) {
            throw Error(std::string("cannot start the rank processes: ") + std::strerror(errno));
        }
        // Never blocks: a config larger than the pipe is an error, not a hang.
        fcntl(config_pipe[1], F_SETFL, O_NONBLOCK);
        fcntl(config_pipe[1], F_SETPIPE_SZ, static_cast<int>(config_json.size() + 4096));
        const ssize_t written = write(config_pipe[1], config_json.data(), config_json.size());
        close(config_pipe[1]);
        if (written != static_cast<ssize_t>(config_json.size())) {
            for (const int fd : {config_pipe[0], error_pipe[0], error_pipe[1]}) {
                close(fd);
            }
            throw Error("cannot hand the configuration to rank " + std::to_string(child.rank) +
                        ": it is too large for a pipe");
        }
        // Everything the child needs is prepared before fork: after it, only exec-safe calls.
        const std::vector<std::string> environment =
            rank_environment(node, local_rank, master_port);
        std::vector<char*> envp;
        for (const std::string& entry : environment) {
            envp.push_back(const_cast<char*>(entry.c_str()));
        }
        envp.push_back(nullptr);
        std::vector<char*> argv = {const_cast<char*>(executable.c_str()),
                                   const_cast<char*>(kRankProcessArgument), nullptr};
        const int highest_fd = static_cast<int>(std::min(sysconf(_SC_OPEN_MAX), 65536L));
        const pid_t parent = getpid();
        sigset_t all_signals;
        sigemptyset(&all_signals);

        child.pid = fork();
        if (child.pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL); // no rank outlives its launcher
            if (getppid() != parent) {
                _exit(127);
            }
            sigprocmask(SIG_SETMASK, &all_signals, nullptr);
            dup2(config_pipe[0], STDIN_FILENO);
            dup2(error_pipe[1], STDERR_FILENO);
            close_descriptors_from(3, highest_fd);
            execve(argv[0], argv.data(), envp.data());
            _exit(127);
        }
        const int fork_error = errno;
        close(config_pipe[0]);
        close(error_pipe[1]);
        if (child.pid < 0) {
            close(error_pipe[0]);
            throw Error(std::string("cannot start the rank processes: ") +
                        std::strerror(fork_error));
        }
        child.stderr_fd = error_pipe[0];
        return child;
    }

    bool all_exited() const {
        return std::all_of(children_.begin(), children_.end(),
                           [](const Child& child) { return child.status.has_value(); });
    }

    const Child* first_failure() const {
        for (const Child& child : children_) {
            if (failed(child)) {
                return &child;
            }
        }
        return nullptr;
    }

    void signal_running(int signal) {
        for (const Child& child : children_) {
            if (!child.status) {
                kill(child.pid, signal);
            }
        }
    }

    // Passes each line a rank prints on to Kiln's log, at the level it was printed with.
    static void forward(Child& child, const std::string& line) {
        const std::string prefix = "rank " + std::to_string(child.rank) + ": ";
        if (line.rfind("error: ", 0) == 0) {
            child.last_error = line.substr(7);
            log::error(prefix + child.last_error);
        } else if (line.rfind("warning: ", 0) == 0) {
            log::warning(prefix + line.substr(9));
        } else if (!line.empty()) {
            log::warning(prefix + line);
        }
    }

    void watch() {
        while (true) {
            std::vector<pollfd> open;
            std::vector<Child*> owners;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                for (Child& child : children_) {
                    if (child.stderr_fd >= 0) {
                        open.push_back({child.stderr_fd, POLLIN, 0});
                        owners.push_back(&child);
                    }
                }
                if (open.empty() && all_exited()) {
                    return;
                }
            }
            poll(open.data(), open.size(), 50);
            std::vector<std::pair<Child*, std::string>> lines;
            for (std::size_t i = 0; i < open.size(); ++i) {
                if (open[i].revents == 0) {
                    continue;
                }
                char buffer[4096];
                const ssize_t count = read(open[i].fd, buffer, sizeof buffer);
                const std::lock_guard<std::mutex> lock(mutex_);
                Child& child = *owners[i];
                if (count <= 0) {
                    if (count < 0 && errno == EINTR) {
                        continue;
                    }
                    close(child.stderr_fd);
                    child.stderr_fd = -1;
                    if (!child.partial_line.empty()) {
                        lines.emplace_back(&child, child.partial_line);
                        child.partial_line.clear();
                    }
                    continue;
                }
                child.partial_line.append(buffer, static_cast<std::size_t>(count));
                std::size_t end;
                while ((end = child.partial_line.find('\n')) != std::string::npos) {
                    lines.emplace_back(&child, child.partial_line.substr(0, end));
                    child.partial_line.erase(0, end + 1);
                }
            }
            for (auto& [child, line] : lines) { // outside the lock: log sinks may take a while
                forward(*child, line);
            }
            const std::lock_guard<std::mutex> lock(mutex_);
            for (Child& child : children_) {
                int status = 0;
                // A rank's last words are read before its exit counts, so failures name them.
                if (!child.status && child.stderr_fd < 0 &&
                    waitpid(child.pid, &status, WNOHANG) == child.pid) {
                    child.status = status;
                    changed_.notify_all();
                }
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Child> children_;
    std::thread thread_;
};

LocalRanks::LocalRanks(const std::string& config_json, const RankEnvironment& node, int master_port)
    : monitor_(std::make_unique<Monitor>(config_json, node, master_port)) {}

LocalRanks::~LocalRanks() = default;

std::optional<std::string> LocalRanks::failure(std::chrono::milliseconds wait) const {
    return monitor_->failure(wait);
}

void LocalRanks::wait_for_exit(std::chrono::milliseconds timeout) {
    monitor_->wait_for_exit(timeout);
}

} // namespace kiln::distributed
