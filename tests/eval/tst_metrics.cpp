// Validation metrics from confusion matrices: classification and semantic segmentation.

#include "core/error.h"
#include "eval/confusion_matrix.h"

#include <QtTest>
#include <cmath>

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
