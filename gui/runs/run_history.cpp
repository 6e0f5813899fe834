#include "runs/run_history.h"

#include "common/message_boxes.h"
#include "config/task_names.h"
#include "core/error.h"
#include "core/json_text.h"
#include "plots/metric_titles.h"
#include "plots/plot_theme.h"
#include "plots/qcustomplot.h"
#include "plots/run_series.h"
#include "runs/run_comparison.h"
#include "track/run_directory.h"
#include "track/run_lock.h"
#include "track/run_store.h"

#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextDocument>
#include <QUndoCommand>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <utility>

namespace kiln::gui {
namespace {

// The columns by name, as the hidden ones are kept in the settings (stable across languages and
// versions that add columns).
constexpr const char* kColumnKeys[] = {
    "run",        "status",        "method",    "model",    "dataset", "length",
    "image_size", "learning_rate", "started",   "duration", "steps",   "loss",
    "best",       "throughput",    "data_wait", "tags",     "notes"};
static_assert(std::size(kColumnKeys) == RunHistoryModel::ColumnCount);
const QString kHiddenColumnsKey = QStringLiteral("runHistory/hiddenColumns");

QString duration_text(double seconds) {
    const auto total = static_cast<qint64>(seconds + 0.5);
    return total >= 3600
               ? QStringLiteral("%1:%2:%3")
                     .arg(total / 3600)
                     .arg(total / 60 % 60, 2, 10, QLatin1Char('0'))
                     .arg(total % 60, 2, 10, QLatin1Char('0'))
               : QStringLiteral("%1:%2").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
}

// A dataset by the name people know it: the folder's name, with its parent's when the folder
// is only a split ("fashion-mnist/train").
QString path_name(const std::string& path) {
    const QFileInfo file(QString::fromStdString(path));
    static const QStringList kSplitNames = {QStringLiteral("train"),  QStringLiteral("training"),
                                            QStringLiteral("val"),    QStringLiteral("validation"),
                                            QStringLiteral("images"), QStringLiteral("test")};
    const QString name =
        file.fileName().isEmpty() ? QDir(file.filePath()).dirName() : file.fileName();
    return kSplitNames.contains(name.toLower())
               ? QFileInfo(file.path()).fileName() + QLatin1Char('/') + name
               : name;
}

// What a run's `data` setting trained on: a folder, several (the first and a count), or a
// fine-tuning dataset's training split.
QString dataset_name(const nlohmann::json& data) {
    if (data.is_string()) {
        return path_name(data.get<std::string>());
    }
    if (data.is_array() && !data.empty()) {
        const QString first = dataset_name(data.front());
        return data.size() == 1 ? first : QStringLiteral("%1 +%2").arg(first).arg(data.size() - 1);
    }
    if (data.is_object()) {
        for (const char* key : {"train", "images", "annotations", "path"}) {
            if (data.contains(key)) {
                return dataset_name(data[key]);
            }
        }
    }
    return {};
}

void read_settings(const std::string& config_json, RunRow& row) {
    const nlohmann::json config = parse_json_or_discarded(config_json);
    if (!config.is_object()) {
        return;
    }
    row.config = QString::fromStdString(config_json);
    const nlohmann::json size = setting_in_group(config, "transform_args", "image_size");
    row.image_size = size.is_array() && !size.empty() && size[0].is_number_integer()
                         ? size[0].get<int>()
                     : size.is_number_integer() ? size.get<int>()
                                                : 0;
    row.dataset = dataset_name(config.value("data", nlohmann::json()));
    const nlohmann::json steps = config.value("steps", nlohmann::json());
    const nlohmann::json epochs = config.value("epochs", nlohmann::json());
    row.length = steps.is_number_integer()
                     ? RunHistoryModel::tr("%Ln step(s)", nullptr, steps.get<int>())
                 : epochs.is_number_integer()
                     ? RunHistoryModel::tr("%Ln epoch(s)", nullptr, epochs.get<int>())
                     : QString();
    const nlohmann::json lr = setting_in_group(config, "optim_args", "lr");
    row.learning_rate =
        lr.is_number() ? QLocale().toString(lr.get<double>(), 'g', 4) : RunHistoryModel::tr("auto");
}

void read_database(const QString& directory, QVector<RunRow>& rows, QStringList* problems) {
    try {
        const track::RunReader store(kiln::track::RunDirectory(directory.toStdString()).run_db());
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
            read_settings(run.config, row);
            row.name = QString::fromStdString(run.labels.name);
            row.notes = QString::fromStdString(run.labels.notes);
            for (const std::string& tag : run.labels.tags) {
                row.tags << QString::fromStdString(tag);
            }
            rows.append(row);
        }
    } catch (const std::exception& error) {
        if (problems != nullptr) {
            problems->append(QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(directory),
                                                          QString::fromStdString(error.what())));
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
        std::error_code unreachable; // a folder it may not enter holds no run it can list
        if (std::filesystem::exists(track::RunDirectory(directory.toStdString()).run_db(),
                                    unreachable)) {
            read_database(directory, rows, problems);
        }
    }
    std::sort(rows.begin(), rows.end(),
              [](const RunRow& a, const RunRow& b) { return a.started > b.started; });
    return rows;
}

RunHistoryModel::RunHistoryModel(QObject* parent)
    : QAbstractTableModel(parent), undoStack_(new QUndoStack(this)) {}

void RunHistoryModel::setRuns(QVector<RunRow> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunRow::displayName() const {
    return name.isEmpty() ? QFileInfo(directory).fileName() : name;
}

QString RunRow::trainedAs() const {
    return method.isEmpty() ? RunHistoryModel::taskText(task) : method; // fine-tuning: a task
}

QString RunRow::checkpoint() const {
    return runCheckpoint(directory);
}

QString RunRow::pretrainedModel() const {
    if (method.isEmpty()) {
        return {};
    }
    return QString::fromStdString(
        track::RunDirectory(directory.toStdString()).pretrained_model().string());
}

QString runCheckpoint(const QString& directory) {
    const track::RunDirectory run(directory.toStdString());
    for (const std::filesystem::path& file : {run.best_checkpoint(), run.last_checkpoint()}) {
        const QString path = QString::fromStdString(file.string());
        if (QFileInfo::exists(path)) {
            return path;
        }
    }
    return {};
}

namespace {

bool is_numeric(int column) {
    switch (column) {
    case RunHistoryModel::ImageSize:
    case RunHistoryModel::LearningRate:
    case RunHistoryModel::Steps:
    case RunHistoryModel::Loss:
    case RunHistoryModel::BestValidation:
    case RunHistoryModel::Throughput:
    case RunHistoryModel::DataWait:
        return true;
    default:
        return false;
    }
}

// A cell's value to sort by: numbers as numbers, the rest as its text.
QVariant sort_value(const RunRow& run, int column, const QVariant& shown) {
    switch (column) {
    case RunHistoryModel::Started:
        return run.started;
    case RunHistoryModel::Duration:
        return run.duration;
    case RunHistoryModel::Length: // steps or epochs: by the number
        return run.length.section(QLatin1Char(' '), 0, 0).toLongLong();
    case RunHistoryModel::ImageSize:
        return run.image_size;
    case RunHistoryModel::LearningRate:
        return run.learning_rate.toDouble();
    case RunHistoryModel::Steps:
        return run.steps;
    case RunHistoryModel::Loss:
        return run.final_loss;
    case RunHistoryModel::BestValidation:
        return run.best_validation.value_or(-1e300);
    case RunHistoryModel::Throughput:
        return run.images_per_second;
    case RunHistoryModel::DataWait:
        return run.data_wait;
    default:
        return shown.toString().toLower();
    }
}

} // namespace

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= runs_.size()) {
        return {};
    }
    const RunRow& run = runs_[index.row()];
    if (role == Qt::ToolTipRole) {
        // As written: Qt renders a tooltip that looks like HTML, and reads the files its
        // <img> tags name.
        return Qt::convertFromPlainText(index.column() == Notes && !run.notes.isEmpty()
                                            ? run.notes
                                            : QDir::toNativeSeparators(run.directory));
    }
    if (role == Qt::TextAlignmentRole && is_numeric(index.column())) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::EditRole) {
        switch (index.column()) {
        case Run:
            return run.displayName();
        case Tags:
            return run.tags.join(QStringLiteral(", "));
        case Notes:
            return run.notes;
        default:
            return {};
        }
    }
    if (role == Qt::UserRole) {
        return sort_value(run, index.column(), data(index, Qt::DisplayRole));
    }
    if (role == kFilterRole) {
        return index.column() == Notes ? run.notes : data(index, Qt::DisplayRole);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case Run:
        return run.displayName();
    case Status:
        return statusText(run.status);
    case Method:
        return run.trainedAs();
    case Model:
        return run.model;
    case Dataset:
        return run.dataset;
    case Length:
        return run.length;
    case ImageSize:
        return run.image_size > 0 ? QString::number(run.image_size) : QString();
    case LearningRate:
        return run.learning_rate;
    case Started:
        return run.started > 0 ? QDateTime::fromSecsSinceEpoch(static_cast<qint64>(run.started))
                                     .toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                               : QString(); // unknown: a bad record
    case Duration:
        return duration_text(run.duration);
    case Steps:
        return run.steps;
    case Loss:
        return run.steps > 0 ? QLocale().toString(run.final_loss, 'f', 4) : QString();
    case BestValidation:
        return run.best_validation ? QStringLiteral("%1 %2")
                                         .arg(metricTitle(run.watch_metric))
                                         .arg(QLocale().toString(*run.best_validation, 'f', 4))
                                   : QString();
    case Throughput:
        return QLocale().toString(run.images_per_second, 'f', 1); // 10.000,5 in German
    case DataWait:
        return QLocale().toString(100.0 * run.data_wait, 'f', 1) + QLatin1Char('%');
    case Tags:
        return run.tags.join(QStringLiteral(", "));
    case Notes: // one line in the table; the whole text in the tooltip and the editor
        return run.notes.section(QLatin1Char('\n'), 0, 0);
    default:
        return {};
    }
}

