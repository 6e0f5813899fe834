#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kiln::models {

// The CRC-32 a zip file's central directory records for each entry, by its name without the
// archive's top folder (torch.save's "archive/data/0" as "data/0"), as PyTorch's reader names
// records. LibTorch's reader does not check them, so a checkpoint damaged on disk loaded
// silently with other weights. `read(offset, size)` gives the file's bytes there; `file_size`
// is its size. Empty when the file has no central directory Kiln can read (a reader of the
// archive says what is wrong with it). Entries recorded with a CRC of 0 are left out: PyTorch
// writes 0 when told not to compute them.
using ZipBytes = std::function<std::string(std::uint64_t offset, std::size_t size)>;
std::unordered_map<std::string, std::uint32_t> recorded_crcs(const ZipBytes& read,
                                                             std::uint64_t file_size);

// zlib's CRC-32 of `bytes`.
std::uint32_t crc32_of(std::string_view bytes);

} // namespace kiln::models
