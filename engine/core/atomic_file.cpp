#include "core/atomic_file.h"

#include "core/error.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>

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

constexpr const char* kTemporaryMark = ".kiln-"; // NAME.kiln-XXXXXX, a file being written
constexpr const char* kStagingPrefix = ".kiln-staged-";
constexpr const char* kUnmovedPrefix = ".kiln-unmoved-"; // kept by a failed commit, named
constexpr std::size_t kRandomPart = 6;                   // mkstemp's and mkdtemp's XXXXXX

bool ends_in_random_part(const std::string& name, std::size_t start) {
    return name.size() == start + kRandomPart &&
           std::all_of(name.begin() + static_cast<std::ptrdiff_t>(start), name.end(),
                       [](unsigned char c) { return std::isalnum(c) != 0; });
}

// A staging folder still held by its StagedFolder (in this process or another) is locked.
bool staging_in_use(const std::filesystem::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return true;
    }
    const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);
    return locked;
}

// Whether `entry` is what a killed process (kill -9, a power cut) left of a write here: a
// temporary file or staging folder named as this file names them, this user's, untouched for
// an hour (a file being written is touched by every write; a staging folder in use is locked).
bool abandoned(const std::filesystem::path& entry) {
    struct stat info{};
    if (::lstat(entry.c_str(), &info) != 0 || info.st_uid != ::geteuid() ||
        info.st_mtime > std::time(nullptr) - 3600) {
        return false;
    }
    const std::string name = entry.filename().string();
    if (S_ISREG(info.st_mode)) {
        return names_unfinished_write(name);
    }
    return S_ISDIR(info.st_mode) && name.rfind(kStagingPrefix, 0) == 0 &&
           ends_in_random_part(name, std::strlen(kStagingPrefix)) && !staging_in_use(entry);
}

// Removes what killed writes left in `folder`, once per folder and process: a folder written
// file by file (an import of 60,000 images) is listed once, not once a file. A 2 GB embeddings
// file cut short by kill -9 stayed hidden beside the next one for good.
void remove_abandoned_writes(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    static std::mutex mutex;
    static std::unordered_set<std::string> swept;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!swept.insert(folder.lexically_normal().string()).second) {
            return;
        }
    }
    std::error_code error;
    fs::directory_iterator entries(folder, error);
    for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
        if (abandoned(entries->path())) {
            std::error_code ignored;
            fs::remove_all(entries->path(), ignored);
        }
    }
}

} // namespace

namespace {

// `contents` in a new temporary file beside `path`, flushed and closed; its name is returned.
// A failure removes it and is a kiln::Error naming `path`.
std::string written_temporary(const std::filesystem::path& path, const ProduceBytes& produce,
                              Durability durability) {
    const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
    std::error_code created;
    std::filesystem::create_directories(folder, created);
    if (created) {
        fail(path, "cannot create its folder", created.value());
    }
    remove_abandoned_writes(folder);
    std::string temp =
        (folder / ("." + path.filename().string() + kTemporaryMark + "XXXXXX")).string();
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
    const ByteSink sink = [&](const char* bytes, std::size_t size) {
        for (std::size_t written = 0; written < size;) {
            const ssize_t n = ::write(fd, bytes + written, size - written);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                fail(path, "write failed", errno);
            }
            written += static_cast<std::size_t>(n);
        }
    };
    try {
        produce(sink);
    } catch (...) { // a failed write, or the producer's own error
        ::close(fd);
        ::unlink(temp.c_str());
        throw;
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

// A rename replaces whatever has the name: a device (as root, /dev/null became a CSV file) or a
// pipe must stay what it is. A link is replaced, not what it leads to.
void refuse_replacing_a_special_file(const std::filesystem::path& path) {
    struct stat info{};
    if (::lstat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode)) {
        throw Error("\"" + path.string() +
                    "\" exists and is not a file (a device, a pipe or a folder); give the name "
                    "of a file to write");
    }
}

} // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents,
                           Durability durability) {
    write_files_atomically({{path, contents}}, durability);
}

void write_file_atomically(const std::filesystem::path& path, const ProduceBytes& produce,
                           Durability durability) {
    refuse_replacing_a_special_file(path);
    const std::string temp = written_temporary(path, produce, durability);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail(path, "rename failed", error);
    }
}

void write_files_atomically(const std::vector<FileContents>& files, Durability durability) {
    for (const auto& [path, contents] : files) {
        refuse_replacing_a_special_file(path);
    }
    std::vector<std::string> temps;
    const auto remove_temps = [&temps](std::size_t from) {
        for (std::size_t i = from; i < temps.size(); ++i) {
            ::unlink(temps[i].c_str());
        }
    };
    try {
        for (const FileContents& file : files) {
            const std::string_view contents = file.second;
            temps.push_back(written_temporary(
                file.first,
                [contents](const ByteSink& sink) { sink(contents.data(), contents.size()); },
                durability));
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

bool names_unfinished_write(const std::string& name) {
    const std::size_t mark = name.rfind(kTemporaryMark);
    return name.size() > 1 && name.front() == '.' && mark != std::string::npos && mark > 1 &&
           ends_in_random_part(name, mark + std::strlen(kTemporaryMark));
}

bool holds_only_unfinished_writes(const std::filesystem::path& folder) {
    std::error_code error;
    bool any = false;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        const bool staging = name.rfind(kStagingPrefix, 0) == 0 &&
                             ends_in_random_part(name, std::strlen(kStagingPrefix));
        if (!staging && !names_unfinished_write(name)) {
            return false;
        }
        any = true;
    }
    return any && !error;
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
    remove_abandoned_writes(target_);
    std::string staging = (target_ / (std::string(kStagingPrefix) + "XXXXXX")).string();
    if (::mkdtemp(staging.data()) == nullptr) {
        fail(target_, "cannot create a staging folder in it", errno);
    }
    staging_ = staging;
    // Held while this object lives: another process's sweep leaves a locked staging folder.
    lock_ = ::open(staging_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock_ >= 0) {
        ::flock(lock_, LOCK_EX);
    }
}

StagedFolder::~StagedFolder() {
    if (lock_ >= 0) {
        ::close(lock_);
    }
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
            keep_staging_ = true; // what is not moved yet stays, named, never swept
            const fs::path unmoved =
                target_ /
                (kUnmovedPrefix + staging_.filename().string().substr(std::strlen(kStagingPrefix)));
            std::error_code renamed;
            fs::rename(staging_, unmoved, renamed);
            throw Error("cannot move \"" + placed.string() + "\" into place: " + error.message() +
                        "; the outputs not yet moved are in \"" +
                        (renamed ? staging_ : unmoved).string() + "\"");
        }
    }
    committed_ = true;
}

} // namespace kiln
