#include "core/input_file.h"

#include "core/error.h"

#include <sys/stat.h>

namespace kiln {
namespace {

// What a file of this mode is, when Kiln must not read it; nullptr for files it may.
const char* refused_kind(mode_t mode) {
    return S_ISDIR(mode)    ? "a folder"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : nullptr;
}

void refuse(const char* kind, const std::filesystem::path& path, const std::string& what) {
    if (kind != nullptr) {
        throw Error(what + " \"" + path.string() + "\" is " + kind +
                    ", not a file (a link in a folder from someone else may lead there); give a "
                    "file");
    }
}

} // namespace

void refuse_special_file(const std::filesystem::path& path, const std::string& what) {
    struct stat status{};
    if (::stat(path.c_str(), &status) == 0) { // follows links, as opening does
        refuse(refused_kind(status.st_mode), path, what);
    }
}

void refuse_special_file(int descriptor, const std::filesystem::path& path,
                         const std::string& what) {
    struct stat status{};
    if (::fstat(descriptor, &status) == 0) {
        refuse(refused_kind(status.st_mode), path, what);
    }
}

void refuse_unless_regular_file(const std::filesystem::path& path, const std::string& what) {
    struct stat status{};
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
        const char* kind = refused_kind(status.st_mode);
        refuse(kind != nullptr ? kind : "a pipe", path, what);
    }
}

} // namespace kiln
