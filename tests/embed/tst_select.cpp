// Choosing what to label: k-center greedy, TypiClust-style typical picks, balanced quotas, and
// `kiln select`'s handling of its inputs.

#include "config/run_config.h"
#include "core/error.h"
#include "embed/select_job.h"
#include "embed/selection.h"
#include "embed/writers.h"
#include "eval/knn.h"
#include "models/backbone.h"
#include "support/error_text.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <opencv2/imgcodecs.hpp>
#include <set>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>

namespace fs = std::filesystem;
using kiln::embed::SelectionStrategy;

using kiln::test::throwsContaining;

namespace {

torch::Tensor unitRows(const torch::Tensor& rows) {
    namespace F = torch::nn::functional;
    return F::normalize(rows, F::NormalizeFuncOptions().dim(1));
}

// Tight clusters around the first `sizes.size()` axes of a 16-D space.
torch::Tensor clusteredRows(const std::vector<int>& sizes, std::vector<std::int64_t>* cluster_of) {
    torch::manual_seed(3);
    std::vector<torch::Tensor> rows;
    for (std::size_t c = 0; c < sizes.size(); ++c) {
        for (int i = 0; i < sizes[c]; ++i) {
            torch::Tensor row = 0.15 * torch::randn({16});
            row[std::int64_t(c)] += 1.0;
            rows.push_back(row);
            if (cluster_of != nullptr) {
                cluster_of->push_back(std::int64_t(c));
            }
        }
    }
    return torch::stack(rows);
}

// TypiClust's typicality of `row` among `members` by brute force: 1 / its mean cosine distance
// to its 20 nearest other members.
double typicalityOf(const torch::Tensor& unit, const std::vector<std::int64_t>& members,
                    std::int64_t row) {
    std::vector<std::int64_t> others;
    std::copy_if(members.begin(), members.end(), std::back_inserter(others),
                 [row](std::int64_t member) { return member != row; });
    const torch::Tensor distance =
        1.0 - torch::mv(unit.index_select(0, torch::tensor(others)), unit[row]);
    const auto k = std::min<std::int64_t>(20, std::int64_t(others.size()));
    return 1.0 / std::get<0>(distance.topk(k, 0, /*largest=*/false)).mean().item<double>();
}

} // namespace

class SelectTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root() const { return temp_.path().toStdString(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(temp_.isValid()); }

    void kCenterTakesTheFarthestRowEachTime() {
        // a is labelled; c is opposite it, d orthogonal, e leans towards a, b nearly is a.
        const torch::Tensor rows = unitRows(torch::tensor({{1.0f, 0.0f, 0.0f},
                                                           {0.9f, 0.1f, 0.0f},
                                                           {-1.0f, 0.0f, 0.0f},
                                                           {0.0f, 1.0f, 0.0f},
                                                           {0.2f, 0.7f, 0.7f}}));
        std::vector<double> distances;
        const auto picks = kiln::embed::k_center_greedy(rows, 4, {0}, {}, 0, &distances);
        QCOMPARE(picks, (std::vector<std::int64_t>{2, 3, 4, 1}));
        QVERIFY(std::abs(distances[0] - 2.0) < 1e-5);
        QVERIFY(std::abs(distances[1] - 1.0) < 1e-5);
        // A blocked row is never taken, however far.
        const auto unblocked = kiln::embed::k_center_greedy(rows, 1, {0}, {2}, 0, nullptr);
        QCOMPARE(unblocked, (std::vector<std::int64_t>{3}));
    }

    void kCenterMatchesTheOneAtATimeDefinitionOverManyRounds() {
        // More picks than one round's pool (512), checked against the brute-force definition:
        // every pick is the row whose distance to everything picked before is the largest.
        torch::manual_seed(11);
        const torch::Tensor rows = unitRows(torch::randn({1500, 8}));
        std::vector<double> distances;
        const auto picks = kiln::embed::k_center_greedy(rows, 700, {}, {}, 5, &distances);
        QCOMPARE(picks.size(), std::size_t(700));
        QCOMPARE(std::set<std::int64_t>(picks.begin(), picks.end()).size(), std::size_t(700));
        torch::Tensor nearest = 1.0 - torch::mv(rows, rows[picks[0]]);
        std::vector<bool> picked(1500, false);
        picked[std::size_t(picks[0])] = true;
        for (std::size_t i = 1; i < picks.size(); ++i) {
            torch::Tensor open = nearest.clone();
            for (std::size_t row = 0; row < picked.size(); ++row) {
                if (picked[row]) {
                    open[std::int64_t(row)] = -1.0f;
                }
            }
            const double farthest = open.max().item<double>();
            QVERIFY2(std::abs(distances[i] - farthest) < 1e-5 &&
                         std::abs(open[picks[i]].item<double>() - farthest) < 1e-5,
                     qPrintable(QStringLiteral("pick %1: %2, farthest %3")
                                    .arg(i)
                                    .arg(distances[i])
                                    .arg(farthest)));
            picked[std::size_t(picks[i])] = true;
            nearest = torch::minimum(nearest, 1.0 - torch::mv(rows, rows[picks[i]]));
        }
        // The same seed, the same picks.
        QCOMPARE(kiln::embed::k_center_greedy(rows, 700, {}, {}, 5, nullptr), picks);
    }

