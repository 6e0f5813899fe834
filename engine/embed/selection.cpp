#include "embed/selection.h"

#include "core/error.h"
#include "embed/explorer.h"
#include "eval/knn.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <random>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>
#include <utility>

namespace kiln::embed {
namespace {

const std::map<std::string, SelectionStrategy>& strategies() {
    static const std::map<std::string, SelectionStrategy> names = {
        {"diverse", SelectionStrategy::Diverse},
        {"typical", SelectionStrategy::Typical},
        {"balanced", SelectionStrategy::Balanced},
        {"random", SelectionStrategy::Random}};
    return names;
}

// The embeddings PCA-whitened (eval::fit_whitening), fitted on a seeded sample of at most
// 65,536 rows: the covariance of a million rows would cost more than the pick.
at::Tensor whitened(const at::Tensor& embeddings, std::uint64_t seed) {
    constexpr std::int64_t kFitRows = 65536;
    const at::Tensor values = embeddings.to(torch::kFloat32);
    at::Tensor sample = values;
    if (values.size(0) > kFitRows) {
        const at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
        sample = values.index_select(
            0, at::randperm(values.size(0), generator, at::TensorOptions(at::kLong))
                   .narrow(0, 0, kFitRows));
    }
    return values.size(0) < 2 ? values : eval::fit_whitening(sample).apply(values);
}

// Long picks check between their passes over the rows.
void stop_if_requested(const StopToken* stop) {
    if (stop_requested(stop)) {
        throw Error("the selection was stopped");
    }
}

// For each of `rows`, its largest cosine similarity to any of `others` and which of them it
// is. Both sides go in blocks, so that no block of products holds more than 2^24 values (64 MB),
// however many rows are labelled or how many centres there are.
std::pair<at::Tensor, at::Tensor> most_similar(const at::Tensor& rows, const at::Tensor& others) {
    constexpr std::int64_t kBlockValues = std::int64_t(1) << 24;
    const std::int64_t column_block = std::min<std::int64_t>(others.size(0), 16384);
    const std::int64_t row_block = std::max<std::int64_t>(1, kBlockValues / column_block);
    at::Tensor best = torch::full({rows.size(0)}, -2.0); // below any cosine
    at::Tensor which = torch::zeros({rows.size(0)}, torch::kInt64);
    for (std::int64_t begin = 0; begin < rows.size(0); begin += row_block) {
        const std::int64_t length = std::min(row_block, rows.size(0) - begin);
        at::Tensor block_best = best.narrow(0, begin, length);
        at::Tensor block_which = which.narrow(0, begin, length);
        for (std::int64_t first = 0; first < others.size(0); first += column_block) {
            const std::int64_t count = std::min(column_block, others.size(0) - first);
            const auto [value, index] =
                at::mm(rows.narrow(0, begin, length), others.narrow(0, first, count).t()).max(1);
            const at::Tensor better = value > block_best;
            block_best.copy_(torch::where(better, value, block_best));
            block_which.copy_(torch::where(better, index + first, block_which));
        }
    }
    return {best, which};
}

// Each row's cosine distance to the nearest of `centres` rows.
at::Tensor distance_to_nearest(const at::Tensor& unit, const at::Tensor& centres) {
    return 1.0 - most_similar(unit, centres).first;
}

at::Tensor rows_of(const at::Tensor& unit, const std::vector<std::int64_t>& rows) {
    return unit.index_select(0, torch::tensor(rows, torch::kInt64));
}

std::vector<bool> rows_mask(std::int64_t size, const std::vector<std::int64_t>& rows) {
    std::vector<bool> mask(std::size_t(size), false);
    for (const std::int64_t row : rows) {
        mask[std::size_t(row)] = true;
    }
    return mask;
}

// The members' typicality within their cluster: 1 / mean distance to their (up to) 20 nearest
// mates, as TypiClust defines it, a member never its own mate. Large clusters are compared with
// a seeded sample of 4,096 mates, and their members go in blocks of 4,096 (64 MB of distances).
std::vector<double> typicality(const at::Tensor& unit, const std::vector<std::int64_t>& members,
                               std::mt19937_64& rng) {
    constexpr std::size_t kMaxMates = 4096;
    constexpr std::int64_t kNeighbours = 20;
    constexpr std::int64_t kSelf = 3;               // farther than any cosine distance
    std::vector<std::size_t> mates(members.size()); // positions in `members`
    std::iota(mates.begin(), mates.end(), std::size_t(0));
    if (mates.size() > kMaxMates) {
        std::shuffle(mates.begin(), mates.end(), rng);
        mates.resize(kMaxMates);
    }
    const std::int64_t k = std::min<std::int64_t>(kNeighbours, std::int64_t(mates.size()) - 1);
    if (k < 1) {
        return std::vector<double>(members.size(), 1.0); // alone in its cluster
    }
    std::vector<std::int64_t> mate_rows, column_of(members.size(), -1);
    for (std::size_t column = 0; column < mates.size(); ++column) {
        mate_rows.push_back(members[mates[column]]);
        column_of[mates[column]] = std::int64_t(column);
    }
    const at::Tensor mate_vectors = rows_of(unit, mate_rows);
    std::vector<double> result(members.size());
    for (std::size_t begin = 0; begin < members.size(); begin += kMaxMates) {
        const std::size_t end = std::min(members.size(), begin + kMaxMates);
        std::vector<std::int64_t> block(members.begin() + std::ptrdiff_t(begin),
                                        members.begin() + std::ptrdiff_t(end));
        at::Tensor distance = 1.0 - at::mm(rows_of(unit, block), mate_vectors.t()).clamp(-1.0, 1.0);
        std::vector<std::int64_t> self_rows, self_columns;
        for (std::size_t i = begin; i < end; ++i) {
            if (column_of[i] >= 0) {
                self_rows.push_back(std::int64_t(i - begin));
                self_columns.push_back(column_of[i]);
            }
        }
        distance.index_put_(
            {torch::tensor(self_rows, torch::kInt64), torch::tensor(self_columns, torch::kInt64)},
            double(kSelf));
        const at::Tensor mean = std::get<0>(distance.topk(k, 1, /*largest=*/false)).mean(1);
        const auto values = mean.accessor<float, 1>();
        for (std::size_t i = begin; i < end; ++i) {
            result[i] = 1.0 / std::max(double(values[std::int64_t(i - begin)]), 1e-6);
        }
    }
    return result;
}

std::vector<std::vector<std::int64_t>> members_of(const Clustering& clustering,
                                                  const std::vector<bool>& pickable) {
    std::vector<std::vector<std::int64_t>> members(std::size_t(clustering.centres.size(0)));
    for (std::size_t row = 0; row < clustering.assignments.size(); ++row) {
        if (pickable[row]) {
            members[std::size_t(clustering.assignments[row])].push_back(std::int64_t(row));
        }
    }
    return members;
}

Selection select_typical(const at::Tensor& unit, const SelectionOptions& options,
                         const std::vector<bool>& pickable) {
    const std::int64_t rows = unit.size(0);
    const std::int64_t k =
        std::min<std::int64_t>(rows, options.count + std::int64_t(options.labelled.size()));
    const Clustering clustering =
        spherical_kmeans(unit, k, options.seed, kKmeansIterations, options.stop);
    std::vector<std::int64_t> size(std::size_t(k), 0);
    std::vector<bool> covered(std::size_t(k), false);
    for (std::int64_t row = 0; row < rows; ++row) {
        ++size[std::size_t(clustering.assignments[std::size_t(row)])];
    }
    for (const std::int64_t row : options.labelled) {
        covered[std::size_t(clustering.assignments[std::size_t(row)])] = true;
    }
    const std::vector<std::vector<std::int64_t>> members = members_of(clustering, pickable);
    std::vector<std::int64_t> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return size[std::size_t(a)] > size[std::size_t(b)];
    });
    std::mt19937_64 rng(options.seed);
    Selection selection;
    std::vector<bool> taken(std::size_t(rows), false);
    // Uncovered clusters first, largest first; when they run out (more picks than clusters
    // with pickable rows), another round over every cluster takes the next most typical.
    for (int round = 0; std::int64_t(selection.rows.size()) < options.count; ++round) {
        stop_if_requested(options.stop);
        const std::size_t before = selection.rows.size();
        for (const std::int64_t cluster : order) {
            if (std::int64_t(selection.rows.size()) >= options.count) {
                break;
            }
            std::vector<std::int64_t> open;
            for (const std::int64_t row : members[std::size_t(cluster)]) {
                if (!taken[std::size_t(row)]) {
                    open.push_back(row);
                }
            }
            if (open.empty() || (round == 0 && covered[std::size_t(cluster)])) {
                continue;
            }
            const std::vector<double> scores = typicality(unit, open, rng);
            const std::size_t best =
                std::size_t(std::max_element(scores.begin(), scores.end()) - scores.begin());
            taken[std::size_t(open[best])] = true;
            selection.rows.push_back(open[best]);
            selection.scores.push_back(scores[best]);
            selection.clusters.push_back(cluster);
        }
        if (round > 0 && selection.rows.size() == before) {
            break; // nothing left to pick; select_rows checked that cannot happen
        }
    }
    return selection;
}

