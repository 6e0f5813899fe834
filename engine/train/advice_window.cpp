#include "train/advice_window.h"

namespace kiln::train {

void AdviceWindow::add(const track::StepMetrics& metrics, bool measured, std::uint64_t bytes_read,
                       std::int64_t images) {
    if (++seen_ <= kWarmUpSteps || !measured) {
        return;
    }
    std::optional<double> gpu_util;
    double gpu_sum = 0;
    int gpu_count = 0;
    for (const system::GpuSample& gpu : metrics.gpus) {
        if (gpu.util_percent) {
            gpu_sum += *gpu.util_percent / 100.0;
            ++gpu_count;
        }
    }
    if (gpu_count > 0) {
        gpu_util = gpu_sum / gpu_count;
    }
    steps_.push_back({metrics.data_wait, metrics.cpu_util, gpu_util, bytes_read, double(images),
                      std::chrono::steady_clock::now()});
    if (steps_.size() > capacity_) {
        steps_.pop_front();
    }
}

std::optional<system::Advice> AdviceWindow::advise() const {
    if (steps_.size() < kMinimumSteps) {
        return std::nullopt;
    }
    system::AdvisorWindow window;
    window.cuda = cuda_;
    window.settings = settings_;
    for (const Step& step : steps_) {
        window.data_waits.push_back(step.data_wait);
        window.cpu_utils.push_back(step.cpu_util);
        if (step.gpu_util) {
            window.gpu_utils.push_back(*step.gpu_util);
        }
    }
    const double span =
        std::chrono::duration<double>(steps_.back().time - steps_.front().time).count();
    const double bytes = double(steps_.back().bytes_read - steps_.front().bytes_read);
    if (span > 0) {
        window.read_mb_per_second = bytes / span / 1e6;
    }
    double images = 0; // read after the first step of the window, as the bytes are
    for (std::size_t i = 1; i < steps_.size(); ++i) {
        images += steps_[i].images;
    }
    if (images > 0 && bytes > 0) {
        window.mean_image_bytes = bytes / images;
    }
    return system::advise(std::move(window));
}

} // namespace kiln::train
