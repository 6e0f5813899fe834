#pragma once

#include "core/stop_token.h"

#include <cstdint>
#include <vector>

namespace kiln::embed {

// t-SNE and UMAP maps of embeddings in two dimensions, from a nearest-neighbour graph the caller
// computed. Pure C++: no LibTorch. The same graph, options, start and seed give the same map bit
// for bit whatever the thread count. Maps come back as points x 2 floats, row-major (x0, y0, x1,
// y1, ...).

// The k nearest neighbours of each of `points` points, the point itself excluded, nearest
// first, row-major points x k. The distances are the caller's metric (cosine distance, or
// Euclidean between unit rows), ascending in each row.
struct NeighbourGraph {
    std::int64_t points = 0;
    int k = 0;
    std::vector<std::int64_t> index; // points * k
    std::vector<float> distance;     // points * k
};

struct TsneOptions {
    double perplexity = 30.0;          // at most (points - 1) / 3; the graph's k should be ~3x this
    int iterations = 750;              // in all, early exaggeration included
    int exaggeration_iterations = 250; // attraction x 12, momentum 0.5; then x 1, momentum 0.8
    double theta = 0.5;                // Barnes-Hut: cells narrower than theta x distance summed
    double learning_rate = 0.0;        // 0: max(points / 12, 50), as openTSNE's and sklearn's auto
    std::uint64_t seed = 0;            // for the random start when none is given
    int threads = 0;                   // 0: every hardware thread
};

// t-SNE as van der Maaten's Barnes-Hut t-SNE: input similarities from a Gaussian in the graph's
// distances matched to the perplexity per point, symmetrised; repulsion through a quadtree;
// gradient descent with momentum and per-coordinate gains. `init` is points x 2 starting
// coordinates (openTSNE's advice: PCA scaled to a standard deviation of 1e-4); empty: random
// normal with that deviation from the seed. Throws kiln::Error for a malformed graph, fewer than
// 3 points or a start of the wrong size. A stop request returns the map as it is then: `init`
// itself, the graph unread, when the request came first.
std::vector<float> tsne_2d(const NeighbourGraph& graph, const TsneOptions& options,
                           std::vector<float> init = {}, const StopToken* stop = nullptr);

// UMAP's low-dimensional similarity 1 / (1 + a d^(2b)), fitted by least squares to the curve
// that is 1 up to min_dist and exp(-(d - min_dist) / spread) beyond, as umap-learn's
// find_ab_params.
struct UmapCurve {
    double a = 0.0;
    double b = 0.0;
};
UmapCurve umap_curve(double min_dist, double spread);

struct UmapOptions {
    double min_dist = 0.1;
    double spread = 1.0;
    int epochs = 0; // 0: 500 up to 10,000 points, else 200 (umap-learn's rule)
    int negative_sample_rate = 5;
    double learning_rate = 1.0; // decays linearly to 0
    std::uint64_t seed = 0;     // negative samples, and the random start when none is given
    int threads = 0;            // for the graph; 0: every hardware thread
};

// UMAP as umap-learn: fuzzy memberships from each point's nearest distance and a searched
// bandwidth, their fuzzy union, then stochastic gradient descent with negative sampling, on one
// thread in a fixed order as umap-learn runs when seeded (threads build the graph). umap-learn
// counts the point itself among its n_neighbors: its n_neighbors = 15 is k = 14 here. `init` is
// points x 2 starting coordinates (umap-learn's non-spectral start: PCA scaled to a range of 10);
// empty: uniform in [-10, 10] from the seed. Errors and stop requests as tsne_2d.
std::vector<float> umap_2d(const NeighbourGraph& graph, const UmapOptions& options,
                           std::vector<float> init = {}, const StopToken* stop = nullptr);

// How well a map keeps neighbourhoods: the mean over points of the fraction of each point's
// first k neighbours in `high` that are among its k nearest in `low2d` (exact, through a grid).
// 1 is perfect; a random map scores about k / points.
double knn_preservation(const NeighbourGraph& high, const std::vector<float>& low2d, int k,
                        int threads = 0);

} // namespace kiln::embed