Selection select_balanced(const at::Tensor& unit, const SelectionOptions& options,
                          const std::vector<bool>& pickable) {
    constexpr std::int64_t kPicksPerCluster = 10;
    const std::int64_t k =
        std::clamp<std::int64_t>(options.count / kPicksPerCluster, 1, unit.size(0));
    const Clustering clustering =
        spherical_kmeans(unit, k, options.seed, kKmeansIterations, options.stop);
    std::vector<std::vector<std::int64_t>> members = members_of(clustering, pickable);
    std::vector<std::int64_t> quota(std::size_t(k), 0); // labelled rows count towards it
    for (const std::int64_t row : options.labelled) {
        ++quota[std::size_t(clustering.assignments[std::size_t(row)])];
    }
    std::mt19937_64 rng(options.seed);
    for (auto& rows : members) {
        std::shuffle(rows.begin(), rows.end(), rng);
    }
    // Round-robin over the clusters by quota: each pick goes to the cluster with the fewest
    // picks (plus labelled rows) that still has rows, the lowest-numbered of a tie, so quotas
    // stay equal where they can. A heap finds it (a scan of every cluster per pick took
    // count^2 / 10 steps: hours for half of a million images).
    using Open = std::pair<std::int64_t, std::int64_t>; // quota, cluster
    std::priority_queue<Open, std::vector<Open>, std::greater<>> open;
    for (std::int64_t cluster = 0; cluster < k; ++cluster) {
        if (!members[std::size_t(cluster)].empty()) {
            open.push({quota[std::size_t(cluster)], cluster});
        }
    }
    Selection selection;
    std::vector<std::size_t> next(std::size_t(k), 0);
    while (std::int64_t(selection.rows.size()) < options.count && !open.empty()) {
        const auto [taken, chosen] = open.top();
        open.pop();
        const auto c = std::size_t(chosen);
        selection.rows.push_back(members[c][next[c]++]);
        selection.clusters.push_back(chosen);
        if (next[c] < members[c].size()) {
            open.push({taken + 1, chosen});
        }
    }
    const at::Tensor scores =
        (rows_of(unit, selection.rows) * rows_of(clustering.centres, selection.clusters)).sum(1);
    selection.scores.assign(scores.data_ptr<float>(), scores.data_ptr<float>() + scores.numel());
    return selection;
}

