#pragma once

#include <filesystem>
#include <string>

namespace kiln {

// Whether `name`, read from a file someone else gave (an image's file_name in annotations, a
// row of an embeddings file), points outside the folder it is relative to: absolute, or up
// through "..". Such a name would read or write elsewhere on the disk.
bool leaves_folder(const std::string& name);

// Whether `inner` is `outer` or lies inside it, links and ".." resolved as far as the paths exist.
// A command that writes files must not write them among the images it reads.
bool is_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

// `path` with links and ".." resolved as far as it exists, without a trailing separator; where it
// cannot be resolved (a folder it cannot read), absolute and normalised as written. Two
// spellings of one folder give the same place.
std::filesystem::path resolved_place(const std::filesystem::path& path);

} // namespace kiln
