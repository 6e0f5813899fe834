// t-SNE and UMAP maps: clusters kept apart, the same map for the same seed on any thread count,
// umap-learn's curve, malformed input refused, stop requests honoured, and the exact 2-D
// neighbours behind knn_preservation.

#include "core/error.h"
#include "core/stop_token.h"
#include "embed/projection.h"
#include "support/error_text.h"

#include <QtTest>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

using kiln::embed::NeighbourGraph;

using kiln::test::throwsContaining;

namespace {

constexpr int kDimensions = 10;

// `clusters` Gaussian clusters of `per_cluster` rows in 10-D, unit spread, each centred 10 out
// along its own axis (the centres 14 apart).
std::vector<float> clusteredRows(int clusters, int per_cluster, std::vector<int>* labels) {
    std::mt19937 generator(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> rows;
    for (int c = 0; c < clusters; ++c) {
        for (int i = 0; i < per_cluster; ++i) {
            for (int d = 0; d < kDimensions; ++d) {
                rows.push_back(normal(generator) + (d == c ? 10.0f : 0.0f));
            }
            labels->push_back(c);
        }
    }
    return rows;
}

// Exact Euclidean neighbours of every row, nearest first.
NeighbourGraph bruteForceGraph(const std::vector<float>& rows, int dimensions, int k) {
    NeighbourGraph graph;
    graph.points = std::int64_t(rows.size()) / dimensions;
    graph.k = k;
    for (std::int64_t i = 0; i < graph.points; ++i) {
        std::vector<std::pair<float, std::int64_t>> others;
        for (std::int64_t j = 0; j < graph.points; ++j) {
            float squared = 0.0f;
            for (int d = 0; d < dimensions; ++d) {
                const float diff =
                    rows[std::size_t(i * dimensions + d)] - rows[std::size_t(j * dimensions + d)];
                squared += diff * diff;
            }
            if (j != i) {
                others.emplace_back(std::sqrt(squared), j);
            }
        }
        std::partial_sort(others.begin(), others.begin() + k, others.end());
        for (int j = 0; j < k; ++j) {
            graph.index.push_back(others[std::size_t(j)].second);
            graph.distance.push_back(others[std::size_t(j)].first);
        }
    }
    return graph;
}

// The mean fraction of each point's k nearest points in the map that share its label.
double ownLabelFraction(const std::vector<float>& map, const std::vector<int>& labels, int k) {
    const NeighbourGraph nearest = bruteForceGraph(map, 2, k);
    double sum = 0.0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        int same = 0;
        for (int j = 0; j < k; ++j) {
            same += labels[std::size_t(nearest.index[i * std::size_t(k) + std::size_t(j)])] ==
                    labels[i];
        }
        sum += double(same) / k;
    }
    return sum / double(labels.size());
}

std::vector<float> uniformMap(std::size_t points, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
    std::vector<float> map(points * 2);
    for (float& value : map) {
        value = uniform(generator);
    }
    return map;
}

bool allFinite(const std::vector<float>& map) {
    return std::all_of(map.begin(), map.end(), [](float v) { return std::isfinite(v); });
}

kiln::embed::TsneOptions tsneOptions(int threads, std::uint64_t seed = 0) {
    kiln::embed::TsneOptions options;
    options.threads = threads;
    options.seed = seed;
    return options;
}

kiln::embed::UmapOptions umapOptions(int threads, std::uint64_t seed = 0) {
    kiln::embed::UmapOptions options;
    options.threads = threads;
    options.seed = seed;
    return options;
}

} // namespace

class ProjectionTest : public QObject {
    Q_OBJECT

private:
    std::vector<int> labels_;
    NeighbourGraph tsne_graph_; // 90 neighbours: 3 x perplexity 30
    NeighbourGraph umap_graph_; // 15 neighbours

private Q_SLOTS:
    void initTestCase() {
        const std::vector<float> rows = clusteredRows(3, 100, &labels_);
        tsne_graph_ = bruteForceGraph(rows, kDimensions, 90);
        umap_graph_ = bruteForceGraph(rows, kDimensions, 15);
    }

