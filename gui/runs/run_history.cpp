#include "runs/run_history.h"

#include "core/error.h"
#include "plots/plot_theme.h"
#include "plots/qcustomplot.h"
#include "track/run_directory.h"
#include "track/run_store.h"

#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace kiln::gui {
namespace {

QString duration_text(double seconds) {
    const auto total = static_cast<qint64>(seconds + 0.5);
    return total >= 3600
               ? QStringLiteral("%1:%2:%3")
                     .arg(total / 3600)
                     .arg(total / 60 % 60, 2, 10, QLatin1Char('0'))
                     .arg(total % 60, 2, 10, QLatin1Char('0'))
               : QStringLiteral("%1:%2").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
}

void read_database(const QString& directory, QVector<RunRow>& rows, QStringList* problems) {
    try {
        const track::RunStore store(kiln::track::RunDirectory(directory.toStdString()).run_db(),
                                    false);
        for (const track::RunRecord& run : store.runs()) {
            const track::RunOverview overview = store.overview(run);
            RunRow row;
            row.directory = directory;
            row.id = run.id;
            row.status = QString::fromStdString(track::to_string(run.status));
            row.method = QString::fromStdString(run.method);
            row.model = QString::fromStdString(run.model);
            row.started = run.started;
            row.duration = overview.duration;
            row.steps = overview.steps;
            row.final_loss = overview.final_loss;
            row.images_per_second = overview.median_images_per_second;
            row.data_wait = overview.median_data_wait;
            row.task = QString::fromStdString(overview.task);
            row.watch_metric = QString::fromStdString(overview.watch_metric);
            row.best_validation = overview.best_validation;
            const nlohmann::json config = nlohmann::json::parse(run.config, nullptr, false);
            if (config.is_object()) {
                const nlohmann::json size = config.value("transform_args", nlohmann::json::object())
                                                .value("image_size", nlohmann::json());
                row.image_size = size.is_array() && !size.empty() && size[0].is_number_integer()
                                     ? size[0].get<int>()
                                 : size.is_number_integer() ? size.get<int>()
                                                            : 0;
            }
            rows.append(row);
        }
    } catch (const std::exception& error) {
        if (problems != nullptr) {
            problems->append(QString::fromStdString(error.what()));
        }
    }
}

} // namespace

QVector<RunRow> read_runs(const QString& folder, QStringList* problems) {
    QVector<RunRow> rows;
    if (folder.isEmpty() || !QDir(folder).exists()) {
        return rows;
    }
    QStringList directories{folder};
    for (const QString& child : QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString path = QDir(folder).filePath(child);
        directories << path;
        for (const QString& grandchild : QDir(path).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            directories << QDir(path).filePath(grandchild);
        }
    }
    for (const QString& directory : directories) {
        if (std::filesystem::exists(track::RunDirectory(directory.toStdString()).run_db())) {
            read_database(directory, rows, problems);
        }
    }
    std::sort(rows.begin(), rows.end(),
              [](const RunRow& a, const RunRow& b) { return a.started > b.started; });
    return rows;
}

void RunHistoryModel::setRuns(QVector<RunRow> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : DataWait + 1;
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= runs_.size()) {
        return {};
    }
    const RunRow& run = runs_[index.row()];
    if (role == Qt::ToolTipRole) {
        return QDir::toNativeSeparators(run.directory);
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Steps) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case Run:
        return QFileInfo(run.directory).fileName();
    case Status:
        return statusText(run.status);
    case Method: // a fine-tuning run has a task instead
        return run.method.isEmpty() ? run.task : run.method;
    case Model:
        return run.model;
    case Started:
        return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(run.started))
            .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    case Duration:
        return duration_text(run.duration);
    case Steps:
        return run.steps;
    case Loss:
        return run.steps > 0 ? QString::number(run.final_loss, 'f', 4) : QString();
    case BestValidation:
        return run.best_validation ? QStringLiteral("%1 %2")
                                         .arg(run.watch_metric.section(QLatin1Char('/'), -1))
                                         .arg(*run.best_validation, 0, 'f', 4)
                                   : QString();
    case Throughput:
        return QString::number(run.images_per_second, 'f', 1);
    case DataWait:
        return QStringLiteral("%1%").arg(100.0 * run.data_wait, 0, 'f', 1);
    default:
        return {};
    }
}