Qt::ItemFlags RunHistoryModel::flags(const QModelIndex& index) const {
    const Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    const int column = index.column();
    return column == Run || column == Tags || column == Notes ? flags | Qt::ItemIsEditable : flags;
}

namespace {

// An edit of a run's name, tags or notes: done and undone by writing the run's labels. One whose
// write fails (its run.db deleted, unwritable or busy; labelsNotSaved says so) leaves the
// history: Undo would otherwise step past a change it did not make.
class RunLabelsEdit : public QUndoCommand {
public:
    RunLabelsEdit(RunHistoryModel* model, RunRow before, RunRow after, const QString& text)
        : QUndoCommand(text), model_(model), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { setObsolete(!model_->writeLabels(before_)); }
    void redo() override {
        if (!written_) { // setData wrote it before pushing
            setObsolete(!model_->writeLabels(after_));
        }
        written_ = false;
    }

private:
    RunHistoryModel* model_;
    RunRow before_;
    RunRow after_;
    bool written_ = true;
};

bool sameLabels(const RunRow& a, const RunRow& b) {
    return a.name == b.name && a.tags == b.tags && a.notes == b.notes;
}

} // namespace

bool RunHistoryModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.row() >= runs_.size() || role != Qt::EditRole) {
        return false;
    }
    const RunRow before = runs_[index.row()];
    RunRow edited = before;
    const QString text = value.toString().trimmed();
    QString edit;
    switch (index.column()) {
    case Run: // the folder's name (or nothing) clears the name
        edited.name = text == QFileInfo(edited.directory).fileName() ? QString() : text;
        edit = tr("Rename Run \"%1\"");
        break;
    case Tags: {
        edited.tags.clear();
        for (const QString& tag : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!tag.trimmed().isEmpty() && !edited.tags.contains(tag.trimmed())) {
                edited.tags << tag.trimmed();
            }
        }
        edit = tr("Edit Tags of \"%1\"");
        break;
    }
    case Notes:
        edited.notes = value.toString();
        edit = tr("Edit Notes of \"%1\"");
        break;
    default:
        return false;
    }
    if (sameLabels(before, edited)) {
        return true; // nothing to write, nothing to undo
    }
    if (!writeLabels(edited)) {
        return false;
    }
    undoStack_->push(new RunLabelsEdit(this, before, edited, edit.arg(before.displayName())));
    return true;
}