    void typicalPicksTheCentreOfEveryCluster() {
        std::vector<std::int64_t> cluster_of;
        const torch::Tensor rows = clusteredRows({60, 40, 25, 12, 6}, &cluster_of);
        kiln::embed::SelectionOptions options;
        options.count = 5;
        options.strategy = SelectionStrategy::Typical;
        const auto selection = kiln::embed::select_rows(rows, options);
        std::vector<std::vector<std::int64_t>> members(5);
        for (std::size_t row = 0; row < cluster_of.size(); ++row) {
            members[std::size_t(cluster_of[row])].push_back(std::int64_t(row));
        }
        const torch::Tensor unit = unitRows(rows);
        std::set<std::int64_t> covered;
        for (const std::int64_t row : selection.rows) {
            const auto& mates = members[std::size_t(cluster_of[std::size_t(row)])];
            covered.insert(cluster_of[std::size_t(row)]);
            // Each pick is its cluster's most typical member.
            double most = 0.0;
            for (const std::int64_t member : mates) {
                most = std::max(most, typicalityOf(unit, mates, member));
            }
            QVERIFY2(typicalityOf(unit, mates, row) >= most * (1 - 1e-5),
                     qPrintable(QStringLiteral("row %1: %2 of at most %3")
                                    .arg(row)
                                    .arg(typicalityOf(unit, mates, row))
                                    .arg(most)));
        }
        QCOMPARE(covered.size(), std::size_t(5));
        // The largest cluster first.
        QCOMPARE(cluster_of[std::size_t(selection.rows[0])], std::int64_t(0));

        // With a row of cluster 0 labelled, the picks go to the four others.
        options.count = 4;
        options.labelled = {0};
        const auto around = kiln::embed::select_rows(rows, options);
        covered.clear();
        for (const std::int64_t row : around.rows) {
            covered.insert(cluster_of[std::size_t(row)]);
        }
        QCOMPARE(covered, (std::set<std::int64_t>{1, 2, 3, 4}));
    }

    void aLargeClusterIsScoredInBlocksAgainstASampleOfMates() {
        // 5,000 rows, one cluster: more than the 4,096 mates sampled and scored at once. The
        // pick is among the most typical by brute force, the sample's own rows not favoured.
        torch::manual_seed(5);
        const torch::Tensor rows = torch::randn({5000, 8}) * 0.3 + torch::ones({8});
        kiln::embed::SelectionOptions options;
        options.count = 1;
        options.strategy = SelectionStrategy::Typical;
        const std::int64_t pick = kiln::embed::select_rows(rows, options).rows.at(0);
        const torch::Tensor unit = unitRows(rows);
        std::vector<std::int64_t> everyone(5000);
        std::iota(everyone.begin(), everyone.end(), std::int64_t(0));
        const double picked = typicalityOf(unit, everyone, pick);
        int more_typical = 0;
        for (const std::int64_t row : everyone) {
            more_typical += typicalityOf(unit, everyone, row) > picked ? 1 : 0;
        }
        QVERIFY2(more_typical < 50, qPrintable(QString::number(more_typical)));
    }

