#pragma once

#include "config/run_config.h"
#include "core/stop_token.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::predict {

struct PredictSummary {
    std::string task;                       // image_classification or semantic_segmentation
    std::int64_t images = 0;                // predicted
    std::int64_t skipped = 0;               // unreadable
    std::vector<std::string> classes;       // the model's, in its order
    std::vector<std::int64_t> category_ids; // detection: the COCO category id of each class
    double seconds = 0.0;
};

// Progress as (images done, images in all).
using PredictProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// Runs the model of a fine-tuning checkpoint over config.data, batched, on one device:
// classification writes config.out as a CSV of filename,class,score (the class as named in the
// training data, file names as `kiln embed` writes them), atomically; segmentation writes one
// PNG of class ids per image, at the image's own size, named as the image with .png, under the
// folder config.out, all at once when the last is done (a stop or failure leaves none). A
// checkpoint that is not a fine-tuning one is a kiln::Error naming it,
// raised before anything is written.
PredictSummary run_prediction(const PredictConfig& config, const PredictProgress& progress = {},
                              StopToken stop = {});

} // namespace kiln::predict
