#pragma once

#include "train/trainer.h"

#include <filesystem>
#include <map>
#include <string>

namespace kiln::bench {

// Where the benchmarks find Fashion-MNIST; they skip with a message when it is absent.
inline const std::filesystem::path kFashionMnist = "/usr/share/datasets/fashion-mnist";

// A training run's throughput (images over the seconds of its steps) and the last value of each
// validation metric.
class TrainingMeasure : public train::TrainObserver {
public:
    double seconds = 0.0;
    std::int64_t images = 0;
    std::map<std::string, double> last;

    void on_step(const train::StepMetrics& metrics) override {
        seconds += metrics.batch_time + metrics.data_time;
        images += static_cast<std::int64_t>(
            metrics.images_per_second * (metrics.batch_time + metrics.data_time) + 0.5);
    }
    void on_validation(const train::ValidationMetrics& metrics) override {
        for (const auto& [key, value] : metrics.values) {
            last[key] = value;
        }
    }
    double images_per_second() const { return seconds > 0 ? double(images) / seconds : 0.0; }
};

} // namespace kiln::bench
