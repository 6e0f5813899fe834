// Validation metrics from confusion matrices: classification and semantic segmentation.

#include "core/error.h"
#include "eval/confusion_matrix.h"
#include "eval/multilabel_metrics.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numeric>

class MetricsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void classificationMetricsFollowTheirDefinitions() {
        // truth \ predicted: class 0 has 3 right, 1 taken for class 1; class 1 has 2 right;
        // class 2 has 1 taken for class 0; class 3 never occurs.
        kiln::eval::ConfusionMatrix matrix(4);
        matrix.add(0, 0, 3);
        matrix.add(0, 1, 1);
        matrix.add(1, 1, 2);
        matrix.add(2, 0, 1);
        const auto metrics = kiln::eval::classification_metrics(matrix, 6);
        QCOMPARE(matrix.total(), std::int64_t(7));
        QCOMPARE(metrics.top1_acc_micro, 5.0 / 7.0);
        QCOMPARE(metrics.top5_acc_micro, 6.0 / 7.0);
        // recall: 3/4, 1, 0 (class 3 left out); precision: 3/4, 2/3, 0.
        QCOMPARE(metrics.per_class_accuracy[0], 0.75);
        QCOMPARE(metrics.per_class_accuracy[1], 1.0);
        QCOMPARE(metrics.per_class_accuracy[2], 0.0);
        QVERIFY(std::isnan(metrics.per_class_accuracy[3]));
        QCOMPARE(metrics.top1_acc_macro, (0.75 + 1.0 + 0.0) / 3);
        QCOMPARE(metrics.recall_macro, (0.75 + 1.0 + 0.0) / 3);
        QCOMPARE(metrics.precision_macro, (0.75 + 2.0 / 3.0 + 0.0) / 3);
        const double f1_1 = 2 * (2.0 / 3.0) * 1.0 / (2.0 / 3.0 + 1.0);
        QCOMPARE(metrics.f1_macro, (0.75 + f1_1 + 0.0) / 3);
    }

    void segmentationMetricsFollowTheirDefinitions() {
        kiln::eval::ConfusionMatrix matrix(3);
        matrix.add({50, 10, 0, //
                    5, 30, 0,  //
                    0, 0, 0});
        const auto metrics = kiln::eval::segmentation_metrics(matrix);
        QCOMPARE(metrics.per_class_iou[0], 50.0 / (60 + 55 - 50));
        QCOMPARE(metrics.per_class_iou[1], 30.0 / (35 + 40 - 30));
        QVERIFY(std::isnan(metrics.per_class_iou[2])); // absent: left out of the mean
        QCOMPARE(metrics.miou, (50.0 / 65 + 30.0 / 45) / 2);
        QCOMPARE(metrics.pixel_acc, 80.0 / 95);
    }

    void averagePrecisionFromHistogramsIsScikitLearns() {
        // scikit-learn's average_precision_score of these scores and labels, computed exactly:
        // sort by score, add precision x recall gained at each positive.
        const std::vector<double> scores = {0.91, 0.85, 0.77, 0.62, 0.55, 0.41, 0.33, 0.12};
        const std::vector<bool> positive = {true, false, true, true, false, false, true, false};
        double exact = 0, hits = 0;
        for (std::size_t i = 0; i < scores.size(); ++i) { // already descending
            if (positive[i]) {
                ++hits;
                exact += (1.0 / 4) * (hits / double(i + 1));
            }
        }
        std::vector<double> positives(kiln::eval::kScoreBins), negatives(kiln::eval::kScoreBins);
        for (std::size_t i = 0; i < scores.size(); ++i) {
            (positive[i] ? positives : negatives)[int(scores[i] * kiln::eval::kScoreBins)] += 1;
        }
        QCOMPARE(kiln::eval::average_precision(positives.data(), negatives.data(),
                                               kiln::eval::kScoreBins),
                 exact);
        std::fill(positives.begin(), positives.end(), 0.0);
        QVERIFY(std::isnan(kiln::eval::average_precision(positives.data(), negatives.data(),
                                                         kiln::eval::kScoreBins)));
    }

    void multilabelMetricsCombineClasses() {
        // Two classes: class 0 TP 3, FP 1, FN 1; class 1 TP 0, FP 0, FN 2, positives all
        // scored below the negatives (AP 0.5 with two positives and two negatives interleaved
        // as neg, pos, neg, pos from the top).
        std::vector<double> counts(kiln::eval::multilabel_count_size(2), 0.0);
        counts[0] = 3, counts[1] = 1, counts[2] = 1;
        counts[3] = 0, counts[4] = 0, counts[5] = 2;
        const auto bins = kiln::eval::kScoreBins;
        double* class0 = counts.data() + 6;
        class0[900] = 1; // one positive, alone at the top: AP 1
        double* class1 = counts.data() + 6 + 2 * bins;
        class1[bins + 400] = 1, class1[300] = 1, class1[bins + 200] = 1, class1[100] = 1;
        const auto metrics = kiln::eval::multilabel_metrics(counts, 2);
        QCOMPARE(metrics.f1_micro, 6.0 / (6 + 1 + 3));
        QCOMPARE(metrics.f1_macro, (6.0 / 8 + 0.0) / 2);
        QCOMPARE(metrics.per_class_ap[0], 1.0);
        QCOMPARE(metrics.per_class_ap[1], 0.5 * 0.5 + 0.5 * 0.5);
        QCOMPARE(metrics.map, (1.0 + 0.5) / 2);
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::eval::multilabel_metrics({1.0}, 2));
    }

    void emptyAndInvalidInputs() {
        const kiln::eval::ConfusionMatrix empty(2);
        QCOMPARE(kiln::eval::classification_metrics(empty, 0).top1_acc_micro, 0.0);
        QCOMPARE(kiln::eval::segmentation_metrics(empty).miou, 0.0);
        kiln::eval::ConfusionMatrix matrix(2);
        QVERIFY_THROWS_EXCEPTION(kiln::Error, matrix.add(2, 0));
        QVERIFY_THROWS_EXCEPTION(kiln::Error, matrix.add({1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::eval::ConfusionMatrix(0));
    }
};

QTEST_APPLESS_MAIN(MetricsTest)
#include "tst_metrics.moc"
