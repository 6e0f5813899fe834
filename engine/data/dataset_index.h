#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::data {

// An order-independent digest of a set of image names (the sum of their FNV-1a hashes): a
// resumed run tells from it whether its images are those its checkpoint recorded.
class NamesFingerprint {
public:
    void add(std::string_view name);
    std::uint64_t value() const { return value_; }

private:
    std::uint64_t value_ = 0;
};

// Image extensions Kiln reads, compared without regard to case.
const std::vector<std::string>& image_extensions();
bool has_image_extension(std::string_view filename);

// The image files of a dataset, in a deterministic order: the `data` entries in the order
// given, each folder's files sorted by their path relative to that folder. Folders are scanned
// recursively, following symbolic links without looping: a folder reached twice (through a
// link) is read once, under the name that sorts first. Names are stored in one buffer
// (16 bytes a file plus its name), so millions of files stay cheap.
class DatasetIndex {
public:
    // Throws kiln::Error naming the path when an entry is missing or not an image, or when
    // there are no images at all.
    static DatasetIndex scan(const std::vector<std::filesystem::path>& data);

    std::size_t size() const { return offsets_.size(); }
    bool empty() const { return offsets_.empty(); }

    // The name users see: relative to its data folder (a file given directly: its file name).
    std::string_view filename(std::size_t index) const;
    // Where to read it.
    std::filesystem::path path(std::size_t index) const;
    // The first folder of `filename`, or "" for files at the top: the class in a labelled set.
    std::string_view top_level_folder(std::size_t index) const;
    // The NamesFingerprint of every filename.
    std::uint64_t fingerprint() const;

private:
    void add(std::uint32_t root, std::string_view name);

    std::vector<std::filesystem::path> roots_;
    std::string names_;                  // every filename, back to back
    std::vector<std::uint64_t> offsets_; // start of each name in names_
    std::vector<std::uint32_t> lengths_;
    std::vector<std::uint32_t> root_of_; // which roots_ entry a name is relative to
};

} // namespace kiln::data
