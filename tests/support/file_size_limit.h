#pragma once

#include <csignal>
#include <cstdint>
#include <sys/resource.h>

namespace kiln::test {

// Stands in for a full disk while it lives: a write past `bytes` in any file fails (EFBIG)
// instead of raising SIGXFSZ. The previous limit and signal handling come back after.
class FileSizeLimit {
public:
    explicit FileSizeLimit(std::uint64_t bytes) : handler_(std::signal(SIGXFSZ, SIG_IGN)) {
        if (getrlimit(RLIMIT_FSIZE, &before_) != 0) {
            return;
        }
        rlimit limited = before_;
        limited.rlim_cur = bytes;
        applied_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    // Whether the limit holds (a test that needs it checks).
    bool applied() const { return applied_; }
    ~FileSizeLimit() {
        if (applied_) {
            setrlimit(RLIMIT_FSIZE, &before_);
        }
        std::signal(SIGXFSZ, handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    void (*handler_)(int);
    rlimit before_{};
    bool applied_ = false;
};

} // namespace kiln::test