    void whitenedPicksAreThePicksOfTheWhitenedEmbeddings() {
        torch::manual_seed(9);
        const torch::Tensor rows = torch::randn({300, 8}) * torch::tensor({30.0f, 10.0f, 5.0f, 1.0f,
                                                                           1.0f, 0.5f, 0.3f, 0.1f});
        for (const auto strategy : {SelectionStrategy::Typical, SelectionStrategy::Diverse,
                                    SelectionStrategy::Balanced}) {
            kiln::embed::SelectionOptions options;
            options.count = 12;
            options.strategy = strategy;
            const auto plain = kiln::embed::select_rows(rows, options);
            options.whiten = true;
            const auto whitened = kiln::embed::select_rows(rows, options);
            const torch::Tensor unit = torch::nn::functional::normalize(
                rows, torch::nn::functional::NormalizeFuncOptions().dim(1));
            options.whiten = false;
            const auto by_hand =
                kiln::embed::select_rows(kiln::eval::fit_whitening(unit).apply(unit), options);
            QCOMPARE(whitened.rows, by_hand.rows);
            if (strategy == SelectionStrategy::Diverse) { // the loud axes no longer decide
                QVERIFY(whitened.rows != plain.rows);
            }
        }
    }

    void balancedGivesEveryClusterItsQuota() {
        std::vector<std::int64_t> cluster_of;
        const torch::Tensor rows = clusteredRows({200, 100, 50, 30}, &cluster_of);
        kiln::embed::SelectionOptions options;
        options.count = 40;
        options.strategy = SelectionStrategy::Balanced;
        const auto selection = kiln::embed::select_rows(rows, options);
        std::map<std::int64_t, int> per_cluster;
        for (const std::int64_t row : selection.rows) {
            ++per_cluster[cluster_of[std::size_t(row)]];
        }
        QCOMPARE(per_cluster, (std::map<std::int64_t, int>{{0, 10}, {1, 10}, {2, 10}, {3, 10}}));
    }

    // Labelled rows count towards their cluster's quota: the picks even out the totals.
    void balancedPicksEvenOutWhatIsLabelled() {
        std::vector<std::int64_t> cluster_of;
        const torch::Tensor rows = clusteredRows({30, 30}, &cluster_of);
        kiln::embed::SelectionOptions options;
        options.count = 20;
        options.strategy = SelectionStrategy::Balanced;
        options.labelled = {0, 1, 2, 3, 4, 5}; // six of the first cluster
        std::map<std::int64_t, int> per_cluster;
        for (const std::int64_t row : kiln::embed::select_rows(rows, options).rows) {
            ++per_cluster[cluster_of[std::size_t(row)]];
        }
        QCOMPARE(per_cluster, (std::map<std::int64_t, int>{{0, 7}, {1, 13}}));
    }

    // A stop request (Studio closing, or another file opened) ends a pick with an error.
    void aStopRequestEndsThePick() {
        const torch::Tensor rows = clusteredRows({50, 50}, nullptr);
        kiln::StopToken stop;
        stop.request_stop();
        for (const auto strategy : {SelectionStrategy::Typical, SelectionStrategy::Diverse,
                                    SelectionStrategy::Balanced}) {
            kiln::embed::SelectionOptions options;
            options.count = 10;
            options.strategy = strategy;
            options.stop = &stop;
            QVERIFY(throwsContaining([&] { kiln::embed::select_rows(rows, options); },
                                     "the selection was stopped"));
        }
    }

    // A set larger than the fitting sample is clustered on a sample, then every row assigned:
    // the clusters are still found, each row gets one, and the same seed gives the same result.
    void aLargeSetIsClusteredOnASampleAndEveryRowAssigned() {
        constexpr std::int64_t kRows = 70000; // beyond the 65,536-row sample
        torch::manual_seed(4);
        const torch::Tensor truth = torch::arange(kRows) % 4;
        const torch::Tensor rows =
            0.15 * torch::randn({kRows, 16}) + torch::one_hot(truth, 16).to(torch::kFloat32);
        namespace F = torch::nn::functional;
        const torch::Tensor unit = F::normalize(rows, F::NormalizeFuncOptions().dim(1));
        const kiln::embed::Clustering clustering = kiln::embed::spherical_kmeans(unit, 4, 7);
        QCOMPARE(clustering.assignments.size(), std::size_t(kRows));
        std::map<std::int64_t, std::set<std::int64_t>> labels_of_cluster;
        for (std::int64_t row = 0; row < kRows; ++row) {
            labels_of_cluster[truth[row].item<std::int64_t>()].insert(
                clustering.assignments[std::size_t(row)]);
        }
        std::set<std::int64_t> used;
        for (const auto& [cluster, labels] : labels_of_cluster) {
            QCOMPARE(labels.size(), std::size_t(1)); // each true cluster is one found cluster
            used.insert(*labels.begin());
        }
        QCOMPARE(used.size(), std::size_t(4));
        QCOMPARE(kiln::embed::spherical_kmeans(unit, 4, 7).assignments, clustering.assignments);
    }