    void umapCurveMatchesUmapLearn() {
        // umap-learn's find_ab_params(1.0, 0.1) gives a = 1.5769, b = 0.8951.
        const kiln::embed::UmapCurve curve = kiln::embed::umap_curve(0.1, 1.0);
        QVERIFY2(std::abs(curve.a - 1.577) < 0.002, qPrintable(QString::number(curve.a)));
        QVERIFY2(std::abs(curve.b - 0.895) < 0.002, qPrintable(QString::number(curve.b)));
    }

    void tsneSeparatesClusters() {
        const std::vector<float> map = kiln::embed::tsne_2d(tsne_graph_, tsneOptions(2));
        QCOMPARE(map.size(), std::size_t(600));
        QVERIFY(allFinite(map));
        const double own = ownLabelFraction(map, labels_, 10);
        QVERIFY2(own >= 0.95, qPrintable(QString::number(own)));
        // The check itself fails a map that ignores the graph.
        QVERIFY(ownLabelFraction(uniformMap(300, 1), labels_, 10) < 0.6);
    }

    void umapSeparatesClusters() {
        const std::vector<float> map = kiln::embed::umap_2d(umap_graph_, umapOptions(2));
        QCOMPARE(map.size(), std::size_t(600));
        QVERIFY(allFinite(map));
        const double own = ownLabelFraction(map, labels_, 10);
        QVERIFY2(own >= 0.95, qPrintable(QString::number(own)));
    }

    void mapsKeepNeighboursBetterThanChance() {
        const std::vector<float> tsne = kiln::embed::tsne_2d(tsne_graph_, tsneOptions(2));
        const std::vector<float> umap = kiln::embed::umap_2d(umap_graph_, umapOptions(2));
        const double chance = kiln::embed::knn_preservation(umap_graph_, uniformMap(300, 2), 10);
        const double kept_tsne = kiln::embed::knn_preservation(umap_graph_, tsne, 10);
        const double kept_umap = kiln::embed::knn_preservation(umap_graph_, umap, 10);
        qInfo("10-NN kept: t-SNE %.3f, UMAP %.3f, random %.3f", kept_tsne, kept_umap, chance);
        QVERIFY(chance < 0.1);
        QVERIFY(kept_tsne > 3.0 * chance);
        QVERIFY(kept_umap > 3.0 * chance);
    }

    void tsneIsTheSameForAnyThreadCount() {
        // Shorter runs than the default, through both phases.
        const auto run = [this](int threads, std::uint64_t seed) {
            kiln::embed::TsneOptions options = tsneOptions(threads, seed);
            options.iterations = 300;
            options.exaggeration_iterations = 100;
            return kiln::embed::tsne_2d(tsne_graph_, options);
        };
        const std::vector<float> once = run(1, 5);
        QCOMPARE(run(1, 5), once);
        QCOMPARE(run(2, 5), once);
        QCOMPARE(run(3, 5), once);
        QVERIFY(run(2, 6) != once);
    }

    void umapIsTheSameForAnyThreadCount() {
        const auto run = [this](int threads, std::uint64_t seed, std::vector<float> start = {}) {
            kiln::embed::UmapOptions options = umapOptions(threads, seed);
            options.epochs = 200;
            return kiln::embed::umap_2d(umap_graph_, options, std::move(start));
        };
        const std::vector<float> once = run(1, 5);
        QCOMPARE(run(1, 5), once);
        QCOMPARE(run(2, 5), once);
        QCOMPARE(run(3, 5), once);
        QVERIFY(run(2, 6) != once);
        // With a given start the seed still changes the negative samples.
        const std::vector<float> start = uniformMap(300, 3);
        QVERIFY(run(2, 5, start) != run(2, 6, start));
    }