bool RunHistoryModel::writeLabels(const RunRow& labelled) {
    try {
        track::RunStore store(track::RunDirectory(labelled.directory.toStdString()).run_db(),
                              track::RunStore::Role::Editor);
        track::RunLabels labels;
        labels.name = labelled.name.toStdString();
        labels.notes = labelled.notes.toStdString();
        for (const QString& tag : labelled.tags) {
            labels.tags.push_back(tag.toStdString());
        }
        store.set_labels(labelled.id, labels);
    } catch (const std::exception& error) {
        Q_EMIT labelsNotSaved(QString::fromStdString(error.what()));
        return false;
    }
    for (qsizetype row = 0; row < runs_.size(); ++row) {
        RunRow& shown = runs_[row];
        if (shown.directory == labelled.directory && shown.id == labelled.id) {
            shown.name = labelled.name;
            shown.tags = labelled.tags;
            shown.notes = labelled.notes;
            Q_EMIT dataChanged(this->index(int(row), 0), this->index(int(row), ColumnCount - 1));
        }
    }
    return true;
}

track::RecordedHistory read_recorded_history(const QString& directory) {
    const track::RunReader store(track::RunDirectory(directory.toStdString()).run_db());
    const std::vector<track::RunRecord> runs = store.runs();
    if (runs.empty()) {
        throw Error("\"" + directory.toStdString() + "\" has no recorded run");
    }
    return track::recorded_history(store.metrics(runs.back().id),
                                   store.overview(runs.back()).watch_metric);
}

