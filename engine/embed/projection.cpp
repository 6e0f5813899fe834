#include "embed/projection.h"

#include "core/error.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <utility>

namespace kiln::embed {
namespace {

constexpr std::size_t kPointGrain = 256; // points per parallel chunk

int resolve_threads(int threads) {
    if (threads > 0) {
        return threads;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A random word that depends only on its coordinates: parallel draws share no generator, so they
// do not depend on which thread makes them or when.
std::uint64_t random_word(std::uint64_t seed, std::uint64_t a, std::uint64_t b,
                          std::uint64_t c = 0) {
    return splitmix64(splitmix64(splitmix64(splitmix64(seed) ^ a) ^ b) ^ c);
}

double unit_interval(std::uint64_t word) {
    return static_cast<double>(word >> 11) * 0x1.0p-53;
}

void check_row(const NeighbourGraph& graph, std::int64_t row) {
    const std::size_t first = static_cast<std::size_t>(row) * static_cast<std::size_t>(graph.k);
    for (std::size_t j = first; j < first + static_cast<std::size_t>(graph.k); ++j) {
        const std::int64_t neighbour = graph.index[j];
        if (neighbour < 0 || neighbour >= graph.points || neighbour == row) {
            throw Error("neighbour graph: row " + std::to_string(row) + " lists neighbour " +
                        std::to_string(neighbour) + "; neighbours must be other points, 0 to " +
                        std::to_string(graph.points - 1));
        }
        const float distance = graph.distance[j];
        if (!std::isfinite(distance) || distance < 0.0f ||
            (j > first && distance < graph.distance[j - 1])) {
            throw Error("neighbour graph: row " + std::to_string(row) +
                        " has a negative, non-finite or out-of-order distance; give finite "
                        "distances, nearest first");
        }
    }
}

void check_graph(const NeighbourGraph& graph, const char* method) {
    const std::string name = method;
    if (graph.points < 3) {
        throw Error(name + " needs at least 3 points, the graph has " +
                    std::to_string(graph.points) + "; show so few points as they are");
    }
    if (graph.points > std::numeric_limits<std::int32_t>::max()) {
        throw Error(name + " takes at most 2^31 - 1 points; map a sample");
    }
    if (graph.k < 1 || graph.k >= graph.points) {
        throw Error("neighbour graph: k = " + std::to_string(graph.k) + " for " +
                    std::to_string(graph.points) + " points; k must be 1 to points - 1");
    }
    const std::size_t entries =
        static_cast<std::size_t>(graph.points) * static_cast<std::size_t>(graph.k);
    if (graph.index.size() != entries || graph.distance.size() != entries) {
        throw Error("neighbour graph: " + std::to_string(graph.index.size()) + " indices and " +
                    std::to_string(graph.distance.size()) + " distances for points x k = " +
                    std::to_string(entries) + "; give k neighbours for every point");
    }
    for (std::int64_t row = 0; row < graph.points; ++row) {
        check_row(graph, row);
    }
}

void check_map(const std::vector<float>& map, std::int64_t points, const char* what) {
    const std::string name = what;
    if (map.size() != static_cast<std::size_t>(points) * 2) {
        throw Error(name + ": " + std::to_string(map.size()) + " coordinates for " +
                    std::to_string(points) + " points; give points x 2");
    }
    if (!std::all_of(map.begin(), map.end(), [](float v) { return std::isfinite(v); })) {
        throw Error(name + ": a coordinate is not finite; give finite coordinates");
    }
}

// A square sparse matrix in compressed rows, columns ascending within each row.
struct SparseRows {
    std::vector<std::int64_t> start; // rows + 1
    std::vector<std::int32_t> column;
    std::vector<float> value;
};

// One entry of the symmetrised graph before merging, sortable as an integer: column, then whether
// it came from the column's row (an incoming link), then the weight's bits.
std::uint64_t pack_link(std::int64_t column, bool incoming, float weight) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &weight, sizeof bits);
    return (static_cast<std::uint64_t>(column) << 33) | (std::uint64_t(incoming) << 32) | bits;
}

float link_weight(std::uint64_t link) {
    const auto bits = static_cast<std::uint32_t>(link);
    float weight = 0.0f;
    std::memcpy(&weight, &bits, sizeof weight);
    return weight;
}

// Every row's outgoing links (its own neighbours) followed by its incoming links (the points
// that list it), in a fixed order. Takes the weights to free them as soon as they are copied.
void gather_links(const NeighbourGraph& graph, std::vector<float> weight, int threads,
                  std::vector<std::int64_t>& start, std::vector<std::uint64_t>& links) {
    const auto n = static_cast<std::size_t>(graph.points);
    const auto k = static_cast<std::size_t>(graph.k);
    std::vector<std::int64_t> cursor(n + 1, 0);
    for (const std::int64_t neighbour : graph.index) {
        ++cursor[static_cast<std::size_t>(neighbour) + 1];
    }
    start.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        start[i + 1] = start[i] + std::int64_t(k) + cursor[i + 1];
    }
    links.resize(static_cast<std::size_t>(start[n]));
    parallel_for(n, threads, kPointGrain, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            for (std::size_t j = 0; j < k; ++j) {
                links[std::size_t(start[i]) + j] =
                    pack_link(graph.index[i * k + j], false, weight[i * k + j]);
            }
        }
    });
    for (std::size_t i = 0; i < n; ++i) {
        cursor[i] = start[i] + std::int64_t(k);
    }
    for (std::size_t e = 0; e < n * k; ++e) {
        const auto row = static_cast<std::size_t>(graph.index[e]);
        links[std::size_t(cursor[row]++)] = pack_link(std::int64_t(e / k), true, weight[e]);
    }
}

