#include "embed/embedding_map.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "embed/explorer.h"
#include "embed/writers.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>
#include <unordered_map>

namespace kiln::embed {
namespace {

namespace F = torch::nn::functional;

// Unit rows of at most kGraphDimensions dimensions: the principal components of the unit
// rows, normalised again.
at::Tensor graph_rows(const at::Tensor& embeddings) {
    const auto unit = [](const at::Tensor& rows) {
        return F::normalize(rows.to(torch::kFloat32), F::NormalizeFuncOptions().dim(1));
    };
    const at::Tensor rows = unit(embeddings);
    const std::int64_t reduced = std::min(kGraphDimensions, embeddings.size(0) - 1);
    if (rows.size(1) <= reduced) {
        return rows.contiguous();
    }
    return unit(principal_components(rows, reduced)).contiguous();
}

// The PCA map scaled so that its first axis has standard deviation `deviation` (t-SNE) or its
// widest axis a range of 2 x `half_range` (UMAP), as points x 2 floats.
std::vector<float> pca_start(const at::Tensor& embeddings, double deviation, double half_range) {
    at::Tensor start = pca_2d(embeddings).to(torch::kFloat64);
    if (deviation > 0) {
        const double spread = start.select(1, 0).std().item<double>();
        start = start * (spread > 0 ? deviation / spread : 0.0);
    } else {
        const double widest = start.abs().max().item<double>();
        start = start * (widest > 0 ? half_range / widest : 0.0);
    }
    const at::Tensor flat = start.to(torch::kFloat32).contiguous();
    return {flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel()};
}

// The distinct rows of `embeddings` in the order they first appear, and for each row its
// distinct row.
struct Distinct {
    at::Tensor rows;
    at::Tensor of;
};

Distinct distinct_rows(const at::Tensor& embeddings) {
    const at::Tensor values = embeddings.to(torch::kFloat32).contiguous();
    const auto width = static_cast<std::size_t>(values.size(1)) * sizeof(float);
    const char* bytes = static_cast<const char*>(values.data_ptr());
    std::unordered_map<std::string_view, std::int64_t> first;
    std::vector<std::int64_t> kept, of;
    for (std::int64_t row = 0; row < values.size(0); ++row) {
        const std::string_view key(bytes + std::size_t(row) * width, width);
        const auto [found, added] = first.emplace(key, std::int64_t(kept.size()));
        if (added) {
            kept.push_back(row);
        }
        of.push_back(found->second);
    }
    const auto index = [](const std::vector<std::int64_t>& rows) {
        return torch::tensor(rows, torch::kLong);
    };
    return {values.index_select(0, index(kept)), index(of)};
}

at::Tensor as_tensor(const std::vector<float>& map) {
    return torch::tensor(map, torch::kFloat32).reshape({-1, 2});
}

} // namespace

std::optional<Projection> projection_named(const std::string& name) {
    for (const Projection projection : {Projection::Pca, Projection::Tsne, Projection::Umap}) {
        if (to_string(projection) == name) {
            return projection;
        }
    }
    return std::nullopt;
}

std::string to_string(Projection projection) {
    switch (projection) {
    case Projection::Tsne:
        return "tsne";
    case Projection::Umap:
        return "umap";
    case Projection::Pca:
        break;
    }
    return "pca";
}

NeighbourGraph neighbour_graph(const at::Tensor& embeddings, int k, const StopToken* stop) {
    if (embeddings.dim() != 2 || embeddings.size(0) < 2) {
        throw Error("a neighbour graph needs at least 2 embeddings");
    }
    torch::NoGradGuard no_grad;
    const at::Tensor rows = graph_rows(embeddings);
    const std::int64_t points = rows.size(0);
    NeighbourGraph graph;
    graph.points = points;
    graph.k = static_cast<int>(std::min<std::int64_t>(k, points - 1));
    graph.index.resize(static_cast<std::size_t>(points * graph.k));
    graph.distance.resize(graph.index.size());
    constexpr std::int64_t kBlock = 256; // 256 x N similarities at a time
    for (std::int64_t from = 0; from < points; from += kBlock) {
        if (stop_requested(stop)) {
            break;
        }
        const std::int64_t count = std::min(kBlock, points - from);
        at::Tensor similarity = rows.narrow(0, from, count).mm(rows.t());
        similarity.diagonal(from).fill_(-3.0); // never a point's own neighbour
        const auto [values, columns] = similarity.topk(graph.k, 1);
        const at::Tensor distance = (2.0 - 2.0 * values).clamp_min(0.0).sqrt().contiguous();
        const at::Tensor index = columns.contiguous();
        std::copy_n(index.data_ptr<std::int64_t>(), index.numel(),
                    graph.index.begin() + from * graph.k);
        std::copy_n(distance.data_ptr<float>(), distance.numel(),
                    graph.distance.begin() + from * graph.k);
    }
    return graph;
}

at::Tensor map_2d(const at::Tensor& embeddings, const MapOptions& options, const StopToken* stop) {
    if (options.projection == Projection::Pca) {
        return pca_2d(embeddings);
    }
    // Copies of one image share a place: the neighbour graph learns nothing from them, and
    // t-SNE's tree cannot split a pile of them (20,000 copies took over a minute).
    const Distinct distinct = distinct_rows(embeddings);
    if (distinct.rows.size(0) < embeddings.size(0)) {
        const at::Tensor map = distinct.rows.size(0) < 2
                                   ? at::zeros({distinct.rows.size(0), 2}, at::kFloat)
                                   : map_2d(distinct.rows, options, stop);
        return map.index_select(0, distinct.of);
    }
    if (options.projection == Projection::Tsne) {
        TsneOptions tsne;
        tsne.perplexity = options.perplexity;
        tsne.seed = options.seed;
        const int k = static_cast<int>(std::ceil(3 * options.perplexity));
        return as_tensor(tsne_2d(neighbour_graph(embeddings, k, stop), tsne,
                                 pca_start(embeddings, 1e-4, 0.0), stop));
    }
    UmapOptions umap;
    umap.min_dist = options.min_dist;
    umap.seed = options.seed;
    // umap-learn's n_neighbors counts the point itself; the graph does not.
    return as_tensor(umap_2d(neighbour_graph(embeddings, options.neighbours - 1, stop), umap,
                             pca_start(embeddings, 0.0, 10.0), stop));
}

MapSummary write_embedding_map(const MapConfig& config, const StopToken* stop) {
    const auto started = std::chrono::steady_clock::now();
    const std::optional<Projection> projection = projection_named(config.projection);
    if (!projection) {
        throw Error("projection \"" + config.projection + "\" is unknown; use pca, tsne or umap");
    }
    const MapOptions options{.projection = *projection,
                             .seed = static_cast<std::uint64_t>(config.seed),
                             .perplexity = config.perplexity,
                             .neighbours = config.n_neighbors,
                             .min_dist = config.min_dist};
    const EmbeddingFile read = read_embeddings(config.embeddings);
    at::Tensor map;
    try {
        map = map_2d(read.embeddings, options, stop).contiguous();
    } catch (const Error& error) { // too few points, say: of which file
        throw Error("\"" + config.embeddings.string() + "\": " + error.what());
    }
    if (stop_requested(stop)) {
        throw Error("embed-map stopped before the map was done; nothing was written");
    }
    const float* xy = map.data_ptr<float>();
    std::string csv = "filename,x,y\n";
    char number[64];
    for (std::size_t i = 0; i < read.filenames.size(); ++i) {
        std::snprintf(number, sizeof number, ",%.7g,%.7g\n", xy[2 * i], xy[2 * i + 1]);
        csv += csv_field(read.filenames[i]) + number;
    }
    write_file_atomically(config.out, csv);
    return {static_cast<std::int64_t>(read.filenames.size()), read.embeddings.size(1),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
}

} // namespace kiln::embed