QString RunHistoryModel::taskText(const QString& task) {
    // Short: the column fits a 1366 px screen beside the others.
    const auto kind = task_named(task.toStdString());
    if (!kind) {
        return task;
    }
    switch (*kind) {
    case TaskKind::ImageClassification:
        return tr("classification");
    case TaskKind::SemanticSegmentation:
        return tr("segmentation");
    case TaskKind::ObjectDetection:
        return tr("detection");
    case TaskKind::InstanceSegmentation:
        return tr("instance seg.");
    case TaskKind::Pretraining:
        break;
    }
    return task;
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
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        return columnTitle(section);
    }
    if (role == Qt::ToolTipRole) {
        return columnDescription(section);
    }
    return {};
}

QString RunHistoryModel::columnTitle(int column) {
    // Short, so that every column fits a 1366 px laptop screen; the tooltip says the rest.
    switch (column) {
    case Run:
        return tr("Run");
    case Status:
        return tr("Status");
    case Method:
        return tr("Method");
    case Model:
        return tr("Model");
    case Dataset:
        return tr("Dataset");
    case Length:
        return tr("Length");
    case ImageSize:
        return tr("Size");
    case LearningRate:
        return tr("LR");
    case Started:
        return tr("Started");
    case Duration:
        return tr("Duration");
    case Steps:
        return tr("Steps");
    case Loss:
        return tr("Loss");
    case BestValidation:
        return tr("Best");
    case Throughput:
        return tr("Images/s");
    case DataWait:
        return tr("data_wait");
    case Tags:
        return tr("Tags");
    case Notes:
        return tr("Notes");
    default:
        return {};
    }
}

QString RunHistoryModel::columnDescription(int column) {
    switch (column) {
    case Run:
        return tr("The run's name, or its folder's");
    case Method:
        return tr("Pretraining method, or fine-tuning task");
    case Length:
        return tr("Epochs or steps the run was set to train for");
    case ImageSize:
        return tr("Image size in pixels");
    case LearningRate:
        return tr("Learning rate");
    case Loss:
        return tr("Training loss at the last step");
    case BestValidation:
        return tr("Best value of the validation metric the run watched");
    case Throughput:
        return tr("Training images per second, median");
    case DataWait:
        return tr("Share of the time spent waiting for data, median");
    default:
        return columnTitle(column);
    }
}