track::RecordedHistory read_recorded_history(const QString& directory) {
    const track::RunStore store(track::RunDirectory(directory.toStdString()).run_db(), false);
    const std::vector<track::RunRecord> runs = store.runs();
    if (runs.empty()) {
        throw Error("\"" + directory.toStdString() + "\" has no recorded run");
    }
    return track::recorded_history(store.metrics(runs.back().id),
                                   store.overview(runs.back()).watch_metric);
}

QString RunHistoryModel::statusText(const QString& status) {
    // The words the rest of Studio uses: Run > Stop "stops" a run.
    if (status == QLatin1String("cancelled")) {
        return tr("Stopped");
    }
    if (status == QLatin1String("finished")) {
        return tr("Finished");
    }
    if (status == QLatin1String("interrupted")) {
        return tr("Interrupted");
    }
    if (status == QLatin1String("failed")) {
        return tr("Failed");
    }
    if (status == QLatin1String("running")) {
        return tr("Running");
    }
    return status;
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Run:
        return tr("Run");
    case Status:
        return tr("Status");
    case Method:
        return tr("Method or task");
    case Model:
        return tr("Model");
    case Started:
        return tr("Started");
    case Duration:
        return tr("Duration");
    case Steps:
        return tr("Steps");
    case Loss:
        return tr("Final loss");
    case BestValidation:
        return tr("Best validation");
    case Throughput:
        return tr("Images/s");
    case DataWait:
        return tr("data_wait (median)");
    default:
        return {};
    }
}

RunHistoryView::RunHistoryView(QWidget* parent)
    : QWidget(parent), model_(new RunHistoryModel(this)), table_(new QTableView(this)),
      job_(this, QStringLiteral("run history")) {
    setObjectName(QStringLiteral("runHistoryView"));
    table_->setObjectName(QStringLiteral("runTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection); // several: overlay
    // Each column as wide as what it shows; the table, not the last column, takes the rest.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->verticalHeader()->hide();
    auto* refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshRunsButton"));
    connect(refresh, &QPushButton::clicked, this, &RunHistoryView::refresh);
    auto* open = new QPushButton(tr("Open Folder"), this);
    open->setObjectName(QStringLiteral("openRunFolderButton"));
    connect(open, &QPushButton::clicked, this, &RunHistoryView::openSelectedFolder);
    resume_ = new QPushButton(tr("Resume"), this);
    resume_->setObjectName(QStringLiteral("resumeRunButton"));
    resume_->setToolTip(tr("Continue an interrupted or stopped run from its last checkpoint"));
    connect(resume_, &QPushButton::clicked, this, &RunHistoryView::resumeSelectedRun);
    export_ = new QPushButton(tr("Export Model..."), this);
    export_->setObjectName(QStringLiteral("exportRunModelButton"));
    export_->setToolTip(tr("Write the run's model as ONNX, for ONNX Runtime and TensorRT"));
    connect(export_, &QPushButton::clicked, this, [this] {
        if (const RunRow* run = selectedRun()) {
            Q_EMIT exportRequested(run->directory);
        }
    });
    auto* remove = new QPushButton(tr("Delete Run..."), this);
    remove->setObjectName(QStringLiteral("deleteRunButton"));
    connect(remove, &QPushButton::clicked, this, &RunHistoryView::deleteSelectedRun);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(refresh);
    buttons->addWidget(open);
    buttons->addWidget(resume_);
    buttons->addWidget(export_);
    buttons->addWidget(remove);
    buttons->addStretch();
    curves_ = new QCustomPlot(this);
    curves_->setObjectName(QStringLiteral("runCurves"));
    curves_->setMinimumHeight(220);
    curves_->xAxis->setLabel(tr("step"));
    curves_->yAxis->setLabel(tr("train_loss"));
    curves_->legend->setVisible(true);
    curves_->legend->setFont(QFont(font().family(), 8));
    curves_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    followPalette(curves_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_, 1);
    layout->addWidget(curves_, 1);
    layout->addLayout(buttons);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateButtons();
        updateCurves();
    });
    updateButtons();
}

