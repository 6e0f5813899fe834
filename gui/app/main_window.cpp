#include "app/main_window.h"

#include "app/about_dialog.h"
#include "app/model_commands.h"
#include "app/preferences_dialog.h"
#include "app/shortcuts_dialog.h"
#include "app/start_page.h"
#include "app/user_guide_dialog.h"
#include "core/error.h"
#include "datasets/datasets_page.h"
#include "datasets/optimize_dialog.h"
#include "embeddings/embedding_session.h"
#include "embeddings/embeddings_page.h"
#include "embeddings/export_dialog.h"
#include "methods/method_names.h"
#include "plots/live_plots.h"
#include "plots/live_plots_page.h"
#include "project/demo_project.h"
#include "project/project.h"
#include "runs/run_history.h"
#include "system/hardware.h"
#include "system/num_workers.h"
#include "track/run_directory.h"
#include "track/run_store.h"
#include "train/speed_probe.h"
#include "training/run_config_form.h"
#include "training/training_session.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace kiln::gui {
namespace {

QString hardwareSummary(const system::HardwareInfo& hardware) {
    if (!hardware.cuda_available()) {
        return MainWindow::tr("CPU: %n core(s), no CUDA GPU", nullptr, hardware.cpu_cores);
    }
    QStringList gpus;
    for (const system::GpuInfo& gpu : hardware.gpus) {
        gpus << QString::fromStdString(gpu.name);
    }
    return MainWindow::tr("CPU: %n core(s), GPUs: %1", nullptr, hardware.cpu_cores)
        .arg(gpus.join(QStringLiteral(", ")));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new TrainingSession(this)),
      embedding_(new EmbeddingSession(this)), modelCommands_(new ModelCommands(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Kiln Studio"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/kiln-256.png")));
    createMenus();
    pages_ = new QStackedWidget(this);
    startPage_ = new StartPage(this);
    connect(startPage_, &StartPage::newProjectRequested, this, &MainWindow::newProject);
    connect(startPage_, &StartPage::openProjectRequested, actions_.openProject, &QAction::trigger);
    connect(startPage_, &StartPage::recentProjectRequested, this, &MainWindow::openProject);
    connect(startPage_, &StartPage::demoProjectRequested, this, &MainWindow::openDemoProject);
    pages_->addWidget(startPage_);
    pages_->addWidget(createProjectPage());
    setCentralWidget(pages_);
    probeHardware();
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("trainingProgress"));
    progress_->setMinimumWidth(520);
    progress_->setTextVisible(true);
    progress_->hide();
    statusBar()->addPermanentWidget(progress_);
    connectSessions();
    restoreWindowState();
    updateRecentMenu();
    updateTitle();
    updateActions();
}

LivePlots* MainWindow::livePlots() const {
    return livePlotsPage_->plots();
}

EmbeddingsView* MainWindow::embeddingsView() const {
    return embeddingsPage_->view();
}

// The training and embedding sessions report into the pages and the status bar.
void MainWindow::connectSessions() {
    connect(session_, &TrainingSession::stepFinished, this, &MainWindow::showStep);
    connect(session_, &TrainingSession::validationFinished, livePlotsPage_,
            &LivePlotsPage::addValidation);
    connect(session_, &TrainingSession::validationPending, livePlotsPage_->plots(),
            &LivePlots::addPendingValidation);
    connect(session_, &TrainingSession::finished, this, &MainWindow::trainingFinished);
    connect(session_, &TrainingSession::failed, this, [this](const QString& message) {
        progress_->hide();
        showError(tr("The training stopped with an error:\n%1").arg(message));
        runHistory_->refresh();
    });
    connect(session_, &TrainingSession::runningChanged, this, &MainWindow::updateActions);
    connect(embedding_, &EmbeddingSession::runningChanged, this, &MainWindow::updateActions);
    connect(embedding_, &EmbeddingSession::progress, this, [this](qint64 done, qint64 total) {
        progress_->setRange(0, static_cast<int>(total));
        progress_->setValue(static_cast<int>(done));
        progress_->setFormat(tr("embedding: batch %1 of %2").arg(done).arg(total));
    });
    connect(embedding_, &EmbeddingSession::finished, this,
            [this](qint64 images, qint64 dimension, qint64 skipped, const QString& file) {
                progress_->hide();
                QString text = tr("Wrote %n embedding(s) of dimension %1 to %2.", nullptr,
                                  static_cast<int>(images))
                                   .arg(dimension)
                                   .arg(QDir::toNativeSeparators(file));
                if (skipped > 0) {
                    text += QLatin1Char(' ') + tr("%n unreadable image(s) were left out.", nullptr,
                                                  static_cast<int>(skipped));
                }
                statusBar()->showMessage(text, 15000);
                showInformation(text);
                embeddingsPage_->showFile(file); // ready in the view, and kept in the project
                projectTabs_->setCurrentIndex(kEmbeddingsTab);
            });
    connect(embedding_, &EmbeddingSession::failed, this, [this](const QString& message) {
        progress_->hide();
        showError(tr("The embedding stopped with an error:\n%1").arg(message));
    });
    connect(embedding_, &EmbeddingSession::stopped, this, [this] {
        progress_->hide();
        statusBar()->showMessage(tr("The embedding was stopped; no file was written."), 15000);
    });
    connect(modelCommands_, &ModelCommands::started, this, [this](const QString& what) {
        progress_->setRange(0, 0);
        progress_->setFormat(what);
        progress_->show();
        updateActions();
    });
    connect(modelCommands_, &ModelCommands::progressed, this,
            [this](qint64 done, qint64 total, const QString& text) {
                progress_->setRange(0, static_cast<int>(total));
                progress_->setValue(static_cast<int>(done));
                progress_->setFormat(text);
            });
    connect(modelCommands_, &ModelCommands::succeeded, this,
            [this](const QString& summary, const QString& details) {
                statusBar()->showMessage(summary, 15000);
                showInformation(details.isEmpty() ? summary
                                                  : summary + QLatin1Char('\n') + details);
            });
    connect(modelCommands_, &ModelCommands::failed, this, &MainWindow::showError);
    connect(modelCommands_, &ModelCommands::finished, this, [this] {
        progress_->hide();
        updateActions();
    });
}

