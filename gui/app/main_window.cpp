#include "app/main_window.h"

#include "app/about_dialog.h"
#include "project/project.h"
#include "runs/run_history.h"
#include "system/hardware.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

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

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Kiln Studio"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/kiln-256.png")));
    createMenus();
    pages_ = new QStackedWidget(this);
    pages_->addWidget(createStartPage());
    pages_->addWidget(createProjectPage());
    setCentralWidget(pages_);
    statusBar()->showMessage(hardwareSummary(system::probe_hardware()));
    restoreWindowState();
    updateRecentMenu();
    updateTitle();
    updateActions();
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
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    connect(
        addAction(file, QStringLiteral("newProjectAction"), tr("&New Project"), QKeySequence::New),
        &QAction::triggered, this, &MainWindow::newProject);
    connect(addAction(file, QStringLiteral("openProjectAction"), tr("&Open Project..."),
                      QKeySequence::Open),
            &QAction::triggered, this, [this] {
                const QString file = QFileDialog::getOpenFileName(
                    this, tr("Open Project"), QString(), tr("Kiln projects (*.kiln)"));
                if (!file.isEmpty()) {
                    openProject(file);
                }
            });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    recentMenu_->setObjectName(QStringLiteral("recentMenu"));
    connect(addAction(file, QStringLiteral("saveProjectAction"), tr("&Save"), QKeySequence::Save),
            &QAction::triggered, this, &MainWindow::saveProject);
    connect(addAction(file, QStringLiteral("saveProjectAsAction"), tr("Save &As..."),
                      QKeySequence::SaveAs),
            &QAction::triggered, this, [this] {
                const QString file = QFileDialog::getSaveFileName(
                    this, tr("Save Project As"), project_->file(), tr("Kiln projects (*.kiln)"));
                if (!file.isEmpty()) {
                    saveProjectAs(file.endsWith(QStringLiteral(".kiln"))
                                      ? file
                                      : file + QStringLiteral(".kiln"));
                }
            });
    file->addSeparator();
    connect(addAction(file, QStringLiteral("addDatasetAction"), tr("Add &Dataset Folder...")),
            &QAction::triggered, this, [this] {
                const QString folder =
                    QFileDialog::getExistingDirectory(this, tr("Add Dataset Folder"));
                if (!folder.isEmpty()) {
                    addDataset(folder);
                }
            });
    addAction(file, QStringLiteral("exportEmbeddingsAction"), tr("&Export Embeddings..."))
        ->setEnabled(false);
    file->addSeparator();
    connect(addAction(file, QStringLiteral("closeProjectAction"), tr("&Close Project"),
                      QKeySequence::Close),
            &QAction::triggered, this, &MainWindow::closeProject);
    QAction* quit = addAction(file, QStringLiteral("quitAction"), tr("&Quit"), QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    addAction(run, QStringLiteral("trainAction"), tr("&Train"), QKeySequence(Qt::CTRL | Qt::Key_R))
        ->setEnabled(false);
    addAction(run, QStringLiteral("embedAction"), tr("&Embed"), QKeySequence(Qt::CTRL | Qt::Key_E))
        ->setEnabled(false);
    addAction(run, QStringLiteral("stopAction"), tr("&Stop"),
              QKeySequence(Qt::CTRL | Qt::Key_Period))
        ->setEnabled(false);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    for (const auto& [name, text] :
         {std::pair{QStringLiteral("datasetsViewAction"), tr("&Datasets")},
          std::pair{QStringLiteral("runConfigurationViewAction"), tr("Run &Configuration")},
          std::pair{QStringLiteral("livePlotsViewAction"), tr("Live &Plots")},
          std::pair{QStringLiteral("runHistoryViewAction"), tr("Run &History")},
          std::pair{QStringLiteral("embeddingsViewAction"), tr("&Embeddings")}}) {
        addAction(view, name, text)->setEnabled(false);
    }
    // The views built so far switch the project's tabs.
    connect(findChild<QAction*>(QStringLiteral("datasetsViewAction")), &QAction::triggered, this,
            [this] { projectTabs_->setCurrentIndex(0); });
    connect(findChild<QAction*>(QStringLiteral("runHistoryViewAction")), &QAction::triggered, this,
            [this] {
                projectTabs_->setCurrentIndex(1);
                runHistory_->refresh();
            });
    view->addSeparator();
    QAction* fullScreen = addAction(view, QStringLiteral("fullScreenAction"), tr("&Full Screen"),
                                    QKeySequence::FullScreen);
    fullScreen->setCheckable(true);
    connect(fullScreen, &QAction::toggled, this, [this](bool on) {
        setWindowState(on ? windowState() | Qt::WindowFullScreen
                          : windowState() & ~Qt::WindowFullScreen);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction* about = addAction(help, QStringLiteral("aboutAction"), tr("&About Kiln Studio"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    QAction* aboutQt = addAction(help, QStringLiteral("aboutQtAction"), tr("About &Qt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

QWidget* MainWindow::createStartPage() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("startPage"));
    auto* icon = new QLabel(page);
    icon->setPixmap(QPixmap(QStringLiteral(":/icons/kiln-256.png"))
                        .scaled(128, 128, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    icon->setAlignment(Qt::AlignCenter);
    auto* title = new QLabel(tr("<h1>Kiln Studio</h1>"), page);
    title->setAlignment(Qt::AlignCenter);
    auto* text = new QLabel(tr("Pretrain backbones on your unlabelled images, watch where the "
                               "time goes, and export embeddings."),
                            page);
    text->setAlignment(Qt::AlignCenter);
    text->setWordWrap(true);

    auto* layout = new QVBoxLayout(page);
    layout->addStretch();
    layout->addWidget(icon);
    layout->addWidget(title);
    layout->addWidget(text);
    layout->addStretch();
    return page;
}

QWidget* MainWindow::createProjectPage() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("projectPage"));
    auto* heading = new QLabel(tr("<h2>Datasets</h2>"), page);
    datasetList_ = new QListWidget(page);
    datasetList_->setObjectName(QStringLiteral("datasetList"));
    auto* add = new QPushButton(tr("Add Dataset Folder..."), page);
    connect(add, &QPushButton::clicked, findChild<QAction*>(QStringLiteral("addDatasetAction")),
            &QAction::trigger);
    auto* remove = new QPushButton(tr("Remove"), page);
    remove->setObjectName(QStringLiteral("removeDatasetButton"));
    connect(remove, &QPushButton::clicked, this, [this] {
        if (project_ != nullptr && datasetList_->currentRow() >= 0) {
            project_->removeDataset(datasetList_->currentRow());
        }
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(heading);
    layout->addWidget(datasetList_);
    layout->addLayout(buttons);

    projectTabs_ = new QTabWidget(this);
    projectTabs_->setObjectName(QStringLiteral("projectTabs"));
    projectTabs_->addTab(page, tr("Datasets"));
    runHistory_ = new RunHistoryView(projectTabs_);
    projectTabs_->addTab(runHistory_, tr("Run History"));
    return projectTabs_;
}

void MainWindow::setProject(Project* project) {
    delete project_;
    project_ = project;
    if (project_ != nullptr) {
        project_->setParent(this);
        connect(project_, &Project::modifiedChanged, this, &MainWindow::updateTitle);
        connect(project_, &Project::datasetsChanged, this, &MainWindow::updateDatasetList);
    }
    pages_->setCurrentIndex(project_ != nullptr ? 1 : 0);
    runHistory_->setFolder(project_ != nullptr ? project_->runsFolder() : QString());
    updateDatasetList();
    updateTitle();
    updateActions();
}

bool MainWindow::newProject() {
    if (!maybeSaveChanges()) {
        return false;
    }
    setProject(new Project);
    return true;
}

bool MainWindow::openProject(const QString& file) {
    if (!maybeSaveChanges()) {
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
}

void MainWindow::updateTitle() {
    // "[*]" shows the modified marker where the platform puts it.
    setWindowTitle(project_ == nullptr ? tr("Kiln Studio")
                                       : tr("%1[*] - Kiln Studio").arg(project_->displayName()));
    setWindowModified(project_ != nullptr && project_->isModified());
}

void MainWindow::updateDatasetList() {
    datasetList_->clear();
    if (project_ == nullptr) {
        return;
    }
    for (const DatasetEntry& dataset : project_->datasets()) {
        const bool missing = !QFileInfo(dataset.path).isDir();
        auto* item = new QListWidgetItem(
            missing
                ? tr("%1 - %2 (missing)").arg(dataset.name, QDir::toNativeSeparators(dataset.path))
                : tr("%1 - %2").arg(dataset.name, QDir::toNativeSeparators(dataset.path)),
            datasetList_);
        item->setToolTip(QDir::toNativeSeparators(dataset.path));
    }
}

void MainWindow::updateActions() {
    const bool open = project_ != nullptr;
    for (const char* name : {"saveProjectAction", "saveProjectAsAction", "closeProjectAction",
                             "datasetsViewAction", "runHistoryViewAction"}) {
        findChild<QAction*>(QLatin1String(name))->setEnabled(open);
    }
}

void MainWindow::showAbout() {
    AboutDialog dialog(this);
    dialog.exec();
}

void MainWindow::restoreWindowState() {
    const QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
        resize(1100, 720);
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSaveChanges()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    event->accept();
}

} // namespace kiln::gui
