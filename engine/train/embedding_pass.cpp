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

} // namespace

Embeddings compute_embeddings(models::BackboneImpl& backbone, const data::DatasetIndex& index,
                              const EmbedOptions& options, const EmbedProgress& progress,
                              StopToken stop) {
    const torch::Device device(options.device);
    const bool was_training = backbone.is_training();
    backbone.eval();
    torch::NoGradGuard no_grad;
    const runtime::PrecisionPolicy precision(options.precision, device.type());
    const bool move = !placed_on(backbone, device, precision.storage_dtype());
    if (move) {
        runtime::move_module(backbone, device, precision.storage_dtype());
    }
    const auto forward = [&backbone, &options](const at::Tensor& images) {
        return options.patches ? backbone.feature_maps(images).back().permute({0, 2, 3, 1})
                               : backbone.forward(images);
    };
    data::LoaderOptions loader_options = pass_loader_options(options, device.is_cuda());
    if (device.is_cpu()) {
        loader_options.batch_size = cpu_inference_batch(
            options.batch_size, forward, {options.num_channels, options.height, options.width},
            "image_size");
    }
    data::Loader loader(index, pass_transform(options), loader_options, stop);
    std::vector<at::Tensor> chunks;
    Embeddings embeddings;
    loader.start_epoch(0);
    EmbedProgressInfo info;
    info.total = loader.batches_per_epoch();
    const auto started = std::chrono::steady_clock::now();
    auto batch_started = started;
    while (std::optional<data::Batch> batch = loader.next()) {
        embeddings.wait_seconds += loader.last_wait_seconds();
        at::Tensor features;
        {
            const runtime::AutocastScope autocast = precision.autocast();
            const at::Tensor images =
                batch->views[0].to(device, precision.storage_dtype(), /*non_blocking=*/true);
            features = forward(images);
        }
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
    backbone.train(was_training);
    if (move) {
        runtime::move_module(backbone, torch::kCPU, torch::kFloat32);
    }
    embeddings.values =
        chunks.empty() ? torch::empty({0, backbone.feature_dim()}) : torch::cat(chunks);
    embeddings.skipped = loader.skipped_files();
    return embeddings;
}

} // namespace kiln::train
