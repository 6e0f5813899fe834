#include "plots/per_class_results.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

constexpr char kPerClassPrefix[] = "val_metric_per_class/";

// A number that sorts as a number and shows three decimals.
QTableWidgetItem* number_item(double value) {
    auto* item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, QString::number(value, 'f', 3));
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

} // namespace

PerClassResults::PerClassResults(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("perClassResults"));
    title_ = new QLabel(this);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("perClassTable"));
    table_->verticalHeader()->hide();
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setMinimumHeight(120);
    table_->setMaximumHeight(220); // the plots keep the room; the table scrolls
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(table_);
    hide();
}

void PerClassResults::setValidation(const kiln::train::ValidationMetrics& metrics) {
    QStringList columns;
    QStringList rows;
    QMap<QString, QMap<QString, double>> values; // class -> metric -> value
    for (const auto& [key, value] : metrics.values) {
        const QString name = QString::fromStdString(key);
        if (!name.startsWith(QLatin1String(kPerClassPrefix))) {
            continue;
        }
        // Class names may hold slashes; the metric's name does not.
        const QString rest = name.mid(int(sizeof kPerClassPrefix) - 1);
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
        return; // keep what the last validation with per-class values showed
    }
    table_->setSortingEnabled(false);
    table_->clear();
    table_->setColumnCount(int(columns.size()) + 1);
    table_->setRowCount(int(rows.size()));
    table_->setHorizontalHeaderLabels(QStringList{tr("class")} + columns);
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
    show();
}

void PerClassResults::clear() {
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    title_->clear();
    hide();
}

QString PerClassResults::value(const QString& name, const QString& metric) const {
    int column = -1;
    for (int c = 0; c < table_->columnCount(); ++c) {
        if (table_->horizontalHeaderItem(c)->text() == metric) {
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
