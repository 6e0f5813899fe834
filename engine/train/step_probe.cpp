#include "train/step_probe.h"

#include "methods/method.h"
#include "models/backbone.h"
#include "system/heap_reuse.h"
#include "train/fit_loop.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <algorithm>
#include <c10/core/CPUAllocator.h>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <torch/autograd.h>
#include <torch/nn/module.h>
#include <torch/types.h>
#include <unordered_map>
#include <utility>

namespace kiln::train {
namespace {

// `make`'s model, made without drawing from the process's generator, which a run in this process
// (or Studio's next one) draws from after the probe as if it had not been.
ProbedModel made_with_generator_untouched(const MakeProbedModel& make, int channels) {
    at::Generator process = at::detail::getDefaultCPUGenerator();
    const at::Tensor state = process.get_state();
    try {
        ProbedModel model = make(channels);
        process.set_state(state);
        return model;
    } catch (...) {
        process.set_state(state);
        throw;
    }
}

// Counts the bytes LibTorch's CPU tensors hold while it is installed (oneDNN's buffers too: they
// come from the same allocator), and the most they held since reset_peak(): what a step needs at
// its fullest, whatever the heap kept of earlier jobs (Studio's process runs one after another).
// Only the raw interface of the allocator it wraps is used, which oneDNN needs of it as well.
// Only what the probing thread allocates counts, with the intra-op threads that work for it:
// a loader's threads filling the next batch, or a run training beside Studio's estimate, do not.
class CountingCpuAllocator final : public c10::Allocator {
public:
    static CountingCpuAllocator& instance() {
        static CountingCpuAllocator counting; // outlives every allocation it made
        return counting;
    }

    c10::DataPtr allocate(std::size_t bytes) override {
        void* data = inner_->raw_allocate(bytes);
        if (!probing_thread && !at::in_parallel_region()) {
            return {data, data, &release, c10::Device(c10::kCPU)}; // not counted
        }
        const std::lock_guard<std::mutex> lock(mutex_);
        sizes_[data] = bytes;
        in_use_ += static_cast<std::int64_t>(bytes);
        peak_ = std::max(peak_, in_use_);
        return {data, data, &release, c10::Device(c10::kCPU)};
    }
    c10::DeleterFnPtr raw_deleter() const override { return &release; }
    void copy_data(void* destination, const void* source, std::size_t bytes) const override {
        default_copy_data(destination, source, bytes);
    }

    // The bytes held at most since the last reset, beyond those held at it.
    std::int64_t growth_since_reset() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return peak_ - at_reset_;
    }
    // The bytes held now beyond those held at the last reset.
    std::int64_t held_since_reset() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return in_use_ - at_reset_;
    }
    void reset_peak() {
        const std::lock_guard<std::mutex> lock(mutex_);
        peak_ = at_reset_ = in_use_;
    }

    // Allocates CPU tensors while it lives, through `inner` (the allocator it replaces).
    class Scope {
    public:
        Scope() : previous_(c10::GetCPUAllocator()), was_probing_(probing_thread) {
            if (previous_ != &instance()) { // a scope inside another keeps the outer's
                instance().inner_ = previous_;
                c10::SetCPUAllocator(&instance());
            }
            probing_thread = true;
        }
        ~Scope() {
            probing_thread = was_probing_;
            if (installed() && previous_ != &instance()) {
                c10::SetCPUAllocator(previous_);
            }
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        // False where another allocator of a higher priority is in place.
        bool installed() const { return c10::GetCPUAllocator() == &instance(); }

    private:
        c10::Allocator* previous_;
        bool was_probing_;
    };

private:
    // Frees what allocate() gave, and anything the allocator it wraps gave before it was
    // installed (oneDNN frees through whichever allocator is current).
    static void release(void* data) {
        CountingCpuAllocator& counting = instance();
        {
            const std::lock_guard<std::mutex> lock(counting.mutex_);
            if (const auto found = counting.sizes_.find(data); found != counting.sizes_.end()) {
                counting.in_use_ -= static_cast<std::int64_t>(found->second);
                counting.sizes_.erase(found);
            }
        }
        counting.inner_->raw_deallocate(data);
    }

    static thread_local bool probing_thread;

