#include "embed/explorer.h"

#include "core/error.h"
#include "core/parallel_for.h"
#include "system/hardware.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <numeric>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>
#include <unordered_map>
#include <utility>

namespace kiln::embed {
namespace {

void sort_duplicates(std::vector<Duplicate>& duplicates) {
    std::sort(duplicates.begin(), duplicates.end(), [](const Duplicate& a, const Duplicate& b) {
        return a.similarity != b.similarity ? a.similarity > b.similarity : a.row < b.row;
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

constexpr double kRounding = 1e-6;

// For each row of a block, the most similar kept row seen so far (-1: none yet).
struct BlockBest {
    explicit BlockBest(std::int64_t count)
        : similarity(std::size_t(count), -2.0f), kept(std::size_t(count), -1) {}
    void offer(std::int64_t i, std::int64_t row, float value) {
        const auto at = static_cast<std::size_t>(i);
        // Ties go to the earliest row, whichever thread offers first.
        if (value > similarity[at] || (value == similarity[at] && row < kept[at])) {
            similarity[at] = value;
            kept[at] = row;
        }
    }
    // Whether row `i` of the block (`row` of all) is kept; when not, it joins `duplicates`.
    bool keeps(std::int64_t i, std::int64_t row, double threshold,
               std::vector<Duplicate>& duplicates) const {
        const auto at = static_cast<std::size_t>(i);
        // Within float rounding: copies of one image normalise to a cosine of 0.99999994.
        if (kept[at] >= 0 && similarity[at] >= threshold - kRounding) {
            // A cosine, though float sums over a million dimensions can pass 1.
            duplicates.push_back({row, kept[at], std::min(similarity[at], 1.0f)});
            return false;
        }
        return true;
    }
    void merge(const BlockBest& other) {
        for (std::size_t i = 0; i < kept.size(); ++i) {
            offer(std::int64_t(i), other.kept[i], other.similarity[i]);
        }
    }
    std::vector<float> similarity; // below any cosine when none
    std::vector<std::int64_t> kept;
};

// Rows [start, start + count) in order, each compared with the rows kept before the block
// (`best`) and with the block's rows kept before it: the duplicates are added to `duplicates`,
// the kept rows returned.
std::vector<std::int64_t> settle_block(const at::Tensor& unit, std::int64_t start,
                                       std::int64_t count, BlockBest best, double threshold,
                                       std::vector<Duplicate>& duplicates) {
    const at::Tensor block = unit.narrow(0, start, count);
    const at::Tensor within = block.mm(block.t());
    const auto similarity = within.accessor<float, 2>();
    std::vector<std::int64_t> kept;
    for (std::int64_t i = 0; i < count; ++i) {
        for (const std::int64_t row : kept) {
            best.offer(i, row, similarity[i][row - start]);
        }
        if (best.keeps(i, start + i, threshold, duplicates)) {
            kept.push_back(start + i);
        }
    }
    return kept;
}

// Offers `rows` of a block (its `first` row at index 0) every row of `others`, by matrix
// products of at most chunk x chunk.
void compare_rows(const at::Tensor& unit, std::int64_t first, const std::vector<std::int64_t>& rows,
                  const std::vector<std::int64_t>& others, BlockBest& best) {
    // Few rows: reading each other row once costs what copying it for a matrix product would.
    if (rows.size() < 8 || rows.size() * others.size() <= 512) {
        const float* data = unit.data_ptr<float>();
        const std::int64_t dimensions = unit.size(1);
        for (const std::int64_t row : rows) {
            for (const std::int64_t other : others) {
                best.offer(row - first, other,
                           dot(data + row * dimensions, data + other * dimensions, dimensions));
            }
        }
        return;
    }
    constexpr std::size_t kChunk = 4096;
    const at::Tensor index = at::tensor(rows, at::TensorOptions(at::kLong));
    const at::Tensor queries = unit.index_select(0, index);
    for (std::size_t begin = 0; begin < others.size(); begin += kChunk) {
        const std::size_t end = std::min(others.size(), begin + kChunk);
        const at::Tensor candidates = unit.index_select(
            0, at::tensor(std::vector<std::int64_t>(others.begin() + std::ptrdiff_t(begin),
                                                    others.begin() + std::ptrdiff_t(end)),
                          at::TensorOptions(at::kLong)));
        const auto [values, which] = queries.mm(candidates.t()).max(1);
        const auto value = values.accessor<float, 1>();
        const auto column = which.accessor<std::int64_t, 1>();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            best.offer(rows[i] - first, others[begin + std::size_t(column[std::int64_t(i)])],
                       value[std::int64_t(i)]);
        }
    }
}

// Rows sharing a bucket, per table: the bucket (sign pattern) of every row in every table.
std::vector<std::vector<std::int32_t>> bucket_codes(const at::Tensor& unit, int tables, int bits,
                                                    std::uint64_t seed) {
    // All hyperplanes drawn up front, so each table's are the same whichever thread hashes it.
    const at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    const at::Tensor planes =
        at::randn({tables, unit.size(1), bits}, generator, at::TensorOptions(at::kFloat));
    const at::Tensor powers = at::pow(2, at::arange(bits, at::TensorOptions(at::kInt)));
    std::vector<std::vector<std::int32_t>> codes(static_cast<std::size_t>(tables));
    parallel_for(codes.size(), system::usable_cpu_cores(), 1,
                 [&](std::size_t begin, std::size_t end) {
                     for (std::size_t table = begin; table < end; ++table) {
                         const at::Tensor code = unit.mm(planes[std::int64_t(table)])
                                                     .gt(0)
                                                     .to(at::kInt)
                                                     .mul(powers)
                                                     .sum(1, false, at::kInt)
                                                     .contiguous();
                         codes[table].assign(code.data_ptr<std::int32_t>(),
                                             code.data_ptr<std::int32_t>() + code.numel());
                     }
                 });
    return codes;
}

// The `count` eigenvectors of the symmetric `matrix` with the largest eigenvalues, largest first.
at::Tensor leading_eigenvectors(const at::Tensor& matrix, std::int64_t count) {
    const auto [values, vectors] = torch::linalg_eigh(matrix); // ascending eigenvalues
    return vectors.narrow(1, vectors.size(1) - count, count).flip({1});
}

// The same directions as the covariance's leading eigenvectors, from the rows' own n x n
// products when there are fewer rows than dimensions: a few embeddings of 20,000 dimensions
// would otherwise decompose a 20,000 x 20,000 matrix (3 GB, minutes). A direction the rows do
// not span (rank below `count`) is 0.
at::Tensor leading_directions_from_rows(const at::Tensor& centred, std::int64_t count) {
    const std::int64_t found = std::min(count, centred.size(0));
    at::Tensor directions =
        centred.t().mm(leading_eigenvectors(centred.mm(centred.t()), found)); // [D, found]
    const at::Tensor lengths = directions.norm(2, 0, true);
    const double spanned = 1e-6 * std::max(1e-300, lengths.max().item<double>());
    directions = torch::where(lengths > spanned, directions / lengths.clamp_min(1e-300),
                              torch::zeros_like(directions));
    return torch::cat(
        {directions, torch::zeros({centred.size(1), count - found}, directions.options())}, 1);
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
    at::Tensor components = centred.size(0) < centred.size(1)
                                ? leading_directions_from_rows(centred, count)
                                : leading_eigenvectors(centred.t().mm(centred), count);
    // An eigenvector's sign is arbitrary: make each one's largest entry positive.
    const at::Tensor largest = components.abs().argmax(0);
    const at::Tensor signs = components.gather(0, largest.unsqueeze(0)).sign();
    components = components * signs;
    return centred.mm(components).to(torch::kFloat32);
}

at::Tensor pca_2d(const at::Tensor& embeddings) {
    return principal_components(embeddings, 2);
}

at::Tensor unit_rows(const at::Tensor& embeddings) {
    if (embeddings.dim() != 2) {
        throw Error("embeddings must be a matrix (rows x dimensions)");
    }
    namespace F = torch::nn::functional;
    return F::normalize(embeddings.to(torch::kFloat32), F::NormalizeFuncOptions().dim(1))
        .contiguous();
}

std::vector<Neighbour> nearest_neighbours(const at::Tensor& unit, std::int64_t row, int k) {
    if (row < 0 || row >= unit.size(0)) {
        throw Error("row " + std::to_string(row) + " is not among the " +
                    std::to_string(unit.size(0)) + " embeddings");
    }
    torch::NoGradGuard no_grad;
    at::Tensor similarity = unit.mv(unit[row]);
    similarity[row] = -2.0; // below any cosine: never its own neighbour
    const std::int64_t count = std::min<std::int64_t>(k, unit.size(0) - 1);
    const auto [values, rows] = similarity.topk(count);
    std::vector<Neighbour> neighbours;
    for (std::int64_t i = 0; i < count; ++i) {
        // A cosine, though float sums can pass 1.
        neighbours.push_back(
            {rows[i].item<std::int64_t>(), std::min(values[i].item<double>(), 1.0)});
    }
    return neighbours;
}

std::vector<Duplicate> near_duplicates_exact(const at::Tensor& embeddings, double threshold,
                                             std::int64_t chunk) {
    if (chunk < 1) {
        throw Error("near-duplicates: blocks of " + std::to_string(chunk) +
                    " rows; give at least 1");
    }
    torch::NoGradGuard no_grad;
    const at::Tensor unit = unit_rows(embeddings);
    std::vector<std::int64_t> kept;
    std::vector<Duplicate> duplicates;
    for (std::int64_t start = 0; start < unit.size(0); start += chunk) {
        const std::int64_t count = std::min(chunk, unit.size(0) - start);
        std::vector<std::int64_t> block(static_cast<std::size_t>(count));
        std::iota(block.begin(), block.end(), start);
        BlockBest best(count);
        compare_rows(unit, start, block, kept, best);
        const std::vector<std::int64_t> kept_here =
            settle_block(unit, start, count, std::move(best), threshold, duplicates);
        kept.insert(kept.end(), kept_here.begin(), kept_here.end());
    }
    sort_duplicates(duplicates);
    return duplicates;
}

std::vector<Duplicate> near_duplicates_approximate(const at::Tensor& embeddings, double threshold,
                                                   const ApproximateDuplicateOptions& options) {
    if (!(options.miss > 0.0 && options.miss < 1.0)) {
        throw Error("near-duplicates: the chance to miss a pair must be between 0 and 1");
    }
    torch::NoGradGuard no_grad;
    const at::Tensor unit = unit_rows(embeddings);
    const std::int64_t rows = unit.size(0);
    if (rows < 2) {
        return {};
    }
    // About 4 rows per bucket for unrelated rows keeps the exact comparisons few.
    const int bits = std::clamp(static_cast<int>(std::ceil(std::log2(double(rows) / 4))), 4, 24);
    const double angle = std::acos(std::clamp(threshold, -1.0, 1.0));
    const double per_bit = 1.0 - angle / M_PI;
    const double per_table = std::pow(per_bit, bits);
    const double needed =
        per_table >= 1.0 ? 1.0 : std::ceil(std::log(options.miss) / std::log(1.0 - per_table));
    // NaN or infinite for thresholds near -1 (every pair is a duplicate): the exact search.
    if (!(needed >= 1.0 && needed <= options.max_tables)) {
        return near_duplicates_exact(embeddings, threshold);
    }
    const int tables = static_cast<int>(needed);
    const std::vector<std::vector<std::int32_t>> codes =
        bucket_codes(unit, tables, bits, options.seed);
    const float* data = unit.data_ptr<float>();
    const std::int64_t dimensions = unit.size(1);
    // Each table's buckets hold only kept rows, so copies of one image never fill one.
    std::vector<std::unordered_map<std::int32_t, std::vector<std::int64_t>>> buckets(
        static_cast<std::size_t>(tables));
    std::vector<Duplicate> duplicates;
    const int threads = std::min(tables, system::usable_cpu_cores());
    constexpr std::int64_t kBlock = 2048;
    for (std::int64_t start = 0; start < rows; start += kBlock) {
        const std::int64_t count = std::min(kBlock, rows - start);
        // The block against the kept rows of its buckets, tables in parallel.
        std::vector<BlockBest> by_thread(static_cast<std::size_t>(threads), BlockBest(count));
        std::atomic<int> next_table{0};
        parallel_for(std::size_t(threads), threads, 1, [&](std::size_t thread, std::size_t) {
            std::map<std::int32_t, std::vector<std::int64_t>> by_code;
            for (int table = next_table++; table < tables; table = next_table++) {
                const auto& code = codes[std::size_t(table)];
                const auto& bucket = buckets[std::size_t(table)];
                by_code.clear();
                for (std::int64_t row = start; row < start + count; ++row) {
                    by_code[code[std::size_t(row)]].push_back(row);
                }
                for (const auto& [key, members] : by_code) {
                    if (const auto found = bucket.find(key); found != bucket.end()) {
                        compare_rows(unit, start, members, found->second, by_thread[thread]);
                    }
                }
            }
        });
        for (std::size_t thread = 1; thread < by_thread.size(); ++thread) {
            by_thread[0].merge(by_thread[thread]);
        }
        // In order, each row against the block's rows kept before it that share a bucket (the
        // newest entries of its buckets); a kept row joins its buckets at once.
        BlockBest& best = by_thread[0];
        for (std::int64_t row = start; row < start + count; ++row) {
            for (std::size_t table = 0; table < buckets.size(); ++table) {
                const auto bucket = buckets[table].find(codes[table][std::size_t(row)]);
                if (bucket == buckets[table].end()) {
                    continue;
                }
                for (auto other = bucket->second.rbegin();
                     other != bucket->second.rend() && *other >= start; ++other) {
                    best.offer(
                        row - start, *other,
                        dot(data + row * dimensions, data + *other * dimensions, dimensions));
                }
            }
            if (best.keeps(row - start, row, threshold, duplicates)) {
                for (std::size_t table = 0; table < buckets.size(); ++table) {
                    buckets[table][codes[table][std::size_t(row)]].push_back(row);
                }
            }
        }
    }
    sort_duplicates(duplicates);
    return duplicates;
}

std::vector<Duplicate> near_duplicates(const at::Tensor& embeddings, double threshold) {
    constexpr std::int64_t kExactUpTo = 20000;
    return embeddings.size(0) <= kExactUpTo ? near_duplicates_exact(embeddings, threshold)
                                            : near_duplicates_approximate(embeddings, threshold);
}

std::vector<std::int64_t> rows_near(const at::Tensor& embeddings,
                                    const std::vector<std::int64_t>& of_rows, double threshold) {
    std::vector<std::int64_t> near;
    if (of_rows.empty()) {
        return near;
    }
    constexpr std::int64_t kChunk = 4096;
    const at::Tensor unit = unit_rows(embeddings);
    std::vector<bool> given(std::size_t(unit.size(0)), false);
    for (const std::int64_t row : of_rows) {
        given[std::size_t(row)] = true;
    }
    const at::Tensor given_rows =
        unit.index_select(0, at::tensor(of_rows, at::TensorOptions(at::kLong)));
    for (std::int64_t begin = 0; begin < unit.size(0); begin += kChunk) {
        const std::int64_t length = std::min(kChunk, unit.size(0) - begin);
        at::Tensor nearest = at::full({length}, -2.0); // below any cosine
        for (std::int64_t first = 0; first < given_rows.size(0); first += kChunk) {
            const at::Tensor others =
                given_rows.narrow(0, first, std::min(kChunk, given_rows.size(0) - first));
            at::maximum_out(nearest, nearest,
                            std::get<0>(unit.narrow(0, begin, length).mm(others.t()).max(1)));
        }
        const auto similarity = nearest.accessor<float, 1>();
        for (std::int64_t i = 0; i < length; ++i) {
            if (!given[std::size_t(begin + i)] && similarity[i] >= threshold - kRounding) {
                near.push_back(begin + i);
            }
        }
    }
    return near;
}

} // namespace kiln::embed
