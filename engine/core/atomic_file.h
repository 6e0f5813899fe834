#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln {

enum class Durability {
    Synced,  // flushed to the disk before the rename: survives a power cut (checkpoints, runs)
    Buffered // left to the page cache: still never half-written, much faster for many small files
};

// Writes `contents` to `path` through a temporary file in the same folder, renamed over `path`:
// readers see the old file or the new one, never half of one. Creates missing parent folders.
// A failure (full disk, no permission) is a kiln::Error naming the path, and leaves no
// temporary file behind.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents,
                           Durability durability = Durability::Synced);

// A file's contents given in pieces as they are made, to `sink`: a file of gigabytes (a
// checkpoint of a large model) is never held whole. What the producer throws leaves no file and
// is thrown on.
using ByteSink = std::function<void(const char* bytes, std::size_t size)>;
using ProduceBytes = std::function<void(const ByteSink& sink)>;
void write_file_atomically(const std::filesystem::path& path, const ProduceBytes& produce,
                           Durability durability = Durability::Synced);

// A file's path and what it is to hold.
using FileContents = std::pair<std::filesystem::path, std::string_view>;
// Files that belong together (embeddings and their names): each written as
// write_file_atomically does, all before the first is renamed into place, in their order. A
// failure to write any (a full disk) leaves none of them.
void write_files_atomically(const std::vector<FileContents>& files,
                            Durability durability = Durability::Synced);

// A folder of outputs that appear all at once or not at all (a prediction's masks, drawn
// images): they are written under a hidden staging folder in `target` (.kiln-staged-XXXXXX), and
// commit() moves them out into `target` (over files of the same names; other files there stay).
// Destroyed uncommitted (a stop, a failure), the staging folder goes with everything in it, and
// `target` too when it made it and it is empty. A move that fails keeps the staging folder,
// renamed .kiln-unmoved-XXXXXX, which the error names. Writes remove the temporary files and
// staging folders that killed writes left (once per folder and process; an hour old, this
// user's, not locked).
class StagedFolder {
public:
    explicit StagedFolder(std::filesystem::path target);
    ~StagedFolder();
    StagedFolder(const StagedFolder&) = delete;
    StagedFolder& operator=(const StagedFolder&) = delete;

    // Where to write what `target` is to hold.
    const std::filesystem::path& path() const { return staging_; }
    void commit();

private:
    std::filesystem::path target_;
    std::filesystem::path staging_;
    bool created_target_ = false;
    bool committed_ = false;
    bool keep_staging_ = false;
    int lock_ = -1; // the staging folder, flock'ed while in use
};

// Whether a file of this name is a write that did not finish (write_file_atomically's
// temporary, NAME.kiln-XXXXXX, hidden).
bool names_unfinished_write(const std::string& name);
// Whether `folder` holds something, and nothing but what killed writes left there (temporary
// files, StagedFolder's staging folders): a folder of masks a killed prediction began.
bool holds_only_unfinished_writes(const std::filesystem::path& folder);

} // namespace kiln