RunHistoryView::RunHistoryView(QWidget* parent)
    : QWidget(parent), model_(new RunHistoryModel(this)), sorted_(new QSortFilterProxyModel(this)),
      filter_(new QLineEdit(this)), table_(new QTableView(this)),
      curve_metric_(new QComboBox(this)), job_(this, QStringLiteral("run history")) {
    setObjectName(QStringLiteral("runHistoryView"));
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(Qt::UserRole);
    sorted_->setFilterKeyColumn(-1); // any column
    sorted_->setFilterRole(RunHistoryModel::kFilterRole);
    sorted_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setObjectName(QStringLiteral("runFilter"));
    filter_->setPlaceholderText(tr("Filter by name, tag, notes, model, dataset, status..."));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, this, &RunHistoryView::setFilterText);
    table_->setObjectName(QStringLiteral("runTable"));
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunHistoryModel::Started, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection); // several: overlay, compare
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->setToolTip(tr("Double-click a run's name, tags or notes to edit them; right-click "
                          "the header to choose the columns"));
    // Each column as wide as what it shows; the table, not the last column, takes the rest.
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(false);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this,
            [this, header](QPoint at) { columnMenu()->exec(header->mapToGlobal(at)); });
    const QStringList hidden = QSettings().value(kHiddenColumnsKey).toStringList();
    for (int column = 1; column < RunHistoryModel::ColumnCount; ++column) {
        table_->setColumnHidden(column, hidden.contains(QLatin1String(kColumnKeys[column])));
    }
    table_->verticalHeader()->hide();
    connect(model_, &RunHistoryModel::labelsNotSaved, this, [this](const QString& message) {
        showErrorMessage(this, tr("The change could not be saved: %1").arg(message));
    });
    auto* refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshRunsButton"));
    connect(refresh, &QPushButton::clicked, this, &RunHistoryView::refresh);
    compare_ = new QPushButton(tr("Compare..."), this);
    compare_->setObjectName(QStringLiteral("compareRunsButton"));
    compare_->setToolTip(tr("The selected runs' settings, results and validation metrics side by "
                            "side"));
    connect(compare_, &QPushButton::clicked, this, &RunHistoryView::compareSelectedRuns);
    open_ = new QPushButton(tr("Open Folder"), this);
    open_->setObjectName(QStringLiteral("openRunFolderButton"));
    connect(open_, &QPushButton::clicked, this, &RunHistoryView::openSelectedFolder);
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
    remove_ = new QPushButton(tr("Delete Run..."), this);
    remove_->setObjectName(QStringLiteral("deleteRunButton"));
    connect(remove_, &QPushButton::clicked, this, &RunHistoryView::deleteSelectedRun);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(refresh);
    buttons->addWidget(compare_);
    buttons->addWidget(open_);
    buttons->addWidget(resume_);
    buttons->addWidget(export_);
    buttons->addWidget(remove_);
    buttons->addStretch();
    curve_metric_->setObjectName(QStringLiteral("curveMetric"));
    curve_metric_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    curve_metric_->setMinimumContentsLength(24); // "top-1 accuracy, class mean", whole
    addCurveMetrics({QStringLiteral("train_loss")});
    connect(curve_metric_, &QComboBox::currentIndexChanged, this, [this] { updateCurves(); });
    auto* curve_bar = new QHBoxLayout;
    auto* curve_label = new QLabel(tr("Curves of"), this);
    curve_label->setBuddy(curve_metric_);
    curve_bar->addWidget(curve_label);
    curve_bar->addWidget(curve_metric_);
    curve_bar->addStretch();
    curves_ = new QCustomPlot(this);
    curves_->setObjectName(QStringLiteral("runCurves"));
    curves_->setMinimumHeight(220);
    curves_->xAxis->setLabel(tr("step"));
    curves_->yAxis->setLabel(QStringLiteral("train_loss"));
    legendAboveData(curves_); // the newest runs' curves end top right, where an inset sat
    curves_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    followPalette(curves_);
    curves_hint_ = new QCPItemText(curves_);
    curves_hint_->setObjectName(QStringLiteral("runCurvesHint"));
    curves_hint_->position->setType(QCPItemPosition::ptAxisRectRatio);
    curves_hint_->position->setCoords(0.5, 0.5);
    curves_hint_->setText(tr("Select runs in the table to see their curves here."));
    no_runs_ = new QLabel(tr("No runs in this project yet. The runs you train are listed here with "
                             "their settings and results, to sort, compare, resume or export."),
                          this);
    no_runs_->setObjectName(QStringLiteral("noRunsHint"));
    no_runs_->setWordWrap(true);
    unreadable_ = new QLabel(this);
    unreadable_->setObjectName(QStringLiteral("unreadableRuns"));
    unreadable_->setWordWrap(true);
    unreadable_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    unreadable_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(filter_);
    layout->addWidget(no_runs_);
    layout->addWidget(unreadable_);
    layout->addWidget(table_, 1);
    layout->addLayout(curve_bar);
    layout->addWidget(curves_, 1);
    layout->addLayout(buttons);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateButtons();
        updateCurves();
    });
    // A run renamed: its curve's legend says so.
    connect(model_, &QAbstractItemModel::dataChanged, this, [this] { updateCurves(); });
    updateButtons();
}

