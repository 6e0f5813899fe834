#include "data/loader.h"

#include "core/error.h"
#include "core/log.h"
#include "data/image_decode.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>
#include <numeric>
#include <opencv2/core/utility.hpp>
#include <torch/cuda.h>
#include <torch/types.h>

namespace kiln::data {
namespace {

// How often a blocked consumer or worker looks at the stop token.
constexpr auto kStopPollInterval = std::chrono::milliseconds(20);

std::int64_t samples_per_rank(std::int64_t size, const LoaderOptions& options) {
    const std::int64_t world = options.world_size;
    if (options.drop_last) {
        return size / world;
    }
    if (!options.even_shares) { // the first size % world ranks get one more
        return size / world + (options.rank < size % world ? 1 : 0);
    }
    return (size + world - 1) / world;
}

} // namespace

// Batch memory, recycled: a fresh 40 MB tensor per batch costs more in page faults and zeroing
// than decoding several images. A tensor returns its buffer here when the last reference to it
// goes, so only as many buffers exist as batches are in flight.
class Loader::BufferPool : public std::enable_shared_from_this<BufferPool> {
public:
    ~BufferPool() {
        for (auto& [size, buffers] : free_) {
            for (float* buffer : buffers) {
                std::free(buffer);
            }
        }
    }

    at::Tensor tensor(const std::vector<std::int64_t>& sizes) {
        std::size_t count = 1;
        for (const std::int64_t size : sizes) {
            count *= static_cast<std::size_t>(size);
        }
        float* buffer = take(count);
        std::weak_ptr<BufferPool> pool = weak_from_this();
        return torch::from_blob(
            buffer, sizes,
            [pool, count](void* data) {
                if (const auto alive = pool.lock()) {
                    alive->give(count, static_cast<float*>(data));
                } else {
                    std::free(data);
                }
            },
            torch::TensorOptions().dtype(torch::kFloat32));
    }

private:
    float* take(std::size_t count) {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            auto& buffers = free_[count];
            if (!buffers.empty()) {
                float* buffer = buffers.back();
                buffers.pop_back();
                return buffer;
            }
        }
        constexpr std::size_t kAlignment = 64; // cache lines and AVX-512 loads
        const std::size_t bytes =
            (std::max<std::size_t>(count, 1) * sizeof(float) + kAlignment - 1) / kAlignment *
            kAlignment;
        void* buffer = std::aligned_alloc(kAlignment, bytes);
        if (buffer == nullptr) {
            throw std::bad_alloc();
        }
        return static_cast<float*>(buffer);
    }

    void give(std::size_t count, float* buffer) {
        const std::lock_guard<std::mutex> lock(mutex_);
        free_[count].push_back(buffer);
    }

    std::mutex mutex_;
    std::map<std::size_t, std::vector<float*>> free_;
};

namespace {

// OpenCV's thread count is the process's (Studio's too): off while any loader with workers
// lives, then back to what it was.
std::mutex opencv_threads_mutex;
int opencv_threads_holders = 0;
int opencv_threads_before = 0;

void turn_opencv_threads_off() {
    const std::lock_guard<std::mutex> lock(opencv_threads_mutex);
    if (opencv_threads_holders++ == 0) {
        opencv_threads_before = cv::getNumThreads();
        cv::setNumThreads(0);
    }
}

void restore_opencv_threads() {
    const std::lock_guard<std::mutex> lock(opencv_threads_mutex);
    if (--opencv_threads_holders == 0) {
        cv::setNumThreads(opencv_threads_before);
    }
}

} // namespace

Loader::Loader(const DatasetIndex& index, TransformArgs transform, LoaderOptions options,
               StopToken stop)
    : Loader(std::make_shared<ViewSource>(index, std::move(transform)), options, std::move(stop)) {}

