#include "app/main_window.h"

#include "app/about_dialog.h"
#include "system/hardware.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
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
    setCentralWidget(createStartPage());
    statusBar()->showMessage(hardwareSummary(system::probe_hardware()));
    restoreWindowState();
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
    addAction(file, QStringLiteral("newProjectAction"), tr("&New Project"), QKeySequence::New)
        ->setEnabled(false);
    addAction(file, QStringLiteral("openProjectAction"), tr("&Open Project..."), QKeySequence::Open)
        ->setEnabled(false);
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    recent->setEnabled(false);
    addAction(file, QStringLiteral("saveProjectAction"), tr("&Save"), QKeySequence::Save)
        ->setEnabled(false);
    addAction(file, QStringLiteral("saveProjectAsAction"), tr("Save &As..."), QKeySequence::SaveAs)
        ->setEnabled(false);
    file->addSeparator();
    addAction(file, QStringLiteral("exportEmbeddingsAction"), tr("&Export Embeddings..."))
        ->setEnabled(false);
    file->addSeparator();
    addAction(file, QStringLiteral("closeProjectAction"), tr("&Close Project"), QKeySequence::Close)
        ->setEnabled(false);
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
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    event->accept();
}

} // namespace kiln::gui