void RunHistoryView::updateButtons() {
    const RunRow* run = selectedRun();
    resume_->setEnabled(run != nullptr && (run->status == QStringLiteral("interrupted") ||
                                           run->status == QStringLiteral("cancelled")));
    export_->setEnabled(run != nullptr);
}

int RunHistoryView::curveCount() const {
    return curves_->graphCount();
}

void RunHistoryView::updateCurves() {
    static const QList<QColor> colours = {QColor(31, 119, 180),  QColor(255, 127, 14),
                                          QColor(44, 160, 44),   QColor(214, 39, 40),
                                          QColor(148, 103, 189), QColor(140, 86, 75)};
    curves_->clearGraphs();
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    for (const QModelIndex& row : rows) {
        const RunRow& run = model_->runs().at(row.row());
        QVector<double> steps, losses;
        try {
            const track::RunStore store(
                kiln::track::RunDirectory(run.directory.toStdString()).run_db(), false);
            for (const track::MetricPoint& point : store.metrics(run.id, "train_loss")) {
                steps << static_cast<double>(point.step);
                losses << point.value;
            }
        } catch (const std::exception&) {
            continue; // the table said what it could; an unreadable run draws nothing
        }
        QCPGraph* graph = curves_->addGraph();
        graph->setName(QFileInfo(run.directory).fileName());
        graph->setPen(QPen(colours[curves_->graphCount() % colours.size()], 1.5));
        graph->setData(steps, losses, true);
    }
    // Nothing selected: empty axes, no legend, rather than the last selection's frame.
    curves_->legend->setVisible(curves_->graphCount() > 0);
    if (curves_->graphCount() > 0) {
        curves_->rescaleAxes();
    } else {
        curves_->xAxis->setRange(0, 1);
        curves_->yAxis->setRange(0, 1);
    }
    curves_->replot();
}

void RunHistoryView::resumeSelectedRun() {
    const RunRow* run = selectedRun();
    if (run != nullptr && resume_->isEnabled()) {
        Q_EMIT resumeRequested(run->directory);
    }
}

void RunHistoryView::setFolder(const QString& folder) {
    folder_ = folder;
    refresh();
}

RunHistoryView::~RunHistoryView() {
    job_.stopAndWait();
}

void RunHistoryView::refresh() {
    if (job_.isRunning()) {
        refresh_again_ = true; // the folder or the runs changed meanwhile
        return;
    }
    const QString folder = folder_;
    job_.start(
        [this, folder](const StopToken&) {
            QVector<RunRow> runs = read_runs(folder);
            QMetaObject::invokeMethod(this, [this, runs = std::move(runs)]() mutable {
                model_->setRuns(std::move(runs));
                table_->resizeColumnsToContents();
                updateButtons();
                updateCurves();
            });
        },
        [this] {
            if (refresh_again_) {
                refresh_again_ = false;
                refresh();
            } else {
                Q_EMIT refreshed();
            }
        });
}

const RunRow* RunHistoryView::selectedRun() const {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.size() != 1) { // resume, open and delete act on one run
        return nullptr;
    }
    return &model_->runs().at(rows.first().row());
}

void RunHistoryView::openSelectedFolder() {
    if (const RunRow* run = selectedRun()) {
        QDesktopServices::openUrl(QUrl::fromLocalFile(run->directory));
    }
}

bool RunHistoryView::deleteSelectedRun() {
    const RunRow* run = selectedRun();
    if (run == nullptr) {
        return false;
    }
    const QString directory = run->directory;
    QMessageBox box(QMessageBox::Warning, tr("Delete Run"),
                    tr("Delete the run in %1 with its checkpoints, exported model and logs?")
                        .arg(QDir::toNativeSeparators(directory)),
                    QMessageBox::Yes | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("deleteRunBox"));
    box.setDefaultButton(QMessageBox::Cancel);
    if (box.exec() != QMessageBox::Yes) {
        return false;
    }
    const bool removed = QDir(directory).removeRecursively();
    refresh();
    if (!removed) {
        QMessageBox::warning(this, tr("Delete Run"),
                             tr("Some files in %1 could not be deleted; check their permissions.")
                                 .arg(QDir::toNativeSeparators(directory)));
    }
    return removed;
}

} // namespace kiln::gui