Loader::Loader(std::shared_ptr<const SampleSource> source, LoaderOptions options, StopToken stop)
    : source_(std::move(source)), options_(options), stop_(std::move(stop)),
      rank_samples_(samples_per_rank(source_->size(), options)),
      buffers_(std::make_shared<BufferPool>()) {
    if (options_.batch_size < 1 || options_.world_size < 1 || options_.rank < 0 ||
        options_.rank >= options_.world_size || options_.num_workers < 0 ||
        options_.prefetch_batches < 1) {
        throw Error("invalid loader options: batch_size " + std::to_string(options_.batch_size) +
                    ", rank " + std::to_string(options_.rank) + " of " +
                    std::to_string(options_.world_size) + ", num_workers " +
                    std::to_string(options_.num_workers));
    }
    if (options_.num_workers > 0) {
        // The workers are the parallelism: OpenCV's own thread pool inside each of them only
        // oversubscribes the cores (a blur ran 2x slower per image with it).
        turn_opencv_threads_off();
        holds_opencv_threads_ = true;
    }
    for (int i = 0; i < options_.num_workers; ++i) {
        workers_.emplace_back(log::for_this_job([this] { work(); }));
    }
}

Loader::~Loader() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        shutting_down_ = true;
    }
    changed_.notify_all();
    for (std::thread& worker : workers_) {
        worker.join();
    }
    if (holds_opencv_threads_) {
        restore_opencv_threads();
    }
}

std::vector<std::int64_t> Loader::epoch_indices(std::int64_t epoch) const {
    const std::int64_t size = source_->size();
    std::vector<std::int64_t> permutation(static_cast<std::size_t>(size));
    std::iota(permutation.begin(), permutation.end(), 0);
    if (options_.shuffle) {
        Rng rng = sample_rng(options_.seed, static_cast<std::uint64_t>(epoch), ~0ULL);
        std::shuffle(permutation.begin(), permutation.end(), rng);
    }
    const std::int64_t total =
        options_.even_shares || options_.drop_last ? rank_samples_ * options_.world_size : size;
    for (std::int64_t i = size; i < total; ++i) { // pad by repeating from the start
        permutation.push_back(permutation[static_cast<std::size_t>(i % size)]);
    }
    std::vector<std::int64_t> mine;
    mine.reserve(static_cast<std::size_t>(rank_samples_));
    for (std::int64_t i = options_.rank; i < total; i += options_.world_size) {
        mine.push_back(permutation[static_cast<std::size_t>(i)]);
    }
    return mine;
}

std::int64_t Loader::batches_per_epoch() const {
    const std::int64_t batch = options_.batch_size;
    return options_.drop_last ? rank_samples_ / batch : (rank_samples_ + batch - 1) / batch;
}

void Loader::start_epoch(std::int64_t epoch, std::int64_t first_batch) {
    std::vector<std::int64_t> order = epoch_indices(epoch);
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        ++generation_;
        epoch_ = epoch;
        order_ = std::move(order);
        batch_count_ = batches_per_epoch();
        next_to_claim_ = std::clamp<std::int64_t>(first_batch, 0, batch_count_);
        next_to_deliver_ = next_to_claim_;
        delivered_samples_ = 0;
        ready_.clear();
    }
    changed_.notify_all();
}

bool Loader::has_work() const {
    const std::int64_t capacity =
        static_cast<std::int64_t>(options_.num_workers) * options_.prefetch_batches;
    return next_to_claim_ < batch_count_ && next_to_claim_ < next_to_deliver_ + capacity;
}

void Loader::work() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
        changed_.wait_for(lock, kStopPollInterval, [&] {
            return shutting_down_ || (has_work() && !stop_.stop_requested());
        });
        if (shutting_down_) {
            return;
        }
        if (!has_work() || stop_.stop_requested()) {
            continue;
        }
        const std::int64_t number = next_to_claim_++;
        const std::int64_t epoch = epoch_;
        const std::uint64_t generation = generation_;
        lock.unlock();
        Slot slot = build(number, epoch, generation);
        lock.lock();
        if (generation == generation_) {
            ready_[number] = std::move(slot);
            changed_.notify_all();
        }
    }
}

