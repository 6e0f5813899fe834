#include "system/bottleneck_advisor.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace kiln::system {
namespace {

std::string percent(double fraction) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * fraction);
    return text;
}

double mean(const std::vector<double>& values) {
    return values.empty()
               ? 0.0
               : std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

// The mixed-precision sentence of a model-bound run; none where it runs in 16 bits already.
// On a CPU without bfloat16 instructions bf16-mixed is emulated: ResNet-18 at 64 px trained
// 1.34x faster with it on a 2-core AVX2 machine, smallcnn at 32 px 13x slower. With AVX512-BF16
// or AMX LibTorch runs it natively (not measured here: no such CPU).
std::vector<std::string> precision_advice(bool cuda, const AdvisedSettings& settings) {
    if (settings.precision.find("16") != std::string::npos) {
        return {};
    }
    if (cuda) {
        return {"use mixed precision: precision=bf16-mixed (or 16-mixed on GPUs older than "
                "Ampere)"};
    }
    if (settings.cpu_bf16) {
        return {"use mixed precision: precision=bf16-mixed (this CPU has bfloat16 instructions)"};
    }
    return {"mixed precision (precision=bf16-mixed) is faster on CPUs with bfloat16 instructions "
            "(AVX512-BF16, AMX; this one has none) and for some models elsewhere, but may be many "
            "times slower: try it for a few steps and compare images/s"};
}

} // namespace

std::string to_string(Bottleneck bottleneck) {
    switch (bottleneck) {
    case Bottleneck::Model:
        return "model-bound";
    case Bottleneck::DataloaderCpu:
        return "dataloader CPU-bound";
    case Bottleneck::DataloaderIo:
        return "dataloader I/O-bound";
    }
    return "unknown";
}

Advice advise(AdvisorWindow window, const AdvisorThresholds& thresholds) {
    const AdvisedSettings& settings = window.settings;
    std::vector<double>& data_waits = window.data_waits;
    double median_data_wait = 0.0;
    if (!data_waits.empty()) {
        const auto middle = data_waits.begin() + static_cast<std::ptrdiff_t>(data_waits.size() / 2);
        std::nth_element(data_waits.begin(), middle, data_waits.end());
        median_data_wait = *middle;
    }
    const double mean_cpu_util = mean(window.cpu_utils);
    const bool gpu_known = !window.gpu_utils.empty();
    const double mean_gpu_util = mean(window.gpu_utils);
    const bool cuda = window.cuda;
    Advice advice;
    std::string figures =
        " (data_wait " + percent(median_data_wait) + ", CPU " + percent(mean_cpu_util);
    if (gpu_known) {
        figures += ", GPU " + percent(mean_gpu_util);
    }
    if (window.read_mb_per_second >= 0) {
        char text[48];
        std::snprintf(text, sizeof text, ", reading %.1f MB/s", window.read_mb_per_second);
        figures += text;
    }
    figures += ")";
    if (median_data_wait < thresholds.model_bound_data_wait) {
        advice.bottleneck = Bottleneck::Model;
        advice.diagnosis =
            "model-bound: the data keeps up and the training step is the limit" + figures;
        advice.advice = precision_advice(cuda, settings);
        advice.advice.push_back("use a newer LibTorch and CUDA, or a faster accelerator");
        advice.advice.push_back("a smaller model or image size trains faster, if quality allows");
        if (gpu_known && mean_gpu_util < thresholds.gpu_busy) {
            advice.advice.insert(advice.advice.begin(),
                                 "the GPU is busy only " + percent(mean_gpu_util) +
                                     " of the time: raise batch_size so each step gives it "
                                     "more work");
            if (settings.batch_size > 0) {
                advice.changes.push_back({"batch_size", std::to_string(2 * settings.batch_size)});
            }
        }
        if ((cuda || settings.cpu_bf16) && settings.precision == "32-true") {
            advice.changes.push_back({"precision", "bf16-mixed"});
        }
    } else if (mean_cpu_util >= thresholds.cpu_saturated) {
        advice.bottleneck = Bottleneck::DataloaderCpu;
        advice.diagnosis =
            "dataloader CPU-bound: the step waits for data and the CPU is saturated" + figures;
        const bool small_files =
            window.mean_image_bytes >= 0 && window.mean_image_bytes < thresholds.small_image_bytes;
        if (small_files) {
            // Re-encoding files this small saves nothing (and may make them larger): the
            // augmentations and the copies take the CPU.
            char size[32];
            std::snprintf(size, sizeof size, "%.1f KB", window.mean_image_bytes / 1024.0);
            advice.advice = {"the images are already small (" + std::string(size) +
                                 " each): decoding them is cheap, so re-encoding would not "
                                 "help; lighter augmentations (transform_args) or a lower "
                                 "resolution (transform_args.image_size) leave the CPU less to do",
                             "if the CPU is shared with other work, fewer workers "
                             "(num_workers) can leave more for the loader",
                             "more CPU cores per GPU, or a larger batch_size per step"};
        } else {
            advice.advice = {"convert slow-to-decode images (PNG) to JPEG or WebP and shrink "
                             "large ones: kiln optimize-dataset SRC DST --max-size 512",
                             "train at a lower resolution (transform_args.image_size)",
                             "if the CPU is shared with other work, fewer workers "
                             "(num_workers) can leave more for decoding"};
        }
    } else {
        advice.bottleneck = Bottleneck::DataloaderIo;
        advice.diagnosis =
            "dataloader I/O-bound: the step waits for data while CPU is to spare" + figures;
        advice.advice = {"use more loader workers (num_workers)",
                         "copy the dataset to fast local storage (a local SSD instead of a "
                         "network share)"};
        if (settings.num_workers >= 0 && settings.cpu_cores > settings.num_workers) {
            const int more = std::min(settings.cpu_cores, std::max(2 * settings.num_workers, 1));
            advice.changes.push_back({"num_workers", std::to_string(more)});
        }
    }
    return advice;
}

} // namespace kiln::system
