#pragma once

// Fashion-MNIST as image folders, and the kNN classifier (k=20, T=0.07) that judges what a
// pretrained backbone learned: its embeddings of the train images vote for the test images'
// classes. Shared by the pretraining benchmarks.

#include "data/dataset_index.h"
#include "data/idx_import.h"
#include "embed/embedder.h"
#include "embed/knn.h"
#include "models/backbone.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace kiln::bench {

inline const std::filesystem::path kFashionMnist = "/usr/share/datasets/fashion-mnist";

struct FashionMnistSets {
    data::DatasetIndex train;
    data::DatasetIndex test;
};

// Imports the first `train_images` and `test_images` of each split as PNGs in class folders
// (root/train/<label>/, root/t10k/<label>/).
inline FashionMnistSets import_fashion_mnist(const std::filesystem::path& root,
                                             long long train_images, long long test_images) {
    for (const auto& [split, count] : {std::pair{std::string("train"), train_images},
                                       std::pair{std::string("t10k"), test_images}}) {
        data::IdxImportOptions import;
        import.images = kFashionMnist / (split + "-images-idx3-ubyte.gz");
        import.labels = kFashionMnist / (split + "-labels-idx1-ubyte.gz");
        import.out = root / split;
        import.limit = count;
        data::import_idx(import);
    }
    return {data::DatasetIndex::scan({root / "train"}), data::DatasetIndex::scan({root / "t10k"})};
}

inline std::vector<std::int64_t> class_labels(const data::DatasetIndex& index,
                                              const std::vector<std::int64_t>& rows) {
    std::vector<std::int64_t> labels;
    for (const std::int64_t row : rows) {
        labels.push_back(
            std::stoll(std::string(index.top_level_folder(static_cast<std::size_t>(row)))));
    }
    return labels;
}

inline eval::KnnAccuracy knn_evaluate(models::BackboneImpl& backbone, const FashionMnistSets& sets,
                                      int image_size) {
    train::EmbedOptions options;
    options.height = options.width = image_size;
    options.batch_size = 256;
    options.num_workers = 1;
    const auto train = train::compute_embeddings(backbone, sets.train, options);
    const auto test = train::compute_embeddings(backbone, sets.test, options);
    return eval::knn_accuracy(train.values, class_labels(sets.train, train.indices), test.values,
                              class_labels(sets.test, test.indices));
}

} // namespace kiln::bench