Loader::Slot Loader::build(std::int64_t number, std::int64_t epoch, std::uint64_t generation) {
    std::vector<std::int64_t> samples;
    std::size_t after = 0; // where in order_ the batch's stand-ins start
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (generation != generation_) {
            return {};
        }
        const auto begin = order_.begin() + number * options_.batch_size;
        const auto end =
            order_.begin() + std::min<std::int64_t>((number + 1) * options_.batch_size,
                                                    static_cast<std::int64_t>(order_.size()));
        samples.assign(begin, end);
        after = static_cast<std::size_t>(end - order_.begin());
    }
    Slot slot;
    try {
        const auto count = static_cast<std::int64_t>(samples.size());
        // LibTorch caches pinned host memory itself; ordinary memory comes from our pool.
        const bool pinned = options_.pin_memory && torch::cuda::is_available();
        Batch batch;
        batch.number = number;
        for (const ViewShape& view : source_->view_shapes()) {
            const std::vector<std::int64_t> sizes = {count, view.channels, view.height, view.width};
            batch.views.push_back(
                pinned
                    ? torch::empty(
                          sizes, torch::TensorOptions().dtype(torch::kFloat32).pinned_memory(true))
                    : buffers_->tensor(sizes));
        }
        std::int64_t target_size = 0;
        if (const auto shape = source_->target_shape()) {
            std::vector<std::int64_t> sizes = {count};
            sizes.insert(sizes.end(), shape->begin(), shape->end());
            batch.targets = torch::empty(
                sizes, torch::TensorOptions().dtype(torch::kInt64).pinned_memory(pinned));
            target_size = batch.targets[0].numel();
        }
        const int min_side = source_->min_decode_side();
        std::vector<float*> views(batch.views.size());
        std::int64_t filled = 0;
        std::size_t stand_ins = 0; // taken so far
        for (std::size_t drawn = 0; drawn < samples.size(); ++drawn) {
            if (stop_.stop_requested()) {
                return {};
            }
            const std::int64_t sample = samples[drawn];
            const std::filesystem::path path = source_->image_path(sample);
            cv::Mat image;
            try {
                const std::vector<unsigned char> bytes = read_file(path);
                bytes_read_ += bytes.size();
                image = decode_image(bytes, path.string(), min_side, options_.max_image_pixels);
            } catch (const Error& unreadable) {
                skip(sample, unreadable.what());
                if (const auto stand_in = stand_in_for(after, stand_ins++, generation)) {
                    samples.push_back(*stand_in);
                }
                continue;
            }
            try {
                Rng rng = sample_rng(options_.seed, static_cast<std::uint64_t>(epoch),
                                     static_cast<std::uint64_t>(sample));
                for (std::size_t v = 0; v < views.size(); ++v) {
                    views[v] = batch.views[v][filled].data_ptr<float>();
                }
                source_->make(sample, image, rng, views,
                              batch.targets.defined()
                                  ? batch.targets.data_ptr<std::int64_t>() + filled * target_size
                                  : nullptr);
            } catch (const std::bad_alloc&) {
                throw; // said as out of memory, with what to lower, where the command ends
            } catch (const cv::Exception& failure) {
                if (failure.code == cv::Error::StsNoMem) {
                    throw std::bad_alloc();
                }
                throw Error("while preparing \"" + path.string() + "\": " + failure.what());
            } catch (const std::exception& failure) {
                throw Error("while preparing \"" + path.string() + "\": " + failure.what());
            }
            batch.indices.push_back(sample);
            ++filled;
        }
        if (filled < count) {
            for (at::Tensor& view : batch.views) {
                view = view.narrow(0, 0, filled);
            }
            if (batch.targets.defined()) {
                batch.targets = batch.targets.narrow(0, 0, filled);
            }
        }
        slot.batch = std::move(batch);
    } catch (...) {
        slot.error = std::current_exception();
    }
    return slot;
}

// With fill_batches, the `taken`-th image after position `after` of the epoch's order, round
// to its start: each image once, the batch's own included (they fail again); none after that,
// or once the epoch was abandoned.
std::optional<std::int64_t> Loader::stand_in_for(std::size_t after, std::size_t taken,
                                                 std::uint64_t generation) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!options_.fill_batches || generation != generation_ || taken >= order_.size()) {
        return std::nullopt;
    }
    return order_[(after + taken) % order_.size()];
}

