#pragma once

#include <filesystem>
#include <string_view>

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

} // namespace kiln
