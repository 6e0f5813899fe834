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

// `embeddings` [N, D] as contiguous float32 rows of unit length: cosine similarity is then a dot
// product.
at::Tensor unit_rows(const at::Tensor& embeddings);

// The k rows most similar to `row` by cosine similarity, most similar first, `row` itself
// excluded, of rows of unit length (unit_rows, made once: a click in the map then costs one pass
// of N x D multiply-adds and no copy).
std::vector<Neighbour> nearest_neighbours(const at::Tensor& unit, std::int64_t row, int k);

// A row left out as a near-duplicate: its cosine similarity to an earlier row that is kept is
// at least the threshold. Rows are taken in order and each is kept unless it duplicates a row
// kept before it, so of a chain a ~ b ~ c with a and c apart, a and c are kept. Memory grows with
// the rows, never with the pairs: 20,000 copies of one image are 19,999 duplicates of the first,
// not 200 million pairs.
struct Duplicate {
    std::int64_t row = 0;  // left out
    std::int64_t kept = 0; // the most similar earlier row that is kept (kept < row)
    double similarity = 0.0;
};

// Every duplicate, most similar first ("at least the threshold" allows float rounding, 1e-6, so
// that copies count at a threshold of 1). Blocks of `chunk` rows are compared with the rows kept
// before them, 4,096 at a time: memory about chunk x 4,096 floats besides a copy of the
// embeddings, time N x kept x D.
std::vector<Duplicate> near_duplicates_exact(const at::Tensor& embeddings, double threshold,
                                             std::int64_t chunk = 1024);

// The same through an index, in time close to linear in N: random-hyperplane locality-sensitive
// hashing (the sign pattern of `bits` random projections is a bucket; each row is compared with
// the kept rows that share one of its buckets in any of `tables` tables). A pair at cosine s
// shares a bucket of one table with probability p^bits, p = 1 - acos(s) / pi; the number of
// tables is chosen so that a pair at the threshold is missed with probability at most `miss`,
// and more similar pairs even less. Seeded: the same input gives the same duplicates.
struct ApproximateDuplicateOptions {
    double miss = 0.01;
    std::uint64_t seed = 0;
    int max_tables = 64; // beyond this (low thresholds) the exact search is used
};
std::vector<Duplicate> near_duplicates_approximate(const at::Tensor& embeddings, double threshold,
                                                   const ApproximateDuplicateOptions& options = {});

// What `kiln dedup` and `kiln select exclude_duplicates=true` use: exact up to 20,000 rows (a
// second or so), the index above beyond.
std::vector<Duplicate> near_duplicates(const at::Tensor& embeddings, double threshold);

// The rows, besides `of_rows`, whose cosine similarity to one of `of_rows` is at least
// `threshold` (with near_duplicates' allowance for rounding), in order: the images that repeat
// one labelled already. Blocks of 4,096 x 4,096: time N x of_rows x D.
std::vector<std::int64_t> rows_near(const at::Tensor& embeddings,
                                    const std::vector<std::int64_t>& of_rows, double threshold);

} // namespace kiln::embed
