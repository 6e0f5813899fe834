#include "plots/per_class_results.h"

#include "plots/precision_recall_plot.h"

#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

const QLatin1String kPerClassPrefix(track::kPerClassMetricPrefix.data(),
                                    qsizetype(track::kPerClassMetricPrefix.size()));

// A number that sorts as a number and shows three decimals.
QTableWidgetItem* number_item(double value) {
    auto* item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, QString::number(value, 'f', 3));
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

// A per-class metric's column: the name users know, its logged key as tooltip and data.
QTableWidgetItem* metric_header(const QString& metric) {
    const QHash<QString, QString> titles = {
        {QStringLiteral("top1_acc"), PerClassResults::tr("Accuracy")},
        {QStringLiteral("ap"), PerClassResults::tr("AP")},
        {QStringLiteral("iou"), PerClassResults::tr("IoU")},
        {QStringLiteral("map"), PerClassResults::tr("AP (IoU 0.50-0.95)")}};
    auto* header = new QTableWidgetItem(titles.value(metric, metric));
    header->setData(Qt::UserRole, metric);
    header->setToolTip(kPerClassPrefix + metric + QStringLiteral("/<class>"));
    return header;
}

} // namespace

PerClassResults::PerClassResults(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("perClassResults"));
    title_ = new QLabel(this);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("perClassTable"));
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMinimumHeight(120);
    table_->setMaximumHeight(220); // the plots keep the room; the table scrolls
    confusion_title_ = new QLabel(this);
    confusion_ = new QTableWidget(this);
    confusion_->setObjectName(QStringLiteral("confusionMatrix"));
    confusion_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    confusion_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    confusion_->setMinimumHeight(120);
    confusion_->setMaximumHeight(220);
    auto* per_class = new QVBoxLayout;
    per_class->addWidget(title_);
    per_class->addWidget(table_);
    curves_title_ = new QLabel(this);
    curves_title_->setWordWrap(true);
    curves_title_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    curves_ = new PrecisionRecallPlot(this);
    curves_->setMinimumHeight(160);
    curves_->setMaximumHeight(220);
    connect(table_, &QTableWidget::itemSelectionChanged, this,
            &PerClassResults::showSelectedCurves);
    auto* matrix = new QVBoxLayout;
    matrix->addWidget(confusion_title_);
    matrix->addWidget(confusion_);
    matrix->addWidget(curves_title_);
    matrix->addWidget(curves_);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(per_class, 1);
    layout->addLayout(matrix, 1);
    clear();
}

void PerClassResults::setValidation(const kiln::train::ValidationMetrics& metrics) {
    const bool per_class = showPerClass(metrics);
    const bool confusion = showConfusion(metrics.confusion, metrics.step);
    const bool curves = showCurves(metrics.precision_recall, metrics.step);
    if (per_class || confusion || curves) {
        show();
    }
}

bool PerClassResults::showConfusion(const kiln::train::ConfusionCounts& confusion,
                                    std::int64_t step) {
    const auto classes = static_cast<int>(confusion.classes.size());
    if (classes == 0 || confusion.counts.size() != std::size_t(classes) * std::size_t(classes)) {
        return false; // keep what the last validation with a matrix showed
    }
    QStringList names;
    for (const std::string& name : confusion.classes) {
        names << QString::fromStdString(name);
    }
    confusion_->clear();
    confusion_->setRowCount(classes);
    confusion_->setColumnCount(classes);
    confusion_->setHorizontalHeaderLabels(names);
    confusion_->setVerticalHeaderLabels(names);
    const QColor shade = palette().color(QPalette::Highlight);
    for (int row = 0; row < classes; ++row) {
        std::int64_t total = 0;
        for (int column = 0; column < classes; ++column) {
            total += confusion.counts[std::size_t(row * classes + column)];
        }
        for (int column = 0; column < classes; ++column) {
            const std::int64_t count = confusion.counts[std::size_t(row * classes + column)];
            const double fraction = total > 0 ? double(count) / double(total) : 0.0;
            auto* item = new QTableWidgetItem(
                total > 0 ? QStringLiteral("%1%").arg(100.0 * fraction, 0, 'f', 1) : QString());
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(tr("true %1, predicted %2: %3 of %4")
                                 .arg(names[row], names[column])
                                 .arg(count)
                                 .arg(total));
            QColor background = shade;
            background.setAlphaF(0.1 + 0.9 * fraction);
            if (count > 0) {
                item->setBackground(background);
            }
            confusion_->setItem(row, column, item);
        }
    }
    confusion_title_->setText(
        tr("Confusion matrix, validation at step %1 (rows: true class, columns: predicted)")
            .arg(step));
    confusion_title_->show();
    confusion_->show();
    return true;
}

