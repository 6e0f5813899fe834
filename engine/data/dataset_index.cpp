#include "data/dataset_index.h"

#include "core/error.h"
#include "core/log.h"
#include "core/paths.h"
#include "core/text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <utility>

namespace kiln::data {

void NamesFingerprint::add(std::string_view name) {
    std::uint64_t hash = 14695981039346656037ull; // FNV-1a's offset basis and prime
    for (const char c : name) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    value_ += hash; // a sum: the order the names come in does not matter
}

namespace {

namespace fs = std::filesystem;

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

using DirectoryId = std::pair<dev_t, ino_t>;

// Collects image names below one root folder. Directories are identified by device and inode,
// so a symbolic link back to an ancestor (or any folder seen before) is not entered again: the
// root's own ancestors too, so that a link to "/" or ".." in a folder someone gave does not
// walk the whole disk.
class FolderScanner {
public:
    // Appends each name to `buffer` and its start and length to `spans`.
    FolderScanner(std::string& buffer, std::vector<std::pair<std::uint64_t, std::uint32_t>>& spans)
        : buffer_(buffer), spans_(spans) {}

    void scan(const std::string& root) {
        std::error_code error;
        const fs::path resolved = fs::canonical(root, error);
        for (fs::path above = resolved; !error && above != above.root_path();) {
            above = above.parent_path();
            struct stat info{};
            if (::stat(above.c_str(), &info) == 0) {
                visited_.insert({info.st_dev, info.st_ino});
            }
        }
        visit(root, "");
    }

    // A line naming what the scan passed over that a user would take for data: entries named
    // as images that are no files (a link to nothing or to a device, a pipe), and folders it
    // could not open. Empty when there were none.
    std::string skipped(const std::string& root) const {
        std::string text;
        const auto add = [&](std::size_t count, const char* one, const char* many,
                             const std::string& first) {
            if (count > 0) {
                text += std::string(text.empty() ? "skipped " : "; ") +
                        (count == 1 ? one : std::to_string(count) + many) + " " +
                        quoted_excerpt(first);
            }
        };
        add(not_files_,
            "an entry named as an image that is no file (a link to nothing or to a "
            "device, a pipe):",
            " entries named as images that are no files (links to nothing or to devices, "
            "pipes), the first",
            first_not_file_);
        add(unreadable_folders_, "a folder that cannot be opened (check its permissions):",
            " folders that cannot be opened (check their permissions), the first",
            first_unreadable_folder_);
        return text.empty() ? text : "data " + quoted_excerpt(root) + ": " + text;
    }

private:
    void visit(const std::string& folder, const std::string& relative) {
        struct stat info{};
        if (::stat(folder.c_str(), &info) != 0 ||
            !visited_.insert({info.st_dev, info.st_ino}).second) {
            return;
        }
        DIR* directory = ::opendir(folder.c_str());
        if (directory == nullptr) {
            note(unreadable_folders_, first_unreadable_folder_, relative.empty() ? "." : relative);
            return;
        }
        std::vector<std::pair<std::string, bool>> entries; // name, is a folder
        while (const dirent* entry = ::readdir(directory)) {
            const char* name = entry->d_name;
            if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) {
                continue;
            }
            unsigned char type = entry->d_type;
            if (type == DT_LNK || type == DT_UNKNOWN) {
                struct stat target{};
                const bool reached = ::stat((folder + "/" + name).c_str(), &target) == 0;
                type = !reached                  ? DT_UNKNOWN
                       : S_ISDIR(target.st_mode) ? DT_DIR
                       : S_ISREG(target.st_mode) ? DT_REG
                                                 : DT_UNKNOWN;
            }
            if (type == DT_DIR) {
                entries.emplace_back(name, true);
            } else if (has_image_extension(name)) {
                if (type == DT_REG) {
                    entries.emplace_back(name, false);
                } else {
                    note(not_files_, first_not_file_,
                         relative.empty() ? name : relative + "/" + name);
                }
            }
        }
        ::closedir(directory);
        // Sorted, so that when two links lead to one folder the same one wins every time.
        std::sort(entries.begin(), entries.end());
        for (const auto& [name, is_folder] : entries) {
            const std::string child = relative.empty() ? name : relative + "/" + name;
            if (is_folder) {
                visit(folder + "/" + name, child);
            } else {
                spans_.emplace_back(buffer_.size(), static_cast<std::uint32_t>(child.size()));
                buffer_.append(child);
            }
        }
    }

    // Counts one more, keeping the first by name (the order of a folder's entries varies).
    static void note(std::size_t& count, std::string& first, const std::string& name) {
        if (count++ == 0 || name < first) {
            first = name;
        }
    }