    void malformedInputIsRefused() {
        const auto tsne = [](const NeighbourGraph& graph, std::vector<float> init = {}) {
            return [graph, init] { kiln::embed::tsne_2d(graph, {}, init); };
        };
        const auto umap = [](const NeighbourGraph& graph) {
            return [graph] { kiln::embed::umap_2d(graph, {}); };
        };
        NeighbourGraph short_index = umap_graph_;
        short_index.index.pop_back();
        QVERIFY(throwsContaining(tsne(short_index), "give k neighbours for every point"));
        QVERIFY(throwsContaining(umap(short_index), "give k neighbours for every point"));
        NeighbourGraph two_points;
        two_points.points = 2;
        two_points.k = 1;
        two_points.index = {1, 0};
        two_points.distance = {1.0f, 1.0f};
        QVERIFY(throwsContaining(tsne(two_points), "at least 3 points"));
        QVERIFY(throwsContaining(umap(two_points), "at least 3 points"));
        NeighbourGraph outside = umap_graph_;
        outside.index[17] = 300;
        QVERIFY(throwsContaining(umap(outside), "neighbours must be other points"));
        NeighbourGraph itself = umap_graph_;
        itself.index[0] = 0;
        QVERIFY(throwsContaining(umap(itself), "neighbours must be other points"));
        NeighbourGraph unsorted = umap_graph_;
        std::swap(unsorted.distance[0], unsorted.distance[14]);
        QVERIFY(throwsContaining(umap(unsorted), "nearest first"));
        QVERIFY(throwsContaining(tsne(umap_graph_, std::vector<float>(10, 0.0f)),
                                 "10 coordinates for 300 points"));
        QVERIFY(throwsContaining([&] { kiln::embed::knn_preservation(umap_graph_, {}, 5); },
                                 "give points x 2"));
        QVERIFY(throwsContaining(
            [&] { kiln::embed::knn_preservation(umap_graph_, uniformMap(300, 1), 16); },
            "give k from 1 to that"));
    }

    void aStopRequestReturnsPromptly() {
        kiln::StopToken stop;
        stop.request_stop();
        const std::vector<float> start = uniformMap(300, 4);
        // The start map comes back untouched: not one iteration ran.
        QCOMPARE(kiln::embed::tsne_2d(tsne_graph_, tsneOptions(2), start, &stop), start);
        QCOMPARE(kiln::embed::umap_2d(umap_graph_, umapOptions(2), start, &stop), start);
    }

    void aStopRequestDuringARunEndsIt() {
        // Runs far too long to finish (many minutes; CTest's timeout fails a stop that does not
        // work): a stop during the run ends it, with a finite map.
        kiln::embed::TsneOptions tsne = tsneOptions(2);
        tsne.iterations = 5'000'000;
        kiln::embed::UmapOptions umap = umapOptions(2);
        umap.epochs = 5'000'000;
        for (const bool is_tsne : {true, false}) {
            kiln::StopToken stop;
            std::thread stopper([stop] {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                stop.request_stop();
            });
            const std::vector<float> map = is_tsne
                                               ? kiln::embed::tsne_2d(tsne_graph_, tsne, {}, &stop)
                                               : kiln::embed::umap_2d(umap_graph_, umap, {}, &stop);
            stopper.join();
            QCOMPARE(map.size(), std::size_t(600));
            QVERIFY(allFinite(map));
        }
    }

    void tinySetsGiveFiniteMaps() {
        std::vector<int> labels;
        std::vector<float> rows = clusteredRows(1, 5, &labels);
        const NeighbourGraph graph = bruteForceGraph(rows, kDimensions, 4);
        const std::vector<float> tsne = kiln::embed::tsne_2d(graph, tsneOptions(1));
        const std::vector<float> umap = kiln::embed::umap_2d(graph, umapOptions(1));
        QCOMPARE(tsne.size(), std::size_t(10));
        QCOMPARE(umap.size(), std::size_t(10));
        QVERIFY(allFinite(tsne));
        QVERIFY(allFinite(umap));
    }

    void knnPreservationFindsExactNeighbours() {
        // Uneven density: three tight blobs and a sparse background, so the grid's cells hold
        // very different counts. A map's own neighbour graph is kept entirely.
        std::mt19937 generator(9);
        std::normal_distribution<float> normal(0.0f, 0.05f);
        std::vector<float> map = uniformMap(1000, 5);
        for (int i = 0; i < 2000; ++i) {
            map.push_back(normal(generator) + float(i % 3) * 3.0f);
            map.push_back(normal(generator) - float(i % 3));
        }
        const NeighbourGraph own = bruteForceGraph(map, 2, 12);
        QCOMPARE(kiln::embed::knn_preservation(own, map, 12, 2), 1.0);
        QCOMPARE(kiln::embed::knn_preservation(own, map, 5, 1), 1.0);
        // Another map of the same points keeps few of them.
        std::vector<float> shuffled = uniformMap(3000, 6);
        QVERIFY(kiln::embed::knn_preservation(own, shuffled, 12, 2) < 0.05);
    }
};

QTEST_APPLESS_MAIN(ProjectionTest)
#include "tst_projection.moc"
