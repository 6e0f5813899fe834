#include "embed/embedder.h"

#include "core/error.h"
#include "core/text.h"
#include "data/loader.h"
#include "embed/writers.h"
#include "track/run_store.h"
#include "train/precision.h"

#include <chrono>
#include <torch/types.h>

namespace kiln::embed {

Embeddings compute_embeddings(models::BackboneImpl& backbone, const data::DatasetIndex& index,
                              const EmbedOptions& options, const EmbedProgress& progress,
                              StopToken stop) {
    const torch::Device device(options.device);
    data::LoaderOptions loader_options;
    loader_options.pin_memory = device.is_cuda();
    loader_options.batch_size = options.batch_size;
    loader_options.num_workers = options.num_workers;
    loader_options.shuffle = false;
    loader_options.drop_last = false;
    data::Loader loader(index, data::embed_transform(options.height, options.width), loader_options,
                        stop);
    const bool was_training = backbone.is_training();
    backbone.eval();
    torch::NoGradGuard no_grad;
    const train::PrecisionPolicy precision(options.precision, device.type());
    train::move_module(backbone, device, precision.storage_dtype());
    std::vector<at::Tensor> chunks;
    Embeddings embeddings;
    loader.start_epoch(0);
    std::int64_t done = 0;
    while (std::optional<data::Batch> batch = loader.next()) {
        at::Tensor features;
        {
            const train::AutocastScope autocast = precision.autocast();
            features = backbone.forward(
                batch->views[0].to(device, precision.storage_dtype(), /*non_blocking=*/true));
        }
        chunks.push_back(features.to(torch::kCPU, torch::kFloat32));
        embeddings.indices.insert(embeddings.indices.end(), batch->indices.begin(),
                                  batch->indices.end());
        done = batch->number + 1;
        if (progress) {
            progress(done, loader.batches_per_epoch());
        }
    }
    backbone.train(was_training);
    train::move_module(backbone, torch::kCPU, torch::kFloat32);
    embeddings.values =
        chunks.empty() ? torch::empty({0, backbone.feature_dim()}) : torch::cat(chunks);
    embeddings.skipped = loader.skipped_files();
    return embeddings;
}

EmbedSummary run_embedding(const EmbedConfig& config, const EmbedProgress& progress,
                           StopToken stop) {
    const auto started = std::chrono::steady_clock::now();
    EmbedSummary summary;
    const models::Backbone backbone = models::load_backbone(config.checkpoint, &summary.model);
    const data::DatasetIndex index = data::DatasetIndex::scan(config.data);
    EmbedOptions options;
    options.height = config.image_height;
    options.width = config.image_width;
    options.batch_size = config.batch_size;
    options.num_workers = config.num_workers.value_or(0);
    options.precision = config.precision;
    options.device = config.accelerator == Accelerator::Cuda ? "cuda" : "cpu";
    const Embeddings embeddings = compute_embeddings(*backbone, index, options, progress, stop);
    if (stop.stop_requested()) {
        throw Error("embedding stopped before the end; nothing was written");
    }
    if (embeddings.indices.empty()) {
        throw Error("none of the images in the data could be read; nothing was written");
    }
    std::vector<std::string> filenames;
    for (const std::int64_t row : embeddings.indices) {
        filenames.emplace_back(index.filename(static_cast<std::size_t>(row)));
    }
    write_embeddings(config.out, config.format, filenames, embeddings.values);
    track::record_model_artifact(config.checkpoint, "embeddings", config.out);
    summary.images = static_cast<std::int64_t>(filenames.size());
    summary.skipped = embeddings.skipped;
    summary.dimension = embeddings.values.size(1);
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return summary;
}

} // namespace kiln::embed
