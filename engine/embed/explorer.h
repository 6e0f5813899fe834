#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <vector>

namespace kiln::embed {

// What the embeddings view shows and `kiln dedup` finds, fast enough for 100k images.

// The first two principal components of `embeddings` [N, D]: [N, 2]. Computed from the D x D
// covariance (cost N x D^2), with each component's sign fixed so that results are reproducible.
at::Tensor pca_2d(const at::Tensor& embeddings);
// The first `count` principal components in the same way: [N, count].
at::Tensor principal_components(const at::Tensor& embeddings, std::int64_t count);

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
std::vector<DuplicatePair> near_duplicates_exact(const at::Tensor& embeddings, double threshold,
                                                 std::int64_t chunk = 1024);

// The same pairs found through an index, in time close to linear in N: random-hyperplane
// locality-sensitive hashing (the sign pattern of `bits` random projections is a bucket; rows
// sharing a bucket in any of `tables` tables are compared exactly). A pair at cosine s shares a
// bucket of one table with probability p^bits, p = 1 - acos(s) / pi; the number of tables is
// chosen so that a pair at the threshold is missed with probability at most `miss`, and more
// similar pairs even less. Seeded: the same input gives the same pairs.
struct ApproximateDuplicateOptions {
    double miss = 0.01;
    std::uint64_t seed = 0;
    int max_tables = 64; // beyond this (low thresholds) the exact search is used
};
std::vector<DuplicatePair>
near_duplicates_approximate(const at::Tensor& embeddings, double threshold,
                            const ApproximateDuplicateOptions& options = {});

// What `kiln dedup` and the embeddings view use: exact up to 20,000 rows (a second or so), the
// index above beyond.
std::vector<DuplicatePair> near_duplicates(const at::Tensor& embeddings, double threshold);

} // namespace kiln::embed