// Sorts one row's links and merges those to the same column into combine(w_ij, w_ji) (0 for a
// missing direction), written over the row's front; returns how many columns it has.
template <class Combine>
std::size_t merge_row(std::uint64_t* links, std::size_t count, Combine& combine) {
    std::sort(links, links + count);
    std::size_t merged = 0;
    for (std::size_t i = 0; i < count;) {
        const std::uint64_t column = links[i] >> 33;
        float outgoing = 0.0f;
        float incoming = 0.0f;
        for (; i < count && (links[i] >> 33) == column; ++i) {
            ((links[i] >> 32) & 1U ? incoming : outgoing) += link_weight(links[i]);
        }
        links[merged++] = pack_link(std::int64_t(column), false, combine(outgoing, incoming));
    }
    return merged;
}

// The graph made symmetric: w_ij for every pair linked in either direction.
template <class Combine>
SparseRows symmetrise(const NeighbourGraph& graph, std::vector<float> weight, int threads,
                      Combine combine) {
    std::vector<std::int64_t> start;
    std::vector<std::uint64_t> links;
    gather_links(graph, std::move(weight), threads, start, links);
    const auto n = static_cast<std::size_t>(graph.points);
    std::vector<std::int64_t> merged(n + 1, 0);
    parallel_for(n, threads, kPointGrain, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            merged[i + 1] = std::int64_t(
                merge_row(links.data() + start[i], std::size_t(start[i + 1] - start[i]), combine));
        }
    });
    SparseRows rows;
    rows.start.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        rows.start[i + 1] = rows.start[i] + merged[i + 1];
    }
    rows.column.resize(static_cast<std::size_t>(rows.start[n]));
    rows.value.resize(rows.column.size());
    parallel_for(n, threads, kPointGrain, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            for (std::int64_t e = 0; e < merged[i + 1]; ++e) {
                const std::uint64_t link = links[std::size_t(start[i] + e)];
                rows.column[std::size_t(rows.start[i] + e)] = std::int32_t(link >> 33);
                rows.value[std::size_t(rows.start[i] + e)] = link_weight(link);
            }
        }
    });
    return rows;
}

// ---- t-SNE ----

// One row's p_{j|i}: a Gaussian in the distances whose precision is searched, as bhtsne and
// openTSNE do, until the row's entropy is log(perplexity). Squared distances are taken relative
// to the nearest, which leaves the normalised row unchanged but keeps exp from underflowing.
void calibrate_row(const float* distance, int k, double target_entropy, double* squared, float* p) {
    const double nearest = double(distance[0]) * distance[0];
    double mean = 0.0;
    for (int j = 0; j < k; ++j) {
        squared[j] = double(distance[j]) * distance[j] - nearest;
        mean += squared[j] / k;
    }
    double beta = mean > 0.0 ? 1.0 / mean : 1.0;
    double low = 0.0;
    double high = std::numeric_limits<double>::infinity();
    double sum = 0.0;
    for (int step = 0; step < 200; ++step) {
        sum = 0.0;
        double weighted = 0.0;
        for (int j = 0; j < k; ++j) {
            const double w = std::exp(-beta * squared[j]);
            sum += w;
            weighted += w * squared[j];
        }
        const double entropy = std::log(sum) + beta * weighted / sum;
        if (std::abs(entropy - target_entropy) < 1e-5) {
            break;
        }
        if (entropy > target_entropy) {
            low = beta;
            beta = std::isinf(high) ? beta * 2.0 : (beta + high) / 2.0;
        } else {
            high = beta;
            beta = (beta + low) / 2.0;
        }
    }
    for (int j = 0; j < k; ++j) {
        p[j] = static_cast<float>(std::exp(-beta * squared[j]) / sum);
    }
}

// The joint probabilities P = (P_{j|i} + P_{i|j}) / 2N over the graph's links.
SparseRows tsne_affinities(const NeighbourGraph& graph, double perplexity, int threads) {
    const auto n = static_cast<std::size_t>(graph.points);
    const auto k = static_cast<std::size_t>(graph.k);
    std::vector<float> conditional(n * k);
    const double target_entropy = std::log(perplexity);
    parallel_for(n, threads, kPointGrain, [&](std::size_t begin, std::size_t end) {
        std::vector<double> squared(k);
        for (std::size_t i = begin; i < end; ++i) {
            calibrate_row(graph.distance.data() + i * k, graph.k, target_entropy, squared.data(),
                          conditional.data() + i * k);
        }
    });
    const float scale = 1.0f / (2.0f * static_cast<float>(n));
    return symmetrise(
        graph, std::move(conditional), threads,
        [scale](float outgoing, float incoming) { return (outgoing + incoming) * scale; });
}

struct QuadNode {
    double mass_x = 0.0; // centre of mass
    double mass_y = 0.0;
    double centre_x = 0.0; // the cell, a square
    double centre_y = 0.0;
    double half = 0.0;
    std::int32_t count = 0;
    std::int32_t skip = 0;  // the node after this subtree
    std::int32_t begin = 0; // a leaf's points in leaf order; begin == end for an inner node
    std::int32_t end = 0;
};

// Four floats in one vector register (SSE, NEON), a GCC and Clang extension: GCC vectorises the
// plain loop at -O2 but not at -O3, where it runs four times slower.
using Float4 = float __attribute__((vector_size(16)));
constexpr std::size_t kLanes = 4;

// What a block of points is repelled by: centres of mass weighted by their point counts, in
// floats relative to the block's centre (which keeps their precision). Entries come in groups
// of kLanes, the last one padded with weightless entries.
struct InteractionGroup {
    Float4 x;
    Float4 y;
    Float4 mass;
};

struct InteractionList {
    double centre_x = 0.0;
    double centre_y = 0.0;
    std::vector<InteractionGroup> groups;
    std::size_t size = 0;

    void reset(double x, double y) {
        centre_x = x;
        centre_y = y;
        groups.clear();
        size = 0;
    }

