#include "plots/metric_titles.h"

#include <QCoreApplication>
#include <QHash>

namespace kiln::gui {

QString metricTitle(const QString& key) {
    // Translated when asked for, so that a language chosen at start applies.
    static const QHash<QString, const char*> titles = {
        {QStringLiteral("val_loss"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "validation loss")},
        {QStringLiteral("train_loss"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "training loss")},
        {QStringLiteral("top1_acc_micro"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "top-1 accuracy")},
        {QStringLiteral("top5_acc_micro"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "top-5 accuracy")},
        {QStringLiteral("top1_acc_macro"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "top-1 accuracy, class mean")},
        {QStringLiteral("f1_micro"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "F1")},
        {QStringLiteral("f1_macro"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "F1, class mean")},
        {QStringLiteral("precision_macro"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "precision, class mean")},
        {QStringLiteral("recall_macro"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "recall, class mean")},
        {QStringLiteral("miou"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "mIoU")},
        {QStringLiteral("pixel_acc"),
         QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "pixel accuracy")},
        {QStringLiteral("map"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "mAP")},
        {QStringLiteral("map_50"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "mAP50")},
        {QStringLiteral("map_75"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "mAP75")},
        {QStringLiteral("box_map"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "box mAP")},
        {QStringLiteral("knn_top1"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "kNN top-1")},
        {QStringLiteral("knn_top5"), QT_TRANSLATE_NOOP("kiln::gui::MetricTitles", "kNN top-5")},
    };
    const QString name = key.section(QLatin1Char('/'), -1);
    const auto found = titles.constFind(name);
    return found == titles.constEnd()
               ? name
               : QCoreApplication::translate("kiln::gui::MetricTitles", found.value());
}

} // namespace kiln::gui
