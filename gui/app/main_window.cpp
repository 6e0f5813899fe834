#include "app/main_window.h"

#include "app/action_manager.h"
#include "app/job_controller.h"
#include "app/project_controller.h"
#include "app/run_controller.h"
#include "app/run_estimate.h"
#include "app/start_page.h"
#include "common/message_boxes.h"
#include "datasets/datasets_page.h"
#include "embeddings/embedding_session.h"
#include "embeddings/embeddings_page.h"
#include "plots/live_plots_page.h"
#include "project/project.h"
#include "runs/run_history.h"
#include "system/hardware.h"
#include "training/run_config_form.h"
#include "training/training_session.h"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QGuiApplication>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

namespace kiln::gui {
namespace {

constexpr int kMessageMs = 15000; // how long a status bar message stays

QString hardwareSummary(const system::HardwareInfo& hardware) {
    if (!hardware.cuda_available()) {
        return MainWindow::tr("CPU: %Ln core(s), no CUDA GPU", nullptr, hardware.cpu_cores);
    }
    QStringList gpus;
    for (const system::GpuInfo& gpu : hardware.gpus) {
        gpus << QString::fromStdString(gpu.name);
    }
    return MainWindow::tr("CPU: %Ln core(s), GPUs: %1", nullptr, hardware.cpu_cores)
        .arg(gpus.join(QStringLiteral(", ")));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), stack_(new QStackedWidget(this)), startPage_(new StartPage(this)),
      pages_(this), actions_(new ActionManager(this)), jobs_(new JobController(this)),
      projects_(new ProjectController(this, [this] { return jobs_->busy(); })),
      runs_(new RunController(this, projects_, jobs_, &pages_)),
      estimate_(new RunEstimate(&pages_, [this] { return jobs_->busy(); }, this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setWindowIcon(QIcon(QStringLiteral(":/icons/kiln-256.png")));
    stack_->addWidget(startPage_);
    stack_->addWidget(pages_.tabs);
    setCentralWidget(stack_);
    connectActions();
    connectPages();
    connectProjects();
    probeHardware();
    restoreWindowState();
    const QStringList recent = projects_->recentProjects();
    actions_->setRecentProjects(recent);
    startPage_->setRecentProjects(recent);
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() {
    hardwareJob_.stopAndWait();
}

Project* MainWindow::project() const {
    return projects_->project();
}

LivePlots* MainWindow::livePlots() const {
    return pages_.livePlots->plots();
}

TrainingSession* MainWindow::session() const {
    return jobs_->training();
}

EmbeddingSession* MainWindow::embeddingSession() const {
    return jobs_->embedding();
}

EmbeddingsView* MainWindow::embeddingsView() const {
    return pages_.embeddings->view();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!DroppedFiles::of(event->mimeData()->urls()).empty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const DroppedFiles dropped = DroppedFiles::of(event->mimeData()->urls());
    if (dropped.empty()) {
        return;
    }
    event->acceptProposedAction();
    // After the drop returns: a question (unsaved changes) must not block the dragging
    // application.
    QMetaObject::invokeMethod(
        this,
        [this, dropped] {
            projects_->openDropped(dropped);
            if (!dropped.folders.isEmpty() && project() != nullptr) {
                pages_.show(ProjectPages::kDatasets); // where the added datasets are shown
            }
        },
        Qt::QueuedConnection);
}

void MainWindow::connectActions() {
    ProjectController* projects = projects_;
    connect(actions_->newProject, &QAction::triggered, projects, &ProjectController::newProject);
    connect(actions_->openProject, &QAction::triggered, projects, &ProjectController::askToOpen);
    connect(actions_, &ActionManager::recentProjectRequested, projects,
            &ProjectController::openProject);
    connect(actions_->openDemoProject, &QAction::triggered, projects,
            &ProjectController::openDemoProject);
    connect(actions_->saveProject, &QAction::triggered, projects, &ProjectController::saveProject);
    connect(actions_->saveProjectAs, &QAction::triggered, projects,
            &ProjectController::askToSaveAs);
    connect(actions_->addDataset, &QAction::triggered, projects,
            &ProjectController::askToAddDataset);
    connect(actions_->closeProject, &QAction::triggered, projects,
            &ProjectController::closeProject);
    connect(actions_->exportEmbeddings, &QAction::triggered, runs_,
            &RunController::exportEmbeddings);
    connect(actions_->exportModel, &QAction::triggered, runs_, [this] { runs_->exportModel(); });
    connect(actions_->train, &QAction::triggered, runs_, &RunController::startTraining);
    connect(actions_->predict, &QAction::triggered, runs_, &RunController::predict);
    connect(actions_->stop, &QAction::triggered, jobs_, &JobController::stop);
    connect(actions_->resume, &QAction::triggered, runs_, [this] {
        if (const QString run = runs_->resumableRun(); !run.isEmpty()) {
            runs_->resumeTraining(run);
        }
    });
    for (std::size_t tab = 0; tab < actions_->views.size(); ++tab) {
        connect(actions_->views[tab], &QAction::triggered, this,
                [this, tab] { pages_.show(ProjectPages::Tab(tab)); });
    }
    connect(startPage_, &StartPage::newProjectRequested, projects, &ProjectController::newProject);
    connect(startPage_, &StartPage::openProjectRequested, projects, &ProjectController::askToOpen);
    connect(startPage_, &StartPage::recentProjectRequested, projects,
            &ProjectController::openProject);
    connect(startPage_, &StartPage::demoProjectRequested, projects,
            &ProjectController::openDemoProject);
}

void MainWindow::connectPages() {
    connect(pages_.datasets, &DatasetsPage::addRequested, actions_->addDataset, &QAction::trigger);
    connect(pages_.datasets, &DatasetsPage::scanned, estimate_, &RunEstimate::update);
    connect(pages_.runConfig, &RunConfigForm::settingsEdited, estimate_, &RunEstimate::update);
    connect(pages_.runHistory, &RunHistoryView::refreshed, estimate_, &RunEstimate::update);
    connect(pages_.runHistory, &RunHistoryView::refreshed, this, &MainWindow::updateActions);
    connect(pages_.tabs, &QTabWidget::currentChanged, this, &MainWindow::updateUndoStack);
    connect(
        pages_.livePlots, &LivePlotsPage::applyRequested, this,
        [this](const QString& key, const QString& value) {
            pages_.runConfig->applySetting(key, value);
            pages_.show(ProjectPages::kRunConfiguration);
            statusBar()->showMessage(
                tr("%1 is now %2 for the next run.").arg(pages_.runConfig->fieldName(key), value),
                kMessageMs);
        });
    connect(pages_.embeddings, &EmbeddingsPage::problem, this,
            [this](const QString& text) { showErrorMessage(this, text); });
    connect(jobs_, &JobController::embeddingWritten, this, [this](const QString& file) {
        pages_.embeddings->showFile(file); // ready in the view, and kept in the project
        pages_.show(ProjectPages::kEmbeddings);
    });
    connect(jobs_, &JobController::busyChanged, this, &MainWindow::updateActions);
    connect(jobs_, &JobController::busyChanged, estimate_, [this] {
        if (jobs_->busy()) { // a probe beside a job would count and time the job's work too
            estimate_->stopMeasuring();
        }
    });
}

void MainWindow::connectProjects() {
    connect(projects_, &ProjectController::projectChanged, this, &MainWindow::showProject);
    connect(projects_, &ProjectController::modifiedChanged, this, &MainWindow::updateTitle);
    connect(projects_, &ProjectController::saved, this, [this] {
        pages_.runHistory->setFolder(project()->runsFolder());
        updateTitle();
    });
    connect(projects_, &ProjectController::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, kMessageMs); });
    connect(projects_, &ProjectController::recentProjectsChanged, actions_,
            &ActionManager::setRecentProjects);
    connect(projects_, &ProjectController::recentProjectsChanged, startPage_,
            &StartPage::setRecentProjects);
    connect(projects_, &ProjectController::demoProgress, startPage_, &StartPage::showDemoProgress);
    connect(projects_, &ProjectController::demoFinished, startPage_, &StartPage::showDemoFinished);
}

// Another project's run, plots, per-class results, previews and advice are not this one's.
void MainWindow::showProject(Project* project) {
    updateUndoStack();
    pages_.datasets->setProject(nullptr);
    pages_.livePlots->clear();
    pages_.embeddings->setProject(project);
    stack_->setCurrentIndex(project != nullptr ? 1 : 0);
    pages_.runHistory->setFolder(project != nullptr ? project->runsFolder() : QString());
    runs_->showProject(project);
    if (project != nullptr) {
        connect(project, &Project::datasetsChanged, this,
                [this, project] { pages_.runConfig->setDatasets(project->datasets()); });
    }
    pages_.datasets->setProject(project);
    updateTitle();
    updateActions();
}

void MainWindow::updateUndoStack() {
    Project* open = project();
    QUndoStack* stack = nullptr;
    if (open != nullptr) {
        stack = pages_.tabs->currentIndex() == ProjectPages::kRunHistory
                    ? pages_.runHistory->model()->undoStack()
                    : open->undoStack();
    }
    actions_->setUndoStack(stack);
}

// Off the GUI thread: the first look at the GPUs starts the CUDA driver, which takes a while.
void MainWindow::probeHardware() {
    statusBar()->showMessage(tr("Looking for GPUs..."));
    auto hardware = std::make_shared<system::HardwareInfo>();
    hardwareJob_.start([hardware](const StopToken&) { *hardware = system::probe_hardware(); },
                       [this, hardware] {
                           statusBar()->showMessage(hardwareSummary(*hardware));
                           pages_.runConfig->setHardware(*hardware);
                       });
}

void MainWindow::updateTitle() {
    // "[*]" shows the modified marker where the platform puts it.
    setWindowTitle(project() == nullptr ? tr("Kiln Studio")
                                        : tr("%1[*] - Kiln Studio").arg(project()->displayName()));
    setWindowModified(project() != nullptr && project()->isModified());
}

void MainWindow::updateActions() {
    const bool open = project() != nullptr;
    const bool running = jobs_->busy();
    for (QAction* action : actions_->views) {
        action->setEnabled(open);
    }
    actions_->saveProject->setEnabled(open);
    actions_->saveProjectAs->setEnabled(open);
    // While a run writes into the project, the project stays open.
    for (QAction* action :
         {actions_->newProject, actions_->openProject, actions_->openDemoProject}) {
        action->setEnabled(!running);
    }
    for (QAction* action : {actions_->closeProject, actions_->train, actions_->exportEmbeddings,
                            actions_->embed, actions_->exportModel, actions_->predict}) {
        action->setEnabled(open && !running);
    }
    actions_->stop->setEnabled(running);
    actions_->resume->setEnabled(open && !running && !runs_->resumableRun().isEmpty());
}

void MainWindow::restoreWindowState() {
    const QSettings settings;
    if (restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        return;
    }
    // First start: 1100x720, or most of a larger screen, centred (a 1920x1080 screen is not
    // left mostly empty).
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

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!projects_->maybeSaveChanges()) {
        event->ignore();
        return;
    }
    // A running training stops after its step with a checkpoint; the session waits for it.
    jobs_->training()->stop();
    projects_->stopJobs();
    QSettings().setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    event->accept();
}

} // namespace kiln::gui
