#include "track/step_values.h"

#include <chrono>

namespace kiln::track {

MetricValues step_values(const train::StepMetrics& metrics) {
    return {{"train_loss", metrics.loss},
            {"lr", metrics.lr},
            {"profiling/batch_time", metrics.batch_time},
            {"profiling/data_time", metrics.data_time},
            {"data_wait", metrics.data_wait},
            {"images_per_second", metrics.images_per_second},
            {"system/cpu_util", metrics.cpu_util},
            {"system/process_cpu_util", metrics.process_cpu_util},
            {"system/mem_rss_mb", metrics.rss_mb}};
}

double unix_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace kiln::track