    c10::Allocator* inner_ = c10::GetDefaultCPUAllocator();
    std::mutex mutex_;
    std::unordered_map<void*, std::size_t> sizes_;
    std::int64_t in_use_ = 0;
    std::int64_t peak_ = 0;
    std::int64_t at_reset_ = 0;
};

thread_local bool CountingCpuAllocator::probing_thread = false;

// A probed model in training mode and random images of the given shapes, `samples` of each.
class ProbeStep {
public:
    ProbeStep(const MakeProbedModel& make, int channels)
        : model_(made_with_generator_untouched(make, channels)) {
        model_.module->train();
    }

    // Returns what the forward pass left held for the backward pass, in MiB.
    double operator()(const std::vector<data::ViewShape>& views, std::int64_t samples) {
        // Its own generator: the process's stays as it was (Studio trains in this process).
        const at::Generator generator = at::detail::createCPUGenerator(0);
        model_.module->zero_grad();
        std::vector<at::Tensor> images;
        for (const data::ViewShape& view : views) {
            images.push_back(at::randn(
                {samples, view.channels, std::max(16, view.height), std::max(16, view.width)},
                generator));
        }
        const at::Tensor loss = model_.loss(images);
        const double held_mb =
            double(CountingCpuAllocator::instance().held_since_reset()) / (1024.0 * 1024.0);
        loss.backward();
        if (model_.update) {
            model_.update();
        }
        return held_mb;
    }

    // Frees the gradients, which a run's first step allocates: a step then counts them.
    void drop_gradients() { model_.module->zero_grad(); }

    double trained_parameters_mb() const {
        double bytes = 0;
        for (const at::Tensor& parameter : model_.module->parameters()) {
            if (parameter.requires_grad()) {
                bytes += double(parameter.numel()) * double(parameter.element_size());
            }
        }
        return bytes / (1024.0 * 1024.0);
    }

private:
    ProbedModel model_;
};

// The views no larger than `side` a side (and at least 16 px, as ProbeStep makes them).
std::vector<data::ViewShape> shrunk(const std::vector<data::ViewShape>& views, int side) {
    std::vector<data::ViewShape> small = views;
    for (data::ViewShape& view : small) {
        const double shrink =
            std::min(1.0, double(side) / double(std::max(view.height, view.width)));
        view.height = std::max(16, static_cast<int>(view.height * shrink));
        view.width = std::max(16, static_cast<int>(view.width * shrink));
    }
    return small;
}

double pixels_of(const std::vector<data::ViewShape>& views) {
    double pixels = 0;
    for (const data::ViewShape& view : views) {
        pixels += double(view.height) * view.width;
    }
    return pixels;
}

using MemoryMeasure = std::function<std::optional<double>(const std::vector<data::ViewShape>&)>;

// MiB per sample at `views` from `measure`. Views over kProbeSide a side would take, probed at
// their size, the memory the probe is there to protect: they are measured at kProbeSide and at
// half of it, and the two extrapolated to their pixels (extrapolated_mb).
std::optional<double> measured_at_scale(const std::vector<data::ViewShape>& views,
                                        const MemoryMeasure& measure) {
    constexpr int kProbeSide = 448;
    const std::vector<data::ViewShape> large = shrunk(views, kProbeSide);
    const std::optional<double> large_mb = measure(large);
    if (!large_mb || pixels_of(large) >= pixels_of(views)) {
        return large_mb;
    }
    const std::vector<data::ViewShape> small = shrunk(views, kProbeSide / 2);
    const std::optional<double> small_mb = measure(small);
    if (!small_mb) {
        return std::nullopt;
    }
    return extrapolated_mb(*small_mb, pixels_of(small), *large_mb, pixels_of(large),
                           pixels_of(views));
}

// Gives the heap's free pages back when it ends: the probe's model and its steps' blocks, which
// the run's steps, of other sizes, would not all reuse (tcmalloc kept 1.8 GB of DINO's probe at
// 262,144 prototypes).
class ReleasedAfterwards {
public:
    ReleasedAfterwards() = default;
    ~ReleasedAfterwards() { system::release_free_memory(); }
    ReleasedAfterwards(const ReleasedAfterwards&) = delete;
    ReleasedAfterwards& operator=(const ReleasedAfterwards&) = delete;
};

// One probe at a time in the process: the counting allocator is the process's (Studio's estimate
// may still be probing when the run it started checks its own step, or embeds), and a probe puts
// the process's generator back as it found it (wait_for_probes).
std::mutex one_probe_at_a_time;

} // namespace