void RunHistoryView::setFilterText(const QString& text) {
    if (filter_->text() != text) {
        filter_->setText(text); // comes back here through textChanged
        return;
    }
    sorted_->setFilterFixedString(text);
}

void RunHistoryView::updateButtons() {
    const RunRow* run = selectedRun();
    resume_->setEnabled(run != nullptr && (run->status == QStringLiteral("interrupted") ||
                                           run->status == QStringLiteral("cancelled")));
    for (QPushButton* button : {export_, open_}) {
        button->setEnabled(run != nullptr);
    }
    remove_->setEnabled(run != nullptr && run->status != QStringLiteral("running"));
    compare_->setEnabled(table_->selectionModel()->selectedRows().size() >= 2);
}

int RunHistoryView::curveCount() const {
    return curves_->graphCount();
}

QStringList RunHistoryView::curveMetrics() const {
    QStringList metrics;
    for (int i = 0; i < curve_metric_->count(); ++i) {
        metrics << curve_metric_->itemData(i).toString();
    }
    return metrics;
}

void RunHistoryView::setCurveMetric(const QString& metric) {
    curve_metric_->setCurrentIndex(curve_metric_->findData(metric));
}

// Each metric under its title, its key (as loggers and `kiln runs` name it) in the tooltip.
void RunHistoryView::addCurveMetrics(const QStringList& metrics) {
    for (const QString& metric : metrics) {
        curve_metric_->addItem(metricTitle(metric), metric);
        curve_metric_->setItemData(curve_metric_->count() - 1, metric, Qt::ToolTipRole);
    }
}

QVector<RunRow> RunHistoryView::selectedRuns() const {
    QModelIndexList rows = table_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QVector<RunRow> runs;
    for (const QModelIndex& row : rows) {
        runs << model_->runs().at(sorted_->mapToSource(row).row());
    }
    return runs;
}

// What the selected runs recorded of one metric, and the validation metrics they offer.
struct RecordedCurves {
    QStringList metrics{QStringLiteral("train_loss")};
    QVector<QPair<QString, MetricSeries>> series; // by run name, in the selection's order
};

namespace {

RecordedCurves read_curves(const QVector<RunRow>& runs, const QString& metric,
                           const StopToken& stop) {
    RecordedCurves curves;
    for (const RunRow& run : runs) {
        if (stop.stop_requested()) {
            return curves;
        }
        try {
            const track::RunReader store(
                kiln::track::RunDirectory(run.directory.toStdString()).run_db());
            for (const std::string& key : store.metric_keys(run.id)) {
                const QString name = QString::fromStdString(key);
                // Validation metrics, not per class (val_metric/iou/cat has two slashes).
                if (name.startsWith(QStringLiteral("val_")) && name.count(QLatin1Char('/')) < 2 &&
                    !curves.metrics.contains(name)) {
                    curves.metrics << name;
                }
            }
            MetricSeries series = recordedSeries(store, run.id, metric.toStdString());
            if (!series.steps.isEmpty()) { // empty: a run without this metric (another task's)
                curves.series.append({run.displayName(), std::move(series)});
            }
        } catch (const std::exception&) {
            // The table said what it could; an unreadable run draws nothing.
        }
    }
    return curves;
}

} // namespace

