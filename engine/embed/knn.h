#pragma once

#include "eval/knn.h"
#include "models/backbone.h"
#include "train/embedding_pass.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace kiln::embed {

struct FolderKnnOptions {
    // How the images are embedded: size, channels and normalisation (trained_view_options), and
    // batches.
    train::EmbedOptions views;
    int k = eval::kKnnNeighbours;
    double temperature = eval::kKnnTemperature;
    bool whiten = false; // eval::fit_whitening on the training embeddings first
};

// kNN accuracy of `backbone`'s embeddings on labelled folders: each image's class is its
// top-level subfolder (cats/001.jpg is a cat). Classes are matched between the two sets by name.
eval::KnnAccuracy knn_accuracy_on_folders(models::BackboneImpl& backbone,
                                          const std::filesystem::path& train_folder,
                                          const std::filesystem::path& test_folder,
                                          const FolderKnnOptions& options);

// The same from two embedding files (any format `kiln embed` writes); classes again from the
// top-level folder in each filename.
eval::KnnAccuracy knn_accuracy_on_files(const std::filesystem::path& train_file,
                                        const std::filesystem::path& test_file,
                                        int k = eval::kKnnNeighbours,
                                        double temperature = eval::kKnnTemperature,
                                        bool whiten = false);

} // namespace kiln::embed