void Loader::skip(std::int64_t index, const std::string& reason) {
    bool first_time = false;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        first_time = unreadable_.insert(index).second;
        if (first_unreadable_reason_.empty()) {
            first_unreadable_reason_ = reason;
        }
    }
    if (first_time) {
        log::warning("skipping unreadable image: " + reason);
    }
}

void Loader::fail_unreadable_epoch(const std::vector<std::int64_t>& undrawn) {
    std::int64_t readable = 0;
    for (const std::int64_t sample : undrawn) {
        const std::filesystem::path path = source_->image_path(sample);
        try {
            decode_image(read_file(path), path.string(), source_->min_decode_side(),
                         options_.max_image_pixels);
            ++readable;
        } catch (const Error& unreadable) {
            skip(sample, unreadable.what());
        }
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::string images = std::to_string(order_.size());
    if (readable == 0) {
        throw Error("none of the " + images +
                    " images could be read, e.g.: " + first_unreadable_reason_);
    }
    throw Error(
        "only " + std::to_string(readable) + " of the " + images +
        " images can be read, fewer than one batch (batch_size=" +
        std::to_string(options_.batch_size) +
        "): replace the unreadable images or lower batch_size, e.g.: " + first_unreadable_reason_);
}

std::int64_t Loader::skipped_files() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<std::int64_t>(unreadable_.size());
}

std::optional<Batch> Loader::next() {
    const auto started = std::chrono::steady_clock::now();
    const auto finish = [&](std::optional<Batch> batch) {
        last_wait_seconds_ =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return batch;
    };
    while (true) {
        if (stop_.stop_requested()) {
            return finish(std::nullopt);
        }
        std::unique_lock<std::mutex> lock(mutex_);
        if (epoch_ < 0) {
            throw Error("Loader::next() called before start_epoch()");
        }
        if (next_to_deliver_ >= batch_count_) {
            if (delivered_samples_ == 0 && !order_.empty() && !unreadable_.empty()) {
                const auto drawn = std::min<std::size_t>(
                    static_cast<std::size_t>(batch_count_ * options_.batch_size), order_.size());
                const std::vector<std::int64_t> undrawn(order_.begin() + drawn, order_.end());
                lock.unlock();
                fail_unreadable_epoch(undrawn);
            }
            return finish(std::nullopt);
        }
        Slot slot;
        if (workers_.empty()) {
            const std::int64_t number = next_to_deliver_;
            const std::uint64_t generation = generation_;
            const std::int64_t epoch = epoch_;
            lock.unlock();
            slot = build(number, epoch, generation);
            lock.lock();
        } else {
            const std::int64_t wanted = next_to_deliver_;
            changed_.wait_for(lock, kStopPollInterval, [&] { return ready_.count(wanted) > 0; });
            const auto found = ready_.find(wanted);
            if (found == ready_.end()) {
                continue; // look at the stop token, then wait again
            }
            slot = std::move(found->second);
            ready_.erase(found);
        }
        ++next_to_deliver_;
        lock.unlock();
        changed_.notify_all(); // room for one more batch ahead
        if (slot.error) {
            std::rethrow_exception(slot.error);
        }
        if (!slot.batch) {
            continue; // abandoned because of a stop
        }
        if (slot.batch->indices.empty()) {
            if (options_.fill_batches) { // every image of the epoch was tried
                const std::lock_guard<std::mutex> reason_lock(mutex_);
                throw Error("none of the " + std::to_string(order_.size()) +
                            " images could be read, e.g.: " + first_unreadable_reason_);
            }
            continue; // every image of the batch was unreadable
        }
        {
            const std::lock_guard<std::mutex> count_lock(mutex_);
            delivered_samples_ += static_cast<std::int64_t>(slot.batch->indices.size());
        }
        return finish(std::move(slot.batch));
    }
}

} // namespace kiln::data