Selection select_random(const SelectionOptions& options, const std::vector<bool>& pickable) {
    std::vector<std::int64_t> open;
    for (std::size_t row = 0; row < pickable.size(); ++row) {
        if (pickable[row]) {
            open.push_back(std::int64_t(row));
        }
    }
    std::mt19937_64 rng(options.seed);
    std::shuffle(open.begin(), open.end(), rng);
    open.resize(std::size_t(options.count));
    Selection selection;
    selection.rows = std::move(open);
    selection.scores.assign(selection.rows.size(), 0.0);
    selection.clusters.assign(selection.rows.size(), -1);
    return selection;
}

} // namespace

SelectionStrategy selection_strategy(const std::string& name) {
    const auto found = strategies().find(name);
    if (found == strategies().end()) {
        throw Error("unknown selection strategy \"" + name +
                    "\"; choose one of diverse, typical, "
                    "balanced, random");
    }
    return found->second;
}

std::vector<std::string> selection_strategy_names() {
    return {"typical", "diverse", "balanced", "random"};
}

namespace {

// A seeded random row among those not blocked, as coreset selection starts.
std::int64_t random_open_row(std::int64_t rows, const std::vector<std::int64_t>& blocked,
                             std::uint64_t seed) {
    const std::vector<bool> is_blocked = rows_mask(rows, blocked);
    std::vector<std::int64_t> open;
    for (std::int64_t row = 0; row < rows; ++row) {
        if (!is_blocked[std::size_t(row)]) {
            open.push_back(row);
        }
    }
    std::mt19937_64 rng(seed);
    return open.at(std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(rng));
}

// One round of greedy picks among the `pool` rows farthest from the picks so far (`nearest`:
// each row's distance to them, -1 for rows that may not be picked). Greedy picking inside the
// pool is exact while the best candidate stays at least as far as the farthest row outside it.
std::vector<std::int64_t> greedy_round(const at::Tensor& unit, const at::Tensor& nearest,
                                       std::int64_t wanted, std::vector<double>* distances) {
    constexpr std::int64_t kPool = 512;
    const std::int64_t take = std::min<std::int64_t>(kPool + 1, nearest.size(0));
    const auto [far, which_rows] = nearest.topk(take);
    const std::int64_t pool = std::min(kPool, take);
    const double outside = take > kPool ? far[kPool].item<double>() : -1.0;
    const at::Tensor which = which_rows.narrow(0, 0, pool).contiguous();
    const std::vector<std::int64_t> candidates(which.data_ptr<std::int64_t>(),
                                               which.data_ptr<std::int64_t>() + pool);
    const at::Tensor pool_unit = unit.index_select(0, which);
    at::Tensor score = far.narrow(0, 0, pool).clone();
    std::vector<std::int64_t> round;
    while (std::int64_t(round.size()) < wanted) {
        const std::int64_t best = score.argmax().item<std::int64_t>();
        const double value = score[best].item<double>();
        if (value < -0.5 || (!round.empty() && value < outside)) { // -1: may not be picked
            break;
        }
        round.push_back(candidates[std::size_t(best)]);
        if (distances != nullptr) {
            distances->push_back(value);
        }
        score = at::minimum(score, 1.0 - at::mv(pool_unit, pool_unit[best]));
        score[best] = -1.0f;
    }
    return round;
}

} // namespace

