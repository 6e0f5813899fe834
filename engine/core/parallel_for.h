#pragma once

#include "core/log.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln {

// Calls body(begin, end) over [0, count) in chunks of `grain`, on up to `threads` threads (the
// caller's included). Chunks are handed out dynamically so uneven work balances; the first
// exception thrown by any chunk is rethrown here once every thread has stopped.
template <class Body>
void parallel_for(std::size_t count, int threads, std::size_t grain, Body&& body) {
    grain = std::max<std::size_t>(grain, 1);
    const std::size_t chunks = (count + grain - 1) / grain;
    const auto workers = static_cast<std::size_t>(std::max(1, threads));
    if (chunks <= 1 || workers == 1) {
        if (count > 0) {
            body(std::size_t{0}, count);
        }
        return;
    }
    std::atomic<std::size_t> next_chunk{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&] {
        while (!failed.load(std::memory_order_relaxed)) {
            const std::size_t chunk = next_chunk.fetch_add(1);
            if (chunk >= chunks) {
                return;
            }
            try {
                body(chunk * grain, std::min(count, (chunk + 1) * grain));
            } catch (...) {
                const std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) {
                    failure = std::current_exception();
                }
                failed = true;
            }
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < std::min(workers, chunks); ++t) {
        helpers.emplace_back(log::for_this_job(work));
    }
    work();
    for (std::thread& helper : helpers) {
        helper.join();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

} // namespace kiln
