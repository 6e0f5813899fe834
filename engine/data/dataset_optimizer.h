#pragma once

#include "core/stop_token.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kiln::data {

struct OptimizeOptions {
    std::filesystem::path source;
    std::filesystem::path destination;
    std::string format = "jpg"; // jpg or webp
    int max_size = 0;           // longest side in pixels; 0 keeps the size
    int quality = 90;           // 1..100
    int num_workers = 1;
};

struct OptimizeResult {
    std::int64_t written = 0;
    std::int64_t bytes_read = 0;
    std::int64_t bytes_written = 0;
    std::vector<std::string> skipped; // why each unreadable file was left out
    bool cancelled = false;
};

using OptimizeProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// Re-encodes every image below `source` as JPEG or WebP under `destination`, keeping relative
// paths (the extension becomes the new format's; when two sources would meet in one name, the
// old extension stays in it: a.png -> a.png.jpg), shrinking images whose longest side exceeds
// max_size. Runs on num_workers threads; never writes inside `source`. Unreadable files are
// skipped and reported. Invalid options are a kiln::Error naming the fix.
OptimizeResult optimize_dataset(const OptimizeOptions& options,
                                const OptimizeProgress& progress = {}, StopToken stop = {});

// What optimize_dataset would make of the dataset, before it writes anything: every file's size
// (cheap) and the re-encoded size of up to `sample` images spread over it, extrapolated.
struct OptimizeEstimate {
    std::int64_t images = 0;
    std::int64_t bytes = 0;           // the dataset's files now
    std::int64_t estimated_bytes = 0; // the optimized copy, extrapolated from the sample
    std::int64_t sampled = 0;
    bool larger() const { return estimated_bytes > bytes; }
};
OptimizeEstimate estimate_optimized_size(const OptimizeOptions& options, int sample = 48,
                                         StopToken stop = {});

} // namespace kiln::data
