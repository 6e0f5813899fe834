#include "embed/explorer.h"

#include "core/error.h"
#include "core/parallel_for.h"
#include "system/hardware.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>
#include <tuple>
#include <unordered_map>

namespace kiln::embed {
namespace {

at::Tensor unit_rows(const at::Tensor& embeddings) {
    if (embeddings.dim() != 2) {
        throw Error("embeddings must be a matrix (rows x dimensions)");
    }
    namespace F = torch::nn::functional;
    return F::normalize(embeddings.to(torch::kFloat32), F::NormalizeFuncOptions().dim(1));
}

void sort_pairs(std::vector<DuplicatePair>& pairs) {
    std::sort(pairs.begin(), pairs.end(), [](const DuplicatePair& a, const DuplicatePair& b) {
        return a.similarity != b.similarity
                   ? a.similarity > b.similarity
                   : std::tie(a.first, a.second) < std::tie(b.first, b.second);
    });
}

float dot(const float* a, const float* b, std::int64_t count) {
    // Eight running sums that the compiler keeps in one vector register.
    float sums[8] = {};
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        for (int j = 0; j < 8; ++j) {
            sums[j] += a[i + j] * b[i + j];
        }
    }
    float total =
        ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
    for (; i < count; ++i) {
        total += a[i] * b[i];
    }
    return total;
}

// Compares every pair of one bucket's rows (ascending) and keeps those at the threshold.
void compare_bucket(const float* data, std::int64_t dimensions,
                    const std::vector<std::int64_t>& members, double threshold, std::int64_t rows,
                    std::unordered_map<std::uint64_t, float>& found) {
    if (members.size() < 2) {
        return;
    }
    constexpr std::size_t kMatrixFrom = 64; // larger buckets: one matrix product
    if (members.size() < kMatrixFrom) {
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) {
                const float similarity =
                    dot(data + members[i] * dimensions, data + members[j] * dimensions, dimensions);
                if (similarity >= threshold) {
                    found.emplace(static_cast<std::uint64_t>(members[i] * rows + members[j]),
                                  similarity);
                }
            }
        }
        return;
    }
    const at::Tensor index = at::tensor(members, at::TensorOptions(at::kLong));
    const at::Tensor unit =
        at::from_blob(const_cast<float*>(data), {rows, dimensions}).index_select(0, index);
    const std::vector<DuplicatePair> pairs = near_duplicates_exact(unit, threshold);
    for (const DuplicatePair& pair : pairs) {
        found.emplace(static_cast<std::uint64_t>(members[pair.first] * rows + members[pair.second]),
                      static_cast<float>(pair.similarity));
    }
}

} // namespace

at::Tensor principal_components(const at::Tensor& embeddings, std::int64_t count) {
    if (embeddings.dim() != 2 || embeddings.size(0) < 2 || embeddings.size(1) < count) {
        throw Error("a projection to " + std::to_string(count) +
                    " dimensions needs at least 2 embeddings of at least " + std::to_string(count) +
                    " dimensions");
    }
    torch::NoGradGuard no_grad;
    const at::Tensor centred =
        embeddings.to(torch::kFloat64) - embeddings.to(torch::kFloat64).mean(0);
    const at::Tensor covariance = centred.t().mm(centred) / double(embeddings.size(0) - 1);
    const auto [values, vectors] = torch::linalg_eigh(covariance); // ascending eigenvalues
    at::Tensor components = vectors.narrow(1, vectors.size(1) - count, count).flip({1});
    // An eigenvector's sign is arbitrary: make each one's largest entry positive.
    const at::Tensor largest = components.abs().argmax(0);
    const at::Tensor signs = components.gather(0, largest.unsqueeze(0)).sign();
    components = components * signs;
    return centred.mm(components).to(torch::kFloat32);
}

