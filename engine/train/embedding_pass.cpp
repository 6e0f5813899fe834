#include "train/embedding_pass.h"

#include "data/loader.h"
#include "runtime/precision.h"
#include "train/step_memory.h"

#include <algorithm>
#include <chrono>
#include <torch/types.h>

namespace kiln::train {
namespace {

data::LoaderOptions pass_loader_options(const EmbedOptions& options, bool cuda) {
    data::LoaderOptions loader_options;
    loader_options.pin_memory = cuda;
    loader_options.batch_size = options.batch_size;
    loader_options.num_workers = options.num_workers;
    loader_options.shuffle = false;
    loader_options.drop_last = false;
    loader_options.rank = options.shard;
    loader_options.world_size = options.shards;
    return loader_options;
}

data::TransformArgs pass_transform(const EmbedOptions& options) {
    data::TransformArgs transform = data::embed_transform(options.height, options.width);
    transform.num_channels = options.num_channels;
    transform.mean = options.mean;
    transform.std = options.std;
    return transform;
}

// Whether `module` already computes on `device` in `dtype` (its first floating parameter).
bool placed_on(torch::nn::Module& module, const torch::Device& device, c10::ScalarType dtype) {
    for (const at::Tensor& parameter : module.parameters()) {
        if (parameter.is_floating_point()) {
            return parameter.device() == device && parameter.scalar_type() == dtype;
        }
    }
    return true;
}

// The backbone in eval mode on the pass's device and type while it lives, then as it came
// (training mode, the CPU in float32), however the pass ends: the kNN monitor's backbone trains
// on after a pass that failed.
class PassPlacement {
public:
    PassPlacement(models::BackboneImpl& backbone, const torch::Device& device,
                  c10::ScalarType dtype)
        : backbone_(backbone), was_training_(backbone.is_training()),
          moved_(!placed_on(backbone, device, dtype)) {
        backbone_.eval();
        if (moved_) {
            runtime::move_module(backbone_, device, dtype);
        }
    }
    ~PassPlacement() {
        backbone_.train(was_training_);
        if (moved_) {
            runtime::move_module(backbone_, torch::kCPU, torch::kFloat32);
        }
    }
    PassPlacement(const PassPlacement&) = delete;
    PassPlacement& operator=(const PassPlacement&) = delete;

private:
    models::BackboneImpl& backbone_;
    bool was_training_;
    bool moved_;
};

} // namespace

Embeddings compute_embeddings(models::BackboneImpl& backbone, const data::DatasetIndex& index,
                              const EmbedOptions& options, const EmbedProgress& progress,
                              StopToken stop) {
    const torch::Device device(options.device);
    const runtime::PrecisionPolicy precision(options.precision, device.type());
    const PassPlacement placement(backbone, device, precision.storage_dtype());
    torch::NoGradGuard no_grad;
    // Float images, as the loader gives them, through the backbone as the pass runs it.
    const auto forward = [&](const at::Tensor& images) {
        const runtime::AutocastScope autocast = precision.autocast();
        const at::Tensor placed =
            images.to(device, precision.storage_dtype(), /*non_blocking=*/true);
        return options.patches ? backbone.feature_maps(placed).back().permute({0, 2, 3, 1})
                               : backbone.forward(placed);
    };
    data::LoaderOptions loader_options = pass_loader_options(options, device.is_cuda());
    if (device.is_cpu() && !options.batch_fits) {
        loader_options.batch_size = cpu_inference_batch(
            options.batch_size, forward, {options.num_channels, options.height, options.width},
            options.size_setting);
    }
    data::Loader loader(index, pass_transform(options), loader_options, stop);
    std::vector<at::Tensor> chunks;
    Embeddings embeddings;
    embeddings.batch_size = loader_options.batch_size;
    loader.start_epoch(0);
    EmbedProgressInfo info;
    info.total = loader.batches_per_epoch();
    const auto started = std::chrono::steady_clock::now();
    auto batch_started = started;
    while (std::optional<data::Batch> batch = loader.next()) {
        embeddings.wait_seconds += loader.last_wait_seconds();
        const at::Tensor features = forward(batch->views[0]);
        chunks.push_back(features.to(torch::kCPU, torch::kFloat32));
        embeddings.indices.insert(embeddings.indices.end(), batch->indices.begin(),
                                  batch->indices.end());
        const auto now = std::chrono::steady_clock::now();
        const double batch_seconds = std::chrono::duration<double>(now - batch_started).count();
        batch_started = now;
        info.done = batch->number + 1;
        info.images += static_cast<std::int64_t>(batch->indices.size());
        info.seconds = std::chrono::duration<double>(now - started).count();
        info.wait_seconds = embeddings.wait_seconds;
        info.last_data_wait =
            batch_seconds > 0 ? std::min(1.0, loader.last_wait_seconds() / batch_seconds) : 0.0;
        if (progress) {
            progress(info);
        }
    }
    embeddings.total_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    embeddings.values =
        chunks.empty() ? torch::empty({0, backbone.feature_dim()}) : torch::cat(chunks);
    embeddings.skipped = loader.skipped_files();
    return embeddings;
}

} // namespace kiln::train