MakeProbedModel probed_backbone(const std::string& model) {
    return [model](int channels) {
        const models::Backbone backbone = models::make_backbone(model, channels);
        const auto loss = [backbone](const std::vector<at::Tensor>& views) {
            at::Tensor sum = at::zeros({});
            for (const at::Tensor& images : views) {
                sum = sum + backbone->forward(images).square().mean();
            }
            return sum;
        };
        return ProbedModel{backbone, loss, {}};
    };
}

MakeProbedModel probed_model(TaskKind task, const std::string& model, const std::string& method,
                             const nlohmann::json& method_args, std::int64_t dataset_size,
                             const OptimizerSettings& optimizer) {
    // A rate that moves nothing that matters: the probe's weights are its own.
    constexpr double kProbeRate = 1e-12;
    const auto with_optimizer = [optimizer](ProbedModel probed, const std::function<void()>& then) {
        auto stepped = std::make_shared<Optimizer>(optimizer, trainable_parameters(*probed.module));
        probed.update = [stepped, then] {
            stepped->step(kProbeRate);
            if (then) {
                then();
            }
        };
        return probed;
    };
    if (task != TaskKind::Pretraining) {
        return [backbone = probed_backbone(model), with_optimizer](int channels) {
            return with_optimizer(backbone(channels), {});
        };
    }
    return [=](int channels) {
        const methods::Method made =
            methods::make_method(method, model, method_args, dataset_size, channels);
        return with_optimizer(ProbedModel{made,
                                          [made](const std::vector<at::Tensor>& views) {
                                              return made->training_loss(views);
                                          },
                                          {}},
                              [made] { made->after_optimizer_step(); });
    };
}

SpeedProbePlan plan_speed_probe(const std::vector<data::ViewShape>& views, int batch) {
    SpeedProbePlan plan{.timed_views = shrunk(views, kLargestTimedSide)};
    plan.pixels_per_timed = pixels_of(views) / pixels_of(plan.timed_views);
    // A step of a few small samples times the per-step work (a method's heads and teacher) that
    // a run's batch shares out: DINO on smallcnn_v2 at 32 px timed 4 at a time gave 123 samples
    // a second, against 571 in the run.
    const double samples =
        std::clamp(std::round(4 * 2 * 224.0 * 224.0 / pixels_of(plan.timed_views)), 4.0, 64.0);
    plan.samples = std::max<std::int64_t>(1, std::min<std::int64_t>(std::int64_t(samples), batch));
    return plan;
}

double probe_training_speed(const MakeProbedModel& make, const std::vector<data::ViewShape>& views,
                            int batch, StopToken stop) {
    constexpr int kTimedSteps = 2;
    if (views.empty()) {
        return 0.0;
    }
    const std::lock_guard<std::mutex> probing(one_probe_at_a_time);
    const ReleasedAfterwards released;
    ProbeStep step(make, views.front().channels);
    const auto [timed, samples, pixels_per_timed] = plan_speed_probe(views, batch);
    step(timed, samples); // the first step allocates; it is not what a run's steps cost
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < kTimedSteps; ++i) {
        if (stop.stop_requested()) {
            return 0.0;
        }
        step(timed, samples);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return seconds > 0 ? double(samples * kTimedSteps) / seconds / pixels_per_timed : 0.0;
}

void wait_for_probes() {
    const std::lock_guard<std::mutex> waited(one_probe_at_a_time);
}