std::vector<std::int64_t> k_center_greedy(const at::Tensor& unit, std::int64_t count,
                                          const std::vector<std::int64_t>& picked_before,
                                          const std::vector<std::int64_t>& blocked,
                                          std::uint64_t seed, std::vector<double>* distances,
                                          const StopToken* stop) {
    const std::int64_t rows = unit.size(0);
    std::vector<std::int64_t> picks;
    if (count <= 0) {
        return picks;
    }
    at::Tensor nearest;
    if (picked_before.empty()) {
        picks.push_back(random_open_row(rows, blocked, seed));
        if (distances != nullptr) {
            distances->push_back(2.0); // the farthest a cosine distance can be: nothing before
        }
        nearest = distance_to_nearest(unit, unit.narrow(0, picks[0], 1));
    } else {
        nearest = distance_to_nearest(unit, rows_of(unit, picked_before));
    }
    const auto exclude = [&nearest](const std::vector<std::int64_t>& excluded) {
        if (!excluded.empty()) {
            nearest.index_fill_(0, torch::tensor(excluded, torch::kInt64), -1.0f);
        }
    };
    exclude(blocked);
    exclude(picked_before);
    exclude(picks);
    while (std::int64_t(picks.size()) < count) {
        stop_if_requested(stop);
        const std::vector<std::int64_t> round =
            greedy_round(unit, nearest, count - std::int64_t(picks.size()), distances);
        if (round.empty()) {
            throw Error("k-center greedy ran out of rows to pick");
        }
        nearest = at::minimum(nearest, distance_to_nearest(unit, rows_of(unit, round)));
        exclude(round);
        picks.insert(picks.end(), round.begin(), round.end());
    }
    return picks;
}

