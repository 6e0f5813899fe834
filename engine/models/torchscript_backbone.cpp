#include "models/torchscript_backbone.h"

#include "core/error.h"
#include "core/log.h"

#include <algorithm>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/nn/functional/pooling.h>
#include <torch/types.h>

namespace kiln::models {
namespace {

// Any TorchScript module as a backbone. Its parameters and buffers are registered here under
// names without dots (LibTorch's rule), so that optimizers and checkpoints see them; state()
// gives them back under the module's own names for exported weights.
class TorchScriptBackboneImpl : public BackboneImpl {
public:
    explicit TorchScriptBackboneImpl(const std::filesystem::path& path) : path_(path.string()) {
        if (!std::filesystem::is_regular_file(path)) {
            throw Error("TorchScript model \"" + path_ + "\" does not exist");
        }
        log::warning("loading the TorchScript module \"" + path_ +
                     "\": this runs code from the file; use only files you trust");
        try {
            module_ = torch::jit::load(path_);
        } catch (const c10::Error& error) {
            throw Error("model \"" + path_ + "\" is not a TorchScript module (" +
                        error.what_without_backtrace() + "); save one with torch.jit.save");
        }
        for (const auto& item : module_.named_parameters()) {
            register_parameter(registered_name(item.name), item.value);
        }
        for (const auto& item : module_.named_buffers()) {
            register_buffer(registered_name(item.name), item.value);
        }
        // The feature size is whatever one image of the usual size comes out as.
        torch::NoGradGuard no_grad;
        const bool training = module_.is_training();
        module_.eval();
        feature_dim_ = forward(torch::zeros({1, 3, 224, 224})).size(1);
        module_.train(training);
    }

    torch::Tensor forward(const torch::Tensor& images) override {
        torch::Tensor out;
        try {
            out = module_.forward({images}).toTensor();
        } catch (const c10::Error& error) {
            throw Error("model \"" + path_ + "\" failed on a batch of " +
                        std::to_string(images.size(2)) + "x" + std::to_string(images.size(3)) +
                        " images: " + error.what_without_backtrace());
        }
        if (out.dim() == 4) {
            out = torch::adaptive_avg_pool2d(out, {1, 1});
        }
        return out.flatten(1);
    }

    std::int64_t feature_dim() const override { return feature_dim_; }

    void train(bool on) override {
        BackboneImpl::train(on);
        module_.train(on);
    }

    std::vector<std::pair<std::string, torch::Tensor>> state() override {
        std::vector<std::pair<std::string, torch::Tensor>> tensors;
        for (const auto& item : module_.named_parameters()) {
            tensors.emplace_back(item.name, item.value);
        }
        for (const auto& item : module_.named_buffers()) {
            tensors.emplace_back(item.name, item.value);
        }
        return tensors;
    }

private:
    static std::string registered_name(std::string name) {
        std::replace(name.begin(), name.end(), '.', '_');
        return name;
    }

    std::string path_;
    torch::jit::Module module_;
    std::int64_t feature_dim_ = 0;
};

} // namespace

Backbone make_torchscript_backbone(const std::filesystem::path& file) {
    return std::make_shared<TorchScriptBackboneImpl>(file);
}

} // namespace kiln::models
