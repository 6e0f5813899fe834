#include "track/step_values.h"

#include <chrono>

namespace kiln::track {

MetricValues step_values(const StepMetrics& metrics) {
    MetricValues values = {{"train_loss", metrics.loss},
                           {"lr", metrics.lr},
                           {"profiling/batch_time", metrics.batch_time},
                           {"profiling/data_time", metrics.data_time},
                           {"data_wait", metrics.data_wait},
                           {"images_per_second", metrics.images_per_second},
                           {"system/cpu_util", metrics.cpu_util},
                           {"system/process_cpu_util", metrics.process_cpu_util},
                           {"system/mem_rss_mb", metrics.rss_mb}};
    if (metrics.allreduce_time) {
        values.emplace_back("profiling/allreduce_time", *metrics.allreduce_time);
    }
    for (const system::GpuSample& gpu : metrics.gpus) {
        const std::string index = std::to_string(gpu.index);
        if (gpu.util_percent) {
            values.emplace_back("system/gpu_util/" + index, *gpu.util_percent);
        }
        if (gpu.memory_used_mb) {
            values.emplace_back("system/gpu_mem_used_mb/" + index, *gpu.memory_used_mb);
        }
        if (gpu.memory_total_mb) {
            values.emplace_back("system/gpu_mem_total_mb/" + index, *gpu.memory_total_mb);
        }
    }
    return values;
}

double unix_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace kiln::track