    void add(double at_x, double at_y, float weight) {
        if (size % kLanes == 0) {
            groups.push_back(InteractionGroup{}); // zeros: weightless
        }
        InteractionGroup& group = groups.back();
        group.x[size % kLanes] = static_cast<float>(at_x - centre_x);
        group.y[size % kLanes] = static_cast<float>(at_y - centre_y);
        group.mass[size % kLanes] = weight;
        ++size;
    }
};

struct Box {
    double min_x = 0.0, max_x = 0.0, min_y = 0.0, max_y = 0.0;
};

// Barnes-Hut quadtree over the map, rebuilt each iteration. Nodes are kept in depth-first order
// with the index past their subtree, so a walk needs no stack, and leaves hold up to
// kLeafPoints points, stored contiguously in leaf order. The tree is walked once per block of
// kBlock points that follow each other in leaf order, and the list it yields is summed per point
// without branches: faster than one walk per point, whose branches the processor cannot guess.
class QuadTree {
public:
    static constexpr std::int32_t kBlock = 16;
    static constexpr std::int32_t kLeafPoints = 8;

    void rebuild(const std::vector<double>& y);

    // The cells and points that leaf-order points [first, last) interact with: cells whose
    // side is below theta times their distance from the block's bounding box and that do not
    // overlap it, as their centre of mass, and the points of every leaf opened, the block's own
    // included.
    void interactions(std::int32_t first, std::int32_t last, double theta_squared,
                      InteractionList& list) const;

    const std::vector<std::int32_t>& leaf_order() const { return order_; }
    double x(std::int32_t at) const { return xy_[2 * std::size_t(at)]; }
    double y(std::int32_t at) const { return xy_[2 * std::size_t(at) + 1]; }

private:
    static constexpr int kMaxDepth = 50; // coincident points end in one leaf

    void build(std::int32_t begin, std::int32_t end, double centre_x, double centre_y, double half,
               int depth);
    bool far_enough(const QuadNode& node, const Box& box, double theta_squared) const;

    const std::vector<double>* y_ = nullptr;
    std::vector<QuadNode> nodes_;
    std::vector<std::int32_t> order_; // point indices in leaf order
    std::vector<double> xy_;          // their coordinates in the same order
};

void QuadTree::rebuild(const std::vector<double>& y) {
    const auto n = static_cast<std::int32_t>(y.size() / 2);
    y_ = &y;
    nodes_.clear();
    order_.resize(std::size_t(n));
    for (std::int32_t i = 0; i < n; ++i) {
        order_[std::size_t(i)] = i;
    }
    double min_x = y[0], max_x = y[0], min_y = y[1], max_y = y[1];
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
        min_x = std::min(min_x, y[2 * i]);
        max_x = std::max(max_x, y[2 * i]);
        min_y = std::min(min_y, y[2 * i + 1]);
        max_y = std::max(max_y, y[2 * i + 1]);
    }
    const double half = std::max(max_x - min_x, max_y - min_y) / 2.0 * (1.0 + 1e-9) + 1e-300;
    build(0, n, (min_x + max_x) / 2.0, (min_y + max_y) / 2.0, half, 0);
    xy_.resize(y.size());
    for (std::size_t p = 0; p < std::size_t(n); ++p) {
        xy_[2 * p] = y[2 * std::size_t(order_[p])];
        xy_[2 * p + 1] = y[2 * std::size_t(order_[p]) + 1];
    }
}

void QuadTree::build(std::int32_t begin, std::int32_t end, double centre_x, double centre_y,
                     double half, int depth) {
    const std::vector<double>& y = *y_;
    const std::size_t node = nodes_.size();
    nodes_.emplace_back();
    double sum_x = 0.0, sum_y = 0.0;
    for (std::int32_t p = begin; p < end; ++p) {
        sum_x += y[2 * std::size_t(order_[std::size_t(p)])];
        sum_y += y[2 * std::size_t(order_[std::size_t(p)]) + 1];
    }
    nodes_[node].count = end - begin;
    nodes_[node].mass_x = sum_x / (end - begin);
    nodes_[node].mass_y = sum_y / (end - begin);
    nodes_[node].centre_x = centre_x;
    nodes_[node].centre_y = centre_y;
    nodes_[node].half = half;
    if (end - begin <= kLeafPoints || depth == kMaxDepth) {
        nodes_[node].begin = begin;
        nodes_[node].end = end;
    } else {
        std::int32_t* first = order_.data() + begin;
        std::int32_t* last = order_.data() + end;
        const auto below = [&](std::int32_t i) { return y[2 * std::size_t(i) + 1] < centre_y; };
        const auto left = [&](std::int32_t i) { return y[2 * std::size_t(i)] < centre_x; };
        std::int32_t* middle = std::partition(first, last, below);
        const std::int32_t* bounds[5] = {first, std::partition(first, middle, left), middle,
                                         std::partition(middle, last, left), last};
        for (int quadrant = 0; quadrant < 4; ++quadrant) {
            const auto child_begin = std::int32_t(bounds[quadrant] - order_.data());
            const auto child_end = std::int32_t(bounds[quadrant + 1] - order_.data());
            if (child_begin < child_end) {
                const double dx = quadrant % 2 == 0 ? -half / 2.0 : half / 2.0;
                const double dy = quadrant < 2 ? -half / 2.0 : half / 2.0;
                build(child_begin, child_end, centre_x + dx, centre_y + dy, half / 2.0, depth + 1);
            }
        }
    }
    nodes_[node].skip = static_cast<std::int32_t>(nodes_.size());
}

