#include "train/speed_probe.h"

#include "models/backbone.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <chrono>
#include <torch/autograd.h>
#include <torch/types.h>

namespace kiln::train {

double probe_training_speed(const std::string& model, int image_size, int views, StopToken stop) {
    constexpr std::int64_t kImages = 4;
    constexpr int kTimedSteps = 2;
    const models::Backbone backbone = models::make_backbone(model);
    backbone->train();
    const std::int64_t side = std::max(16, image_size);
    // Its own generator: the process's stays as it was (Studio trains in this process).
    const at::Tensor batch =
        at::randn({kImages * std::max(1, views), 3, side, side}, at::detail::createCPUGenerator(0));
    const auto step = [&] {
        backbone->zero_grad();
        backbone->forward(batch).square().mean().backward();
    };
    step(); // the first step allocates; it is not what a run's steps cost
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < kTimedSteps; ++i) {
        if (stop.stop_requested()) {
            return 0.0;
        }
        step();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return seconds > 0 ? double(kImages * kTimedSteps) / seconds : 0.0;
}

} // namespace kiln::train
