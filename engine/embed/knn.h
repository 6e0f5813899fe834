#pragma once

#include "models/backbone.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace kiln::embed {

struct KnnAccuracy {
    double top1 = 0.0;
    double top5 = 0.0;
};

// DINO's weighted k-nearest-neighbour classifier: cosine similarity to the training embeddings,
// the k most similar vote for their class with weight exp(similarity / temperature). Test rows
// are processed `chunk` at a time, so memory stays at chunk x N_train similarities.
KnnAccuracy knn_accuracy(const at::Tensor& train_features,
                         const std::vector<std::int64_t>& train_labels,
                         const at::Tensor& test_features,
                         const std::vector<std::int64_t>& test_labels, int k = 20,
                         double temperature = 0.07, std::int64_t chunk = 1024);

struct FolderKnnOptions {
    int image_size = 224; // images are resized to image_size x image_size
    int batch_size = 128;
    int num_workers = 0;
    int k = 20;
    double temperature = 0.07;
};

// kNN accuracy of `backbone`'s embeddings on labelled folders: each image's class is its
// top-level subfolder (cats/001.jpg is a cat). Classes are matched between the two sets by name.
KnnAccuracy knn_accuracy_on_folders(models::BackboneImpl& backbone,
                                    const std::filesystem::path& train_folder,
                                    const std::filesystem::path& test_folder,
                                    const FolderKnnOptions& options);

// The same from two embedding files (any format `kiln embed` writes); classes again from the
// top-level folder in each filename.
KnnAccuracy knn_accuracy_on_files(const std::filesystem::path& train_file,
                                  const std::filesystem::path& test_file, int k = 20,
                                  double temperature = 0.07);

} // namespace kiln::embed