QAction* MainWindow::addAction(QMenu* menu, const QString& objectName, const QString& text,
                               const QKeySequence& shortcut) {
    QAction* action = menu->addAction(text);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    return action;
}

void MainWindow::createMenus() {
    // Actions whose feature is not built yet stay visible but disabled, so the menus already
    // show the shape of the application without offering anything that does nothing.
    createFileMenu();
    createEditMenu();
    createRunMenu();
    createToolBar();
    createViewMenu();
    createHelpMenu();
}

void MainWindow::createFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    actions_.newProject =
        addAction(file, QStringLiteral("newProjectAction"), tr("&New Project"), QKeySequence::New);
    connect(actions_.newProject, &QAction::triggered, this, &MainWindow::newProject);
    actions_.openProject = addAction(file, QStringLiteral("openProjectAction"),
                                     tr("&Open Project..."), QKeySequence::Open);
    connect(actions_.openProject, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Open Project"), QString(),
                                                          tr("Kiln projects (*.kiln)"));
        if (!file.isEmpty()) {
            openProject(file);
        }
    });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    recentMenu_->setObjectName(QStringLiteral("recentMenu"));
    actions_.openDemoProject =
        addAction(file, QStringLiteral("openDemoProjectAction"), tr("Open &Demo Project"));
    connect(actions_.openDemoProject, &QAction::triggered, this, &MainWindow::openDemoProject);
    actions_.saveProject =
        addAction(file, QStringLiteral("saveProjectAction"), tr("&Save"), QKeySequence::Save);
    connect(actions_.saveProject, &QAction::triggered, this, &MainWindow::saveProject);
    actions_.saveProjectAs = addAction(file, QStringLiteral("saveProjectAsAction"),
                                       tr("Save &As..."), QKeySequence::SaveAs);
    connect(actions_.saveProjectAs, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Save Project As"), project_->file(), tr("Kiln projects (*.kiln)"));
        if (!file.isEmpty()) {
            saveProjectAs(file.endsWith(QStringLiteral(".kiln")) ? file
                                                                 : file + QStringLiteral(".kiln"));
        }
    });
    file->addSeparator();
    actions_.addDataset =
        addAction(file, QStringLiteral("addDatasetAction"), tr("Add &Dataset Folder..."));
    connect(actions_.addDataset, &QAction::triggered, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Add Dataset Folder"));
        if (!folder.isEmpty()) {
            addDataset(folder);
        }
    });
    actions_.exportEmbeddings =
        addAction(file, QStringLiteral("exportEmbeddingsAction"), tr("&Export Embeddings..."));
    connect(actions_.exportEmbeddings, &QAction::triggered, this, &MainWindow::exportEmbeddings);
    actions_.exportModel =
        addAction(file, QStringLiteral("exportModelAction"), tr("Export &Model..."));
    connect(actions_.exportModel, &QAction::triggered, this, [this] { exportModel(); });
    file->addSeparator();
    actions_.closeProject = addAction(file, QStringLiteral("closeProjectAction"),
                                      tr("&Close Project"), QKeySequence::Close);
    connect(actions_.closeProject, &QAction::triggered, this, &MainWindow::closeProject);
    QAction* quit = addAction(file, QStringLiteral("quitAction"), tr("&Quit"), QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    QAction* preferences = addAction(edit, QStringLiteral("preferencesAction"),
                                     tr("&Preferences..."), QKeySequence::Preferences);
    preferences->setMenuRole(QAction::PreferencesRole);
    connect(preferences, &QAction::triggered, this, [this] {
        PreferencesDialog dialog(this);
        dialog.exec();
    });
}