bool QuadTree::far_enough(const QuadNode& node, const Box& box, double theta_squared) const {
    const bool overlaps =
        node.centre_x - node.half <= box.max_x && node.centre_x + node.half >= box.min_x &&
        node.centre_y - node.half <= box.max_y && node.centre_y + node.half >= box.min_y;
    if (overlaps) {
        return false;
    }
    const double dx = std::max({0.0, box.min_x - node.mass_x, node.mass_x - box.max_x});
    const double dy = std::max({0.0, box.min_y - node.mass_y, node.mass_y - box.max_y});
    return 4.0 * node.half * node.half < theta_squared * (dx * dx + dy * dy);
}

void QuadTree::interactions(std::int32_t first, std::int32_t last, double theta_squared,
                            InteractionList& list) const {
    Box box{x(first), x(first), y(first), y(first)};
    for (std::int32_t at = first; at < last; ++at) {
        box = {std::min(box.min_x, x(at)), std::max(box.max_x, x(at)), std::min(box.min_y, y(at)),
               std::max(box.max_y, y(at))};
    }
    list.reset((box.min_x + box.max_x) / 2.0, (box.min_y + box.max_y) / 2.0);
    const auto size = static_cast<std::int32_t>(nodes_.size());
    for (std::int32_t at = 0; at < size;) {
        const QuadNode& node = nodes_[std::size_t(at)];
        if (far_enough(node, box, theta_squared)) {
            list.add(node.mass_x, node.mass_y, static_cast<float>(node.count));
            at = node.skip;
        } else if (node.begin < node.end) {
            for (std::int32_t p = node.begin; p < node.end; ++p) {
                list.add(x(p), y(p), 1.0f);
            }
            at = node.skip;
        } else {
            ++at;
        }
    }
}

// The repulsion on a point at (x, y) relative to the list's centre: sum_j q_ij^2 (y_i - y_j)
// into force, and sum_j q_ij, q_ij = 1 / (1 + |y_i - y_j|^2). The point's own entry (q = 1, no
// force) is taken out.
void repulsion(const InteractionList& list, float x, float y, double* force, double& q_sum) {
    const Float4 one = {1.0f, 1.0f, 1.0f, 1.0f};
    Float4 force_x = {}, force_y = {}, sum = {};
    for (const InteractionGroup& group : list.groups) {
        const Float4 dx = x - group.x;
        const Float4 dy = y - group.y;
        const Float4 q = one / (one + dx * dx + dy * dy);
        const Float4 mass_q = group.mass * q;
        sum += mass_q;
        force_x += mass_q * q * dx;
        force_y += mass_q * q * dy;
    }
    double total_x = 0.0, total_y = 0.0, total = -1.0;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
        total_x += force_x[lane];
        total_y += force_y[lane];
        total += sum[lane];
    }
    force[0] = total_x;
    force[1] = total_y;
    q_sum = total;
}

// Working state of one t-SNE run: the map, its momentum and gains, and the last gradient's
// parts. The map is kept in doubles and returned as floats.
struct TsneState {
    std::vector<double> y;
    std::vector<float> y_float; // for the attraction
    std::vector<double> update;
    std::vector<double> gains;
    std::vector<double> attraction;
    std::vector<double> repulsion;
    std::vector<double> q_sums;
    QuadTree tree;
};

inline void attract(const SparseRows& p, const std::vector<float>& y, std::size_t link, float x0,
                    float y0, float& force_x, float& force_y) {
    const auto j = std::size_t(p.column[link]);
    const float dx = x0 - y[2 * j];
    const float dy = y0 - y[2 * j + 1];
    const float pq = p.value[link] / (1.0f + dx * dx + dy * dy);
    force_x += pq * dx;
    force_y += pq * dy;
}

// Point i's attraction sum_j p_ij q_ij (y_i - y_j) over its links. Floats, and lanes of
// independent sums for the compiler to keep in vector registers: this loop's random reads of
// the map are the largest cost of an iteration.
void attraction(const SparseRows& p, const std::vector<float>& y, std::size_t i, double* force) {
    constexpr std::size_t kWays = 4;
    float force_x[kWays] = {}, force_y[kWays] = {};
    const float x0 = y[2 * i];
    const float y0 = y[2 * i + 1];
    const auto last = std::size_t(p.start[i + 1]);
    auto e = std::size_t(p.start[i]);
    for (; e + kWays <= last; e += kWays) {
        for (std::size_t lane = 0; lane < kWays; ++lane) {
            attract(p, y, e + lane, x0, y0, force_x[lane], force_y[lane]);
        }
    }
    for (; e < last; ++e) {
        attract(p, y, e, x0, y0, force_x[0], force_y[0]);
    }
    force[0] = double(force_x[0]) + force_x[1] + force_x[2] + force_x[3];
    force[1] = double(force_y[0]) + force_y[1] + force_y[2] + force_y[3];
}

// Both parts of the gradient for the points of one block in leaf order.
void block_gradient(const SparseRows& p, TsneState& state, std::size_t block, double theta_squared,
                    InteractionList& list) {
    const QuadTree& tree = state.tree;
    const auto first = std::int32_t(block) * QuadTree::kBlock;
    const auto last = std::min(std::int32_t(state.q_sums.size()), first + QuadTree::kBlock);
    tree.interactions(first, last, theta_squared, list);
    for (std::int32_t at = first; at < last; ++at) {
        const auto i = std::size_t(tree.leaf_order()[std::size_t(at)]);
        attraction(p, state.y_float, i, &state.attraction[2 * i]);
        repulsion(list, float(tree.x(at) - list.centre_x), float(tree.y(at) - list.centre_y),
                  &state.repulsion[2 * i], state.q_sums[i]);
    }
}

