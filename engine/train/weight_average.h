#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <exception>
#include <vector>

namespace torch::nn {
class Module;
}

namespace kiln::train {

// An exponential moving average of a module's weights (its parameters and floating-point
// buffers; the others are copied), as timm's and Ultralytics' ModelEMA keep one: what validation,
// best.ckpt, the exports and predictions use when optim_args.ema_decay is set. The decay ramps
// up as decay * (1 - exp(-step / ramp)) over the first tenth of the run, so the first, random
// weights are soon forgotten, and is at most 1 - 20 / steps: the average holds about the last
// twentieth of the run.
class WeightAverage {
public:
    WeightAverage(torch::nn::Module& module, double decay);

    // After each optimizer step: `step` steps done of the run's `total_steps`.
    void update(std::int64_t step, std::int64_t total_steps);
    double decay_at(std::int64_t step, std::int64_t total_steps) const;

    // The average becomes the module's weights as they are.
    void reset();
    // Exchanges the module's weights with the average: the module then computes with the
    // average (swap again to train on).
    void swap();

    // While one lives, the module holds the average.
    class Scope {
    public:
        explicit Scope(WeightAverage* average) : average_(average) {
            if (average_ != nullptr) {
                average_->swap();
            }
        }
        // Swapping back can fail as validation did (a GPU lost mid-run): while that error
        // unwinds, it is the one to report; a second one thrown here ended the process.
        ~Scope() noexcept(false) {
            if (average_ == nullptr) {
                return;
            }
            try {
                average_->swap();
            } catch (...) {
                if (std::uncaught_exceptions() == unwinding_) {
                    throw;
                }
            }
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        WeightAverage* average_;
        int unwinding_ = std::uncaught_exceptions();
    };

private:
    double decay_;
    std::vector<at::Tensor> live_;    // the module's own tensors
    std::vector<at::Tensor> average_; // the same order
};

} // namespace kiln::train
