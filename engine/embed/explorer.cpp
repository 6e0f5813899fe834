#include "embed/explorer.h"

#include "core/error.h"

#include <algorithm>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>
#include <tuple>

namespace kiln::embed {
namespace {

at::Tensor unit_rows(const at::Tensor& embeddings) {
    if (embeddings.dim() != 2) {
        throw Error("embeddings must be a matrix (rows x dimensions)");
    }
    namespace F = torch::nn::functional;
    return F::normalize(embeddings.to(torch::kFloat32), F::NormalizeFuncOptions().dim(1));
}

} // namespace

at::Tensor pca_2d(const at::Tensor& embeddings) {
    if (embeddings.dim() != 2 || embeddings.size(0) < 2 || embeddings.size(1) < 2) {
        throw Error("a 2-D projection needs at least 2 embeddings of at least 2 dimensions");
    }
    torch::NoGradGuard no_grad;
    const at::Tensor centred =
        embeddings.to(torch::kFloat64) - embeddings.to(torch::kFloat64).mean(0);
    const at::Tensor covariance = centred.t().mm(centred) / double(embeddings.size(0) - 1);
    const auto [values, vectors] = torch::linalg_eigh(covariance); // ascending eigenvalues
    at::Tensor components = vectors.narrow(1, vectors.size(1) - 2, 2).flip({1});
    // An eigenvector's sign is arbitrary: make each one's largest entry positive.
    const at::Tensor largest = components.abs().argmax(0);
    const at::Tensor signs = components.gather(0, largest.unsqueeze(0)).sign();
    components = components * signs;
    return centred.mm(components).to(torch::kFloat32);
}

std::vector<Neighbour> nearest_neighbours(const at::Tensor& embeddings, std::int64_t row, int k) {
    if (row < 0 || row >= embeddings.size(0)) {
        throw Error("row " + std::to_string(row) + " is not among the " +
                    std::to_string(embeddings.size(0)) + " embeddings");
    }
    torch::NoGradGuard no_grad;
    const at::Tensor unit = unit_rows(embeddings);
    at::Tensor similarity = unit.mv(unit[row]);
    similarity[row] = -2.0; // below any cosine: never its own neighbour
    const std::int64_t count = std::min<std::int64_t>(k, embeddings.size(0) - 1);
    const auto [values, rows] = similarity.topk(count);
    std::vector<Neighbour> neighbours;
    for (std::int64_t i = 0; i < count; ++i) {
        neighbours.push_back({rows[i].item<std::int64_t>(), values[i].item<double>()});
    }
    return neighbours;
}

std::vector<DuplicatePair> near_duplicates(const at::Tensor& embeddings, double threshold,
                                           std::int64_t chunk) {
    torch::NoGradGuard no_grad;
    const at::Tensor unit = unit_rows(embeddings);
    const std::int64_t rows = unit.size(0);
    std::vector<DuplicatePair> pairs;
    // Blocks of chunk x chunk similarities over the upper triangle only: every pair once, never
    // a row with itself, half the work of all pairs, and small blocks that are reused.
    for (std::int64_t start = 0; start < rows; start += chunk) {
        const std::int64_t count = std::min(chunk, rows - start);
        const at::Tensor queries = unit.narrow(0, start, count);
        for (std::int64_t other = start; other < rows; other += chunk) {
            const std::int64_t others = std::min(chunk, rows - other);
            const at::Tensor similarity = queries.mm(unit.narrow(0, other, others).t());
            at::Tensor close = similarity >= threshold;
            if (other == start) { // the diagonal block: only pairs above the diagonal
                close = close.triu(1);
            }
            const at::Tensor hits = close.nonzero();
            const auto found = hits.accessor<std::int64_t, 2>();
            const auto values = similarity.accessor<float, 2>();
            for (std::int64_t h = 0; h < hits.size(0); ++h) {
                pairs.push_back(
                    {start + found[h][0], other + found[h][1], values[found[h][0]][found[h][1]]});
            }
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](const DuplicatePair& a, const DuplicatePair& b) {
        return a.similarity != b.similarity
                   ? a.similarity > b.similarity
                   : std::tie(a.first, a.second) < std::tie(b.first, b.second);
    });
    return pairs;
}

} // namespace kiln::embed
