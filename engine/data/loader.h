#pragma once

#include "core/stop_token.h"
#include "data/image_decode.h"
#include "data/sample_source.h"

#include <ATen/core/Tensor.h>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace kiln::data {

struct LoaderOptions {
    int batch_size = 64; // per rank
    int num_workers = 0; // 0: the consumer decodes on its own thread
    int prefetch_batches =
        2; // ready batches a worker may hold ahead, like PyTorch's prefetch_factor
    bool shuffle = true;
    bool drop_last = true;
    // Pad the epoch by repeating its first samples so every rank gets as many (training);
    // false gives each sample to exactly one rank, so shares may differ by one (validation).
    bool even_shares = true;
    std::uint64_t seed = 0;
    int rank = 0;
    int world_size = 1;
    bool pin_memory = false; // page-locked batches for fast copies to a CUDA device
    std::int64_t max_image_pixels = kDefaultMaxImagePixels; // larger images are skipped
    // Training: an unreadable image's place goes to the next readable one of the epoch's order
    // (once round it), so batches stay whole (a batch of one broke batch norm; an empty one read
    // as a stop), and an epoch fails only when none of its images can be read. Off, each image
    // comes once (validation, embedding) and a batch is as short as its losses.
    bool fill_batches = false;
};

struct Batch {
    std::vector<at::Tensor> views;     // one [B, C, H, W] float32 contiguous tensor per view
    at::Tensor targets;                // int64 [B, target shape...]; undefined without labels
    std::vector<std::int64_t> indices; // the dataset index of each sample
    std::int64_t number = 0;           // position within the epoch
};

// Decodes and augments images into batches on `num_workers` threads, ahead of the consumer,
// into a bounded set of ready batches delivered in order. Which images form a batch depends on
// (seed, epoch, rank, world_size); each sample's augmentations on (seed, epoch, index): so the
// same seed gives bit-identical batches with any number of workers.
//
// Unreadable files are skipped (the batch is one sample shorter, or filled: fill_batches),
// counted and logged once. Any other failure reaches the consumer, from next(), as a
// kiln::Error naming the file.
class Loader {
public:
    Loader(std::shared_ptr<const SampleSource> source, LoaderOptions options, StopToken stop = {});
    // A method's views of unlabelled images; `index` must outlive the loader.
    Loader(const DatasetIndex& index, TransformArgs transform, LoaderOptions options,
           StopToken stop = {});
    ~Loader();
    Loader(const Loader&) = delete;
    Loader& operator=(const Loader&) = delete;

    // This rank's samples for `epoch`, in order: a shuffled permutation (when shuffling),
    // trimmed (drop_last) or padded with its first entries (even_shares) to a multiple of
    // world_size, then every world_size-th entry from `rank` on - as PyTorch's
    // DistributedSampler.
    std::vector<std::int64_t> epoch_indices(std::int64_t epoch) const;
    std::int64_t batches_per_epoch() const;

    // Starts delivering `epoch` from batch `first_batch` on (a resumed run skips what it did),
    // abandoning what is left of the current one.
    void start_epoch(std::int64_t epoch, std::int64_t first_batch = 0);
    // The next batch of the epoch; nullopt when the epoch is over or a stop was requested.
    std::optional<Batch> next();

    // How long the last next() waited for its batch (decoding time with num_workers=0).
    double last_wait_seconds() const { return last_wait_seconds_; }
    std::int64_t skipped_files() const;
    // Bytes of image files read so far, for the read throughput the advisor reports.
    std::uint64_t bytes_read() const { return bytes_read_; }

private:
    class BufferPool;
    struct Slot {
        std::optional<Batch> batch;
        std::exception_ptr error;
    };

    void work();
    Slot build(std::int64_t number, std::int64_t epoch, std::uint64_t generation);
    void skip(std::int64_t index, const std::string& reason);
    // An epoch delivered nothing because every image drawn was unreadable: decodes the few
    // images the epoch did not draw (a last partial batch) so that the error counts the whole
    // dataset, and throws it.
    [[noreturn]] void fail_unreadable_epoch(const std::vector<std::int64_t>& undrawn);
    std::optional<std::int64_t> stand_in_for(std::size_t after, std::size_t taken,
                                             std::uint64_t generation) const;
    bool has_work() const;

    const std::shared_ptr<const SampleSource> source_;
    const LoaderOptions options_;
    const StopToken stop_;
    const std::int64_t rank_samples_; // samples per rank and epoch
    const std::shared_ptr<BufferPool> buffers_;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool shutting_down_ = false;
    std::uint64_t generation_ = 0; // bumped by start_epoch so stale work is dropped
    std::int64_t epoch_ = -1;
    std::vector<std::int64_t> order_;
    std::int64_t batch_count_ = 0;
    std::int64_t next_to_claim_ = 0;
    std::int64_t next_to_deliver_ = 0;
    std::int64_t delivered_samples_ = 0;
    std::map<std::int64_t, Slot> ready_;
    std::set<std::int64_t> unreadable_;
    std::string first_unreadable_reason_;
    std::vector<std::thread> workers_;
    bool holds_opencv_threads_ = false; // OpenCV's own threads are off while this loader lives
    double last_wait_seconds_ = 0.0;
    std::atomic<std::uint64_t> bytes_read_{0};
};

} // namespace kiln::data