at::Tensor pca_2d(const at::Tensor& embeddings) {
    return principal_components(embeddings, 2);
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

std::vector<DuplicatePair> near_duplicates_exact(const at::Tensor& embeddings, double threshold,
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
    sort_pairs(pairs);
    return pairs;
}

std::vector<DuplicatePair> near_duplicates_approximate(const at::Tensor& embeddings,
                                                       double threshold,
                                                       const ApproximateDuplicateOptions& options) {
    torch::NoGradGuard no_grad;
    const at::Tensor unit = unit_rows(embeddings).contiguous();
    const std::int64_t rows = unit.size(0);
    const std::int64_t dimensions = unit.size(1);
    if (rows < 2) {
        return {};
    }
    // About 4 rows per bucket for unrelated rows keeps the exact comparisons few.
    const int bits = std::clamp(static_cast<int>(std::ceil(std::log2(double(rows) / 4))), 4, 24);
    const double angle = std::acos(std::clamp(threshold, -1.0, 1.0));
    const double per_bit = 1.0 - angle / M_PI;
    const double per_table = std::pow(per_bit, bits);
    const int tables =
        per_table >= 1.0
            ? 1
            : static_cast<int>(std::ceil(std::log(options.miss) / std::log(1.0 - per_table)));
    if (tables > options.max_tables) {
        return near_duplicates_exact(embeddings, threshold);
    }
    // All hyperplanes drawn up front, so each table's are the same whichever thread hashes it.
    const at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(options.seed);
    const at::Tensor planes =
        at::randn({tables, dimensions, bits}, generator, at::TensorOptions(at::kFloat));
    const at::Tensor powers = at::pow(2, at::arange(bits, at::TensorOptions(at::kLong)));
    const float* data = unit.data_ptr<float>();
    // Tables in parallel, each thread with its own pairs; a pair found twice has the same
    // similarity, computed from the same rows.
    const int threads = std::min(tables, system::usable_cpu_cores());
    std::vector<std::unordered_map<std::uint64_t, float>> found_by_thread(
        static_cast<std::size_t>(threads));
    std::atomic<int> next_table{0};
    parallel_for(
        static_cast<std::size_t>(threads), threads, 1, [&](std::size_t begin, std::size_t) {
            auto& found = found_by_thread[begin]; // first * rows + second -> similarity
            std::vector<std::int64_t> members;
            for (int table = next_table++; table < tables; table = next_table++) {
                const at::Tensor codes =
                    unit.mm(planes[table]).gt(0).to(at::kLong).mul(powers).sum(1);
                const at::Tensor sorted = std::get<1>(codes.sort(/*stable=*/true, 0, false));
                const auto code = codes.accessor<std::int64_t, 1>();
                const auto by_code = sorted.accessor<std::int64_t, 1>();
                for (std::int64_t start = 0; start < rows;) {
                    std::int64_t end = start + 1;
                    while (end < rows && code[by_code[end]] == code[by_code[start]]) {
                        ++end;
                    }
                    members.assign(&by_code[start], &by_code[start] + (end - start));
                    std::sort(members.begin(), members.end());
                    compare_bucket(data, dimensions, members, threshold, rows, found);
                    start = end;
                }
            }
        });
    std::unordered_map<std::uint64_t, float> found;
    for (const auto& part : found_by_thread) {
        found.insert(part.begin(), part.end());
    }
    std::vector<DuplicatePair> pairs;
    pairs.reserve(found.size());
    for (const auto& [key, similarity] : found) {
        pairs.push_back({static_cast<std::int64_t>(key / static_cast<std::uint64_t>(rows)),
                         static_cast<std::int64_t>(key % static_cast<std::uint64_t>(rows)),
                         similarity});
    }
    sort_pairs(pairs);
    return pairs;
}

std::vector<DuplicatePair> near_duplicates(const at::Tensor& embeddings, double threshold) {
    constexpr std::int64_t kExactUpTo = 20000;
    return embeddings.size(0) <= kExactUpTo ? near_duplicates_exact(embeddings, threshold)
                                            : near_duplicates_approximate(embeddings, threshold);
}

} // namespace kiln::embed
