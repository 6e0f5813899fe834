#include "core/atomic_file.h"

#include "core/error.h"

#include <cerrno>
#include <chrono>
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

// What a killed process (kill -9, a power cut) left of its writes into `folder`: the entries
// named `prefix` and six random characters, as mkstemp and mkdtemp name them here, untouched
// for an hour (one still being written is touched with every write). A 2 GB embeddings file
// cut short stayed hidden beside the next one for good.
void remove_abandoned_temporaries(const std::filesystem::path& folder, const std::string& prefix) {
    namespace fs = std::filesystem;
    const fs::file_time_type abandoned = fs::file_time_type::clock::now() - std::chrono::hours(1);
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        std::error_code ignored;
        if (name.size() == prefix.size() + 6 && name.rfind(prefix, 0) == 0 &&
            !entry.is_symlink(ignored) && entry.last_write_time(ignored) < abandoned) {
            fs::remove_all(entry.path(), ignored);
        }
    }
}

} // namespace

namespace {

// `contents` in a new temporary file beside `path`, flushed and closed; its name is returned.
// A failure removes it and is a kiln::Error naming `path`.
std::string written_temporary(const std::filesystem::path& path, std::string_view contents,
                              Durability durability) {
    const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
    std::error_code created;
    std::filesystem::create_directories(folder, created);
    if (created) {
        fail(path, "cannot create its folder", created.value());
    }
    const std::string prefix = "." + path.filename().string() + ".";
    remove_abandoned_temporaries(folder, prefix);
    std::string temp = (folder / (prefix + "XXXXXX")).string();
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
    return temp;
}

} // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents,
                           Durability durability) {
    write_files_atomically({{path, contents}}, durability);
}

void write_files_atomically(const std::vector<FileContents>& files, Durability durability) {
    std::vector<std::string> temps;
    const auto remove_temps = [&temps](std::size_t from) {
        for (std::size_t i = from; i < temps.size(); ++i) {
            ::unlink(temps[i].c_str());
        }
    };
    try {
        for (const auto& [path, contents] : files) {
            temps.push_back(written_temporary(path, contents, durability));
        }
    } catch (...) {
        remove_temps(0);
        throw;
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
            const int error = errno;
            remove_temps(i);
            fail(files[i].first, "rename failed", error);
        }
    }
}

StagedFolder::StagedFolder(std::filesystem::path target) : target_(std::move(target)) {
    namespace fs = std::filesystem;
    std::error_code error;
    created_target_ = !fs::exists(target_, error);
    fs::create_directories(target_, error);
    if (error || !fs::is_directory(target_, error)) {
        fail(target_, "cannot create it as a folder", error ? error.value() : ENOTDIR);
    }
    // Inside the target: the same filesystem for the moves, and only the target need be
    // writable.
    remove_abandoned_temporaries(target_, ".staged-");
    std::string staging = (target_ / ".staged-XXXXXX").string();
    if (::mkdtemp(staging.data()) == nullptr) {
        fail(target_, "cannot create a staging folder in it", errno);
    }
    staging_ = staging;
}

StagedFolder::~StagedFolder() {
    if (keep_staging_) {
        return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(staging_, ignored);
    if (created_target_ && !committed_) {
        std::filesystem::remove(target_, ignored); // only when empty
    }
}

void StagedFolder::commit() {
    namespace fs = std::filesystem;
    std::error_code error;
    std::vector<fs::directory_entry> entries; // listed first: the moves change the folder
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(staging_)) {
        entries.push_back(entry);
    }
    for (const fs::directory_entry& entry : entries) {
        const fs::path placed = target_ / entry.path().lexically_relative(staging_);
        if (entry.is_directory()) {
            fs::create_directories(placed, error);
        } else if (::rename(entry.path().c_str(), placed.c_str()) != 0) {
            error.assign(errno, std::generic_category());
        }
        if (error) {
            keep_staging_ = true; // what is not moved yet stays, named
            throw Error("cannot move \"" + placed.string() + "\" into place: " + error.message() +
                        "; the outputs not yet moved are in \"" + staging_.string() + "\"");
        }
    }
    committed_ = true;
}

} // namespace kiln