// Both parts of every point's gradient; returns sum_ij q_ij, the repulsion's normalisation.
double gradient_parts(const SparseRows& p, TsneState& state, double theta, int threads) {
    state.tree.rebuild(state.y);
    state.y_float.assign(state.y.begin(), state.y.end());
    const std::size_t blocks = (state.q_sums.size() + QuadTree::kBlock - 1) / QuadTree::kBlock;
    // Blocks are fixed by the leaf order and each point's sums go to its own slots, added in
    // index order below: nothing depends on the schedule.
    parallel_for(blocks, threads, kPointGrain / QuadTree::kBlock,
                 [&](std::size_t begin, std::size_t end) {
                     InteractionList list;
                     for (std::size_t block = begin; block < end; ++block) {
                         block_gradient(p, state, block, theta * theta, list);
                     }
                 });
    double z = 0.0;
    for (const double q_sum : state.q_sums) {
        z += q_sum;
    }
    return std::max(z, std::numeric_limits<double>::min());
}

// One step of gradient descent with momentum and sklearn's gains (grow by 0.2 while the step
// keeps going against the gradient, shrink by 0.8 otherwise, never below 0.01), then the map is
// centred again.
void descend(TsneState& state, double exaggeration, double z, double momentum, double rate) {
    const std::size_t size = state.y.size();
    double sum_x = 0.0, sum_y = 0.0;
    for (std::size_t c = 0; c < size; ++c) {
        const double gradient = exaggeration * state.attraction[c] - state.repulsion[c] / z;
        const bool descending = gradient * state.update[c] < 0.0;
        state.gains[c] = std::max(descending ? state.gains[c] + 0.2 : state.gains[c] * 0.8, 0.01);
        state.update[c] = momentum * state.update[c] - rate * state.gains[c] * gradient;
        state.y[c] += state.update[c];
        (c % 2 == 0 ? sum_x : sum_y) += state.y[c];
    }
    const double mean_x = sum_x / double(size / 2);
    const double mean_y = sum_y / double(size / 2);
    for (std::size_t c = 0; c < size; c += 2) {
        state.y[c] -= mean_x;
        state.y[c + 1] -= mean_y;
    }
}

// Box-Muller normals, each from its own counter.
std::vector<float> random_normal_map(std::int64_t points, double deviation, std::uint64_t seed) {
    std::vector<float> map(static_cast<std::size_t>(points) * 2);
    constexpr double kTwoPi = 6.283185307179586;
    for (std::size_t i = 0; i < map.size(); ++i) {
        const double u = 1.0 - unit_interval(random_word(seed, 1, i, 0));
        const double v = unit_interval(random_word(seed, 1, i, 1));
        map[i] =
            static_cast<float>(deviation * std::sqrt(-2.0 * std::log(u)) * std::cos(kTwoPi * v));
    }
    return map;
}

void check_tsne_options(const TsneOptions& options) {
    if (!(options.perplexity > 0.0) || options.iterations < 0 ||
        options.exaggeration_iterations < 0 || !(options.theta >= 0.0) ||
        !(options.learning_rate >= 0.0)) {
        throw Error("t-SNE options: perplexity must be positive, iterations, exaggeration "
                    "iterations, theta and learning rate not negative");
    }
}

// ---- UMAP ----

// Least squares fit of 1 / (1 + a x^2b) to `target` at `x` by Levenberg-Marquardt from (1, 1),
// the start and method of scipy's curve_fit that umap-learn calls.
UmapCurve fit_curve(const std::vector<double>& x, const std::vector<double>& target) {
    const auto residuals = [&](double a, double b, double* jtj, double* jtr) {
        double cost = 0.0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double power = x[i] > 0.0 ? std::pow(x[i], 2.0 * b) : 0.0;
            const double f = 1.0 / (1.0 + a * power);
            const double r = f - target[i];
            const double da = -power * f * f;
            const double db = x[i] > 0.0 ? da * a * 2.0 * std::log(x[i]) : 0.0;
            cost += r * r;
            if (jtj != nullptr) {
                jtj[0] += da * da;
                jtj[1] += da * db;
                jtj[2] += db * db;
                jtr[0] += da * r;
                jtr[1] += db * r;
            }
        }
        return cost;
    };
    double a = 1.0;
    double b = 1.0;
    double damping = 1e-3;
    for (int step = 0; step < 500 && damping < 1e12; ++step) {
        double jtj[3] = {}; // J^T J: aa, ab, bb
        double jtr[2] = {}; // J^T r
        const double cost = residuals(a, b, jtj, jtr);
        const double m00 = jtj[0] * (1.0 + damping);
        const double m11 = jtj[2] * (1.0 + damping);
        const double det = m00 * m11 - jtj[1] * jtj[1];
        const double step_a = -(m11 * jtr[0] - jtj[1] * jtr[1]) / det;
        const double step_b = -(m00 * jtr[1] - jtj[1] * jtr[0]) / det;
        if (residuals(a + step_a, b + step_b, nullptr, nullptr) < cost) {
            a += step_a;
            b += step_b;
            damping /= 10.0;
            if (std::abs(step_a) < 1e-12 * a && std::abs(step_b) < 1e-12 * b) {
                break;
            }
        } else {
            damping *= 10.0;
        }
    }
    return {a, b};
}

// One row's fuzzy memberships exp(-(d - rho) / sigma) as umap-learn's smooth_knn_dist: rho the
// nearest non-zero distance, sigma searched so that the row sums to log2(k + 1) (umap-learn
// counts the point itself among its n_neighbors), and at least 1e-3 of the mean distance.
void membership_row(const float* distance, int k, double mean_of_all, float* w) {
    double rho = 0.0, mean = 0.0;
    for (int j = 0; j < k; ++j) {
        mean += double(distance[j]) / k;
        if (rho == 0.0 && distance[j] > 0.0f) {
            rho = distance[j];
        }
    }
    const double target = std::log2(double(k) + 1.0);
    double low = 0.0, high = std::numeric_limits<double>::infinity(), sigma = 1.0;
    for (int step = 0; step < 64; ++step) {
        double sum = 0.0;
        for (int j = 0; j < k; ++j) {
            const double excess = distance[j] - rho;
            sum += excess > 0.0 ? std::exp(-excess / sigma) : 1.0;
        }
        if (std::abs(sum - target) < 1e-5) {
            break;
        }
        if (sum > target) {
            high = sigma;
            sigma = (low + high) / 2.0;
        } else {
            low = sigma;
            sigma = std::isinf(high) ? sigma * 2.0 : (low + high) / 2.0;
        }
    }
    sigma = std::max(sigma, 1e-3 * (rho > 0.0 ? mean : mean_of_all));
    for (int j = 0; j < k; ++j) {
        const double excess = distance[j] - rho;
        w[j] = excess > 0.0 ? static_cast<float>(std::exp(-excess / sigma)) : 1.0f;
    }
}

