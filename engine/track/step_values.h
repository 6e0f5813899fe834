#pragma once

#include "track/run_events.h"
#include "track/run_store.h"

#include <string>
#include <utility>
#include <vector>

namespace kiln::track {

using MetricValues = std::vector<std::pair<std::string, double>>;

// The metrics of one step under the names every logger uses (LightlyTrain's where it has one):
// train_loss, lr, profiling/batch_time, profiling/data_time, data_wait, images_per_second,
// system/cpu_util, system/process_cpu_util, system/mem_rss_mb, and per GPU i that NVML could
// measure system/gpu_util/i, system/gpu_mem_used_mb/i, system/gpu_mem_total_mb/i.
MetricValues step_values(const StepMetrics& metrics);

// A run's history as recorded in its run.db, back in the form the trainer reported it: each
// step's metrics (with the wall time it was recorded at) and each validation, in step order.
// A resumed run's steps continue its first part's. `watch_metric` (higher is better) marks the
// best validation.
struct RecordedHistory {
    std::vector<StepMetrics> steps;
    std::vector<double> step_wall_times; // Unix seconds, one per step
    std::vector<ValidationMetrics> validations;
};
RecordedHistory recorded_history(const std::vector<MetricPoint>& points,
                                 const std::string& watch_metric);

// Seconds since the Unix epoch, the wall time every logger stamps.
double unix_seconds();

// This machine's name, as run.db, TensorBoard's file names and W&B's runs record it; empty when
// the system will not say.
std::string host_name();

} // namespace kiln::track
