#pragma once

#include "config/precision.h"
#include "core/stop_token.h"
#include "data/dataset_index.h"
#include "models/backbone.h"

#include <ATen/core/Tensor.h>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::train {

struct Embeddings {
    std::vector<std::int64_t> indices; // dataset index of each row (unreadable images left out)
    at::Tensor values;          // [N, D] float32 on the CPU; with patches [N, rows, columns, D]
    std::int64_t skipped = 0;   // unreadable images
    double wait_seconds = 0.0;  // waiting for the loader
    double total_seconds = 0.0; // the whole loop, waits included
    int batch_size = 0;         // as run: lowered on the CPU where memory asked for it
};

struct EmbedOptions {
    int height = 224;
    int width = 224;
    int batch_size = 128;
    int num_workers = 0;
    Precision precision = Precision::Full32; // resolved: bf16-mixed autocasts, *-true converts
    std::string device = "cpu";              // a LibTorch device: cpu, cuda, cuda:1
    int shard = 0;                           // this share of the images, of `shards`
    int shards = 1;
    bool patches = false; // one vector per location of the backbone's last feature map
    // The setting that sets height and width, as the command's user names it: named when one
    // image at that size would not fit in memory.
    std::string size_setting = "image_size";
    // batch_size is one an earlier pass of this model at this size ran at: the CPU memory
    // probe is not run again (the kNN monitor embeds the same folders every few steps).
    bool batch_fits = false;
    // The photometric side of the images as the backbone was trained on them.
    int num_channels = 3;
    std::array<float, 3> mean = {0.485f, 0.456f, 0.406f};
    std::array<float, 3> std = {0.229f, 0.224f, 0.225f};
};

// How far an embedding is: batches done of all, and the images and time so far, of which
// `wait_seconds` went to waiting for images (data_wait, as training reports it).
struct EmbedProgressInfo {
    std::int64_t done = 0;
    std::int64_t total = 0;
    std::int64_t images = 0;
    double seconds = 0.0;
    double wait_seconds = 0.0;
    double last_data_wait = 0.0; // of the last batch

    double images_per_second() const { return seconds > 0 ? double(images) / seconds : 0.0; }
    double data_wait() const { return seconds > 0 ? wait_seconds / seconds : 0.0; }
};
using EmbedProgress = std::function<void(const EmbedProgressInfo& progress)>;

// Every readable image of `index` once, in order, resized (not cropped) and normalised, through
// `backbone` in evaluation mode without gradients. With several shards, only this shard's
// images (every shards-th from `shard`, as the loader shares them between ranks; the last
// entries may repeat the first ones to even the shares). A backbone elsewhere than
// `options.device` in the precision's dtype is moved there for the pass and back to the CPU
// after it; one
// already there (training's, validated by the kNN monitor) stays untouched, its training mode
// restored.
Embeddings compute_embeddings(models::BackboneImpl& backbone, const data::DatasetIndex& index,
                              const EmbedOptions& options, const EmbedProgress& progress = {},
                              StopToken stop = {});

} // namespace kiln::train
