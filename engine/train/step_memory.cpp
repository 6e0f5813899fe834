#include "train/step_memory.h"

#include "core/error.h"
#include "core/log.h"
#include "system/heap_reuse.h"
#include "system/memory.h"

#include <algorithm>
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

double StepMemory::per_step_mb(double ratio) const {
    return parameter_copies * probed.trained_parameters_mb + ratio * probed.per_step_mb;
}

double StepMemory::least_mb(int samples) const {
    return per_step_mb(peak_per_probed.least) +
           samples * peak_per_probed.least * probed.per_sample_mb;
}

double StepMemory::most_mb(int samples) const {
    return per_step_mb(peak_per_probed.most) +
           samples * peak_per_probed.most * probed.per_sample_mb;
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

int parameter_copies(const methods::OptimizerDefaults& optimizer) {
    const int moments = optimizer.name == "adamw" ? 2 : 1;
    return moments + (optimizer.ema_decay > 0 ? 1 : 0);
}

int inference_batch_that_fits(int batch, double per_image_mb, double available_mb,
                              const data::ViewShape& view, const std::string& size_setting) {
    const double comfortable = kComfortableShare * available_mb;
    const int fits = per_image_mb > 0
                         ? int(std::min<double>(batch, std::floor(comfortable / per_image_mb)))
                         : batch;
    const std::string images =
        std::to_string(view.height) + " x " + std::to_string(view.width) + " px";
    if (fits < 1) {
        throw Error("one image at " + images + " needs about " + memory_text(per_image_mb) +
                    " to go through the model on the CPU, and this machine has " +
                    memory_text(available_mb) + " free; give a smaller " + size_setting);
    }
    if (fits < batch) {
        log::warning("batches of " + std::to_string(fits) + " images instead of " +
                     std::to_string(batch) + ": at " + images + " each needs about " +
                     memory_text(per_image_mb) + ", and " + memory_text(available_mb) + " is free");
    }
    return fits;
}

int cpu_inference_batch(int batch, const InferenceForward& forward, const data::ViewShape& view,
                        const std::string& size_setting) {
    // 18 times what smallcnn was measured to need per pixel at inference (114 bytes at 2048 px,
    // the heap's overhead included): a batch under this bound needs no probe.
    constexpr double kMostBytesPerPixel = 2048;
    const std::optional<double> available = system::available_memory_mb();
    const double bound_mb =
        double(batch) * view.height * view.width * kMostBytesPerPixel / (1024.0 * 1024.0);
    if (!available || bound_mb < (1 - kComfortableShare) * *available) {
        return batch;
    }
    const std::optional<double> probed = probe_inference_memory_per_sample_mb(forward, view);
    if (!probed) {
        return batch;
    }
    // What the heap holds beyond the tensors, as in a training step (run_peak_per_probed).
    const double per_image = run_peak_per_probed().most * *probed;
    log::debug("inference at " + std::to_string(view.height) + " x " + std::to_string(view.width) +
               " px: about " + memory_text(per_image) + " an image");
    return inference_batch_that_fits(batch, per_image, *available, view, size_setting);
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

namespace {

// "(150 MB or more a sample of 2 views of 224 x 224 px)", with what a step takes whatever its
// batch where that is a tenth of the step or more (DINO's prototypes, a large model's gradients),
// each at the peak's `ratio` to what the probe counted.
std::string step_parts_text(const StepMemory& memory, double ratio, const char* bound) {
    const double per_step = memory.per_step_mb(ratio);
    const double per_sample = ratio * memory.probed.per_sample_mb;
    const double step = per_step + memory.batch * per_sample;
    return " (" + memory_text(per_sample) + bound + " a sample of " + views_text(memory.views) +
           (per_step >= 0.1 * step ? ", and " + memory_text(per_step) +
                                         " whatever the batch: the gradients, the optimizer's "
                                         "state and the model's own copies of its weights"
                                   : "") +
           ")";
}

} // namespace

std::string check_step_memory(const StepMemory& memory) {
    const int fits = memory.largest_comfortable_batch();
    const std::string smaller =
        fits > 0 ? "batch_size=" + std::to_string(fits) + " (at most " +
                       memory_text(memory.most_mb(fits)) + ")"
        : memory.per_step_mb(memory.peak_per_probed.most) > kComfortableShare * memory.available_mb
            ? "a smaller model (or, pretraining, smaller heads: method_args)"
            : "a smaller batch_size";
    if (memory.least_mb(memory.batch) > memory.available_mb) {
        throw Error("batch_size=" + std::to_string(memory.batch) + " needs at least " +
                    memory_text(memory.least_mb(memory.batch)) + " for a training step on the CPU" +
                    step_parts_text(memory, memory.peak_per_probed.least, " or more") +
                    ", and this machine has " + memory_text(memory.available_mb) +
                    " free: the system would stop the run at its first step. Use " + smaller +
                    (fits > 0 ? " or less" : "") +
                    ", smaller views (transform_args.image_size), or close what else "
                    "holds memory");
    }
    if (memory.most_mb(memory.batch) > kComfortableShare * memory.available_mb) {
        return "batch_size=" + std::to_string(memory.batch) + " may need up to " +
               memory_text(memory.most_mb(memory.batch)) + " for a training step on the CPU" +
               step_parts_text(memory, memory.peak_per_probed.most, "") + ", of the " +
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