// The fuzzy union of every point's memberships: w_ij + w_ji - w_ij w_ji.
SparseRows umap_graph(const NeighbourGraph& graph, int threads) {
    const auto n = static_cast<std::size_t>(graph.points);
    const auto k = static_cast<std::size_t>(graph.k);
    double mean_of_all = 0.0;
    for (const float d : graph.distance) {
        mean_of_all += d;
    }
    mean_of_all /= double(graph.distance.size());
    std::vector<float> membership(n * k);
    parallel_for(n, threads, kPointGrain, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            membership_row(graph.distance.data() + i * k, graph.k, mean_of_all,
                           membership.data() + i * k);
        }
    });
    return symmetrise(graph, std::move(membership), threads, [](float outgoing, float incoming) {
        return outgoing + incoming - outgoing * incoming;
    });
}

// Each directed link's sampling schedule, as umap-learn's: a link of weight w is sampled every
// max_w / w epochs and then draws negative_sample_rate times as many repelling points; links
// weaker than max_w / epochs would never be sampled and are left out.
struct UmapSchedule {
    std::vector<float> epochs_per_sample;
    std::vector<float> next_sample;
    std::vector<float> next_negative;
};

UmapSchedule umap_schedule(const SparseRows& graph, int epochs, int negative_rate) {
    const float strongest = *std::max_element(graph.value.begin(), graph.value.end());
    UmapSchedule schedule;
    schedule.epochs_per_sample.resize(graph.value.size());
    for (std::size_t e = 0; e < graph.value.size(); ++e) {
        const float w = graph.value[e];
        schedule.epochs_per_sample[e] = w >= strongest / float(epochs) && w > 0.0f
                                            ? strongest / w
                                            : std::numeric_limits<float>::infinity();
    }
    schedule.next_sample = schedule.epochs_per_sample;
    schedule.next_negative = schedule.epochs_per_sample;
    for (float& next : schedule.next_negative) {
        next /= float(std::max(negative_rate, 1));
    }
    return schedule;
}

struct UmapStep {
    float a = 0.0f;
    float b = 0.0f;
    float alpha = 0.0f; // this epoch's learning rate
    int epoch = 0;      // counted from 1
    int negative_rate = 0;
    std::uint64_t seed = 0;
    std::int64_t points = 0;
};

float clip4(float value) {
    return std::clamp(value, -4.0f, 4.0f);
}

// d^b, with d the squared distance.
float power_b(float squared, float b) {
    return std::exp(b * std::log(squared));
}

// Pulls the two ends of link (i, j) towards each other, as umap-learn's attractive step.
void attract(std::vector<float>& map, std::size_t i, std::size_t j, const UmapStep& step) {
    const float dx = map[2 * i] - map[2 * j];
    const float dy = map[2 * i + 1] - map[2 * j + 1];
    const float d2 = dx * dx + dy * dy;
    if (d2 > 0.0f) {
        const float power = power_b(d2, step.b);
        const float coefficient = -2.0f * step.a * step.b * power / d2 / (step.a * power + 1.0f);
        const float move_x = clip4(coefficient * dx) * step.alpha;
        const float move_y = clip4(coefficient * dy) * step.alpha;
        map[2 * i] += move_x;
        map[2 * i + 1] += move_y;
        map[2 * j] -= move_x;
        map[2 * j + 1] -= move_y;
    }
}

// Pushes point i away from `samples` random points, as umap-learn's negative sampling; the
// draws depend only on the seed, the epoch and the link.
void repel(std::vector<float>& map, std::size_t i, std::size_t link, std::int64_t samples,
           const UmapStep& step) {
    for (std::int64_t s = 0; s < samples; ++s) {
        const std::uint64_t word =
            random_word(step.seed, std::uint64_t(step.epoch), link, std::uint64_t(s));
        const auto k = static_cast<std::size_t>(word % std::uint64_t(step.points));
        const float dx = map[2 * i] - map[2 * k];
        const float dy = map[2 * i + 1] - map[2 * k + 1];
        const float d2 = dx * dx + dy * dy;
        if (k != i && d2 > 0.0f) {
            const float coefficient =
                2.0f * step.b / ((0.001f + d2) * (step.a * power_b(d2, step.b) + 1.0f));
            map[2 * i] += clip4(coefficient * dx) * step.alpha;
            map[2 * i + 1] += clip4(coefficient * dy) * step.alpha;
        }
    }
}

// One epoch of umap-learn's optimize_layout_euclidean: every link due pulls its ends together
// and pushes its head away from random points. The links run in a fixed order on one thread,
// each step seeing the ones before, as umap-learn runs when seeded. Its parallel form lets the
// steps race, which changes the map from run to run; an order-free form (every point moving
// against the epoch's starting map) keeps 10-NN neighbourhoods measurably worse at 100,000
// points, and 100,000 points take about half a minute this way.
void umap_epoch(const SparseRows& graph, UmapSchedule& schedule, std::vector<float>& map,
                const UmapStep& step) {
    const float epoch = float(step.epoch);
    for (std::size_t i = 0; i + 1 < graph.start.size(); ++i) {
        for (auto e = std::size_t(graph.start[i]); e < std::size_t(graph.start[i + 1]); ++e) {
            if (schedule.next_sample[e] > epoch) {
                continue;
            }
            attract(map, i, std::size_t(graph.column[e]), step);
            schedule.next_sample[e] += schedule.epochs_per_sample[e];
            if (step.negative_rate > 0) {
                const float per_negative =
                    schedule.epochs_per_sample[e] / float(step.negative_rate);
                const auto samples =
                    std::int64_t((epoch - schedule.next_negative[e]) / per_negative);
                repel(map, i, e, samples, step);
                schedule.next_negative[e] += float(samples) * per_negative;
            }
        }
    }
}

