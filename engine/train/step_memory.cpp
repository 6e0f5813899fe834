#include "train/step_memory.h"

#include "core/error.h"
#include "system/heap_reuse.h"

#include <cmath>
#include <cstdio>

namespace kiln::train {
namespace {

constexpr double kComfortableShare = 0.8; // of the free memory: the rest is the machine's

// "15.0 GB" (from 1,000 MB), "620 MB".
std::string memory_text(double mb) {
    char text[32];
    if (mb >= 1000) {
        std::snprintf(text, sizeof text, "%.1f GB", mb / 1024.0);
    } else {
        std::snprintf(text, sizeof text, "%.0f MB", std::ceil(mb));
    }
    return text;
}

} // namespace

PeakPerProbed run_peak_per_probed() {
    return system::malloc_is_tcmalloc() ? PeakPerProbed{.least = 1.05, .most = 1.3}
                                        : PeakPerProbed{.least = 1.7, .most = 2.5};
}

double StepMemory::least_mb(int samples) const {
    return samples * peak_per_probed.least * probed_per_sample_mb;
}

double StepMemory::most_mb(int samples) const {
    return samples * peak_per_probed.most * probed_per_sample_mb;
}

int StepMemory::largest_comfortable_batch() const {
    int largest = 0;
    for (int candidate = 1;
         candidate <= batch && most_mb(candidate) <= kComfortableShare * available_mb;
         candidate *= 2) {
        largest = candidate;
    }
    return largest;
}

std::string views_text(const std::vector<data::ViewShape>& views) {
    std::string text;
    for (std::size_t first = 0; first < views.size();) {
        std::size_t end = first;
        while (end < views.size() && views[end].height == views[first].height &&
               views[end].width == views[first].width) {
            ++end;
        }
        const std::size_t count = end - first;
        text += (text.empty()          ? ""
                 : end == views.size() ? " and "
                                       : ", ") +
                std::to_string(count) + (text.empty() ? (count == 1 ? " view" : " views") : "") +
                " of " + std::to_string(views[first].height) + " x " +
                std::to_string(views[first].width) + " px";
        first = end;
    }
    return text;
}

std::string check_step_memory(const StepMemory& memory) {
    const std::string views = " a sample of " + views_text(memory.views) + ")";
    const int fits = memory.largest_comfortable_batch();
    const std::string smaller = fits > 0 ? "batch_size=" + std::to_string(fits) + " (at most " +
                                               memory_text(memory.most_mb(fits)) + ")"
                                         : "a smaller batch_size";
    if (memory.least_mb(memory.batch) > memory.available_mb) {
        throw Error("batch_size=" + std::to_string(memory.batch) + " needs at least " +
                    memory_text(memory.least_mb(memory.batch)) +
                    " for a training step on the CPU (" + memory_text(memory.least_mb(1)) +
                    " or more" + views + ", and this machine has " +
                    memory_text(memory.available_mb) +
                    " free: the system would stop the run at its first step. Use " + smaller +
                    (fits > 0 ? " or less" : "") +
                    ", smaller views (transform_args.image_size), or close what else "
                    "holds memory");
    }
    if (memory.most_mb(memory.batch) > kComfortableShare * memory.available_mb) {
        return "batch_size=" + std::to_string(memory.batch) + " may need up to " +
               memory_text(memory.most_mb(memory.batch)) + " for a training step on the CPU (" +
               memory_text(memory.most_mb(1)) + views + ", of the " +
               memory_text(memory.available_mb) +
               " free: the system may stop the run, or the machine stall; " + smaller +
               " leaves room";
    }
    return {};
}

std::string step_memory_text(const StepMemory& memory) {
    return "a training step of " + std::to_string(memory.batch) + " samples needs " +
           memory_text(memory.least_mb(memory.batch)) + " to " +
           memory_text(memory.most_mb(memory.batch)) + " on the CPU; " +
           memory_text(memory.available_mb) + " free";
}

} // namespace kiln::train
