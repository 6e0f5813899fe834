#pragma once

#include "config/run_config.h"
#include "core/stop_token.h"
#include "embed/projection.h"

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kiln::embed {

// 2-D maps of embeddings for the embeddings view and `kiln embed-map`: PCA (linear, instant),
// t-SNE and UMAP (neighbourhoods kept, clusters apart) through projection.h.
enum class Projection { Pca, Tsne, Umap };
// By the names `kiln embed-map projection=` takes (pca, tsne, umap).
std::optional<Projection> projection_named(const std::string& name);
std::string to_string(Projection projection);

// The k nearest neighbours of each row by cosine similarity, exact, through matrix products
// in blocks of rows (memory: block x N floats). Rows of more than kGraphDimensions dimensions
// are first reduced to their principal components, as openTSNE and umap-learn advise for speed;
// distances are Euclidean between the (reduced) unit rows.
constexpr std::int64_t kGraphDimensions = 50;
NeighbourGraph neighbour_graph(const at::Tensor& embeddings, int k,
                               const StopToken* stop = nullptr);

struct MapOptions {
    Projection projection = Projection::Umap;
    std::uint64_t seed = 0;
    double perplexity = 30.0; // t-SNE: its graph has 3 x perplexity neighbours
    int neighbours = 15;      // UMAP's n_neighbors, the point itself included (umap-learn's)
    double min_dist = 0.1;    // UMAP
};

// A 2-D map of `embeddings` [N, D]: [N, 2] float32. t-SNE and UMAP start from the PCA map
// (scaled as their authors advise), so the same input and seed give the same map. A stop
// request returns the map as far as it got.
at::Tensor map_2d(const at::Tensor& embeddings, const MapOptions& options,
                  const StopToken* stop = nullptr);

// `kiln embed-map`: reads an embeddings file (any format kiln embed writes), maps it and writes
// a CSV `filename,x,y` atomically. `config` must be resolved. A stop request ends it with a
// kiln::Error and nothing written.
struct MapSummary {
    std::int64_t points = 0;
    std::int64_t dimensions = 0;
    double seconds = 0.0;
};
MapSummary write_embedding_map(const MapConfig& config, const StopToken* stop = nullptr);

} // namespace kiln::embed
