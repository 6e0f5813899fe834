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
// The same for a file already open (`path` names it in the message): the check by path keeps a
// device from being opened at all, this one from being swapped in between the check and the
// open.
void refuse_special_file(int descriptor, const std::filesystem::path& path,
                         const std::string& what);

// The same, with pipes refused too: for the files Kiln writes itself and reads back (a logger's
// own records in a run folder), where a FIFO would block the reader for good.
void refuse_unless_regular_file(const std::filesystem::path& path, const std::string& what);

} // namespace kiln
