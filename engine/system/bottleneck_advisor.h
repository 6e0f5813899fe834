#pragma once

#include <string>
#include <vector>

namespace kiln::system {

// Where a run's time goes, as LightlyTrain's performance guide classifies it.
enum class Bottleneck {
    Model,         // the data keeps up: the step itself is the limit
    DataloaderCpu, // waiting for data while the CPU is saturated: decoding/augmenting is the limit
    DataloaderIo,  // waiting for data with CPU to spare: reading the files is the limit
};

// The thresholds of the classification, in one place.
struct AdvisorThresholds {
    double model_bound_data_wait = 0.10;  // data_wait below this: model-bound
    double cpu_saturated = 0.85;          // system CPU utilisation at or above this: saturated
    double gpu_busy = 0.80;               // GPU utilisation below this in a model-bound run:
                                          // the GPU waits on the host (small batches, syncs)
    double small_image_bytes = 16 * 1024; // files this small decode fast: never re-encode them
};

// A setting the advice would change, for a front end to offer in one click: the run
// configuration's key and the value to try, as `key=value` writes it.
struct SettingChange {
    std::string key;
    std::string value;
};

struct Advice {
    Bottleneck bottleneck = Bottleneck::Model;
    std::string diagnosis;              // one sentence with the figures it rests on
    std::vector<std::string> advice;    // what to do, most effective first
    std::vector<SettingChange> changes; // the advice that is one setting, in the same order
};

// What the run was set to, so that advice can name a value to try; unknown ones stay unset.
struct AdvisedSettings {
    std::string precision; // "32-true", ...
    int batch_size = 0;
    int num_workers = -1;
    int cpu_cores = 0;     // this process's share
    bool cpu_bf16 = false; // the CPU has bfloat16 instructions (AVX512-BF16, AMX)
};

std::string to_string(Bottleneck bottleneck);

// The last steps of a run, as the advisor reads them.
struct AdvisorWindow {
    std::vector<double> data_waits; // per step, fractions
    std::vector<double> cpu_utils;  // system CPU utilisation per step, [0, 1]
    std::vector<double> gpu_utils;  // mean utilisation of the run's GPUs per step, [0, 1]; may
                                    // be empty (CPU runs, no NVML)
    double read_mb_per_second = -1; // image bytes the loader read over the window; < 0: unknown
    double mean_image_bytes = -1;   // the files' mean size over the window; < 0: unknown
    bool cuda = false;
    AdvisedSettings settings;
};

// Classifies a window of a run: the median data_wait against the mean CPU use decides; GPU
// utilisation and read throughput are reported with the diagnosis, and a GPU that idles while
// the data keeps up points at the step's own overheads.
Advice advise(AdvisorWindow window, const AdvisorThresholds& thresholds = {});

} // namespace kiln::system