    std::string& buffer_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>>& spans_;
    std::set<DirectoryId> visited_;
    std::size_t not_files_ = 0;
    std::string first_not_file_;
    std::size_t unreadable_folders_ = 0;
    std::string first_unreadable_folder_;
};

// A folder scanned again in the same job (the kNN monitor's, a second read for statistics)
// would say the same again: said once a job (once a command; once a run in Studio).
void warn_once(const std::string& line) {
    static std::mutex mutex;
    static std::set<std::pair<int, std::string>> said;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!line.empty() && said.emplace(log::current_job(), line).second) {
        log::warning(line);
    }
}

} // namespace

const std::vector<std::string>& image_extensions() {
    static const std::vector<std::string> extensions = {".jpg",  ".jpeg", ".png", ".bmp", ".tif",
                                                        ".tiff", ".webp", ".ppm", ".pgm"};
    return extensions;
}

bool has_image_extension(std::string_view filename) {
    const std::size_t dot = filename.rfind('.');
    if (dot == std::string_view::npos) {
        return false;
    }
    const std::string_view extension = filename.substr(dot);
    return std::any_of(image_extensions().begin(), image_extensions().end(),
                       [&](const std::string& known) { return iequals(extension, known); });
}

namespace {

// A folder or image given twice (under two spellings, or through a link) would have each of its
// images count twice: seen twice an epoch, embedded twice, in both halves of a kNN.
void refuse_entries_listed_twice(const std::vector<fs::path>& data) {
    std::vector<std::string> resolved;
    for (const fs::path& entry : data) {
        resolved.push_back(resolved_place(entry).string());
    }
    if (const auto repeat = first_repeat(resolved)) {
        const std::string& first = data[repeat->first].string();
        const std::string& second = data[repeat->second].string();
        throw Error("data lists \"" + first + "\"" +
                    (first == second ? " twice" : " and \"" + second + "\", the same place,") +
                    "; each of its images would count twice: list it once");
    }
}

} // namespace

DatasetIndex DatasetIndex::scan(const std::vector<fs::path>& data) {
    refuse_entries_listed_twice(data);
    DatasetIndex index;
    for (const fs::path& entry : data) {
        std::error_code error;
        const fs::file_status status = fs::status(entry, error);
        if (!fs::exists(status)) {
            throw Error("data \"" + entry.string() +
                        "\" does not exist; give a folder of images or an image file");
        }
        if (fs::is_directory(status)) {
            std::string buffer;
            std::vector<std::pair<std::uint64_t, std::uint32_t>> spans;
            FolderScanner scanner(buffer, spans);
            scanner.scan(entry.string());
            warn_once(scanner.skipped(entry.string()));
            const auto name_of = [&](const auto& span) {
                return std::string_view(buffer).substr(span.first, span.second);
            };
            std::sort(spans.begin(), spans.end(),
                      [&](const auto& a, const auto& b) { return name_of(a) < name_of(b); });
            const auto root = static_cast<std::uint32_t>(index.roots_.size());
            index.roots_.push_back(entry);
            for (const auto& span : spans) {
                index.add(root, name_of(span));
            }
        } else if (has_image_extension(entry.filename().string())) {
            const auto root = static_cast<std::uint32_t>(index.roots_.size());
            index.roots_.push_back(entry.parent_path());
            index.add(root, entry.filename().string());
        } else {
            std::string known;
            for (const std::string& extension : image_extensions()) {
                known += (known.empty() ? "" : " ") + extension;
            }
            throw Error("data \"" + entry.string() + "\" is not an image file (Kiln reads " +
                        known + ")");
        }
    }
    if (index.empty()) {
        std::string listed;
        for (const fs::path& entry : data) {
            listed += (listed.empty() ? "\"" : ", \"") + entry.string() + "\"";
        }
        throw Error("no images found in " + listed +
                    "; Kiln looks for .jpg, .png, .webp, .bmp, .tif and .ppm/.pgm files in the "
                    "folders and their subfolders");
    }
    index.names_.shrink_to_fit();
    return index;
}

void DatasetIndex::add(std::uint32_t root, std::string_view name) {
    offsets_.push_back(names_.size());
    lengths_.push_back(static_cast<std::uint32_t>(name.size()));
    root_of_.push_back(root);
    names_.append(name);
}

std::uint64_t DatasetIndex::fingerprint() const {
    NamesFingerprint names;
    for (std::size_t i = 0; i < size(); ++i) {
        names.add(filename(i));
    }
    return names.value();
}

std::string_view DatasetIndex::filename(std::size_t index) const {
    return std::string_view(names_).substr(offsets_.at(index), lengths_[index]);
}

fs::path DatasetIndex::path(std::size_t index) const {
    return roots_[root_of_.at(index)] / fs::path(std::string(filename(index)));
}

std::string_view DatasetIndex::top_level_folder(std::size_t index) const {
    const std::string_view name = filename(index);
    const std::size_t slash = name.find('/');
    return slash == std::string_view::npos ? std::string_view() : name.substr(0, slash);
}

} // namespace kiln::data
