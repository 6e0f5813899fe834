#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <vector>

namespace kiln::embed {

// What the embeddings view shows and `kiln dedup` finds, fast enough for 100k images.

// The first two principal components of `embeddings` [N, D]: [N, 2]. Computed from the D x D
// covariance (cost N x D^2), with each component's sign fixed so that results are reproducible.
at::Tensor pca_2d(const at::Tensor& embeddings);

struct Neighbour {
    std::int64_t row = 0;
    double similarity = 0.0; // cosine
};

// The k rows most similar to `row` by cosine similarity, most similar first, `row` itself
// excluded.
std::vector<Neighbour> nearest_neighbours(const at::Tensor& embeddings, std::int64_t row, int k);

struct DuplicatePair {
    std::int64_t first = 0; // first < second
    std::int64_t second = 0;
    double similarity = 0.0;
};

// Every pair of rows whose cosine similarity is at least `threshold`, most similar first.
// Compares blocks of chunk x chunk rows over the upper triangle: memory chunk^2, time N^2 D / 2.
std::vector<DuplicatePair> near_duplicates(const at::Tensor& embeddings, double threshold,
                                           std::int64_t chunk = 1024);

} // namespace kiln::embed
