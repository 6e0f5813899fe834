#include "data/dataset_optimizer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"
#include "core/parallel_for.h"
#include "core/paths.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;

void validate(const OptimizeOptions& options) {
    std::error_code error;
    if (!fs::is_directory(options.source, error)) {
        throw Error("source \"" + options.source.string() +
                    "\" is not a folder; give the folder "
                    "of images to optimize");
    }
    if (options.format != "jpg" && options.format != "webp") {
        throw Error("format \"" + options.format + "\" is not supported; use jpg or webp");
    }
    if (options.quality < 1 || options.quality > 100) {
        throw Error("quality " + std::to_string(options.quality) +
                    " is out of range; use 1 to 100");
    }
    if (options.max_size < 0) {
        throw Error("max-size must be 0 (keep) or a positive number of pixels");
    }
    if (options.destination.empty()) { // it wrote into the current folder
        throw Error("the destination is empty; name the folder to write the copy to");
    }
    if (is_within(options.destination, options.source) ||
        is_within(options.source, options.destination)) {
        throw Error("destination \"" + options.destination.string() + "\" and source \"" +
                    options.source.string() +
                    "\" overlap; choose a destination outside the "
                    "source (the source is never modified)");
    }
}

// Destination names relative to `destination`, one per image, without collisions.
std::vector<fs::path> destination_names(const DatasetIndex& index, const std::string& format) {
    std::map<std::string, int> uses;
    std::vector<fs::path> plain(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        plain[i] = fs::path(std::string(index.filename(i))).replace_extension(format);
        ++uses[plain[i].string()];
    }
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (uses[plain[i].string()] > 1) {
            plain[i] = fs::path(std::string(index.filename(i)) + "." + format);
        }
    }
    return plain;
}

// The bytes of `image` as options.format, shrunk to options.max_size.
void reencode(cv::Mat image, const OptimizeOptions& options, std::vector<unsigned char>& encoded) {
    const std::vector<int> parameters = {options.format == "jpg" ? cv::IMWRITE_JPEG_QUALITY
                                                                 : cv::IMWRITE_WEBP_QUALITY,
                                         options.quality};
    // The formats' own limits on a side (WebP's 16,383 px, libjpeg's 65,500) shrink an image
    // that --max-size leaves larger, which the encoder would refuse.
    const int format_limit = options.format == "webp" ? 16383 : 65500;
    const int largest =
        options.max_size > 0 ? std::min(options.max_size, format_limit) : format_limit;
    const int longest = std::max(image.rows, image.cols);
    if (longest > largest) {
        const double scale = double(largest) / longest;
        const cv::Size size(std::max(1, static_cast<int>(std::lround(image.cols * scale))),
                            std::max(1, static_cast<int>(std::lround(image.rows * scale))));
        cv::resize(image, image, size, 0, 0, cv::INTER_AREA);
    }
    cv::imencode("." + options.format, image, encoded, parameters);
}

// Re-encodes `image` into `encoded`, or warns, naming it, when the encoder refuses it.
bool encodes(const cv::Mat& image, const fs::path& path, const OptimizeOptions& options,
             std::vector<unsigned char>& encoded) {
    try {
        reencode(image, options, encoded);
        return true;
    } catch (const cv::Exception& refused) {
        log::warning("skipping an image that cannot be encoded as " + options.format + ": " +
                     path.string() + " (" + refused.what() + ")");
        return false;
    }
}

} // namespace

OptimizeEstimate estimate_optimized_size(const OptimizeOptions& options, int sample,
                                         StopToken stop) {
    const DatasetIndex index = DatasetIndex::scan({options.source});
    OptimizeEstimate estimate;
    estimate.images = static_cast<std::int64_t>(index.size());
    std::error_code error;
    for (std::size_t i = 0; i < index.size(); ++i) {
        const auto size = fs::file_size(index.path(i), error);
        estimate.bytes += error ? 0 : static_cast<std::int64_t>(size);
    }
    std::int64_t sample_bytes = 0, sample_encoded = 0;
    std::vector<unsigned char> encoded;
    const std::size_t count = std::min<std::size_t>(index.size(), std::max(sample, 1));
    for (std::size_t k = 0; k < count && !stop.stop_requested(); ++k) {
        const fs::path path = index.path(k * index.size() / count); // spread over the set
        try {
            const std::vector<unsigned char> bytes = read_file(path);
            reencode(decode_image(bytes, path.string()), options, encoded);
            sample_bytes += static_cast<std::int64_t>(bytes.size());
            sample_encoded += static_cast<std::int64_t>(encoded.size());
            ++estimate.sampled;
        } catch (const std::exception&) {
            // unreadable (kiln::Error) or not encodable (cv::Exception): left out of the sample
        }
    }
    estimate.estimated_bytes =
        sample_bytes > 0 ? static_cast<std::int64_t>(double(estimate.bytes) *
                                                     double(sample_encoded) / double(sample_bytes))
                         : 0;
    return estimate;
}

OptimizeResult optimize_dataset(const OptimizeOptions& options, const OptimizeProgress& progress,
                                StopToken stop) {
    validate(options);
    const DatasetIndex index = DatasetIndex::scan({options.source});
    const std::vector<fs::path> names = destination_names(index, options.format);
    const auto total = static_cast<std::int64_t>(index.size());

    OptimizeResult result;
    std::mutex mutex;
    std::atomic<std::int64_t> done{0};
    parallel_for(index.size(), options.num_workers, 1, [&](std::size_t begin, std::size_t end) {
        std::vector<unsigned char> encoded;
        for (std::size_t i = begin; i < end && !stop.stop_requested(); ++i) {
            const fs::path path = index.path(i);
            std::vector<unsigned char> bytes;
            cv::Mat image;
            try {
                bytes = read_file(path);
                image = decode_image(bytes, path.string());
            } catch (const Error& unreadable) {
                log::warning("skipping unreadable image: " + std::string(unreadable.what()));
                const std::lock_guard<std::mutex> lock(mutex);
                result.skipped.push_back(unreadable.what());
            }
            // A failure to write (full disk, permissions) is the destination's problem, which
            // every other file would hit too: it propagates and stops the other threads.
            if (!image.empty() && !encodes(image, path, options, encoded)) {
                const std::lock_guard<std::mutex> lock(mutex);
                result.skipped.push_back(path.string() + ": cannot be encoded as " +
                                         options.format);
                image = cv::Mat();
            }
            if (!image.empty()) {
                write_file_atomically(
                    options.destination / names[i],
                    std::string_view(reinterpret_cast<const char*>(encoded.data()), encoded.size()),
                    Durability::Buffered);
                const std::lock_guard<std::mutex> lock(mutex);
                ++result.written;
                result.bytes_read += static_cast<std::int64_t>(bytes.size());
                result.bytes_written += static_cast<std::int64_t>(encoded.size());
            }
            const std::int64_t finished = ++done;
            if (progress) {
                const std::lock_guard<std::mutex> lock(mutex);
                progress(finished, total);
            }
        }
    });
    result.cancelled = done < total;
    return result;
}

} // namespace kiln::data