void check_umap_options(const UmapOptions& options) {
    if (options.epochs < 0 || options.negative_sample_rate < 0 || !(options.learning_rate > 0.0)) {
        throw Error("UMAP options: give epochs and negative_sample_rate not negative and a "
                    "positive learning rate");
    }
}

std::vector<float> random_uniform_map(std::int64_t points, double range, std::uint64_t seed) {
    std::vector<float> map(static_cast<std::size_t>(points) * 2);
    for (std::size_t i = 0; i < map.size(); ++i) {
        map[i] = static_cast<float>(range * (2.0 * unit_interval(random_word(seed, 2, i)) - 1.0));
    }
    return map;
}

// ---- 2-D neighbours ----

// The smallest and largest of one coordinate (0: x, 1: y) over a map.
std::pair<double, double> coordinate_range(const std::vector<float>& map, std::size_t axis) {
    double low = map[axis];
    double high = map[axis];
    for (std::size_t c = axis; c < map.size(); c += 2) {
        low = std::min(low, double(map[c]));
        high = std::max(high, double(map[c]));
    }
    return {low, high};
}

// Exact k nearest neighbours in a 2-D map: a uniform grid of about two points a cell, searched
// in rings around a point's cell until no cell left can hold anything nearer.
class Grid2d {
public:
    explicit Grid2d(const std::vector<float>& map);

    // The k nearest other points of point i, in no particular order.
    void nearest(std::int32_t i, int k, std::vector<std::pair<float, std::int32_t>>& heap) const;

private:
    int cell(double value, double low, int cells) const;
    void visit(int column, int row, std::int32_t i, int k,
               std::vector<std::pair<float, std::int32_t>>& heap) const;

    const std::vector<float>& map_;
    double min_x_ = 0.0, min_y_ = 0.0, side_ = 1.0;
    int columns_ = 1, rows_ = 1;
    std::vector<std::int64_t> start_; // per cell, into points_
    std::vector<std::int32_t> points_;
};

Grid2d::Grid2d(const std::vector<float>& map) : map_(map) {
    const std::size_t n = map.size() / 2;
    const auto [min_x, max_x] = coordinate_range(map, 0);
    const auto [min_y, max_y] = coordinate_range(map, 1);
    min_x_ = min_x;
    min_y_ = min_y;
    const double width = std::max(max_x - min_x, 1e-12);
    const double height = std::max(max_y - min_y, 1e-12);
    // About two points a cell, and never more cells than points along a line.
    side_ = std::max(std::sqrt(width * height / (double(n) / 2.0)),
                     std::max(width, height) / (double(n) / 2.0 + 1.0));
    columns_ = std::max(1, int(std::ceil(width / side_)));
    rows_ = std::max(1, int(std::ceil(height / side_)));
    std::vector<std::int64_t> cell_of(n);
    start_.assign(std::size_t(columns_) * std::size_t(rows_) + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        cell_of[i] = std::int64_t(cell(map[2 * i + 1], min_y_, rows_)) * columns_ +
                     cell(map[2 * i], min_x_, columns_);
        ++start_[std::size_t(cell_of[i]) + 1];
    }
    for (std::size_t c = 1; c < start_.size(); ++c) {
        start_[c] += start_[c - 1];
    }
    std::vector<std::int64_t> cursor(start_.begin(), start_.end() - 1);
    points_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        points_[std::size_t(cursor[std::size_t(cell_of[i])]++)] = std::int32_t(i);
    }
}

int Grid2d::cell(double value, double low, int cells) const {
    return std::clamp(int((value - low) / side_), 0, cells - 1);
}

void Grid2d::visit(int column, int row, std::int32_t i, int k,
                   std::vector<std::pair<float, std::int32_t>>& heap) const {
    if (column < 0 || column >= columns_ || row < 0 || row >= rows_) {
        return;
    }
    const std::size_t c = std::size_t(row) * std::size_t(columns_) + std::size_t(column);
    const float x = map_[2 * std::size_t(i)];
    const float y = map_[2 * std::size_t(i) + 1];
    for (std::int64_t p = start_[c]; p < start_[c + 1]; ++p) {
        const std::int32_t j = points_[std::size_t(p)];
        if (j == i) {
            continue;
        }
        const float dx = x - map_[2 * std::size_t(j)];
        const float dy = y - map_[2 * std::size_t(j) + 1];
        const std::pair<float, std::int32_t> candidate{dx * dx + dy * dy, j};
        if (heap.size() < std::size_t(k)) {
            heap.push_back(candidate);
            std::push_heap(heap.begin(), heap.end());
        } else if (candidate < heap.front()) {
            std::pop_heap(heap.begin(), heap.end());
            heap.back() = candidate;
            std::push_heap(heap.begin(), heap.end());
        }
    }
}

