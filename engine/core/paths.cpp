#include "core/paths.h"

#include <algorithm>

namespace kiln {
namespace fs = std::filesystem;
namespace {

fs::path resolved(const fs::path& path) {
    std::error_code error;
    fs::path result = fs::weakly_canonical(fs::absolute(path, error), error);
    return result.filename().empty() ? result.parent_path() : result; // "a/b/" is "a/b"
}

} // namespace

bool leaves_folder(const std::string& name) {
    const fs::path relative = fs::path(name).lexically_normal();
    return relative.is_absolute() || relative.has_root_name() || relative.has_root_directory() ||
           (!relative.empty() && *relative.begin() == "..");
}

fs::path resolved_place(const fs::path& path) {
    if (fs::path place = resolved(path); !place.empty()) {
        return place;
    }
    std::error_code error;
    const fs::path written = fs::absolute(path, error).lexically_normal();
    return written.filename().empty() ? written.parent_path() : written;
}

bool is_within(const fs::path& inner, const fs::path& outer) {
    const fs::path in = resolved(inner);
    const fs::path out = resolved(outer);
    if (in.empty() || out.empty()) { // unresolved (a folder it cannot read): not known within
        return false;
    }
    return std::mismatch(out.begin(), out.end(), in.begin(), in.end()).first == out.end();
}

} // namespace kiln
