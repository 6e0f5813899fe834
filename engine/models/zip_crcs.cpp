#include "models/zip_crcs.h"

#include <algorithm>
#include <optional>
#include <zlib.h>

namespace kiln::models {
namespace {

constexpr std::uint64_t kZip64Locator = 0x07064b50;
constexpr std::uint64_t kZip64End = 0x06064b50;
constexpr std::uint64_t kDirectoryEntry = 0x02014b50;
constexpr std::size_t kEndSize = 22;           // the end of central directory record
constexpr std::size_t kLongestComment = 65535; // which may follow it
constexpr std::size_t kEntrySize = 46;         // a directory entry, before its name
// Bounds what a crafted file can make Kiln read: a million entries' worth.
constexpr std::uint64_t kLargestDirectory = 64ull << 20;

std::uint64_t little_endian(std::string_view bytes, std::size_t at, int width) {
    std::uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i) {
        value = (value << 8) | static_cast<unsigned char>(bytes[at + std::size_t(i)]);
    }
    return value;
}

struct Directory {
    std::uint64_t entries = 0;
    std::uint64_t size = 0;
    std::uint64_t offset = 0;
};

// Where the central directory lies, from the end record (and zip64's, for large archives).
std::optional<Directory> find_directory(const ZipBytes& read, std::uint64_t file_size) {
    const std::uint64_t tail_size = std::min<std::uint64_t>(file_size, kEndSize + kLongestComment);
    const std::string tail = read(file_size - tail_size, std::size_t(tail_size));
    const std::size_t end = tail.rfind(std::string_view("PK\x05\x06", 4));
    if (end == std::string::npos || end + kEndSize > tail.size()) {
        return std::nullopt;
    }
    Directory directory{little_endian(tail, end + 10, 2), little_endian(tail, end + 12, 4),
                        little_endian(tail, end + 16, 4)};
    const bool zip64 = directory.entries == 0xFFFF || directory.size == 0xFFFFFFFF ||
                       directory.offset == 0xFFFFFFFF;
    if (zip64) {
        if (end < 20 || little_endian(tail, end - 20, 4) != kZip64Locator) {
            return std::nullopt;
        }
        const std::uint64_t at = little_endian(tail, end - 20 + 8, 8);
        if (at > file_size || file_size - at < 56) {
            return std::nullopt;
        }
        const std::string record = read(at, 56);
        if (record.size() < 56 || little_endian(record, 0, 4) != kZip64End) {
            return std::nullopt;
        }
        directory = {little_endian(record, 32, 8), little_endian(record, 40, 8),
                     little_endian(record, 48, 8)};
    }
    if (directory.size > kLargestDirectory || directory.offset > file_size ||
        file_size - directory.offset < directory.size) {
        return std::nullopt;
    }
    return directory;
}

} // namespace

std::unordered_map<std::string, std::uint32_t> recorded_crcs(const ZipBytes& read,
                                                             std::uint64_t file_size) {
    const std::optional<Directory> found = find_directory(read, file_size);
    if (!found) {
        return {};
    }
    const std::string directory = read(found->offset, std::size_t(found->size));
    if (directory.size() < found->size) { // the file changed since it was measured
        return {};
    }
    std::unordered_map<std::string, std::uint32_t> crcs;
    std::size_t at = 0;
    for (std::uint64_t i = 0; i < found->entries; ++i) {
        if (at > directory.size() || directory.size() - at < kEntrySize ||
            little_endian(directory, at, 4) != kDirectoryEntry) {
            return {};
        }
        const auto crc = static_cast<std::uint32_t>(little_endian(directory, at + 16, 4));
        const std::size_t name_size = little_endian(directory, at + 28, 2);
        const std::size_t skipped =
            little_endian(directory, at + 30, 2) + little_endian(directory, at + 32, 2);
        if (directory.size() - at - kEntrySize < name_size) {
            return {};
        }
        const std::string name = directory.substr(at + kEntrySize, name_size);
        if (const std::size_t slash = name.find('/'); slash != std::string::npos && crc != 0) {
            crcs[name.substr(slash + 1)] = crc;
        }
        at += kEntrySize + name_size + skipped;
    }
    return crcs;
}

std::uint32_t crc32_of(std::string_view bytes) {
    uLong crc = ::crc32(0L, Z_NULL, 0);
    // zlib takes at most 4 GB a call.
    for (std::size_t at = 0; at < bytes.size(); at += 1u << 30) {
        const std::size_t chunk = std::min<std::size_t>(bytes.size() - at, 1u << 30);
        crc = ::crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + at), uInt(chunk));
    }
    return static_cast<std::uint32_t>(crc);
}

} // namespace kiln::models
