#pragma once

#include "config/run_config.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/ScalarType.h>
#include <cstdint>
#include <vector>

namespace torch::nn {
class Module;
}
namespace kiln::models {
class Archive;
}

namespace kiln::runtime {

// The dtype weights and inputs are held in: 64-true float64, bf16-true bfloat16, 16-true
// float16, otherwise float32 (the mixed precisions autocast from float32).
c10::ScalarType storage_dtype(Precision precision);
// The dtype the mixed precisions compute in under autocast; Undefined for the others.
c10::ScalarType autocast_dtype(Precision precision);

// The memory layout images and convolution weights are kept in: channels-last for the 16-bit
// precisions, whose convolutions run faster so (bench_train_step: bf16-mixed 1.49x against
// 1.34x contiguous on the CPU; on GPUs it is what tensor cores want), contiguous otherwise
// (32-true ran 7% slower channels-last on the CPU).
c10::MemoryFormat memory_format_for(Precision precision);

// Moves every parameter and buffer of `module` to `device`; floating-point ones take `dtype`,
// integer ones (batch norm's counters) keep theirs, as PyTorch's Module.to(device, dtype) does;
// 4-D ones (convolution weights) take `format`. (LibTorch's Module::to(device, dtype) converts
// the integers too, and the checkpoint it writes then no longer loads into a fresh model.)
void move_module(torch::nn::Module& module, const c10::Device& device, c10::ScalarType dtype,
                 c10::MemoryFormat format = c10::MemoryFormat::Contiguous);

// Autocast on `device` to `dtype` for as long as it lives (nothing with Undefined).
class AutocastScope {
public:
    AutocastScope(c10::DeviceType device, c10::ScalarType dtype);
    ~AutocastScope();
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    c10::DeviceType device_;
    bool enabled_ = false;
    bool was_enabled_ = false;
    c10::ScalarType previous_dtype_ = c10::ScalarType::Undefined;
};

// Dynamic loss scaling as torch.amp.GradScaler does it: the loss is multiplied by the scale
// before backward; before the optimizer step the gradients are divided by it and checked; a
// step with an infinite or NaN gradient is skipped and the scale backs off; after
// `growth_interval` good steps in a row it grows.
class LossScaler {
public:
    struct Options {
        double initial_scale = 65536.0;
        double growth_factor = 2.0;
        double backoff_factor = 0.5;
        std::int64_t growth_interval = 2000;
    };

    LossScaler() : LossScaler(Options{}) {}
    explicit LossScaler(Options options);

    at::Tensor scale(const at::Tensor& loss);
    // Divides every defined gradient of `parameters` by the scale (in place) and returns
    // whether they are all finite: the optimizer step may run. Reads one flag from the device.
    bool unscale(const std::vector<at::Tensor>& parameters);
    // After each step (taken or skipped): backs off after an overflow, grows after enough
    // good steps.
    void update();

    double current_scale() const;
    std::int64_t skipped_steps() const { return skipped_steps_; }

    void save(models::Archive& archive) const;
    void load(const models::Archive& archive);

private:
    void ensure_on(const c10::Device& device);

    Options options_;
    at::Tensor scale_;          // float32 scalar on the gradients' device
    at::Tensor growth_tracker_; // int32 scalar: good steps since the last change
    at::Tensor found_inf_;      // float32 scalar, set by unscale
    std::int64_t skipped_steps_ = 0;
};

// How one precision trains on one device: the storage dtype, the autocast region, and for
// 16-mixed the loss scaler. The trainer calls, per optimizer step:
//   { auto scope = policy.autocast(); loss = ...; }  policy.backward(loss / n) per batch,
//   if (policy.prepare_step(parameters)) optimizer.step();  policy.finish_step();
class PrecisionPolicy {
public:
    PrecisionPolicy(Precision precision, c10::DeviceType device);

    Precision precision() const { return precision_; }
    c10::ScalarType storage_dtype() const { return storage_dtype_; }
    AutocastScope autocast() const { return AutocastScope(device_, autocast_dtype_); }
    bool scales_loss() const { return scaler_enabled_; }

    void backward(const at::Tensor& loss);
    // After backward (and the gradient all-reduce): unscales; false when the step must be
    // skipped because a gradient overflowed.
    bool prepare_step(const std::vector<at::Tensor>& parameters);
    void finish_step();

    const LossScaler& scaler() const { return scaler_; }
    void save(models::Archive& archive) const;
    void load(const models::Archive& archive);

private:
    Precision precision_;
    c10::DeviceType device_;
    c10::ScalarType storage_dtype_;
    c10::ScalarType autocast_dtype_;
    bool scaler_enabled_;
    LossScaler scaler_;
};

} // namespace kiln::runtime