    // Beyond 2^27 rows x centres the clustering runs in two levels (coarse clusters, each split
    // into its share of the centres): on well-separated data every true cluster is still one
    // found cluster, all k are used, and typical picking takes one row of each.
    void manyCentresAreFittedInTwoLevels() {
        constexpr std::int64_t kClusters = 1200, kEach = 112, kDims = 64; // 1.6e8 pairs
        torch::manual_seed(5);
        const torch::Tensor truth = torch::div(torch::arange(kClusters * kEach), kEach, "floor");
        const torch::Tensor unit =
            unitRows(torch::randn({kClusters, kDims}).index_select(0, truth) +
                     0.01 * torch::randn({kClusters * kEach, kDims}));
        const kiln::embed::Clustering clustering =
            kiln::embed::spherical_kmeans(unit, kClusters, 7);
        QCOMPARE(clustering.centres.size(0), kClusters);
        std::map<std::int64_t, std::set<std::int64_t>> found_of_truth;
        std::set<std::int64_t> used;
        for (std::int64_t row = 0; row < kClusters * kEach; ++row) {
            const std::int64_t found = clustering.assignments[std::size_t(row)];
            found_of_truth[truth[row].item<std::int64_t>()].insert(found);
            used.insert(found);
        }
        for (const auto& [true_cluster, found] : found_of_truth) {
            QVERIFY2(found.size() == 1, std::to_string(true_cluster).c_str());
        }
        QCOMPARE(std::int64_t(used.size()), kClusters);
        QCOMPARE(kiln::embed::spherical_kmeans(unit, kClusters, 7).assignments,
                 clustering.assignments);

        kiln::embed::SelectionOptions options;
        options.count = kClusters;
        const kiln::embed::Selection typical = kiln::embed::select_rows(unit, options);
        std::set<std::int64_t> picked_truth;
        for (const std::int64_t row : typical.rows) {
            picked_truth.insert(truth[row].item<std::int64_t>());
        }
        QCOMPARE(std::int64_t(picked_truth.size()), kClusters);
    }

    // The two-level clustering's shares of the centres: in proportion to the groups' rows by
    // largest remainders, at least one for a group with rows, none for an empty one, never more
    // than a group's rows, always the total; a total that cannot be shared so is an error.
    void centresAreSharedInProportionToTheRows() {
        using Quotas = std::vector<std::int64_t>;
        using kiln::embed::centre_quotas;
        QCOMPARE(centre_quotas({30, 60, 10}, 10), (Quotas{3, 6, 1}));
        QCOMPARE(centre_quotas({34, 33, 33}, 10), (Quotas{4, 3, 3})); // 3.4 has the remainder
        QCOMPARE(centre_quotas({5, 0, 3}, 8), (Quotas{5, 0, 3}));     // every row a centre
        QCOMPARE(centre_quotas({7}, 4), (Quotas{4}));
        QCOMPARE(centre_quotas({10, 990}, 4), (Quotas{1, 3}));      // 0.04 raised to one
        QCOMPARE(centre_quotas({2, 100, 3}, 3), (Quotas{1, 1, 1})); // raised ones given back
        QVERIFY(throwsContaining([] { centre_quotas({1, 1, 1}, 2); }, "cannot share 2 centres"));
        QVERIFY(throwsContaining([] { centre_quotas({1, 1}, 3); }, "cannot share 3 centres"));
    }

    void everyStrategyIsDeterministicAndNeverRepeatsOrTakesLabelledRows() {
        const torch::Tensor rows = clusteredRows({50, 50, 50}, nullptr);
        for (const std::string& name : kiln::embed::selection_strategy_names()) {
            kiln::embed::SelectionOptions options;
            options.count = 30;
            options.strategy = kiln::embed::selection_strategy(name);
            options.labelled = {1, 2, 3};
            options.excluded = {4};
            options.seed = 7;
            const auto first = kiln::embed::select_rows(rows, options);
            QCOMPARE(kiln::embed::select_rows(rows, options).rows, first.rows);
            const std::set<std::int64_t> distinct(first.rows.begin(), first.rows.end());
            QCOMPARE(distinct.size(), std::size_t(30));
            for (const std::int64_t closed : {1, 2, 3, 4}) {
                QVERIFY2(!distinct.count(closed), name.c_str());
            }
        }
        QVERIFY(throwsContaining([] { kiln::embed::selection_strategy("smart"); },
                                 "unknown selection strategy \"smart\""));
    }

