#include "core/atomic_file.h"

#include "core/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace kiln {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int error) {
    throw Error("cannot write \"" + path.string() + "\": " + what + ": " + std::strerror(error) +
                (error == ENOSPC ? "; free some disk space and try again" : ""));
}

// umask can only be read by setting it, so read it once, before worker threads write files.
mode_t process_umask() {
    static const mode_t mask = [] {
        const mode_t current = ::umask(0);
        ::umask(current);
        return current;
    }();
    return mask;
}

} // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents,
                           Durability durability) {
    const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
    std::error_code created;
    std::filesystem::create_directories(folder, created);
    if (created) {
        fail(path, "cannot create its folder", created.value());
    }
    std::string temp = (folder / ("." + path.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) {
        fail(path, "cannot create a temporary file", errno);
    }
    const auto abandon = [&](const std::string& what) {
        const int error = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        fail(path, what, error);
    };
    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            abandon("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
    // mkstemp creates files readable by the owner only; make it an ordinary file.
    if (::fchmod(fd, 0666 & ~process_umask()) != 0 ||
        (durability == Durability::Synced && ::fsync(fd) != 0)) {
        abandon("flush failed");
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail(path, "close failed", error);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail(path, "rename failed", error);
    }
}

} // namespace kiln
