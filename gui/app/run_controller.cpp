#include "app/run_controller.h"

#include "app/job_controller.h"
#include "app/model_commands.h"
#include "app/project_controller.h"
#include "app/project_pages.h"
#include "common/message_boxes.h"
#include "core/error.h"
#include "core/json_text.h"
#include "datasets/datasets_page.h"
#include "datasets/optimize_dialog.h"
#include "embeddings/export_dialog.h"
#include "models/backbone_names.h"
#include "plots/live_plots.h"
#include "plots/live_plots_page.h"
#include "project/project.h"
#include "runs/run_history.h"
#include "system/hardware.h"
#include "system/num_workers.h"
#include "track/run_directory.h"
#include "track/run_store.h"
#include "training/run_config_form.h"
#include "training/training_session.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QPointer>
#include <QStatusBar>

namespace kiln::gui {
namespace {

const QString kLastPreset = QStringLiteral("last"); // the settings of the last run started

// A project may come from someone else: the TorchScript modules its settings name leave them
// (a module runs code when it loads), as "key: module" lines.
QStringList withoutTorchScript(nlohmann::json& settings) {
    QStringList removed;
    for (const auto& [key, module] :
         models::recorded_torchscript(settings, models::RecordedModels::BackboneAndTeacher)) {
        removed << QString::fromStdString(key + ": " + module);
        if (key == "model") {
            settings.erase("model");
        } else if (settings.contains("method_args") && settings["method_args"].is_object()) {
            settings["method_args"].erase("teacher");
        }
    }
    return removed;
}

} // namespace

RunController::RunController(QWidget* window, ProjectController* projects, JobController* jobs,
                             const ProjectPages* pages)
    : QObject(window), window_(window), projects_(projects), jobs_(jobs), pages_(pages) {
    TrainingSession* session = jobs_->training();
    connect(session, &TrainingSession::stepFinished, pages_->livePlots->plots(),
            &LivePlots::addStep);
    connect(session, &TrainingSession::validationFinished, pages_->livePlots,
            &LivePlotsPage::addValidation);
    connect(session, &TrainingSession::validationPending, pages_->livePlots->plots(),
            &LivePlots::addPendingValidation);
    // Queued even when the warning comes from this thread: the engine's log lock is held.
    connect(
        session, &TrainingSession::warned, this,
        [this](const QString& warning) {
            pages_->livePlots->addWarning(
                warning, [this](const QString& key) { return pages_->runConfig->fieldName(key); });
        },
        Qt::QueuedConnection);
    connect(session, &TrainingSession::finished, this, &RunController::trainingFinished);
    connect(session, &TrainingSession::failed, pages_->runHistory, &RunHistoryView::refresh);
    connect(pages_->datasets, &DatasetsPage::optimizeRequested, this,
            &RunController::optimizeDataset);
    connect(pages_->livePlots, &LivePlotsPage::optimizeRequested, this,
            [this] { optimizeDataset(trainedDataset_); });
    connect(pages_->livePlots, &LivePlotsPage::resumeRequested, this,
            [this] { resumeTraining(lastRunDirectory_); });
    connect(pages_->runHistory, &RunHistoryView::resumeRequested, this,
            &RunController::resumeTraining);
    connect(pages_->runHistory, &RunHistoryView::exportRequested, this,
            &RunController::exportModel);
    connect(pages_->runHistory, &RunHistoryView::refreshed, this,
            &RunController::updatePretrainedRuns);
    connect(pages_->runHistory->model(), &QAbstractItemModel::dataChanged, this,
            &RunController::updatePretrainedRuns); // a run renamed
}

RunController::~RunController() {
    historyJob_.stopAndWait();
}

bool RunController::readyFor(const QString& why) const {
    return projects_->project() != nullptr && !jobs_->busy() && projects_->ensureSaved(why);
}

void RunController::startTraining() {
    // The settings' problems first: saving the project does not help a run that cannot start.
    if (projects_->project() != nullptr && !jobs_->busy() &&
        !pages_->runConfig->validate(nlohmann::json::object())) {
        pages_->show(ProjectPages::kRunConfiguration);
        return;
    }
    if (!readyFor(tr("Training writes its runs beside the project file."))) {
        return;
    }
    // Without an output folder, each run gets a new one; the form keeps "new folder" for the
    // next run.
    nlohmann::json overrides = nlohmann::json::object();
    if (pages_->runConfig->settings().value("out", std::string()).empty()) {
        overrides["out"] = newRunFolder().toStdString();
    }
    const std::optional<TrainConfig> config = pages_->runConfig->validate(overrides);
    if (!config) {
        pages_->show(ProjectPages::kRunConfiguration);
        return;
    }
    keepLastSettings();
    beginTraining(*config);
}

// Named by the time, with a suffix when a run started within the same second.
QString RunController::newRunFolder() const {
    const QDir runs(projects_->project()->runsFolder());
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString folder = runs.filePath(stamp);
    for (int n = 2; QFileInfo::exists(folder); ++n) {
        folder = runs.filePath(stamp + QStringLiteral("-%1").arg(n));
    }
    return folder;
}

void RunController::keepLastSettings() {
    projects_->project()->setRunPresets(QJsonArray{QJsonObject{
        {QStringLiteral("name"), kLastPreset},
        {QStringLiteral("settings"),
         QJsonDocument::fromJson(QByteArray::fromStdString(pages_->runConfig->settings().dump()))
             .object()}}});
}

void RunController::restoreLastSettings() {
    for (const QJsonValue& preset : projects_->project()->runPresets()) {
        if (preset.toObject().value(QStringLiteral("name")) != kLastPreset) {
            continue;
        }
        nlohmann::json settings = nlohmann::json::parse(
            QJsonDocument(preset.toObject().value(QStringLiteral("settings")).toObject())
                .toJson(QJsonDocument::Compact)
                .toStdString());
        const QStringList modules = withoutTorchScript(settings);
        pages_->runConfig->setSettings(settings);
        if (!modules.isEmpty()) {
            showErrorMessage(window_,
                             tr("The project's run settings named TorchScript modules, which run "
                                "code when loaded; Kiln loads one only where you choose it "
                                "yourself. Choose it again in the form if you trust it:\n%1")
                                 .arg(modules.join('\n')));
        }
        if (!pages_->runConfig->valueProblems().isEmpty()) {
            showErrorMessage(window_, tr("The project's run settings had values Kiln cannot use; "
                                         "the form shows the defaults instead:\n%1")
                                          .arg(pages_->runConfig->valueProblems().join('\n')));
        }
    }
}

void RunController::beginTraining(const TrainConfig& config) {
    historyJob_.abandon(); // a project's last run must not replace this one's plots
    Q_EMIT trainingStarted();
    pages_->livePlots->clear();
    pages_->livePlots->plots()->showStarting();
    trainedDataset_ =
        config.data.empty() ? QString() : QString::fromStdString(config.data.front().string());
    lastRunDirectory_ = QString::fromStdString(config.out.string());
    pages_->show(ProjectPages::kLivePlots);
    jobs_->train(config);
}

void RunController::resumeTraining(const QString& directory) {
    if (jobs_->busy()) {
        return;
    }
    try {
        const track::RunReader store(kiln::track::RunDirectory(directory.toStdString()).run_db());
        const std::vector<track::RunRecord> runs = store.runs();
        if (runs.empty()) {
            throw Error("\"" + directory.toStdString() + "\" has no recorded run to resume");
        }
        const std::string recorded =
            "the settings recorded in \"" +
            track::RunDirectory(directory.toStdString()).run_db().string() + "\"";
        nlohmann::json settings = parse_json(runs.back().config, recorded);
        if (!settings.is_object()) {
            throw Error(recorded + " are not a JSON object; the record is damaged");
        }
        models::refuse_recorded_torchscript(settings, models::RecordedModels::BackboneAndTeacher,
                                            "the run in \"" + directory.toStdString() + "\"",
                                            "resume it with `kiln train` and the same settings");
        // The run goes on where it was found, whatever folder its record names.
        settings["out"] = directory.toStdString();
        settings["resume_interrupted"] = true;
        settings["overwrite"] = false;
        beginTraining(resolve_train_config(
            settings, {system::probe_hardware(), system::WorkerEnvironment::from_process()},
            recorded_task(settings)));
        // The plots show the whole run: what it did before, then the steps it goes on with.
        pages_->livePlots->plots()->showHistory(read_recorded_history(directory));
    } catch (const std::exception& error) {
        showErrorMessage(
            window_,
            tr("This run cannot be resumed:\n%1").arg(QString::fromStdString(error.what())));
    }
}

QString RunController::resumableRun() const {
    const QVector<RunRow>& runs = pages_->runHistory->model()->runs();
    const auto newest =
        std::max_element(runs.begin(), runs.end(),
                         [](const auto& a, const auto& b) { return a.started < b.started; });
    if (newest == runs.end() ||
        !(newest->status == QLatin1String("cancelled") ||
          newest->status == QLatin1String("interrupted")) ||
        !QFileInfo::exists(QString::fromStdString(
            track::RunDirectory(newest->directory.toStdString()).last_checkpoint().string()))) {
        return {};
    }
    return newest->directory;
}

void RunController::trainingFinished(const track::RunSummary& summary) {
    pages_->livePlots->showSummary(
        summary, [this](const QString& key) { return pages_->runConfig->fieldName(key); });
    pages_->runHistory->refresh();
}

void RunController::exportEmbeddings() {
    if (!readyFor(tr("The embeddings are written beside the project file."))) {
        return;
    }
    ExportEmbeddingsDialog dialog(*projects_->project(), pages_->runHistory->model()->runs(),
                                  window_);
    if (dialog.exec() == QDialog::Accepted && dialog.config()) {
        jobs_->embed(*dialog.config());
    }
}

void RunController::exportModel(const QString& directory) {
    if (readyFor(tr("The model is written beside the project file."))) {
        // Run History's rows, read off the GUI thread.
        jobs_->modelCommands()->exportModel(*projects_->project(),
                                            pages_->runHistory->model()->runs(), directory);
    }
}

void RunController::predict() {
    if (readyFor(tr("Predictions are written beside the project file."))) {
        jobs_->modelCommands()->predict(*projects_->project(), pages_->runHistory->model()->runs());
    }
}

void RunController::optimizeDataset(const QString& folder) {
    // The project may close while the dialog is open (a demo project opening): then nothing
    // joins it.
    const QPointer<Project> project = projects_->project();
    if (project == nullptr || folder.isEmpty()) {
        return;
    }
    OptimizeDatasetDialog dialog(folder, window_);
    bool added = false;
    connect(&dialog, &OptimizeDatasetDialog::finished, this, [&](bool succeeded) {
        if (succeeded && !added && project != nullptr) { // the optimized copy joins the project
            added = project->addDataset(dialog.destination());
        }
    });
    dialog.exec();
}

void RunController::showProject(Project* project) {
    historyJob_.abandon();
    // Another project's run settings are not this one's: a project without its own starts from
    // the defaults.
    pages_->runConfig->setSettings(nlohmann::json::object());
    if (project != nullptr) {
        pages_->runConfig->setDatasets(project->datasets()); // before the preset names them
        restoreLastSettings();
        showLastRun();
    }
}

// The project's pretraining runs with a model (exported, or the checkpoint of a run stopped
// before exporting): where a fine-tuning or a distillation can start. From Run History's rows
// (read off the GUI thread), each time they change.
void RunController::updatePretrainedRuns() {
    QList<RunConfigForm::PretrainedRun> runs;
    QStringList listed;
    for (const RunRow& row : pages_->runHistory->model()->runs()) {
        const QString model = row.pretrainedModel();
        if (!model.isEmpty() && !listed.contains(row.directory)) {
            listed << row.directory;
            runs.push_back({row.directory, row.displayName(), model});
        }
    }
    pages_->runConfig->setPretrainedRuns(runs);
}

// Live Plots show the project's newest run when it opens, read on a thread: a long run's
// history is many rows.
void RunController::showLastRun() {
    const QString folder = projects_->project()->runsFolder();
    auto history = std::make_shared<std::optional<track::RecordedHistory>>();
    historyJob_.start(
        [folder, history](const StopToken&) {
            try {
                const QVector<RunRow> runs = read_runs(folder);
                if (!runs.isEmpty()) {
                    *history = read_recorded_history(runs.front().directory);
                }
            } catch (const std::exception&) {
                // Nothing to show: the plots stay empty, Run History names unreadable runs.
            }
        },
        [this, history] {
            if (*history && !jobs_->busy()) {
                pages_->livePlots->plots()->showHistory(**history);
            }
        });
}

} // namespace kiln::gui