namespace {

// A set fits its clustering on all its rows up to this many (a sample beyond).
constexpr std::int64_t kMinimumFittingRows = 65536;

// Each row's nearest centre (the highest cosine similarity), in blocks of rows.
at::Tensor nearest_centres(const at::Tensor& unit, const at::Tensor& centres) {
    return most_similar(unit, centres).second;
}

// Spherical k-means' centres for `unit`'s rows: seeded k-means++, then Lloyd's iterations.
at::Tensor fit_centres(const at::Tensor& unit, std::int64_t k, std::uint64_t seed, int iterations,
                       const StopToken* stop) {
    const std::int64_t rows = unit.size(0);
    // k-means++: each next centre drawn with probability proportional to its squared distance
    // to the nearest centre so far.
    std::mt19937_64 rng(seed);
    std::vector<std::int64_t> chosen = {
        std::int64_t(std::uniform_int_distribution<std::size_t>(0, std::size_t(rows - 1))(rng))};
    at::Tensor nearest = distance_to_nearest(unit, unit.narrow(0, chosen[0], 1));
    while (std::int64_t(chosen.size()) < k) {
        stop_if_requested(stop);
        at::Tensor weight = (nearest * nearest).to(torch::kFloat64);
        const double total = weight.sum().item<double>();
        std::int64_t next = 0;
        if (total <= 0) { // every row sits on a centre: any row not yet chosen
            std::vector<bool> used = rows_mask(rows, chosen);
            while (used[std::size_t(next)]) {
                ++next;
            }
        } else {
            const double target = std::uniform_real_distribution<double>(0.0, total)(rng);
            next = std::min<std::int64_t>((weight.cumsum(0) < target).sum().item<std::int64_t>(),
                                          rows - 1);
        }
        chosen.push_back(next);
        nearest = at::minimum(nearest, distance_to_nearest(unit, unit.narrow(0, next, 1)));
    }
    namespace F = torch::nn::functional;
    at::Tensor centres = rows_of(unit, chosen);
    at::Tensor previous;
    for (int iteration = 0; iteration < iterations; ++iteration) {
        stop_if_requested(stop);
        const at::Tensor assignment = nearest_centres(unit, centres);
        if (previous.defined() && at::equal(assignment, previous)) {
            break; // converged: the same assignment gives the same centres again
        }
        previous = assignment;
        at::Tensor sums = torch::zeros_like(centres).index_add_(0, assignment, unit);
        const at::Tensor counts = torch::bincount(assignment, {}, k);
        // An empty cluster keeps its centre (k-means++ placed it on a row, so it is rarely empty).
        const at::Tensor empty = (counts == 0).unsqueeze(1);
        sums = torch::where(empty, centres, sums);
        centres = F::normalize(sums, F::NormalizeFuncOptions().dim(1));
    }
    return centres;
}

// The rows a large set's clustering is fitted on: a seeded sample of 64 rows per centre (at
// least `minimum_rows`), as faiss trains its k-means; all of them when the set is no larger.
at::Tensor fitting_rows(const at::Tensor& unit, std::int64_t k, std::uint64_t seed,
                        std::int64_t minimum_rows) {
    constexpr std::int64_t kRowsPerCentre = 64;
    const std::int64_t rows = unit.size(0);
    const std::int64_t sample = std::max(minimum_rows, kRowsPerCentre * k);
    if (rows <= sample) {
        return unit;
    }
    std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(seed ^ 0x6b6d65616e73ULL); // apart from k-means++'s draws
    std::shuffle(order.begin(), order.end(), rng);
    order.resize(static_cast<std::size_t>(sample));
    std::sort(order.begin(), order.end());
    return rows_of(unit, order);
}

// k centres fitted on (a sample of) every row, then every row assigned to its nearest.
Clustering flat_kmeans(const at::Tensor& unit, std::int64_t k, std::uint64_t seed, int iterations,
                       std::int64_t minimum_rows, const StopToken* stop) {
    Clustering result;
    result.centres =
        fit_centres(fitting_rows(unit, k, seed, minimum_rows), k, seed, iterations, stop);
    const at::Tensor assignment = nearest_centres(unit, result.centres);
    result.assignments.assign(assignment.data_ptr<std::int64_t>(),
                              assignment.data_ptr<std::int64_t>() + unit.size(0));
    return result;
}

// About sqrt(k) coarse clusters of every row, then each split into its share of the k centres.
// Each row stays in its coarse cluster (its nearest centre there, not necessarily among all k).
Clustering two_level_kmeans(const at::Tensor& unit, std::int64_t k, std::uint64_t seed,
                            int iterations, const StopToken* stop) {
    const auto coarse_k = std::int64_t(std::ceil(std::sqrt(double(k))));
    const Clustering coarse =
        flat_kmeans(unit, coarse_k, seed, iterations, kMinimumFittingRows, stop);
    const std::vector<std::vector<std::int64_t>> groups =
        members_of(coarse, std::vector<bool>(coarse.assignments.size(), true));
    std::vector<std::int64_t> sizes;
    for (const auto& members : groups) {
        sizes.push_back(std::int64_t(members.size()));
    }
    const std::vector<std::int64_t> quotas = centre_quotas(sizes, k);
    Clustering result;
    result.assignments.assign(coarse.assignments.size(), -1);
    std::vector<at::Tensor> centres;
    std::int64_t first_centre = 0;
    for (std::size_t group = 0; group < groups.size(); ++group) {
        if (quotas[group] == 0) {
            continue;
        }
        const Clustering fine = flat_kmeans(rows_of(unit, groups[group]), quotas[group],
                                            seed + group + 1, iterations, 0, stop);
        for (std::size_t i = 0; i < groups[group].size(); ++i) {
            result.assignments[std::size_t(groups[group][i])] = first_centre + fine.assignments[i];
        }
        centres.push_back(fine.centres);
        first_centre += fine.centres.size(0);
    }
    result.centres = at::cat(centres);
    return result;
}

} // namespace

