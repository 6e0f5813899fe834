#pragma once

// The mean and sample standard deviation of one figure over a benchmark's seeds.

#include <algorithm>
#include <cmath>
#include <vector>

namespace kiln::bench {

struct MeanSd {
    double mean = 0, sd = 0;
};

inline MeanSd mean_sd(const std::vector<double>& values) {
    MeanSd result;
    for (const double value : values) {
        result.mean += value / double(values.size());
    }
    for (const double value : values) {
        result.sd += (value - result.mean) * (value - result.mean) /
                     double(std::max<std::size_t>(1, values.size() - 1));
    }
    result.sd = std::sqrt(result.sd);
    return result;
}

} // namespace kiln::bench
