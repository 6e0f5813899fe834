// Embeddings: weighted kNN classification.

#include "core/error.h"
#include "eval/knn.h"
#include "support/error_text.h"

#include <QtTest>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>
#include <torch/utils.h>

class KnnTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void knnFindsTheNearestClass() {
        // Three classes around three orthogonal directions, with a little noise.
        torch::manual_seed(0);
        const torch::Tensor centres = torch::eye(3) * 5;
        std::vector<std::int64_t> train_labels;
        std::vector<torch::Tensor> rows;
        for (int i = 0; i < 60; ++i) {
            train_labels.push_back(i % 3);
            rows.push_back(centres[i % 3] + 0.3 * torch::randn({3}));
        }
        const torch::Tensor train = torch::stack(rows);
        std::vector<std::int64_t> test_labels = {0, 1, 2, 2};
        const torch::Tensor test =
            torch::stack({centres[0], centres[1], centres[2], centres[2] * 0.1});
        const auto accuracy =
            kiln::eval::knn_accuracy(train, train_labels, test, test_labels, 5, 0.07);
        QCOMPARE(accuracy.top1, 1.0);
        QCOMPARE(accuracy.top5, 1.0);

        std::vector<std::int64_t> wrong = {1, 1, 2, 2};
        const auto half = kiln::eval::knn_accuracy(train, train_labels, test, wrong, 5, 0.07);
        QCOMPARE(half.top1, 0.75);
        // A class no neighbour voted for is no prediction, though with three classes topk ranks
        // every class among the five: the first image's neighbours are all of class 0.
        QCOMPARE(half.top5, 0.75);
        // A test class with no training image (3) is never predicted; it read as a top-5 hit.
        const auto unseen =
            kiln::eval::knn_accuracy(train, train_labels, test, {0, 1, 2, 3}, 5, 0.07);
        QCOMPARE(unseen.top1, 0.75);
        QCOMPARE(unseen.top5, 0.75);
    }

    // A small temperature sharpens the votes towards the nearest neighbour's class; exp(1 / T)
    // overflowed float below T = 0.011 and every vote became inf or nan.
    void aSmallTemperatureVotesForTheNearest() {
        torch::manual_seed(2);
        const torch::Tensor train = torch::randn({200, 8});
        const torch::Tensor test = torch::randn({50, 8});
        std::vector<std::int64_t> train_labels;
        for (int i = 0; i < 200; ++i) {
            train_labels.push_back(i % 5);
        }
        // Each test row's label is its nearest training row's: 1-NN gets every one right.
        const torch::Tensor unit_train = torch::nn::functional::normalize(
            train, torch::nn::functional::NormalizeFuncOptions().dim(1));
        const torch::Tensor unit_test = torch::nn::functional::normalize(
            test, torch::nn::functional::NormalizeFuncOptions().dim(1));
        const torch::Tensor nearest = unit_test.mm(unit_train.t()).argmax(1);
        std::vector<std::int64_t> test_labels;
        for (std::int64_t i = 0; i < 50; ++i) {
            test_labels.push_back(train_labels[std::size_t(nearest[i].item<std::int64_t>())]);
        }
        for (const double temperature : {0.005, 1e-4}) {
            const auto accuracy =
                kiln::eval::knn_accuracy(train, train_labels, test, test_labels, 20, temperature);
            QCOMPARE(accuracy.top1, 1.0);
        }
    }

    void chunkingDoesNotChangeTheAnswer() {
        torch::manual_seed(1);
        const torch::Tensor train = torch::randn({200, 8});
        const torch::Tensor test = torch::randn({50, 8});
        std::vector<std::int64_t> train_labels;
        std::vector<std::int64_t> test_labels;
        for (int i = 0; i < 200; ++i) {
            train_labels.push_back(i % 7);
        }
        for (int i = 0; i < 50; ++i) {
            test_labels.push_back(i % 7);
        }
        const auto whole =
            kiln::eval::knn_accuracy(train, train_labels, test, test_labels, 20, 0.07, 1024);
        const auto chunked =
            kiln::eval::knn_accuracy(train, train_labels, test, test_labels, 20, 0.07, 7);
        QCOMPARE(chunked.top1, whole.top1);
        QCOMPARE(chunked.top5, whole.top5);
        QVERIFY(whole.top5 >= whole.top1);
    }

    void whiteningWeighsEveryDirectionAlike() {
        // The class is the sign of a quiet axis (sd 0.3 about +-1); ten loud axes of noise
        // (sd 30) decide the cosine, and with them plain kNN guesses. A constant axis carries
        // nothing and is dropped.
        torch::manual_seed(2);
        const auto make = [](int rows, std::vector<std::int64_t>& labels) {
            for (int i = 0; i < rows; ++i) {
                labels.push_back(i % 2);
            }
            const torch::Tensor sign = torch::tensor(labels, torch::kFloat32) * 2 - 1;
            return torch::cat({30 * torch::randn({rows, 10}),
                               (sign + 0.3 * torch::randn({rows})).unsqueeze(1),
                               torch::full({rows, 1}, 50.0f)},
                              1);
        };
        std::vector<std::int64_t> train_labels, test_labels;
        const torch::Tensor train = make(2000, train_labels);
        const torch::Tensor test = make(500, test_labels);
        const kiln::eval::Whitening whitening = kiln::eval::fit_whitening(train);
        QCOMPARE(whitening.projection.size(1), 11);
        const torch::Tensor white = whitening.apply(train);
        const torch::Tensor covariance = white.t().mm(white) / double(white.size(0) - 1);
        QVERIFY2(torch::allclose(covariance, torch::eye(11), 1e-3, 1e-3),
                 qPrintable(QString::fromStdString(torch::str(covariance))));
        QVERIFY(white.mean(0).abs().max().item<double>() < 1e-3);
        const double plain = kiln::eval::knn_accuracy(train, train_labels, test, test_labels).top1;
        const double whitened =
            kiln::eval::knn_accuracy(white, train_labels, whitening.apply(test), test_labels).top1;
        QVERIFY2(plain < 0.75 && whitened > 0.95,
                 qPrintable(QStringLiteral("plain %1, whitened %2").arg(plain).arg(whitened)));
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::eval::fit_whitening(torch::randn({1, 4})));
    }

    // Fewer rows than dimensions: the axes come from the rows' Gram matrix, so a few very wide
    // embeddings cost little; there are at most rows - 1 of them, each of unit variance.
    void wideEmbeddingsAreWhitenedFromTheirRows() {
        torch::manual_seed(5);
        const torch::Tensor rows = torch::randn({6, 40}) * torch::linspace(0.1, 10.0, 40);
        const kiln::eval::Whitening whitening = kiln::eval::fit_whitening(rows);
        QCOMPARE(whitening.projection.size(1), 5);
        const torch::Tensor white = whitening.apply(rows);
        const torch::Tensor covariance = white.t().mm(white) / 5.0;
        QVERIFY2(torch::allclose(covariance, torch::eye(5), 1e-3, 1e-3),
                 qPrintable(QString::fromStdString(torch::str(covariance))));
        // Whitening is the Mahalanobis metric within the rows' span: distances between whitened
        // rows equal those through the pseudo-inverse of the covariance, computed apart here.
        const torch::Tensor wide = rows.to(torch::kFloat64);
        const torch::Tensor w = kiln::eval::fit_whitening(wide).apply(wide);
        const torch::Tensor centred = wide - wide.mean(0);
        const torch::Tensor precision = at::linalg_pinv(centred.t().mm(centred) / 5.0);
        for (int i = 0; i < 6; ++i) {
            for (int j = 0; j < i; ++j) {
                const torch::Tensor step = wide[i] - wide[j];
                const double mahalanobis = step.dot(precision.mv(step)).item<double>();
                const double whitened = (w[i] - w[j]).pow(2).sum().item<double>();
                QVERIFY2(std::abs(mahalanobis - whitened) < 1e-6 * mahalanobis,
                         qPrintable(QStringLiteral("%1 %2").arg(mahalanobis).arg(whitened)));
            }
        }
    }

    // Float rounding is not variation: copies of one embedding (scaled, then normalised) have
    // nothing to whiten, where whitening would blow their rounding up to unit distances.
    void embeddingsThatDoNotVaryAreNotWhitened() {
        const torch::Tensor direction = torch::randn({1, 16});
        const torch::Tensor copies = torch::nn::functional::normalize(
            direction * torch::arange(1, 9, torch::kFloat32).unsqueeze(1),
            torch::nn::functional::NormalizeFuncOptions().dim(1));
        QVERIFY(kiln::test::throwsContaining([&] { kiln::eval::fit_whitening(copies); },
                                             "do not vary"));
        QVERIFY_THROWS_EXCEPTION(kiln::eval::NothingToWhiten, kiln::eval::fit_whitening(copies));
        // Wider than 4,096 dimensions with more than 4,096 rows: refused before any work.
        QVERIFY(kiln::test::throwsContaining(
            [] { kiln::eval::fit_whitening(torch::zeros({4097, 4097})); }, "leave whitening off"));
    }

    void badInputIsRefused() {
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::eval::knn_accuracy(torch::randn({3, 2}), {0, 1},
                                                                       torch::randn({1, 2}), {0}));
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::eval::knn_accuracy(torch::randn({0, 2}), {},
                                                                       torch::randn({1, 2}), {0}));
    }
};

QTEST_APPLESS_MAIN(KnnTest)
#include "tst_knn.moc"
