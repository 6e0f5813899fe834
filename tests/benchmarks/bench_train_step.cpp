// One SimCLR training step of ResNet-18 at 64 px, batch 64, on the CPU: images/s for 32-true
// against bf16-mixed, contiguous against channels-last memory. The baseline is 32-true,
// contiguous, measured in the same run; beside each, PyTorch eager from the wheel Kiln was
// built against does the same step (eager_train_step.py), when KILN_PYTHON has torchvision.
//
//   bench_train_step [--steps N] [--model NAME]

#include "methods/method.h"
#include "runtime/precision.h"
#include "train/optimizer.h"

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
    kiln::runtime::PrecisionPolicy precision(
        bf16 ? kiln::Precision::BF16Mixed : kiln::Precision::Full32, c10::kCPU);
    kiln::train::OptimizerSettings settings;
    settings.name = "sgd";
    kiln::train::Optimizer optimizer(settings, method->parameters());
    const std::vector<torch::Tensor> views = {torch::randn({64, 3, 64, 64}).contiguous(memory),
                                              torch::randn({64, 3, 64, 64}).contiguous(memory)};
    const auto step = [&] {
        optimizer.zero_grad();
        torch::Tensor loss;
        {
            const kiln::runtime::AutocastScope autocast = precision.autocast();
            loss = method->training_loss(views);
        }
        precision.backward(loss);
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

// PyTorch eager's images/s for the four variants, in main()'s order; empty without Python.
std::vector<double> eager_rates(const std::string& model, int steps) {
    if (std::string(KILN_BENCHMARK_PYTHON).empty()) {
        return {};
    }
    const std::string command =
        KILN_BENCHMARK_PYTHON " " KILN_BENCHMARK_DIR "/eager_train_step.py " + model + " " +
        std::to_string(steps) + " " + std::to_string(torch::get_num_threads()) + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    std::vector<double> rates(4);
    if (pipe == nullptr) {
        return {};
    }
    for (double& rate : rates) {
        if (std::fscanf(pipe, "%lf", &rate) != 1) {
            rates.clear();
            break;
        }
    }
    ::pclose(pipe);
    return rates;
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
    const std::vector<double> eager = eager_rates(model, steps);
    const double baseline = images_per_second(model, false, false, steps);
    const auto print = [&](const char* label, double rate, std::size_t variant) {
        std::printf("  %-28s %7.1f img/s (%.2fx)", label, rate, rate / baseline);
        if (!eager.empty()) {
            std::printf("   PyTorch eager %7.1f img/s (Kiln %.2fx)", eager[variant],
                        rate / eager[variant]);
        }
        std::printf("\n");
    };
    print("32-true, contiguous", baseline, 0);
    std::size_t variant = 1;
    for (const auto& [label, bf16, channels_last] :
         {std::tuple{"32-true, channels-last", false, true},
          std::tuple{"bf16-mixed, contiguous", true, false},
          std::tuple{"bf16-mixed, channels-last", true, true}}) {
        print(label, images_per_second(model, bf16, channels_last, steps), variant++);
    }
    if (eager.empty()) {
        std::printf("  PyTorch eager: skipped (configure with KILN_PYTHON set to a Python with "
                    "torch and torchvision)\n");
    }
    return 0;
}
