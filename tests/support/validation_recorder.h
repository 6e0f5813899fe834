#pragma once

#include "config/run_config.h"
#include "train/trainer.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::test {

// Keeps what a fine-tuning run reports: its validations and summary; stops after an epoch
// when asked to.
class ValidationRecorder : public train::TrainObserver {
public:
    std::vector<train::ValidationMetrics> validations;
    std::optional<train::RunSummary> summary;
    StopToken stop;
    std::int64_t stop_after_epoch = -1;

    void on_validation(const train::ValidationMetrics& metrics) override {
        validations.push_back(metrics);
    }
    void on_epoch_end(std::int64_t epoch, double) override {
        if (epoch == stop_after_epoch) {
            stop.request_stop();
        }
    }
    void on_end(const train::RunSummary& result) override { summary = result; }

    // The value of `key` in validation number `validation`; -1 when it was not reported.
    double value(std::size_t validation, const std::string& key) const {
        for (const auto& [name, number] : validations.at(validation).values) {
            if (name == key) {
                return number;
            }
        }
        return -1.0;
    }
};

// Settings resolved as on a machine with two CPU cores and no GPU.
inline ResolveContext cpu_context() {
    ResolveContext context;
    context.hardware.cpu_cores = 2;
    return context;
}

} // namespace kiln::test
