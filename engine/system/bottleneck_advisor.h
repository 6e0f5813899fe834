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
    double model_bound_data_wait = 0.10; // data_wait below this: model-bound
    double cpu_saturated = 0.85;         // system CPU utilisation at or above this: saturated
};

struct Advice {
    Bottleneck bottleneck = Bottleneck::Model;
    std::string diagnosis;           // one sentence with the figures it rests on
    std::vector<std::string> advice; // what to do, most effective first
};

std::string to_string(Bottleneck bottleneck);

// Classifies a window of a run from its steps' data_wait and system CPU utilisation (fractions,
// one each per step): the median data_wait against the mean CPU use.
Advice advise(std::vector<double> data_waits, const std::vector<double>& cpu_utils, bool cuda,
              const AdvisorThresholds& thresholds = {});

} // namespace kiln::system