void MainWindow::createRunMenu() {
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    actions_.train = addAction(run, QStringLiteral("trainAction"), tr("&Train"),
                               QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(actions_.train, &QAction::triggered, this, &MainWindow::startTraining);
    // Run > Embed is File > Export Embeddings, where people look for it while running things.
    actions_.embed = addAction(run, QStringLiteral("embedAction"), tr("&Embed..."),
                               QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(actions_.embed, &QAction::triggered, this, &MainWindow::exportEmbeddings);
    actions_.predict = addAction(run, QStringLiteral("predictAction"), tr("&Predict..."));
    connect(actions_.predict, &QAction::triggered, this, &MainWindow::predict);
    actions_.stop = addAction(run, QStringLiteral("stopAction"), tr("&Stop"),
                              QKeySequence(Qt::CTRL | Qt::Key_Period));
    connect(actions_.stop, &QAction::triggered, this, [this] {
        session_->stop();
        embedding_->stop();
        modelCommands_->stop();
    });
    actions_.resume = addAction(run, QStringLiteral("resumeAction"), tr("&Resume"),
                                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    actions_.resume->setStatusTip(
        tr("Continue the project's last stopped run from its checkpoint"));
    connect(actions_.resume, &QAction::triggered, this, [this] {
        if (const QString run = resumableRun(); !run.isEmpty()) {
            resumeTraining(run);
        }
    });
}

void MainWindow::createToolBar() {
    // The toolbar: the commands used most, with icons from resources/icons.
    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    for (const auto& [action, icon] :
         {std::pair{actions_.newProject, "new"}, std::pair{actions_.openProject, "open"},
          std::pair{actions_.saveProject, "save"}, std::pair{actions_.train, "train"},
          std::pair{actions_.stop, "stop"}, std::pair{actions_.exportEmbeddings, "export"}}) {
        action->setIcon(QIcon(QStringLiteral(":/icons/%1.png").arg(QLatin1String(icon))));
        toolbar->addAction(action);
        if (action == actions_.saveProject || action == actions_.stop) {
            toolbar->addSeparator();
        }
    }
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    // Each switches the project's tab of its index.
    const std::pair<QString, QString> views[kTabCount] = {
        {QStringLiteral("datasetsViewAction"), tr("&Datasets")},
        {QStringLiteral("runConfigurationViewAction"), tr("Run &Configuration")},
        {QStringLiteral("livePlotsViewAction"), tr("Live &Plots")},
        {QStringLiteral("runHistoryViewAction"), tr("Run &History")},
        {QStringLiteral("embeddingsViewAction"), tr("&Embeddings")}};
    for (int tab = 0; tab < kTabCount; ++tab) {
        QAction* action = addAction(view, views[tab].first, views[tab].second);
        connect(action, &QAction::triggered, this,
                [this, tab] { projectTabs_->setCurrentIndex(tab); });
        actions_.views[std::size_t(tab)] = action;
    }
    view->addSeparator();
    QAction* fullScreen = addAction(view, QStringLiteral("fullScreenAction"), tr("&Full Screen"),
                                    QKeySequence::FullScreen);
    fullScreen->setCheckable(true);
    connect(fullScreen, &QAction::toggled, this, [this](bool on) {
        setWindowState(on ? windowState() | Qt::WindowFullScreen
                          : windowState() & ~Qt::WindowFullScreen);
    });
}

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    connect(addAction(help, QStringLiteral("userGuideAction"), tr("&User Guide"),
                      QKeySequence::HelpContents),
            &QAction::triggered, this, [this] {
                auto* guide = new UserGuideDialog(this);
                guide->setAttribute(Qt::WA_DeleteOnClose);
                guide->show();
            });
    connect(addAction(help, QStringLiteral("shortcutsAction"), tr("&Keyboard Shortcuts")),
            &QAction::triggered, this, [this] {
                auto* shortcuts = new ShortcutsDialog(*menuBar(), this);
                shortcuts->setAttribute(Qt::WA_DeleteOnClose);
                shortcuts->show();
            });
    help->addSeparator();
    QAction* about = addAction(help, QStringLiteral("aboutAction"), tr("&About Kiln Studio"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    QAction* aboutQt = addAction(help, QStringLiteral("aboutQtAction"), tr("About &Qt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

QWidget* MainWindow::createProjectPage() {
    datasetsPage_ = new DatasetsPage(this);
    connect(datasetsPage_, &DatasetsPage::addRequested, actions_.addDataset, &QAction::trigger);
    connect(datasetsPage_, &DatasetsPage::optimizeRequested, this, &MainWindow::optimizeDataset);
    connect(datasetsPage_, &DatasetsPage::scanned, this, &MainWindow::updateEstimate);
    runConfig_ = new RunConfigForm;
    connect(runConfig_, &RunConfigForm::settingsEdited, this, &MainWindow::updateEstimate);
    livePlotsPage_ = new LivePlotsPage;
    connect(livePlotsPage_, &LivePlotsPage::optimizeRequested, this,
            [this] { optimizeDataset(trainedDataset_); });
    connect(livePlotsPage_, &LivePlotsPage::applyRequested, this,
            [this](const QString& key, const QString& value) {
                runConfig_->applySetting(key, value);
                projectTabs_->setCurrentIndex(kRunConfigurationTab);
                statusBar()->showMessage(
                    tr("%1 is now %2 for the next run.").arg(runConfig_->fieldName(key), value),
                    15000);
            });
    runHistory_ = new RunHistoryView;
    connect(runHistory_, &RunHistoryView::resumeRequested, this, &MainWindow::resumeTraining);
    connect(runHistory_, &RunHistoryView::refreshed, this, &MainWindow::updateEstimate);
    connect(runHistory_, &RunHistoryView::refreshed, this, &MainWindow::updateActions);
    connect(runHistory_, &RunHistoryView::refreshed, this, &MainWindow::updatePretrainedRuns);
    connect(runHistory_->model(), &QAbstractItemModel::dataChanged, this,
            &MainWindow::updatePretrainedRuns); // a run renamed
    connect(livePlotsPage_, &LivePlotsPage::resumeRequested, this,
            [this] { resumeTraining(lastRunDirectory_); });
    connect(runHistory_, &RunHistoryView::exportRequested, this, &MainWindow::exportModel);
    embeddingsPage_ = new EmbeddingsPage;
    connect(embeddingsPage_, &EmbeddingsPage::problem, this, &MainWindow::showError);

    projectTabs_ = new QTabWidget(this);
    projectTabs_->setObjectName(QStringLiteral("projectTabs"));
    // The long pages scroll rather than make the window taller than a laptop's screen.
    const auto scrolling = [this](QWidget* content, const QString& name) {
        auto* area = new QScrollArea(projectTabs_);
        area->setObjectName(name);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidget(content);
        return area;
    };
    projectTabs_->addTab(datasetsPage_, tr("Datasets"));
    projectTabs_->addTab(scrolling(runConfig_, QStringLiteral("runConfigurationScroll")),
                         tr("Run Configuration"));
    projectTabs_->addTab(scrolling(livePlotsPage_, QStringLiteral("livePlotsScroll")),
                         tr("Live Plots"));
    projectTabs_->addTab(runHistory_, tr("Run History"));
    projectTabs_->addTab(embeddingsPage_, tr("Embeddings"));
    connect(projectTabs_, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == kRunHistoryTab) {
            runHistory_->refresh();
        } else if (tab == kDatasetsTab) { // the preview follows the run configuration
            const nlohmann::json settings = runConfig_->settings();
            datasetsPage_->setAugmentation(
                settings.value("method", methods::default_method()),
                settings.value("transform_args", nlohmann::json::object()));
        }
    });
    return projectTabs_;
}

void MainWindow::startTraining() {
    if (project_ == nullptr || busy()) {
        return;
    }
    if (!ensureProjectSaved(tr("Training writes its runs beside the project file."))) {
        return;
    }
    // Without an output folder, each run gets a new one named by the time (with a suffix when
    // a run started within the same second); the form keeps "new folder" for the next run.
    nlohmann::json overrides = nlohmann::json::object();
    if (runConfig_->settings().value("out", std::string()).empty()) {
        const QDir runs(project_->runsFolder());
        const QString stamp =
            QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
        QString folder = runs.filePath(stamp);
        for (int n = 2; QFileInfo::exists(folder); ++n) {
            folder = runs.filePath(stamp + QStringLiteral("-%1").arg(n));
        }
        overrides["out"] = folder.toStdString();
    }
    const std::optional<TrainConfig> config = runConfig_->validate(overrides);
    if (!config) {
        projectTabs_->setCurrentIndex(kRunConfigurationTab);
        return;
    }
    project_->setRunPresets(QJsonArray{QJsonObject{
        {QStringLiteral("name"), QStringLiteral("last")},
        {QStringLiteral("settings"),
         QJsonDocument::fromJson(QByteArray::fromStdString(runConfig_->settings().dump()))
             .object()}}});
    beginTraining(*config);
}

void MainWindow::beginTraining(const TrainConfig& config) {
    historyJob_.abandon(); // a project's last run must not replace this one's plots
    speedJob_.stop();      // its measurement would take the run's cores
    livePlotsPage_->clear();
    trainedDataset_ =
        config.data.empty() ? QString() : QString::fromStdString(config.data.front().string());
    lastRunDirectory_ = QString::fromStdString(config.out.string());
    progress_->setRange(0, 0);
    progress_->setFormat(tr("starting..."));
    remaining_ = track::RemainingTime();
    remaining_.start();
    progress_->show();
    projectTabs_->setCurrentIndex(kLivePlotsTab);
    session_->start(config);
}

void MainWindow::exportEmbeddings() {
    if (project_ == nullptr || busy()) {
        return;
    }
    if (!ensureProjectSaved(tr("The embeddings are written beside the project file."))) {
        return;
    }
    ExportEmbeddingsDialog dialog(*project_, runHistory_->model()->runs(), this);
    if (dialog.exec() != QDialog::Accepted || !dialog.config()) {
        return;
    }
    progress_->setRange(0, 0);
    progress_->setFormat(tr("embedding..."));
    progress_->show();
    embedding_->start(*dialog.config());
}

void MainWindow::exportModel(const QString& directory) {
    if (project_ != nullptr && !busy() &&
        ensureProjectSaved(tr("The model is written beside the project file."))) {
        // Run History's rows, read off the GUI thread.
        modelCommands_->exportModel(*project_, runHistory_->model()->runs(), directory);
    }
}

void MainWindow::predict() {
    if (project_ != nullptr && !busy() &&
        ensureProjectSaved(tr("Predictions are written beside the project file."))) {
        modelCommands_->predict(*project_, runHistory_->model()->runs());
    }
}

void MainWindow::updateEstimate() {
    const nlohmann::json settings = runConfig_->settings();
    const std::string task = settings.value("task", std::string("pretrain"));
    // The training images: a folder, or the train split's (its images folder for dense tasks).
    nlohmann::json data = settings.value("data", nlohmann::json());
    if (data.is_object()) {
        data = data.value("train", nlohmann::json());
    }
    if (data.is_object()) {
        data = data.value("images", nlohmann::json());
    }
    const DatasetStats* stats = datasetsPage_->stats(
        data.is_string() ? QDir::cleanPath(QString::fromStdString(data.get<std::string>()))
                         : QString());
    if (stats == nullptr || stats->images == 0) {
        runConfig_->setEstimate({}); // the Datasets tab scans the dataset it shows
        return;
    }
    const QString model = QString::fromStdString(settings.value("model", std::string()));
    const QString method = QString::fromStdString(settings.value("method", std::string()));
    const nlohmann::json size = settings.value("transform_args", nlohmann::json::object())
                                    .value("image_size", nlohmann::json::array());
    const int image_size = size.is_array() && !size.empty() ? size[0].get<int>() : 0;
    if (settings.contains("max_time") || settings.contains("steps")) {
        runConfig_->setEstimate({}); // its length is given: the minutes, or the steps
        return;
    }
    const int epochs = settings.value("epochs", 0);
    for (const RunRow& run : runHistory_->model()->runs()) { // newest first
        const bool same_task =
            task == "pretrain" ? run.method == method : run.task == QString::fromStdString(task);
        if (run.images_per_second > 0 && run.model == model && same_task &&
            run.image_size == image_size) {
            const double seconds = double(stats->images) * double(epochs) / run.images_per_second;
            runConfig_->setEstimate(
                tr("Estimated run time: about %1 (%2 images x %3 epochs at %4 images/s, the speed "
                   "of run %5)")
                    .arg(QString::fromStdString(track::clock_text(seconds)))
                    .arg(stats->images)
                    .arg(epochs)
                    .arg(run.images_per_second, 0, 'f', 0)
                    .arg(QFileInfo(run.directory).fileName()));
            return;
        }
    }
    const std::string accelerator = settings.value("accelerator", std::string("auto"));
    const bool on_cpu =
        accelerator == "cpu" || (accelerator == "auto" && !runConfig_->hardware().cuda_available());
    estimateFromMeasuredSpeed(model, image_size, task == "pretrain", stats->images, epochs, on_cpu);
}

void MainWindow::estimateFromMeasuredSpeed(const QString& model, int imageSize, bool pretraining,
                                           qint64 images, int epochs, bool onCpu) {
    const int views = pretraining ? 2 : 1; // a method's pair of views, or the image itself
    const QString key = QStringLiteral("%1@%2/%3").arg(model).arg(imageSize).arg(views);
    if (const auto measured = measuredSpeed_.constFind(key);
        onCpu && measured != measuredSpeed_.constEnd() && *measured > 0) {
        const double seconds = double(images) * double(epochs) / *measured;
        runConfig_->setEstimate(
            tr("Estimated run time: about %1 (%2 images x %3 epochs at about %4 images/s, "
               "measured for %5 at %6 px on this computer's CPU, computing only; the first "
               "run's own speed replaces it)")
                .arg(QString::fromStdString(track::clock_text(seconds)))
                .arg(images)
                .arg(epochs)
                .arg(*measured, 0, 'f', 0)
                .arg(model)
                .arg(imageSize));
        return;
    }
    // Measured once per model and size, never beside a job (it would take the job's cores, and
    // the job's speed would be wrong).
    if (!onCpu || imageSize <= 0 || busy() || measuredSpeed_.contains(key) ||
        speedJob_.isRunning()) {
        runConfig_->setEstimate(tr("Estimated run time: known once a run of %1 at %2 px has "
                                   "trained in this project")
                                    .arg(model)
                                    .arg(imageSize));
        return;
    }
    runConfig_->setEstimate(tr("Estimating the run time: measuring %1 at %2 px on this computer...")
                                .arg(model)
                                .arg(imageSize));
    auto speed = std::make_shared<double>(0.0);
    speedJob_.start(
        [speed, model, imageSize, views](const StopToken& stop) {
            try {
                *speed = train::probe_training_speed(model.toStdString(), imageSize, views, stop);
            } catch (const std::exception&) {
                // An unknown model: the form names it; the estimate waits for a run
            }
            if (stop.stop_requested()) {
                *speed = -1.0; // a run started: measured another time
            }
        },
        [this, speed, key] {
            if (*speed >= 0) {
                measuredSpeed_.insert(key, *speed);
            }
            updateEstimate();
        });
}

// Off the GUI thread: the first look at the GPUs starts the CUDA driver, which takes a while.
void MainWindow::probeHardware() {
    statusBar()->showMessage(tr("Looking for GPUs..."));
    auto hardware = std::make_shared<system::HardwareInfo>();
    hardwareJob_.start([hardware](const StopToken&) { *hardware = system::probe_hardware(); },
                       [this, hardware] {
                           statusBar()->showMessage(hardwareSummary(*hardware));
                           runConfig_->setHardware(*hardware);
                       });
}

void MainWindow::showLastRun() {
    // Read on a thread: a long run's history is many rows.
    const QString folder = project_->runsFolder();
    auto history = std::make_shared<std::optional<track::RecordedHistory>>();
    historyJob_.abandon();
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
            if (*history && !busy()) {
                livePlotsPage_->plots()->showHistory(**history);
            }
        });
}

// The project's pretraining runs with an exported backbone: where a fine-tuning can start.
// From Run History's rows (read off the GUI thread), each time they change.
void MainWindow::updatePretrainedRuns() {
    QList<RunConfigForm::PretrainedRun> runs;
    QStringList listed;
    for (const RunRow& row : runHistory_->model()->runs()) {
        const bool exported =
            QFileInfo::exists(row.directory + QStringLiteral("/exported_models/exported_last.pt"));
        if (!row.method.isEmpty() && exported && !listed.contains(row.directory)) {
            listed << row.directory;
            runs.push_back({row.directory, row.displayName()});
        }
    }
    runConfig_->setPretrainedRuns(runs);
}

bool MainWindow::busy() const {
    return session_->isRunning() || embedding_->isRunning() || modelCommands_->isRunning();
}

void MainWindow::resumeTraining(const QString& directory) {
    if (busy()) {
        return;
    }
    try {
        const track::RunReader store(kiln::track::RunDirectory(directory.toStdString()).run_db());
        const std::vector<track::RunRecord> runs = store.runs();
        if (runs.empty()) {
            throw Error("\"" + directory.toStdString() + "\" has no recorded run to resume");
        }
        nlohmann::json settings = nlohmann::json::parse(runs.back().config);
        settings["resume_interrupted"] = true;
        settings["overwrite"] = false;
        beginTraining(resolve_train_config(
            settings, {system::probe_hardware(), system::WorkerEnvironment::from_process()}));
        // The plots show the whole run: what it did before, then the steps it goes on with.
        livePlotsPage_->plots()->showHistory(read_recorded_history(directory));
    } catch (const std::exception& error) {
        showError(tr("This run cannot be resumed:\n%1").arg(QString::fromStdString(error.what())));
    }
}

void MainWindow::showStep(const train::StepMetrics& metrics) {
    livePlotsPage_->plots()->addStep(metrics);
    const double remaining = remaining_.after_step(metrics);
    progress_->setRange(0, static_cast<int>(metrics.total_steps));
    progress_->setValue(static_cast<int>(metrics.step));
    progress_->setFormat(tr("epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7")
                             .arg(metrics.epoch + 1)
                             .arg(metrics.epochs)
                             .arg(metrics.step)
                             .arg(metrics.total_steps)
                             .arg(metrics.loss, 0, 'f', 4)
                             .arg(100.0 * metrics.data_wait, 0, 'f', 0)
                             .arg(QString::fromStdString(track::clock_text(remaining))));
}

void MainWindow::optimizeSelectedDataset() {
    optimizeDataset(datasetsPage_->selectedFolder());
}

void MainWindow::optimizeDataset(const QString& folder) {
    if (project_ == nullptr || folder.isEmpty()) {
        return;
    }
    OptimizeDatasetDialog dialog(folder, this);
    bool added = false;
    connect(&dialog, &OptimizeDatasetDialog::finished, this, [&](bool succeeded) {
        if (succeeded && !added) { // the optimized copy joins the project, ready to train on
            added = project_->addDataset(dialog.destination());
        }
    });
    dialog.exec();
}

QString MainWindow::resumableRun() const {
    const QVector<RunRow>& runs = runHistory_->model()->runs();
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

void MainWindow::trainingFinished(const train::RunSummary& summary) {
    progress_->hide();
    livePlotsPage_->showSummary(summary,
                                [this](const QString& key) { return runConfig_->fieldName(key); });
    runHistory_->refresh();
}

void MainWindow::setProject(Project* project) {
    datasetsPage_->setProject(nullptr);
    historyJob_.abandon();
    // Another project's run, plots, per-class results, previews and advice are not this one's,
    // nor its run settings: a project without its own starts from the defaults.
    livePlotsPage_->clear();
    runConfig_->setSettings(nlohmann::json::object());
    delete project_;
    project_ = project;
    if (project_ != nullptr) {
        project_->setParent(this);
        connect(project_, &Project::modifiedChanged, this, &MainWindow::updateTitle);
    }
    embeddingsPage_->setProject(project_);
    pages_->setCurrentIndex(project_ != nullptr ? 1 : 0);
    runHistory_->setFolder(project_ != nullptr ? project_->runsFolder() : QString());
    if (project_ != nullptr) {
        runConfig_->setDatasets(project_->datasets());
        for (const QJsonValue& preset : project_->runPresets()) {
            if (preset.toObject().value(QStringLiteral("name")) == QStringLiteral("last")) {
                runConfig_->setSettings(nlohmann::json::parse(
                    QJsonDocument(preset.toObject().value(QStringLiteral("settings")).toObject())
                        .toJson(QJsonDocument::Compact)
                        .toStdString()));
                if (!runConfig_->valueProblems().isEmpty()) {
                    showError(tr("The project's run settings had values Kiln cannot use; the "
                                 "form shows the defaults instead:\n%1")
                                  .arg(runConfig_->valueProblems().join(QLatin1Char('\n'))));
                }
            }
        }
        connect(project_, &Project::datasetsChanged, this,
                [this] { runConfig_->setDatasets(project_->datasets()); });
        showLastRun();
    }
    datasetsPage_->setProject(project_);
    updateTitle();
    updateActions();
}

// While a run writes into the open project, no other project opens (Open Recent and the start
// page included): its plots and end message would land in the wrong one.
bool MainWindow::refuseWhileBusy() {
    if (!busy()) {
        return false;
    }
    showError(tr("A job is running in this project; stop it (Run > Stop) before opening or "
                 "creating another project."));
    return true;
}

bool MainWindow::newProject() {
    if (refuseWhileBusy() || !maybeSaveChanges()) {
        return false;
    }
    setProject(new Project);
    return true;
}

bool MainWindow::openProject(const QString& file) {
    if (refuseWhileBusy() || !maybeSaveChanges()) {
        return false;
    }
    auto* project = new Project;
    QString error;
    if (!project->load(file, &error)) {
        delete project;
        showError(error);
        return false;
    }
    setProject(project);
    rememberRecent(project_->file());
    const QStringList missing = project_->missingDatasets();
    if (!missing.isEmpty()) {
        showError(tr("These dataset folders of the project are missing; reconnect the drive or "
                     "remove them from the project:\n%1")
                      .arg(missing.join(QLatin1Char('\n'))));
    }
    return true;
}

bool MainWindow::saveProject() {
    if (project_ == nullptr) {
        return false;
    }
    if (project_->file().isEmpty()) {
        const QString file = QFileDialog::getSaveFileName(this, tr("Save Project"), QString(),
                                                          tr("Kiln projects (*.kiln)"));
        return !file.isEmpty() && saveProjectAs(file.endsWith(QStringLiteral(".kiln"))
                                                    ? file
                                                    : file + QStringLiteral(".kiln"));
    }
    return saveProjectAs(project_->file());
}

bool MainWindow::saveProjectAs(const QString& file) {
    if (project_ == nullptr) {
        return false;
    }
    QString error;
    if (!project_->save(file, &error)) {
        showError(error);
        return false;
    }
    rememberRecent(project_->file());
    runHistory_->setFolder(project_->runsFolder());
    const QString runs = project_->runsFolder();
    if (QFileInfo(runs).isDir() &&
        !runs.startsWith(QFileInfo(project_->file()).absolutePath() + QLatin1Char('/'))) {
        statusBar()->showMessage(tr("The project's runs stay in %1; the project refers to them "
                                    "there.")
                                     .arg(QDir::toNativeSeparators(runs)),
                                 15000);
    }
    updateTitle();
    return true;
}

bool MainWindow::closeProject() {
    if (!maybeSaveChanges()) {
        return false;
    }
    setProject(nullptr);
    return true;
}

bool MainWindow::addDataset(const QString& folder) {
    if (project_ == nullptr && !newProject()) {
        return false;
    }
    return project_->addDataset(folder);
}

void MainWindow::openDemoProject() {
    if (demoJob_.isRunning()) {
        return;
    }
    DemoProjectOptions options;
    options.fashionMnist = defaultFashionMnistFolder();
    options.folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                         .filePath(QStringLiteral("demo"));
    auto result = std::make_shared<std::pair<QString, QString>>(); // the file, or an error
    startPage_->showDemoProgress(0, options.images);
    demoJob_.start(
        [this, options, result](const StopToken& stop) {
            try {
                result->first = makeDemoProject(options, stop, [this](qint64 done, qint64 total) {
                    QMetaObject::invokeMethod(
                        this, [this, done, total] { startPage_->showDemoProgress(done, total); });
                });
            } catch (const std::exception& error) {
                result->second = QString::fromStdString(error.what());
            }
        },
        [this, result] {
            startPage_->showDemoFinished();
            if (!result->second.isEmpty()) {
                showError(tr("The demo project could not be made:\n%1").arg(result->second));
            } else if (!result->first.isEmpty()) {
                openProject(result->first);
            }
        });
}

bool MainWindow::ensureProjectSaved(const QString& why) {
    if (!project_->file().isEmpty()) {
        return true;
    }
    QMessageBox box(QMessageBox::Question, tr("Save Project"),
                    why + QLatin1Char(' ') + tr("The project has not been saved yet."),
                    QMessageBox::Save | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("saveFirstBox"));
    box.setInformativeText(tr("Save it now?"));
    box.setDefaultButton(QMessageBox::Save);
    return box.exec() == QMessageBox::Save && saveProject();
}

bool MainWindow::maybeSaveChanges() {
    if (project_ == nullptr || !project_->isModified()) {
        return true;
    }
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"),
                    tr("The project \"%1\" has unsaved changes.").arg(project_->displayName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedChangesBox"));
    box.setInformativeText(tr("Save them before going on?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return saveProject();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void MainWindow::showInformation(const QString& text) {
    auto* box =
        new QMessageBox(QMessageBox::Information, tr("Kiln Studio"), text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("informationBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showError(const QString& text) {
    // Not modal to the application: a long message never blocks the event loop or a test.
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Kiln Studio"), text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::rememberRecent(const QString& file) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentProjects")).toStringList();
    recent.removeAll(file);
    recent.prepend(file);
    constexpr int kRecentProjects = 8;
    while (recent.size() > kRecentProjects) {
        recent.removeLast();
    }
    settings.setValue(QStringLiteral("recentProjects"), recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentProjects")).toStringList();
    for (const QString& file : recent) {
        QAction* action = recentMenu_->addAction(QDir::toNativeSeparators(file));
        connect(action, &QAction::triggered, this, [this, file] { openProject(file); });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
    startPage_->setRecentProjects(recent);
}

void MainWindow::updateTitle() {
    // "[*]" shows the modified marker where the platform puts it.
    setWindowTitle(project_ == nullptr ? tr("Kiln Studio")
                                       : tr("%1[*] - Kiln Studio").arg(project_->displayName()));
    setWindowModified(project_ != nullptr && project_->isModified());
}

void MainWindow::updateActions() {
    const bool open = project_ != nullptr;
    const bool running = busy();
    for (QAction* action : actions_.views) {
        action->setEnabled(open);
    }
    actions_.saveProject->setEnabled(open);
    actions_.saveProjectAs->setEnabled(open);
    // While a run writes into the project, the project stays open.
    for (QAction* action : {actions_.newProject, actions_.openProject, actions_.openDemoProject}) {
        action->setEnabled(!running);
    }
    for (QAction* action : {actions_.closeProject, actions_.train, actions_.exportEmbeddings,
                            actions_.embed, actions_.exportModel, actions_.predict}) {
        action->setEnabled(open && !running);
    }
    actions_.stop->setEnabled(session_->isRunning() || embedding_->isRunning() ||
                              modelCommands_->isRunning());
    actions_.resume->setEnabled(open && !running && !resumableRun().isEmpty());
}

void MainWindow::showAbout() {
    AboutDialog dialog(this);
    dialog.exec();
}

void MainWindow::restoreWindowState() {
    const QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        // First start: 1100x720, or most of a larger screen, centred (a 1920x1080 screen is
        // not left mostly empty).
        QSize size(1100, 720);
        const QScreen* screen = QGuiApplication::primaryScreen();
        if (const QRect available = screen != nullptr ? screen->availableGeometry() : QRect();
            available.width() > size.width() && available.height() > size.height()) {
            size = size.expandedTo({available.width() * 4 / 5, available.height() * 17 / 20});
            resize(size);
            move(available.center() - QPoint(size.width() / 2, size.height() / 2));
        } else {
            resize(size);
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSaveChanges()) {
        event->ignore();
        return;
    }
    // A running training stops after its step with a checkpoint; the session waits for it.
    session_->stop();
    demoJob_.stop();
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    event->accept();
}

} // namespace kiln::gui
