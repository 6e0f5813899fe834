#include "app/action_manager.h"

#include "app/about_dialog.h"
#include "app/preferences_dialog.h"
#include "app/shortcuts_dialog.h"
#include "app/user_guide_dialog.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>

namespace kiln::gui {

ActionManager::ActionManager(QMainWindow* window) : QObject(window), window_(window) {
    createFileMenu();
    createEditMenu();
    createRunMenu();
    createToolBar();
    createViewMenu();
    createHelpMenu();
}

QAction* ActionManager::add(QMenu* menu, const QString& objectName, const QString& text,
                            const QKeySequence& shortcut = {}) {
    QAction* action = menu->addAction(text);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    return action;
}

void ActionManager::createFileMenu() {
    QMenu* file = window_->menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    newProject =
        add(file, QStringLiteral("newProjectAction"), tr("&New Project"), QKeySequence::New);
    openProject =
        add(file, QStringLiteral("openProjectAction"), tr("&Open Project..."), QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    recentMenu_->setObjectName(QStringLiteral("recentMenu"));
    openDemoProject = add(file, QStringLiteral("openDemoProjectAction"), tr("Open &Demo Project"));
    saveProject = add(file, QStringLiteral("saveProjectAction"), tr("&Save"), QKeySequence::Save);
    saveProjectAs =
        add(file, QStringLiteral("saveProjectAsAction"), tr("Save &As..."), QKeySequence::SaveAs);
    file->addSeparator();
    addDataset = add(file, QStringLiteral("addDatasetAction"), tr("Add &Dataset Folder..."));
    exportEmbeddings =
        add(file, QStringLiteral("exportEmbeddingsAction"), tr("&Export Embeddings..."));
    exportModel = add(file, QStringLiteral("exportModelAction"), tr("Export &Model..."));
    file->addSeparator();
    closeProject =
        add(file, QStringLiteral("closeProjectAction"), tr("&Close Project"), QKeySequence::Close);
    QAction* quit = add(file, QStringLiteral("quitAction"), tr("&Quit"), QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, window_, &QWidget::close);
}

void ActionManager::createEditMenu() {
    QMenu* edit = window_->menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    undoGroup_ = new QUndoGroup(this);
    QAction* undo = undoGroup_->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undoGroup_->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcut(QKeySequence::Redo);
    // Their texts name what they would undo ("Undo Rename Run ..."); the shortcuts list names
    // the commands.
    undo->setProperty(kCommandNameProperty, tr("Undo"));
    redo->setProperty(kCommandNameProperty, tr("Redo"));
    edit->addActions({undo, redo});
    edit->addSeparator();
    QAction* preferences = add(edit, QStringLiteral("preferencesAction"), tr("&Preferences..."),
                               QKeySequence::Preferences);
    preferences->setMenuRole(QAction::PreferencesRole);
    connect(preferences, &QAction::triggered, this, [this] {
        PreferencesDialog dialog(window_);
        dialog.exec();
    });
}

void ActionManager::setUndoStack(QUndoStack* stack) {
    if (stack != nullptr && !undoGroup_->stacks().contains(stack)) {
        undoGroup_->addStack(stack); // a deleted project's stack leaves the group by itself
    }
    undoGroup_->setActiveStack(stack);
}

void ActionManager::createRunMenu() {
    QMenu* run = window_->menuBar()->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    train =
        add(run, QStringLiteral("trainAction"), tr("&Train"), QKeySequence(Qt::CTRL | Qt::Key_R));
    // Run > Embed is File > Export Embeddings, where people look for it while running things.
    embed = add(run, QStringLiteral("embedAction"), tr("&Embed..."),
                QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(embed, &QAction::triggered, exportEmbeddings, &QAction::trigger);
    predict = add(run, QStringLiteral("predictAction"), tr("&Predict..."));
    stop = add(run, QStringLiteral("stopAction"), tr("&Stop"),
               QKeySequence(Qt::CTRL | Qt::Key_Period));
    resume = add(run, QStringLiteral("resumeAction"), tr("&Resume"),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    resume->setStatusTip(tr("Continue the project's last stopped run from its checkpoint"));
}

void ActionManager::createToolBar() {
    // The commands used most, with icons from resources/icons.
    QToolBar* toolbar = window_->addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    for (const auto& [action, icon] :
         {std::pair{newProject, "new"}, std::pair{openProject, "open"},
          std::pair{saveProject, "save"}, std::pair{train, "train"}, std::pair{stop, "stop"},
          std::pair{exportEmbeddings, "export"}}) {
        action->setIcon(QIcon(QStringLiteral(":/icons/%1.png").arg(QLatin1String(icon))));
        toolbar->addAction(action);
        if (action == saveProject || action == stop) {
            toolbar->addSeparator();
        }
    }
}

void ActionManager::createViewMenu() {
    QMenu* view = window_->menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    const std::pair<QString, QString> entries[kViewCount] = {
        {QStringLiteral("datasetsViewAction"), tr("&Datasets")},
        {QStringLiteral("runConfigurationViewAction"), tr("Run &Configuration")},
        {QStringLiteral("livePlotsViewAction"), tr("Live &Plots")},
        {QStringLiteral("runHistoryViewAction"), tr("Run &History")},
        {QStringLiteral("embeddingsViewAction"), tr("&Embeddings")}};
    for (std::size_t tab = 0; tab < views.size(); ++tab) {
        views[tab] = add(view, entries[tab].first, entries[tab].second);
    }
    view->addSeparator();
    QAction* fullScreen =
        add(view, QStringLiteral("fullScreenAction"), tr("&Full Screen"), QKeySequence::FullScreen);
    fullScreen->setCheckable(true);
    connect(fullScreen, &QAction::toggled, this, [this](bool on) {
        window_->setWindowState(on ? window_->windowState() | Qt::WindowFullScreen
                                   : window_->windowState() & ~Qt::WindowFullScreen);
    });
}

void ActionManager::createHelpMenu() {
    QMenu* help = window_->menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    connect(
        add(help, QStringLiteral("userGuideAction"), tr("&User Guide"), QKeySequence::HelpContents),
        &QAction::triggered, this, [this] {
            auto* guide = new UserGuideDialog(window_);
            guide->setAttribute(Qt::WA_DeleteOnClose);
            guide->show();
        });
    connect(add(help, QStringLiteral("shortcutsAction"), tr("&Keyboard Shortcuts")),
            &QAction::triggered, this, [this] {
                auto* shortcuts = new ShortcutsDialog(*window_->menuBar(), window_);
                shortcuts->setAttribute(Qt::WA_DeleteOnClose);
                shortcuts->show();
            });
    help->addSeparator();
    QAction* about = add(help, QStringLiteral("aboutAction"), tr("&About Kiln Studio"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        AboutDialog dialog(window_);
        dialog.exec();
    });
    QAction* aboutQt = add(help, QStringLiteral("aboutQtAction"), tr("About &Qt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void ActionManager::setRecentProjects(const QStringList& files) {
    recentMenu_->clear();
    for (const QString& file : files) {
        QAction* action = recentMenu_->addAction(QDir::toNativeSeparators(file));
        connect(action, &QAction::triggered, this,
                [this, file] { Q_EMIT recentProjectRequested(file); });
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

} // namespace kiln::gui