// Read off the GUI thread (a long run's metric is many rows); a newer selection replaces a
// read still running.
void RunHistoryView::updateCurves() {
    const QString metric = curve_metric_->currentData().toString();
    auto curves = std::make_shared<RecordedCurves>();
    curves_job_.abandon();
    curves_job_.start([runs = selectedRuns(), metric, curves](
                          const StopToken& stop) { *curves = read_curves(runs, metric, stop); },
                      [this, metric, curves] { drawCurves(metric, *curves); });
}

void RunHistoryView::drawCurves(const QString& metric, const RecordedCurves& recorded) {
    static const QList<QColor> colours = {QColor(31, 119, 180),  QColor(255, 127, 14),
                                          QColor(44, 160, 44),   QColor(214, 39, 40),
                                          QColor(148, 103, 189), QColor(140, 86, 75)};
    // The choices follow the selection; the shown metric stays while a selected run has it.
    if (!recorded.metrics.contains(metric)) {
        setCurveMetric(QStringLiteral("train_loss")); // which every run has
        return;
    }
    {
        const QSignalBlocker block(curve_metric_);
        curve_metric_->clear();
        addCurveMetrics(recorded.metrics);
        setCurveMetric(metric);
    }
    curves_->clearGraphs();
    for (const auto& [name, series] : recorded.series) {
        const QColor colour = colours[curves_->graphCount() % colours.size()];
        QCPGraph* graph = curves_->addGraph();
        graph->setName(name);
        graph->setPen(QPen(colour, 1.5));
        if (metric.startsWith(QStringLiteral("val_"))) { // one point per evaluation
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 5));
        }
        graph->setData(series.steps, series.values, true);
    }
    curves_->yAxis->setLabel(metricTitle(metric));
    // Nothing selected: empty axes, no legend, rather than the last selection's frame, and a
    // word on how to fill them.
    curves_->legend->setVisible(curves_->graphCount() > 0);
    curves_hint_->setVisible(curves_->graphCount() == 0);
    curves_hint_->setColor(palette().color(QPalette::Disabled, QPalette::WindowText));
    if (curves_->graphCount() > 0) {
        curves_->rescaleAxes();
    } else {
        curves_->xAxis->setRange(0, 1);
        curves_->yAxis->setRange(0, 1);
    }
    curves_->replot();
    Q_EMIT curvesDrawn();
}

