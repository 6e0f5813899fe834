#pragma once

#include "config/run_config.h"
#include "data/dataset_index.h"
#include "data/view_transform.h"
#include "models/backbone.h"
#include "train/task.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace kiln::train {

// Pretraining's validation (knn_monitor): the backbone being trained embeds two labelled
// folders as `kiln embed` would (whole images resized to the training views' size, normalised
// alike), and each image of `val` is classified by the weighted votes of its k nearest
// (cosine) in `train`. So the figures equal `kiln eval knn` on the exported model of the same
// step. Every rank computes all of it (a few thousand images); the reporting rank logs it.
class KnnMonitor {
public:
    // Scans both folders: each image's class is its top-level folder. A folder without images,
    // an image outside a class folder, or whitening that features of `feature_dim` from the
    // train folder would be too large for, is a kiln::Error naming it, before training starts.
    KnnMonitor(const KnnMonitorSettings& settings, const data::TransformArgs& training_views,
               Precision precision, std::int64_t feature_dim);

    // val_metric/knn_top1 and val_metric/knn_top5 of `backbone` where the context places it.
    MetricValues evaluate(models::BackboneImpl& backbone, const ValidationContext& context) const;

private:
    struct LabelledFolder {
        data::DatasetIndex index;
        std::vector<std::int64_t> labels; // the class of each image of the index
    };

    at::Tensor embed(models::BackboneImpl& backbone, const LabelledFolder& folder,
                     const ValidationContext& context, std::vector<std::int64_t>& labels) const;

    KnnMonitorSettings settings_;
    data::TransformArgs views_;
    Precision precision_;
    LabelledFolder train_;
    LabelledFolder val_;
    // The batch the first pass ran at, 0 before it: later passes skip the memory probe and
    // do not repeat its warning.
    mutable std::atomic<int> fitting_batch_{0};
};

} // namespace kiln::train