void Grid2d::nearest(std::int32_t i, int k,
                     std::vector<std::pair<float, std::int32_t>>& heap) const {
    heap.clear();
    const int column = cell(map_[2 * std::size_t(i)], min_x_, columns_);
    const int row = cell(map_[2 * std::size_t(i) + 1], min_y_, rows_);
    for (int ring = 0; ring <= std::max(columns_, rows_); ++ring) {
        for (int dx = -ring; dx <= ring; ++dx) {
            visit(column + dx, row - ring, i, k, heap);
            if (ring > 0) {
                visit(column + dx, row + ring, i, k, heap);
            }
        }
        for (int dy = -ring + 1; dy <= ring - 1; ++dy) {
            visit(column - ring, row + dy, i, k, heap);
            visit(column + ring, row + dy, i, k, heap);
        }
        // Cells beyond this ring are at least ring x side away.
        const double reach = ring * side_;
        if (heap.size() == std::size_t(k) && double(heap.front().first) <= reach * reach) {
            return;
        }
    }
}

} // namespace

std::vector<float> tsne_2d(const NeighbourGraph& graph, const TsneOptions& options,
                           std::vector<float> init, const StopToken* stop) {
    if (stop_requested(stop)) {
        return init; // before looking at the graph, which a stopped caller may have left unfilled
    }
    check_graph(graph, "t-SNE");
    check_tsne_options(options);
    if (init.empty()) {
        init = random_normal_map(graph.points, 1e-4, options.seed);
    }
    check_map(init, graph.points, "starting map");
    const int threads = resolve_threads(options.threads);
    const double perplexity = std::min(options.perplexity, double(graph.points - 1) / 3.0);
    const SparseRows p = tsne_affinities(graph, perplexity, threads);
    const double rate = options.learning_rate > 0.0 ? options.learning_rate
                                                    : std::max(double(graph.points) / 12.0, 50.0);
    TsneState state;
    state.y.assign(init.begin(), init.end());
    state.update.assign(state.y.size(), 0.0);
    state.gains.assign(state.y.size(), 1.0);
    state.attraction.assign(state.y.size(), 0.0);
    state.repulsion.assign(state.y.size(), 0.0);
    state.q_sums.assign(std::size_t(graph.points), 0.0);
    for (int iteration = 0; iteration < options.iterations; ++iteration) {
        if (stop_requested(stop)) {
            break;
        }
        const bool early = iteration < options.exaggeration_iterations;
        const double z = gradient_parts(p, state, options.theta, threads);
        descend(state, early ? 12.0 : 1.0, z, early ? 0.5 : 0.8, rate);
    }
    return std::vector<float>(state.y.begin(), state.y.end());
}

UmapCurve umap_curve(double min_dist, double spread) {
    if (!(spread > 0.0) || !(min_dist >= 0.0) || min_dist > spread) {
        throw Error("UMAP: min_dist must be from 0 to spread, and spread positive");
    }
    constexpr int kSamples = 300; // np.linspace(0, 3 * spread, 300)
    std::vector<double> x(kSamples), target(kSamples);
    for (int i = 0; i < kSamples; ++i) {
        x[std::size_t(i)] = 3.0 * spread * i / (kSamples - 1);
        target[std::size_t(i)] =
            x[std::size_t(i)] < min_dist ? 1.0 : std::exp(-(x[std::size_t(i)] - min_dist) / spread);
    }
    return fit_curve(x, target);
}

std::vector<float> umap_2d(const NeighbourGraph& graph, const UmapOptions& options,
                           std::vector<float> init, const StopToken* stop) {
    if (stop_requested(stop)) {
        return init;
    }
    check_graph(graph, "UMAP");
    check_umap_options(options);
    if (init.empty()) {
        init = random_uniform_map(graph.points, 10.0, options.seed);
    }
    check_map(init, graph.points, "starting map");
    const int threads = resolve_threads(options.threads);
    const int epochs = options.epochs > 0 ? options.epochs : (graph.points <= 10000 ? 500 : 200);
    const UmapCurve curve = umap_curve(options.min_dist, options.spread);
    const SparseRows links = umap_graph(graph, threads);
    UmapSchedule schedule = umap_schedule(links, epochs, options.negative_sample_rate);
    UmapStep step;
    step.a = float(curve.a);
    step.b = float(curve.b);
    step.negative_rate = options.negative_sample_rate;
    step.seed = options.seed;
    step.points = graph.points;
    std::vector<float> map = std::move(init);
    for (int epoch = 0; epoch < epochs && !stop_requested(stop); ++epoch) {
        step.epoch = epoch + 1;
        step.alpha = float(options.learning_rate * (1.0 - double(epoch) / epochs));
        umap_epoch(links, schedule, map, step);
    }
    return map;
}

double knn_preservation(const NeighbourGraph& high, const std::vector<float>& low2d, int k,
                        int threads) {
    check_graph(high, "kNN preservation");
    check_map(low2d, high.points, "kNN preservation map");
    if (k < 1 || k > high.k) {
        throw Error("kNN preservation: k = " + std::to_string(k) + " but the graph has " +
                    std::to_string(high.k) + " neighbours a point; give k from 1 to that");
    }
    const Grid2d grid(low2d);
    const auto n = static_cast<std::size_t>(high.points);
    std::vector<double> kept(n);
    parallel_for(n, resolve_threads(threads), kPointGrain, [&](std::size_t begin, std::size_t end) {
        std::vector<std::pair<float, std::int32_t>> heap;
        std::vector<std::int32_t> near;
        for (std::size_t i = begin; i < end; ++i) {
            grid.nearest(std::int32_t(i), k, heap);
            near.clear();
            for (const auto& [distance, j] : heap) {
                near.push_back(j);
            }
            std::sort(near.begin(), near.end());
            int found = 0;
            for (int j = 0; j < k; ++j) {
                const auto neighbour = std::int32_t(high.index[i * std::size_t(high.k) + j]);
                found += std::binary_search(near.begin(), near.end(), neighbour) ? 1 : 0;
            }
            kept[i] = double(found) / k;
        }
    });
    double sum = 0.0;
    for (const double fraction : kept) {
        sum += fraction;
    }
    return sum / double(n);
}

} // namespace kiln::embed
