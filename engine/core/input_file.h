#pragma once

#include <filesystem>
#include <string>

namespace kiln {

// Throws a kiln::Error naming `path` (as `what`, "YOLO label file" say) and the fix when it is
// a device, a socket or a folder: Kiln reads annotations, label and class lists, embeddings and
// settings to their end, and /dev/zero, or a link to it inside a folder from someone else, has
// none (it filled memory). Regular files pass, as do pipes (the shell's `<(command)`), and
// missing paths, which each reader reports in its own words.
void refuse_special_file(const std::filesystem::path& path, const std::string& what);

} // namespace kiln