    void badInputsAreNamedAndNothingIsWritten() {
        const fs::path embeddings = root() / "embeddings.csv";
        std::ofstream(embeddings) << "filename,embedding_0,embedding_1\n"
                                     "a.png,1,0\nb.png,0,1\nsub/c.png,1,1\n";
        const fs::path out = root() / "picks" / "picks.txt";
        kiln::SelectConfig config;
        config.embeddings = embeddings;
        config.out = out;
        config.strategy = "diverse";
        config.n = 5;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "n=5 but only 3 of the 3 images in"));
        config.n = 2;
        const fs::path labelled = root() / "labelled.txt";
        std::ofstream(labelled) << "a.png\nmissing.png\n";
        config.already_labelled = labelled;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "1 of its 2 images are not in the embeddings, the first "
                                 "\"missing.png\""));
        const fs::path ragged = root() / "ragged.csv";
        std::ofstream(ragged) << "filename,embedding_0,embedding_1\na.png,1,0\nb.png,0\n";
        config.embeddings = ragged;
        config.already_labelled.reset();
        QVERIFY(
            throwsContaining([&] { kiln::embed::select_for_labelling(config); }, ragged.string()));
        // One name twice (two data folders embedded together): a pick would not say which.
        const fs::path repeated = root() / "repeated.csv";
        std::ofstream(repeated) << "filename,embedding_0,embedding_1\n"
                                   "0/1.png,1,0\n0/2.png,0,1\n0/1.png,1,1\n";
        config.embeddings = repeated;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "names \"0/1.png\" twice (rows 1 and 3)"));
        // A line break in a name would split the list of picks.
        const fs::path broken = root() / "broken.csv";
        std::ofstream(broken) << "filename,embedding_0,embedding_1\n"
                                 "a.png,1,0\n\"b\nc.png\",0,1\n";
        config.embeddings = broken;
        QVERIFY(
            throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                             "the name on row 2 (\"b\\x0ac.png\") is empty or holds a control"));
        QVERIFY(!fs::exists(out));
        QVERIFY(!fs::exists(kiln::embed::selection_table_path(out)));

        // A labelled folder matches by file name; a fraction counts the images left to pick.
        fs::create_directories(root() / "labelled" / "cats");
        std::ofstream(root() / "labelled" / "cats" / "c.png") << "x";
        config.embeddings = embeddings;
        config.already_labelled = root() / "labelled";
        config.n = 0.5;
        const auto summary = kiln::embed::select_for_labelling(config);
        QCOMPARE(summary.labelled, std::int64_t(1));
        QCOMPARE(summary.picked, std::int64_t(1));
        std::ifstream table(kiln::embed::selection_table_path(out));
        std::string header;
        std::getline(table, header);
        QCOMPARE(header, std::string("name,rank,score,cluster"));
    }

    // Each labelled image counts once, copies of a labelled image are left out with the
    // duplicates, and the problems of the inputs name them (escaped for a terminal).
    void labelledImagesAndTheirCopiesAreNeverPicked() {
        const fs::path embeddings = root() / "copies.csv";
        std::ofstream(embeddings) << "filename,embedding_0,embedding_1,embedding_2\n"
                                     "a/x.png,1,0,0\nb/x.png,0,1,0\nc.png,0,0,1\n"
                                     "d.png,1,1,0\ncopy-of-c.png,0,0,2\n";
        const fs::path labelled = root() / "labelled-twice.txt";
        std::ofstream(labelled) << "copy-of-c.png\ncopy-of-c.png\n";
        kiln::SelectConfig config;
        config.embeddings = embeddings;
        config.out = root() / "around-copies" / "picks.txt";
        config.strategy = "random";
        config.already_labelled = labelled;
        config.exclude_duplicates = true;
        config.n = 3;
        const auto summary = kiln::embed::select_for_labelling(config);
        QCOMPARE(summary.labelled, std::int64_t(1));
        QCOMPARE(summary.duplicates, std::int64_t(1)); // c.png, which copy-of-c.png repeats
        std::ifstream picks(config.out);
        std::set<std::string> picked;
        for (std::string line; std::getline(picks, line);) {
            picked.insert(line);
        }
        QCOMPARE(picked, (std::set<std::string>{"a/x.png", "b/x.png", "d.png"}));
        config.n = 4;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "n=4 but only 3 of the 5 images in"));

        // A file name two embeddings share is not a name, and control characters are escaped.
        std::ofstream(labelled) << "x.png\n";
        config.n = 1;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "several of them have its file name"));
        std::ofstream(labelled) << "red\x1b[31m.png\n";
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "\"red\\x1b[31m.png\""));
        // A fraction that comes to less than one image says so.
        config.already_labelled.reset();
        config.exclude_duplicates = false;
        config.n = 0.05;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "n=0.05 is a fraction of the 5 images"));
        // An embeddings file without rows, and out over the names of npy embeddings.
        const fs::path empty = root() / "empty.csv";
        std::ofstream(empty) << "filename,embedding_0\n";
        config.embeddings = empty;
        config.already_labelled = labelled;
        config.n = 1;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "holds no embeddings"));
        const fs::path npy = root() / "vectors.npy";
        kiln::embed::write_embeddings(npy, "npy", {"p.png", "q.png"}, torch::eye(2));
        config.embeddings = npy;
        config.already_labelled.reset();
        config.out = kiln::embed::npy_filenames_path(npy);
        config.overwrite = true;
        QVERIFY(throwsContaining([&] { kiln::embed::select_for_labelling(config); },
                                 "which this selection reads"));
        QCOMPARE(kiln::embed::read_embeddings(npy).filenames.size(), std::size_t(2));
        // out naming a folder that is not there yet is refused before anything is written.
        const std::string folder = (root() / "not-yet").string() + "/";
        QVERIFY(throwsContaining(
            [&] {
                kiln::resolve_select_config(
                    {{"out", folder}, {"embeddings", embeddings.string()}, {"n", 1}});
            },
            "is a folder; give a file name such as picks.txt"));
        QVERIFY(!fs::exists(folder));
    }

    // checkpoint= with data= embeds first (kiln embed's defaults, beside out), then picks from
    // those embeddings; the settings name what is missing or doubled.
    void aCheckpointEmbedsTheImagesFirst() {
        const fs::path images = root() / "to-embed";
        fs::create_directories(images);
        for (int i = 0; i < 8; ++i) {
            QVERIFY(cv::imwrite((images / (std::to_string(i) + ".png")).string(),
                                cv::Mat(24, 24, CV_8UC3, cv::Scalar(i * 30, 90, 200 - i * 20))));
        }
        torch::manual_seed(3);
        kiln::models::save_backbone_weights(*kiln::models::make_backbone("smallcnn"),
                                            root() / "model.pt");
        const fs::path out = root() / "embedded" / "picks.txt";
        fs::create_directories(out.parent_path());
        const nlohmann::json settings = {{"out", out.string()},
                                         {"checkpoint", (root() / "model.pt").string()},
                                         {"data", images.string()},
                                         {"n", 3}};
        const kiln::SelectConfig config = kiln::resolve_select_config(settings);
        // What needs no embeddings is checked before embedding writes anything.
        std::ofstream(root() / "labelled-typo.txt") << "1.png\n9.png\n";
        for (const auto& [changed, text] : std::vector<std::pair<nlohmann::json, std::string>>{
                 {{{"n", 9}}, "n=9 but only 8 of the 8 images"},
                 {{{"already_labelled", (root() / "labelled-typo.txt").string()}},
                  "1 of its 2 images are not in the embeddings, the first \"9.png\""}}) {
            nlohmann::json input = settings;
            input.update(changed);
            QVERIFY(throwsContaining(
                [&] { kiln::embed::select_for_labelling(kiln::resolve_select_config(input)); },
                text));
            QVERIFY(!fs::exists(kiln::embedded_path(config)));
        }
        const auto summary = kiln::embed::select_for_labelling(config);
        QCOMPARE(summary.images, std::int64_t(8));
        QCOMPARE(summary.picked, std::int64_t(3));
        const auto embedded = kiln::embed::read_embeddings(kiln::embedded_path(config));
        QCOMPARE(embedded.filenames.size(), std::size_t(8));
        QCOMPARE(kiln::embedded_path(config), out.parent_path() / "picks.embeddings.pt");
        const auto problem = [&settings](nlohmann::json changed, const std::string& text) {
            nlohmann::json input = settings;
            input.update(changed);
            input["out"] =
                (fs::path(input["out"].get<std::string>()).parent_path() / "p2.txt").string();
            return throwsContaining([&] { kiln::resolve_select_config(input); }, text);
        };
        QVERIFY(problem({{"embeddings", (root() / "model.pt").string()}}, "not both"));
        QVERIFY(problem({{"data", nullptr}}, "data: required with checkpoint"));
        QVERIFY(problem({{"checkpoint", nullptr}}, "checkpoint and data to embed first"));
    }
};

QTEST_GUILESS_MAIN(SelectTest)
#include "tst_select.moc"
