#pragma once

#include "core/error.h"
#include "eval/knn_settings.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kiln::eval {

struct KnnAccuracy {
    double top1 = 0.0;
    double top5 = 0.0;
};

// DINO's weighted k-nearest-neighbour classifier: cosine similarity to the training embeddings,
// the k most similar vote for their class with weight exp(similarity / temperature). Test rows
// are processed `chunk` at a time, so memory stays at chunk x N_train similarities; the
// similarities are computed where the features are (a GPU during training).
KnnAccuracy knn_accuracy(const at::Tensor& train_features,
                         const std::vector<std::int64_t>& train_labels,
                         const at::Tensor& test_features,
                         const std::vector<std::int64_t>& test_labels, int k = kKnnNeighbours,
                         double temperature = kKnnTemperature, std::int64_t chunk = 1024);

// PCA whitening fitted on embeddings without their labels: centred on their mean, turned onto
// their principal axes and each axis scaled to unit variance (axes of under 1e-6 of the largest
// variance, or of rounding's size, are dropped). Fitted on the training set and applied to both
// sets before kNN, it weighs every direction the embeddings vary in alike, as image retrieval
// does; a few high-variance directions otherwise decide the cosine. The axes come from the
// smaller of the D x D covariance and the N x N Gram matrix, whose decomposition is cubic in it:
// check_whitening_size refuses more than 4,096 of both. Embeddings that do not vary are a
// NothingToWhiten error.
struct Whitening {
    at::Tensor mean;       // [D]
    at::Tensor projection; // [D, axes kept]
    at::Tensor apply(const at::Tensor& features) const;
};
Whitening fit_whitening(const at::Tensor& features);
void check_whitening_size(std::int64_t rows, std::int64_t width);
struct NothingToWhiten : Error {
    using Error::Error;
};

// knn_accuracy, on both sets whitened by fit_whitening(train_features) first when `whiten`.
KnnAccuracy knn_accuracy_whitened_if(const at::Tensor& train_features,
                                     const std::vector<std::int64_t>& train_labels,
                                     const at::Tensor& test_features,
                                     const std::vector<std::int64_t>& test_labels, int k,
                                     double temperature, bool whiten);

// Class ids from the top-level folder of each name ("cats/001.jpg" is a cat), shared across
// the sets classified together through `classes`. A name outside a class folder is a
// kiln::Error.
std::vector<std::int64_t> class_folder_labels(const std::vector<std::string>& names,
                                              std::map<std::string, std::int64_t>& classes);

} // namespace kiln::eval
