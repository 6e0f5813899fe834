#include "track/run_lock.h"

#include "core/error.h"
#include "core/log.h"
#include "track/run_directory.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace kiln::track {
namespace {

std::string holder_of(int descriptor) {
    std::array<char, 256> text{};
    const ssize_t length = ::pread(descriptor, text.data(), text.size() - 1, 0);
    std::string holder = length > 0 ? std::string(text.data(), std::size_t(length)) : "";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\r')) {
        holder.pop_back();
    }
    return holder.empty() ? "a process that has not yet written its name" : holder;
}

// The exclusive lock, waiting out a reader's moment of holding it shared (run_holds_its_out).
bool claimed(int descriptor) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        if (::flock(descriptor, LOCK_EX | LOCK_NB) == 0) {
            return true;
        }
        if (errno != EWOULDBLOCK) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    errno = EWOULDBLOCK;
    return false;
}

std::string this_process() {
    std::array<char, 256> host{};
    ::gethostname(host.data(), host.size() - 1);
    return "pid " + std::to_string(::getpid()) + " on host " + host.data();
}

} // namespace

RunLock::RunLock(const std::filesystem::path& out) {
    std::error_code error;
    std::filesystem::create_directories(out, error);
    if (error) { // the lock's own error would be "No such file or directory"
        throw Error("cannot create out \"" + out.string() + "\": " + error.message() +
                    "; choose an out you can write to");
    }
    const std::filesystem::path file = RunDirectory(out).lock();
    // Not through a link: a run folder from someone else could point its lock at a file of the
    // user's, which the holder's name would then replace.
    descriptor_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (descriptor_ < 0 && errno == ELOOP) {
        throw Error("\"" + file.string() +
                    "\" is a symbolic link; a run's lock is a file of its own: remove the link "
                    "and start again");
    }
    if (descriptor_ < 0) {
        throw Error("cannot create \"" + file.string() + "\" to claim out for this run: " +
                    std::strerror(errno) + "; choose an out you can write to");
    }
    if (!claimed(descriptor_)) {
        const int failure = errno;
        const std::string holder = holder_of(descriptor_);
        ::close(descriptor_);
        descriptor_ = -1;
        if (failure == EWOULDBLOCK) {
            throw Error("out \"" + out.string() + "\" is in use by another Kiln run (" + holder +
                        "); wait for it to end, stop it, or choose another out");
        }
        throw Error("cannot lock \"" + file.string() + "\": " + std::strerror(failure));
    }
    const std::string holder = this_process() + "\n";
    if (::ftruncate(descriptor_, 0) != 0 ||
        ::pwrite(descriptor_, holder.data(), holder.size(), 0) != ssize_t(holder.size())) {
        log::warning("cannot write this run's name into \"" + file.string() +
                     "\"; the lock holds, but a second run will not be told whose it is");
    }
}

std::optional<bool> run_holds_its_out(const std::filesystem::path& out) {
    const int descriptor =
        ::open(RunDirectory(out).lock().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (descriptor < 0) {
        return std::nullopt; // a run of a Kiln before the lock, or moved without it
    }
    const bool free = ::flock(descriptor, LOCK_SH | LOCK_NB) == 0;
    ::close(descriptor); // releases it at once
    return !free;
}

RunLock::~RunLock() {
    if (descriptor_ >= 0) {
        ::close(descriptor_); // releases the flock
    }
}

} // namespace kiln::track
