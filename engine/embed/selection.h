#pragma once

#include "core/stop_token.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::embed {

// Which images to label first, chosen from their embeddings (`kiln select`, Studio's
// "Select for labelling"). Distances are cosine distances (1 - cosine similarity).
enum class SelectionStrategy {
    Diverse,  // k-center greedy: each pick the image farthest from everything picked or labelled
    Typical,  // TypiClust: cluster into labelled + n groups, the most typical image of each
              // group that has no labelled image yet, largest groups first
    Balanced, // equal quotas per cluster (about 10 picks a cluster), random within a cluster
    Random,   // uniform, for comparison
};

SelectionStrategy selection_strategy(const std::string& name); // kiln::Error for an unknown one
std::vector<std::string> selection_strategy_names();

struct SelectionOptions {
    std::int64_t count = 0;
    SelectionStrategy strategy = SelectionStrategy::Typical;
    std::vector<std::int64_t> labelled; // rows labelled already: never picked, picks go around
    std::vector<std::int64_t> excluded; // rows never picked (e.g. near-duplicates)
    std::uint64_t seed = 0;
    // Pick in PCA-whitened space (eval::fit_whitening, no labels): every direction the
    // embeddings vary in weighs alike. On Fashion-MNIST's SimCLR embeddings (bench_select, 3
    // seeds) +0.6 and +1.0 points for typical picks at 1% and 0.5%, +6 and +5.4 for diverse
    // ones; but it lifts quiet noise directions as much as signal (on synthetic clusters with
    // noise in every direction it blurs them), so it is not the default.
    bool whiten = false;
    // Checked between the passes of k-means, k-center and typical picking: a stop request ends
    // the pick with a kiln::Error.
    const StopToken* stop = nullptr;
};

struct Selection {
    std::vector<std::int64_t> rows; // in the order picked
    // Diverse: the pick's distance to the nearest earlier pick or labelled row; typical: its
    // typicality (1 / mean distance to its 20 nearest cluster mates); else its cosine
    // similarity to its cluster's centre (random: 0).
    std::vector<double> scores;
    std::vector<std::int64_t> clusters; // the pick's cluster; -1 for diverse and random
};

// Picks `count` rows of `embeddings` [N, D]. Deterministic for a seed. `count` larger than the
// rows that may be picked is a kiln::Error.
Selection select_rows(const at::Tensor& embeddings, const SelectionOptions& options);

// The building blocks, on rows of unit length.

// Greedy farthest-point picks (exact, in rounds: one matrix product per round updates every
// row's distance to the picks). `picked_before` rows start the picked set (distance 0 to it);
// without any, the first pick is a seeded random one. `blocked` rows are never picked.
std::vector<std::int64_t> k_center_greedy(const at::Tensor& unit, std::int64_t count,
                                          const std::vector<std::int64_t>& picked_before,
                                          const std::vector<std::int64_t>& blocked,
                                          std::uint64_t seed, std::vector<double>* distances,
                                          const StopToken* stop = nullptr);

// Each group's share of `total` centres in proportion to its rows (`sizes`), largest
// remainders first: at least one for a group with rows, none for an empty one, never more than
// its rows. A total below the groups with rows or above all rows is a kiln::Error.
std::vector<std::int64_t> centre_quotas(const std::vector<std::int64_t>& sizes, std::int64_t total);

struct Clustering {
    at::Tensor centres;                    // [k, D], unit rows
    std::vector<std::int64_t> assignments; // cluster of each row
};

// Spherical k-means (Lloyd's iterations on cosine similarity, until the assignment settles)
// from seeded k-means++ centres. Beyond 64 rows per centre (and 65,536 rows) the centres are
// fitted on a seeded sample of that many rows, then every row is assigned: large sets cost an
// assignment pass, not the fit. Where rows x k passes 2^27 (1M rows and 135 centres or more;
// 100,000 and 1,343), that assignment and k-means++'s k passes would take minutes, so it runs in
// two levels: about sqrt(k) clusters, each split into its share of the k by its rows, fitted on 64
// rows per centre (every row then belongs to a centre of its coarse cluster).
inline constexpr int kKmeansIterations = 20;
Clustering spherical_kmeans(const at::Tensor& unit, std::int64_t k, std::uint64_t seed,
                            int iterations = kKmeansIterations, const StopToken* stop = nullptr);

} // namespace kiln::embed
