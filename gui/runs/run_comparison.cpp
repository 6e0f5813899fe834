#include "runs/run_comparison.h"

#include "config/config_overrides.h"
#include "core/json_text.h"
#include "track/run_directory.h"
#include "track/run_store.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <map>
#include <nlohmann/json.hpp>

namespace kiln::gui {
namespace {

// Each validation metric's value at the run's last evaluation (per-class values left out:
// val_metric/iou/cat has two slashes). Empty when run.db cannot be read.
std::map<QString, double> last_validation(const RunRow& run) {
    std::map<QString, double> values;
    try {
        const track::RunReader store(track::RunDirectory(run.directory.toStdString()).run_db());
        for (const std::string& key : store.metric_keys(run.id)) {
            const QString name = QString::fromStdString(key);
            if (name.startsWith(QStringLiteral("val_")) && name.count(QLatin1Char('/')) < 2) {
                const auto points = store.metrics(run.id, key);
                if (!points.empty()) {
                    values[name] = points.back().value;
                }
            }
        }
    } catch (const std::exception&) {
        // The table already reported an unreadable run.db; here it only has no metrics.
    }
    return values;
}

} // namespace

RunComparisonDialog::RunComparisonDialog(const QVector<RunRow>& runs, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget(this)),
      only_differences_(new QCheckBox(tr("Only differing settings"), this)),
      note_(new QLabel(this)) {
    setObjectName(QStringLiteral("runComparisonDialog"));
    setWindowTitle(tr("Compare Runs"));
    table_->setObjectName(QStringLiteral("comparisonTable"));
    table_->setColumnCount(static_cast<int>(runs.size()));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    QStringList headers;
    for (const RunRow& run : runs) {
        headers << run.displayName();
    }
    table_->setHorizontalHeaderLabels(headers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    addResults(runs);
    addValidation(runs);
    addSettings(runs);
    QSet<QString> tasks;
    for (const RunRow& run : runs) {
        tasks.insert(run.task);
    }
    note_->setObjectName(QStringLiteral("comparisonNote"));
    note_->setWordWrap(true);
    note_->setText(tasks.size() > 1 ? tr("These runs are of different tasks: their validation "
                                         "metrics do not compare.")
                                    : QString());
    note_->setVisible(tasks.size() > 1);

    only_differences_->setObjectName(QStringLiteral("onlyDifferences"));
    only_differences_->setToolTip(tr("Hide the settings that every run shares"));
    connect(only_differences_, &QCheckBox::toggled, this, &RunComparisonDialog::setOnlyDifferences);
    only_differences_->setChecked(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note_);
    layout->addWidget(table_, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(only_differences_);
    bottom->addStretch();
    bottom->addWidget(buttons);
    layout->addLayout(bottom);
    resize(720, 560);
}

// Results, formatted as the Run History table formats them.
void RunComparisonDialog::addResults(const QVector<RunRow>& runs) {
    RunHistoryModel formatted;
    formatted.setRuns(runs);
    addSection(tr("Results"));
    for (const int column :
         {RunHistoryModel::Status, RunHistoryModel::Method, RunHistoryModel::Model,
          RunHistoryModel::Dataset, RunHistoryModel::Steps, RunHistoryModel::Duration,
          RunHistoryModel::Loss, RunHistoryModel::BestValidation, RunHistoryModel::Throughput,
          RunHistoryModel::DataWait, RunHistoryModel::Tags, RunHistoryModel::Notes}) {
        QStringList values;
        for (int row = 0; row < formatted.rowCount(); ++row) {
            values << formatted.data(formatted.index(row, column), Qt::DisplayRole).toString();
        }
        addRow(formatted.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString(), values);
    }
}

// Validation metrics at each run's last evaluation.
void RunComparisonDialog::addValidation(const QVector<RunRow>& runs) {
    std::vector<std::map<QString, double>> validation;
    std::map<QString, int> metric_runs;
    for (const RunRow& run : runs) {
        validation.push_back(last_validation(run));
        for (const auto& [name, value] : validation.back()) {
            ++metric_runs[name];
        }
    }
    if (!metric_runs.empty()) {
        addSection(tr("Validation (last evaluation)"));
        for (const auto& [name, count] : metric_runs) {
            QStringList values;
            for (const auto& values_of_run : validation) {
                const auto found = values_of_run.find(name);
                values << (found == values_of_run.end() ? QString()
                                                        : QString::number(found->second, 'f', 4));
            }
            addRow(name, values, name.contains(QStringLiteral("loss")) ? -1 : +1);
        }
    }
}

// Every setting, flattened; the rows that differ marked.
void RunComparisonDialog::addSettings(const QVector<RunRow>& runs) {
    std::vector<std::map<std::string, std::string>> settings;
    std::map<std::string, int> keys;
    for (const RunRow& run : runs) {
        settings.emplace_back();
        const nlohmann::json config = parse_json_or_discarded(run.config.toStdString());
        if (config.is_object()) {
            for (const auto& [key, value] : config::flatten_settings(config)) {
                settings.back()[key] = value;
                ++keys[key];
            }
        }
    }
    addSection(tr("Settings"));
    QFont bold = font();
    bold.setBold(true);
    QColor marked = palette().color(QPalette::Highlight);
    marked.setAlpha(60);
    for (const auto& [key, count] : keys) {
        QStringList values;
        for (const auto& run_settings : settings) {
            const auto found = run_settings.find(key);
            values << (found == run_settings.end() ? tr("(not set)")
                                                   : QString::fromStdString(found->second));
        }
        const int row = addRow(QString::fromStdString(key), values);
        if (values.count(values.front()) == values.size()) {
            equal_setting_rows_ << row;
            continue;
        }
        ++differing_;
        table_->verticalHeaderItem(row)->setFont(bold);
        for (int column = 0; column < table_->columnCount(); ++column) {
            table_->item(row, column)->setBackground(marked);
        }
    }
}

void RunComparisonDialog::setOnlyDifferences(bool only) {
    if (only_differences_->isChecked() != only) {
        only_differences_->setChecked(only); // comes back here through toggled
        return;
    }
    for (const int row : equal_setting_rows_) {
        table_->setRowHidden(row, only);
    }
}

int RunComparisonDialog::rowOf(const QString& label) const {
    for (int row = 0; row < table_->rowCount(); ++row) {
        if (table_->verticalHeaderItem(row) != nullptr &&
            table_->verticalHeaderItem(row)->text() == label) {
            return row;
        }
    }
    return -1;
}

void RunComparisonDialog::addSection(const QString& title) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    auto* header = new QTableWidgetItem(title);
    QFont bold = font();
    bold.setBold(true);
    header->setFont(bold);
    table_->setVerticalHeaderItem(row, header);
    table_->setSpan(row, 0, 1, table_->columnCount());
}

int RunComparisonDialog::addRow(const QString& label, const QStringList& values, int best) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setVerticalHeaderItem(row, new QTableWidgetItem(label));
    int best_column = -1;
    double best_value = 0;
    for (int column = 0; column < values.size(); ++column) {
        table_->setItem(row, column, new QTableWidgetItem(values[column]));
        bool number = false;
        const double value = values[column].toDouble(&number);
        if (best != 0 && number && (best_column < 0 || value * best > best_value * best)) {
            best_column = column;
            best_value = value;
        }
    }
    if (best_column >= 0 && values.size() > 1) {
        QFont bold = font();
        bold.setBold(true);
        table_->item(row, best_column)->setFont(bold);
    }
    return row;
}

} // namespace kiln::gui
