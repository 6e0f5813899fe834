#include "runtime/precision.h"

#include "models/archive.h"

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <torch/nn/module.h>

namespace kiln::runtime {

c10::ScalarType storage_dtype(Precision precision) {
    switch (precision) {
    case Precision::Full64:
        return c10::ScalarType::Double;
    case Precision::BF16True:
        return c10::ScalarType::BFloat16;
    case Precision::FP16True:
        return c10::ScalarType::Half;
    default:
        return c10::ScalarType::Float;
    }
}

c10::ScalarType autocast_dtype(Precision precision) {
    switch (precision) {
    case Precision::BF16Mixed:
        return c10::ScalarType::BFloat16;
    case Precision::FP16Mixed:
        return c10::ScalarType::Half;
    default:
        return c10::ScalarType::Undefined;
    }
}

c10::MemoryFormat memory_format_for(Precision precision) {
    return at::elementSize(storage_dtype(precision)) == 2 ||
                   autocast_dtype(precision) != c10::ScalarType::Undefined
               ? c10::MemoryFormat::ChannelsLast
               : c10::MemoryFormat::Contiguous;
}

void move_module(torch::nn::Module& module, const c10::Device& device, c10::ScalarType dtype,
                 c10::MemoryFormat format) {
    const at::NoGradGuard no_grad;
    const auto move = [&](at::Tensor& tensor) {
        at::Tensor moved =
            tensor.is_floating_point() ? tensor.to(device, dtype) : tensor.to(device);
        tensor.set_data(moved.dim() == 4 ? moved.contiguous(format) : moved);
    };
    for (at::Tensor& parameter : module.parameters()) {
        move(parameter);
    }
    for (at::Tensor& buffer : module.buffers()) {
        move(buffer);
    }
}

AutocastScope::AutocastScope(c10::DeviceType device, c10::ScalarType dtype)
    : device_(device), enabled_(dtype != c10::ScalarType::Undefined) {
    if (!enabled_) {
        return;
    }
    was_enabled_ = at::autocast::is_autocast_enabled(device_);
    previous_dtype_ = at::autocast::get_autocast_dtype(device_);
    at::autocast::set_autocast_enabled(device_, true);
    at::autocast::set_autocast_dtype(device_, dtype);
}

AutocastScope::~AutocastScope() {
    if (!enabled_) {
        return;
    }
    at::autocast::set_autocast_enabled(device_, was_enabled_);
    at::autocast::set_autocast_dtype(device_, previous_dtype_);
    if (!was_enabled_) {
        at::autocast::clear_cache(); // the casts made in this region are of no further use
    }
}

LossScaler::LossScaler(Options options) : options_(options) {}

void LossScaler::ensure_on(const c10::Device& device) {
    if (scale_.defined() && scale_.device() == device) {
        return;
    }
    const auto floats = at::TensorOptions().dtype(at::kFloat).device(device);
    scale_ = scale_.defined() ? scale_.to(device) : at::full({}, options_.initial_scale, floats);
    growth_tracker_ = growth_tracker_.defined()
                          ? growth_tracker_.to(device)
                          : at::zeros({}, at::TensorOptions().dtype(at::kInt).device(device));
    found_inf_ = at::zeros({}, floats);
}

at::Tensor LossScaler::scale(const at::Tensor& loss) {
    ensure_on(loss.device());
    return loss * scale_.to(loss.scalar_type());
}

bool LossScaler::unscale(const std::vector<at::Tensor>& parameters) {
    std::vector<at::Tensor> gradients;
    for (const at::Tensor& parameter : parameters) {
        if (parameter.grad().defined()) {
            gradients.push_back(parameter.grad());
        }
    }
    if (gradients.empty()) {
        return true;
    }
    ensure_on(gradients.front().device());
    found_inf_.zero_();
    // Gradients may come in several dtypes; the fused kernel wants one dtype per call.
    std::vector<std::vector<at::Tensor>> by_dtype;
    for (const at::Tensor& gradient : gradients) {
        auto group = std::find_if(by_dtype.begin(), by_dtype.end(), [&](const auto& tensors) {
            return tensors.front().scalar_type() == gradient.scalar_type();
        });
        if (group == by_dtype.end()) {
            by_dtype.push_back({gradient});
        } else {
            group->push_back(gradient);
        }
    }
    const at::Tensor inverse = scale_.to(at::kDouble).reciprocal().to(at::kFloat);
    for (auto& group : by_dtype) {
        at::_amp_foreach_non_finite_check_and_unscale_(group, found_inf_, inverse);
    }
    const bool finite = found_inf_.item<float>() == 0.0f;
    if (!finite) {
        ++skipped_steps_;
    }
    return finite;
}

void LossScaler::update() {
    if (!scale_.defined()) {
        return;
    }
    at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, options_.growth_factor,
                           options_.backoff_factor, options_.growth_interval);
    found_inf_.zero_();
}

double LossScaler::current_scale() const {
    return scale_.defined() ? scale_.item<double>() : options_.initial_scale;
}

void LossScaler::save(models::Archive& archive) const {
    archive.write("scale", c10::IValue(current_scale()));
    archive.write("growth_tracker",
                  c10::IValue(growth_tracker_.defined() ? growth_tracker_.item<std::int64_t>()
                                                        : std::int64_t{0}));
    archive.write("skipped_steps", c10::IValue(skipped_steps_));
}

void LossScaler::load(const models::Archive& archive) {
    const c10::Device device = scale_.defined() ? scale_.device() : c10::Device(c10::kCPU);
    const auto options = at::TensorOptions().device(device);
    scale_ = at::full({}, archive.real("scale"), options.dtype(at::kFloat));
    growth_tracker_ = at::full({}, archive.integer("growth_tracker"), options.dtype(at::kInt));
    found_inf_ = at::zeros({}, options.dtype(at::kFloat));
    skipped_steps_ = archive.integer("skipped_steps");
}

PrecisionPolicy::PrecisionPolicy(Precision precision, c10::DeviceType device)
    : precision_(precision), device_(device), storage_dtype_(runtime::storage_dtype(precision)),
      autocast_dtype_(runtime::autocast_dtype(precision)),
      scaler_enabled_(precision == Precision::FP16Mixed) {}

void PrecisionPolicy::backward(const at::Tensor& loss) {
    const at::Tensor full = loss.to(at::kFloat);
    (scaler_enabled_ ? scaler_.scale(full) : full).backward();
}

bool PrecisionPolicy::prepare_step(const std::vector<at::Tensor>& parameters) {
    return scaler_enabled_ ? scaler_.unscale(parameters) : true;
}

void PrecisionPolicy::finish_step() {
    if (scaler_enabled_) {
        scaler_.update();
    }
}

void PrecisionPolicy::save(models::Archive& archive) const {
    if (scaler_enabled_) {
        scaler_.save(archive);
    }
}

void PrecisionPolicy::load(const models::Archive& archive) {
    if (scaler_enabled_) {
        scaler_.load(archive);
    }
}

} // namespace kiln::runtime