std::vector<std::int64_t> centre_quotas(const std::vector<std::int64_t>& sizes,
                                        std::int64_t total) {
    const double rows = double(std::accumulate(sizes.begin(), sizes.end(), std::int64_t(0)));
    std::vector<std::int64_t> quota(sizes.size(), 0);
    std::vector<double> remainder(sizes.size(), 0.0);
    std::int64_t given = 0;
    for (std::size_t group = 0; group < sizes.size(); ++group) {
        const double exact = double(total) * double(sizes[group]) / rows;
        const auto floor = std::int64_t(exact);
        quota[group] = std::min(sizes[group], std::max<std::int64_t>(sizes[group] > 0, floor));
        remainder[group] = exact - double(quota[group]);
        given += quota[group];
    }
    const auto most = [&](auto may_change, auto better) {
        std::size_t chosen = sizes.size();
        for (std::size_t group = 0; group < sizes.size(); ++group) {
            if (may_change(group) && (chosen == sizes.size() || better(group, chosen))) {
                chosen = group;
            }
        }
        if (chosen == sizes.size()) {
            throw Error("cannot share " + std::to_string(total) + " centres among " +
                        std::to_string(sizes.size()) +
                        " groups: it takes at least one per group with rows and at most their "
                        "rows");
        }
        return chosen;
    };
    for (; given < total; ++given) { // the largest remainder with rows to spare gets one more
        const std::size_t group =
            most([&](std::size_t g) { return quota[g] < sizes[g]; },
                 [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
        ++quota[group];
        remainder[group] -= 1.0;
    }
    for (; given > total; --given) { // the least remainder above one gives back
        const std::size_t group =
            most([&](std::size_t g) { return quota[g] > 1; },
                 [&](std::size_t a, std::size_t b) { return remainder[a] < remainder[b]; });
        --quota[group];
        remainder[group] += 1.0;
    }
    return quota;
}

Clustering spherical_kmeans(const at::Tensor& unit, std::int64_t k, std::uint64_t seed,
                            int iterations, const StopToken* stop) {
    constexpr std::int64_t kFlatPairs = std::int64_t(1) << 27; // rows x centres
    k = std::clamp<std::int64_t>(k, 1, unit.size(0));
    return unit.size(0) * k > kFlatPairs
               ? two_level_kmeans(unit, k, seed, iterations, stop)
               : flat_kmeans(unit, k, seed, iterations, kMinimumFittingRows, stop);
}

Selection select_rows(const at::Tensor& embeddings, const SelectionOptions& options) {
    if (embeddings.dim() != 2 || embeddings.size(0) == 0) {
        throw Error("embeddings must be a non-empty matrix (rows x dimensions)");
    }
    const bool whiten = options.whiten && options.strategy != SelectionStrategy::Random;
    const at::Tensor unit =
        unit_rows(whiten ? whitened(unit_rows(embeddings), options.seed) : embeddings);
    const std::int64_t rows = unit.size(0);
    std::vector<bool> pickable(std::size_t(rows), true);
    for (const auto* list : {&options.labelled, &options.excluded}) {
        for (const std::int64_t row : *list) {
            if (row < 0 || row >= rows) {
                throw Error("row " + std::to_string(row) + " is outside the " +
                            std::to_string(rows) + " embeddings");
            }
            pickable[std::size_t(row)] = false;
        }
    }
    const auto open = std::int64_t(std::count(pickable.begin(), pickable.end(), true));
    if (options.count < 1 || options.count > open) {
        throw Error("n=" + std::to_string(options.count) + " but " + std::to_string(open) +
                    " of the " + std::to_string(rows) +
                    " images may be picked (the rest are labelled already or excluded); choose "
                    "n between 1 and " +
                    std::to_string(open));
    }
    switch (options.strategy) {
    case SelectionStrategy::Diverse: {
        Selection selection;
        const std::vector<std::int64_t>& blocked = options.excluded;
        selection.rows = k_center_greedy(unit, options.count, options.labelled, blocked,
                                         options.seed, &selection.scores, options.stop);
        selection.clusters.assign(selection.rows.size(), -1);
        return selection;
    }
    case SelectionStrategy::Typical:
        return select_typical(unit, options, pickable);
    case SelectionStrategy::Balanced:
        return select_balanced(unit, options, pickable);
    case SelectionStrategy::Random:
        break;
    }
    return select_random(options, pickable);
}

} // namespace kiln::embed
