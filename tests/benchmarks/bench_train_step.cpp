// One SimCLR training step of ResNet-18 at 64 px, batch 64, on the CPU: images/s for 32-true
// against bf16-mixed, contiguous against channels-last memory. The baseline is 32-true,
// contiguous, measured in the same run.
//
//   bench_train_step [--steps N] [--model NAME]

#include "methods/method.h"
#include "train/optimizer.h"

#include <ATen/autocast_mode.h>
#include <chrono>
#include <cstdio>
#include <string>
#include <torch/types.h>
#include <torch/utils.h>

namespace {

double images_per_second(const std::string& model, bool bf16, bool channels_last, int steps) {
    torch::manual_seed(0);
    const kiln::methods::Method method = kiln::methods::make_method("simclr", model, {}, 1000);
    method->train();
    const auto memory =
        channels_last ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
    if (channels_last) {
        for (torch::Tensor& parameter : method->parameters()) {
            if (parameter.dim() == 4) {
                parameter.set_data(parameter.contiguous(memory));
            }
        }
    }
    kiln::train::OptimizerSettings settings;
    settings.name = "sgd";
    kiln::train::Optimizer optimizer(settings, method->parameters());
    const std::vector<torch::Tensor> views = {torch::randn({64, 3, 64, 64}).contiguous(memory),
                                              torch::randn({64, 3, 64, 64}).contiguous(memory)};
    const auto step = [&] {
        optimizer.zero_grad();
        at::autocast::set_cpu_enabled(bf16);
        at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
        const torch::Tensor loss = method->training_loss(views);
        at::autocast::set_cpu_enabled(false);
        at::autocast::clear_cache();
        loss.to(torch::kFloat32).backward();
        optimizer.step(0.01);
    };
    step(); // warm-up: allocations, kernel selection
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) {
        step();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return 64.0 * steps / seconds;
}

} // namespace

int main(int argc, char** argv) {
    int steps = 5;
    std::string model = "resnet18";
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--steps" && i + 1 < argc) {
            steps = std::stoi(argv[++i]);
        } else if (argument == "--model" && i + 1 < argc) {
            model = argv[++i];
        } else {
            std::fprintf(stderr, "usage: bench_train_step [--steps N] [--model NAME]\n");
            return 2;
        }
    }
    std::printf("%s SimCLR step, batch 64 (2 views of 64x64), %d intra-op threads, %d steps\n",
                model.c_str(), torch::get_num_threads(), steps);
    const double baseline = images_per_second(model, false, false, steps);
    std::printf("  %-28s %7.1f img/s (baseline)\n", "32-true, contiguous", baseline);
    for (const auto& [label, bf16, channels_last] :
         {std::tuple{"32-true, channels-last", false, true},
          std::tuple{"bf16-mixed, contiguous", true, false},
          std::tuple{"bf16-mixed, channels-last", true, true}}) {
        const double rate = images_per_second(model, bf16, channels_last, steps);
        std::printf("  %-28s %7.1f img/s (%.2fx)\n", label, rate, rate / baseline);
    }
    return 0;
}