bool PerClassResults::showCurves(const kiln::train::PrecisionRecallCurves& curves,
                                 std::int64_t step) {
    if (curves.classes.empty()) {
        return false; // keep what the last validation with curves showed
    }
    QStringList classes;
    for (const std::string& name : curves.classes) {
        classes << QString::fromStdString(name);
    }
    curves_->setCurves(curves, classes);
    showSelectedCurves();
    curves_title_->setText(
        tr("Precision-recall at step %1 (select classes in the table to compare them)").arg(step));
    curves_title_->show();
    curves_->show();
    return true;
}

void PerClassResults::showSelectedCurves() {
    QStringList selected;
    for (const QTableWidgetItem* item : table_->selectedItems()) {
        const QTableWidgetItem* name = table_->item(item->row(), 0);
        if (name != nullptr && !selected.contains(name->text())) {
            selected << name->text();
        }
    }
    curves_->showOnly(selected);
}

int PerClassResults::curveCount() const {
    return curves_->curveCount();
}

QString PerClassResults::confusionCell(int row, int column) const {
    const QTableWidgetItem* item = confusion_->item(row, column);
    return item != nullptr ? item->text() : QString();
}

bool PerClassResults::showPerClass(const kiln::train::ValidationMetrics& metrics) {
    QStringList columns;
    QStringList rows;
    QMap<QString, QMap<QString, double>> values; // class -> metric -> value
    for (const auto& [key, value] : metrics.values) {
        const QString name = QString::fromStdString(key);
        if (!name.startsWith(kPerClassPrefix)) {
            continue;
        }
        // Class names may hold slashes; the metric's name does not.
        const QString rest = name.mid(kPerClassPrefix.size());
        const int slash = rest.indexOf(QLatin1Char('/'));
        if (slash <= 0) {
            continue;
        }
        const QString metric = rest.left(slash);
        const QString cls = rest.mid(slash + 1);
        if (!columns.contains(metric)) {
            columns << metric;
        }
        if (!rows.contains(cls)) {
            rows << cls;
        }
        values[cls][metric] = value;
    }
    if (rows.isEmpty()) {
        return false; // keep what the last validation with per-class values showed
    }
    table_->setSortingEnabled(false);
    table_->clear();
    table_->setColumnCount(int(columns.size()) + 1);
    table_->setRowCount(int(rows.size()));
    table_->setHorizontalHeaderItem(0, new QTableWidgetItem(tr("Class")));
    for (int column = 0; column < columns.size(); ++column) {
        table_->setHorizontalHeaderItem(column + 1, metric_header(columns[column]));
    }
    for (int row = 0; row < rows.size(); ++row) {
        auto* name = new QTableWidgetItem(rows[row]);
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, 0, name);
        for (int column = 0; column < columns.size(); ++column) {
            const auto found = values[rows[row]].find(columns[column]);
            if (found != values[rows[row]].end()) {
                table_->setItem(row, column + 1, number_item(*found));
            }
        }
    }
    table_->setSortingEnabled(true);
    title_->setText(tr("Per class, validation at step %1").arg(metrics.step));
    title_->show();
    table_->show();
    return true;
}

void PerClassResults::clear() {
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    title_->clear();
    confusion_->clear();
    confusion_->setRowCount(0);
    confusion_->setColumnCount(0);
    confusion_title_->clear();
    curves_->setCurves({}, {});
    curves_title_->clear();
    // Each part shows once a validation fills it: detection has curves, not a confusion matrix.
    for (QWidget* part :
         {static_cast<QWidget*>(title_), static_cast<QWidget*>(table_),
          static_cast<QWidget*>(confusion_title_), static_cast<QWidget*>(confusion_),
          static_cast<QWidget*>(curves_title_), static_cast<QWidget*>(curves_)}) {
        part->hide();
    }
    hide();
}

QString PerClassResults::value(const QString& name, const QString& metric) const {
    int column = -1;
    for (int c = 0; c < table_->columnCount(); ++c) {
        if (table_->horizontalHeaderItem(c)->data(Qt::UserRole).toString() == metric) {
            column = c;
        }
    }
    for (int row = 0; row < table_->rowCount() && column >= 0; ++row) {
        if (table_->item(row, 0)->text() == name) {
            const QTableWidgetItem* item = table_->item(row, column);
            return item != nullptr ? item->text() : QString();
        }
    }
    return {};
}

} // namespace kiln::gui