void RunHistoryView::compareSelectedRuns() {
    const QVector<RunRow> runs = selectedRuns();
    if (runs.size() < 2) {
        return;
    }
    auto* dialog = new RunComparisonDialog(runs, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void RunHistoryView::resumeSelectedRun() {
    const RunRow* run = selectedRun();
    if (run != nullptr && resume_->isEnabled()) {
        Q_EMIT resumeRequested(run->directory);
    }
}

void RunHistoryView::setFolder(const QString& folder) {
    if (folder != folder_) { // another project's runs: their edits are not undone from here
        model_->undoStack()->clear();
    }
    folder_ = folder;
    refresh();
}

RunHistoryView::~RunHistoryView() {
    job_.stopAndWait();
    curves_job_.stopAndWait();
}

void RunHistoryView::refresh() {
    if (job_.isRunning()) {
        refresh_again_ = true; // the folder or the runs changed meanwhile
        return;
    }
    job_.run<std::pair<QVector<RunRow>, QStringList>>(
        [folder = folder_](const StopToken&) {
            QStringList unreadable;
            QVector<RunRow> runs = read_runs(folder, &unreadable);
            return std::pair{std::move(runs), unreadable};
        },
        [this](std::pair<QVector<RunRow>, QStringList> read) {
            model_->setRuns(std::move(read.first));
            showUnreadable(read.second);
            no_runs_->setVisible(model_->rowCount() == 0 && read.second.isEmpty());
            table_->resizeColumnsToContents();
            updateButtons();
            updateCurves();
            refreshedOrAgain();
        },
        // read_runs names each run.db it cannot read; this is what it did not foresee.
        [this](const QString& message) {
            showErrorMessage(this, tr("The runs could not be read: %1").arg(message));
            refreshedOrAgain();
        });
}

// A run.db from a newer Kiln, a damaged or a locked one: its runs are missing from the table,
// and the user is told which and why rather than left to wonder where a run went.
void RunHistoryView::showUnreadable(const QStringList& problems) {
    unreadable_->setVisible(!problems.isEmpty());
    if (problems.isEmpty()) {
        return;
    }
    unreadable_->setText(tr("%Ln run database(s) could not be read, so their runs are not listed: "
                            "%1",
                            nullptr, int(problems.size()))
                             .arg(problems.front()));
    unreadable_->setToolTip(problems.join(QLatin1Char('\n')));
}

void RunHistoryView::refreshedOrAgain() {
    if (refresh_again_) {
        refresh_again_ = false;
        refresh();
    } else {
        Q_EMIT refreshed();
    }
}

QMenu* RunHistoryView::columnMenu() {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("runColumnsMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (int column = 1; column < RunHistoryModel::ColumnCount; ++column) { // the run: always
        QAction* action = menu->addAction(RunHistoryModel::columnDescription(column));
        action->setCheckable(true);
        action->setChecked(!table_->isColumnHidden(column));
        connect(action, &QAction::toggled, this,
                [this, column](bool shown) { setColumnShown(column, shown); });
    }
    return menu;
}

void RunHistoryView::setColumnShown(int column, bool shown) {
    table_->setColumnHidden(column, !shown);
    QStringList hidden;
    for (int other = 1; other < RunHistoryModel::ColumnCount; ++other) {
        if (table_->isColumnHidden(other)) {
            hidden << QLatin1String(kColumnKeys[other]);
        }
    }
    QSettings().setValue(kHiddenColumnsKey, hidden);
}

const RunRow* RunHistoryView::selectedRun() const {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.size() != 1) { // resume, open and delete act on one run
        return nullptr;
    }
    return &model_->runs().at(sorted_->mapToSource(rows.first()).row());
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
                    tr("Delete the run in %1 with its checkpoints, exported models and logs? "
                       "Other files in that folder are kept.")
                        .arg(QDir::toNativeSeparators(directory)),
                    QMessageBox::Yes | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("deleteRunBox"));
    box.setTextFormat(Qt::PlainText); // the folder's path, as written
    box.setDefaultButton(QMessageBox::Cancel);
    if (box.exec() != QMessageBox::Yes) {
        return false;
    }
    // Only the run's own files: a run may have been written into a folder of the user's own
    // (it removed that whole folder). Claimed as a run would claim it: a run still writing
    // there (from the command line, say) lost every metric it wrote after.
    const track::RunDirectory run_folder(directory.toStdString());
    bool removed = false;
    try {
        const track::RunLock claim(run_folder.root());
        removed = run_folder.remove_run_entries();
        std::error_code ignored; // held until it is gone: no run starts there in between
        std::filesystem::remove(run_folder.lock(), ignored);
    } catch (const Error& error) { // a run still writing there, or a folder Kiln cannot lock
        showErrorMessage(
            this, tr("The run cannot be deleted:\n%1").arg(QString::fromStdString(error.what())));
        return false;
    }
    const bool emptied = removed && QDir().rmdir(directory);
    refresh();
    if (!removed) {
        showErrorMessage(this, tr("Some files in %1 could not be deleted; check their permissions.")
                                   .arg(QDir::toNativeSeparators(directory)));
    } else if (!emptied) {
        showInformationMessage(this, tr("The run's files were deleted. %1 also held files no run "
                                        "wrote; they were kept.")
                                         .arg(QDir::toNativeSeparators(directory)));
    }
    return removed;
}

} // namespace kiln::gui
