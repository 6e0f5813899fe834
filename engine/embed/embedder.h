#pragma once

#include "config/run_config.h"
#include "core/stop_token.h"
#include "data/dataset_index.h"
#include "models/backbone.h"
#include "system/bottleneck_advisor.h"
#include "train/embedding_pass.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::embed {

struct EmbedSummary {
    std::int64_t images = 0;  // rows written
    std::int64_t skipped = 0; // unreadable images left out
    std::int64_t dimension = 0;
    std::int64_t rows = 0; // embedding=patch: the locations of each image's map
    std::int64_t columns = 0;
    std::string model;
    double seconds = 0.0;
    double images_per_second = 0.0; // over the embedding itself, not loading and writing
    double data_wait = 0.0; // the share of the time spent waiting for images, as in training
    int image_height = 0;   // the size images were resized to
    int image_width = 0;
    bool size_from_training = false; // image_size was auto and the model's run named it
    // Where the time went (data_wait against CPU use), as the advisor reads a training run.
    std::optional<system::Advice> advice;
};

// How `backbone`, loaded from `model`, saw its images in training, as options to embed with: the
// view size and normalisation its run recorded (the settings a Kiln checkpoint stores, or the
// config.json of the run an exported model lies in; 224 px when they name no size), else 224 px
// and ImageNet's normalisation; the channels its first layer takes. `size`, when given, is used
// instead of the recorded one. `recorded` tells whether a run recorded settings. A recorded side
// outside 1 to data::kMaxImageSide, or a normalisation out of range, is a kiln::Error naming
// the file that holds it.
train::EmbedOptions trained_view_options(const models::WeightsFile& model,
                                         models::BackboneImpl& backbone,
                                         std::optional<std::pair<int, int>> size = std::nullopt,
                                         bool* recorded = nullptr);

// `kiln embed`: loads the backbone from config.checkpoint (a Kiln checkpoint, or an exported
// model whose architecture is recognised from its tensors), embeds config.data and writes
// config.out in config.format. `config` must be resolved. With several devices, each embeds a
// share of the images on its own thread with its own copy of the backbone; the rows are then
// put back in the dataset's order.
EmbedSummary run_embedding(const EmbedConfig& config, const train::EmbedProgress& progress = {},
                           StopToken stop = {});

} // namespace kiln::embed