double extrapolated_mb(double small_mb, double small_pixels, double large_mb, double large_pixels,
                       double pixels) {
    const double proportional = large_mb * pixels / large_pixels;
    // Beyond this, the growth is the model's and not the allocator's rounding.
    // CNNs grow at most 1.13 times as fast as the pixels from 224 to 448 px, ViTs 1.5 times
    // (vit_tiny's training step) to 2.7 times (vit_small's inference).
    constexpr double kFasterThanThePixels = 1.3;
    const double pixel_ratio = large_pixels / small_pixels;
    // A MiB beyond the proportion at least: a tiny model's reading is mostly rounding.
    if (small_mb <= 0 || large_pixels <= small_pixels ||
        large_mb / small_mb <= kFasterThanThePixels * pixel_ratio ||
        large_mb - small_mb * pixel_ratio < 1.0) {
        return proportional;
    }
    // m = a P + b P^2: m / P is a line in P.
    const double b =
        (large_mb / large_pixels - small_mb / small_pixels) / (large_pixels - small_pixels);
    const double a = std::max(0.0, large_mb / large_pixels - b * large_pixels);
    return std::max(proportional, a * pixels + b * pixels * pixels);
}

std::optional<ProbedStepMemory> probe_step_memory(const MakeProbedModel& make,
                                                  const std::vector<data::ViewShape>& views,
                                                  StopToken stop) {
    if (views.empty()) {
        return std::nullopt;
    }
    const std::lock_guard<std::mutex> probing(one_probe_at_a_time);
    const ReleasedAfterwards released;
    ProbeStep step(make, views.front().channels);
    const CountingCpuAllocator::Scope counted;
    if (!counted.installed()) {
        return std::nullopt;
    }
    std::optional<double> per_step; // at the first size measured: the gradients do not scale
    const std::optional<double> per_sample =
        measured_at_scale(views, [&](const std::vector<data::ViewShape>& probed) {
            step(probed, 1); // the first step allocates what every step reuses (caches)
            // The most a step held, and what its forward pass held for the backward pass: a
            // large head's step (DINO's prototypes) is at its fullest computing the weights'
            // gradients, when the samples' share is small, so that the most a step of a few
            // samples holds hardly grows with them, while a batch's scores come to dominate.
            struct Growth {
                double most_mb;
                double forward_mb;
            };
            const auto growth_of_a_step = [&](std::int64_t samples) -> std::optional<Growth> {
                if (stop.stop_requested()) {
                    return std::nullopt;
                }
                step.drop_gradients();
                CountingCpuAllocator::instance().reset_peak();
                const double forward_mb = step(probed, samples);
                return Growth{double(CountingCpuAllocator::instance().growth_since_reset()) /
                                  (1024.0 * 1024.0),
                              forward_mb};
            };
            const std::optional<Growth> one = growth_of_a_step(1);
            const std::optional<Growth> three = one ? growth_of_a_step(3) : std::nullopt;
            if (!three) {
                return std::optional<double>();
            }
            const double sample = std::max({0.0, (three->most_mb - one->most_mb) / 2.0,
                                            (three->forward_mb - one->forward_mb) / 2.0});
            if (!per_step) {
                per_step = std::max(0.0, one->most_mb - sample);
            }
            return std::optional<double>(sample);
        });
    if (!per_sample) {
        return std::nullopt;
    }
    return ProbedStepMemory{.per_sample_mb = *per_sample,
                            .per_step_mb = per_step.value_or(0.0),
                            .trained_parameters_mb = step.trained_parameters_mb()};
}

std::optional<double> probe_inference_memory_per_sample_mb(const InferenceForward& forward,
                                                           const data::ViewShape& view) {
    const std::lock_guard<std::mutex> probing(one_probe_at_a_time);
    const torch::NoGradGuard no_grad;
    const CountingCpuAllocator::Scope counted;
    if (!counted.installed()) {
        return std::nullopt;
    }
    const at::Generator generator = at::detail::createCPUGenerator(0);
    return measured_at_scale({view}, [&](const std::vector<data::ViewShape>& probed) {
        const data::ViewShape& shape = probed.front();
        const auto growth_of_a_batch = [&](std::int64_t samples) {
            CountingCpuAllocator::instance().reset_peak();
            forward(at::randn({samples, shape.channels, shape.height, shape.width}, generator));
            return double(CountingCpuAllocator::instance().growth_since_reset()) /
                   (1024.0 * 1024.0);
        };
        growth_of_a_batch(1); // the first pass allocates what every pass reuses
        const double one = growth_of_a_batch(1);
        const double three = growth_of_a_batch(3);
        return std::optional<double>(std::max(0.0, (three - one) / 2.0));
    });
}

} // namespace kiln::train
