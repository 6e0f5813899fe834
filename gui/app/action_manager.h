#pragma once

#include <QObject>
#include <array>

class QAction;
class QKeySequence;
class QMainWindow;
class QMenu;
class QString;
class QUndoGroup;
class QUndoStack;

namespace kiln::gui {

// A command's name where its action's text changes with what it acts on (Edit ▸ Undo's).
inline constexpr const char* kCommandNameProperty = "commandName";

// The window's commands, one member each (Tiled's action manager): it builds the menus and the
// toolbar, and runs the commands that need nothing but the window (Preferences, the user guide,
// About, Full Screen, Quit). The controllers connect the others and enable them by what is open
// and running.
class ActionManager : public QObject {
    Q_OBJECT

public:
    static constexpr int kViewCount = 5; // View's entries, one per project tab in tab order

    explicit ActionManager(QMainWindow* window);

    QAction* newProject = nullptr;
    QAction* openProject = nullptr;
    QAction* openDemoProject = nullptr;
    QAction* saveProject = nullptr;
    QAction* saveProjectAs = nullptr;
    QAction* addDataset = nullptr;
    QAction* exportEmbeddings = nullptr;
    QAction* exportModel = nullptr;
    QAction* closeProject = nullptr;
    QAction* train = nullptr;
    QAction* embed = nullptr;
    QAction* predict = nullptr;
    QAction* stop = nullptr;
    QAction* resume = nullptr;
    std::array<QAction*, kViewCount> views{};

    // File > Open Recent lists `files`, newest first.
    void setRecentProjects(const QStringList& files);
    // Edit > Undo and Redo act on `stack` (the open project's; none when null).
    void setUndoStack(QUndoStack* stack);

Q_SIGNALS:
    void recentProjectRequested(const QString& file);

private:
    void createFileMenu();
    void createEditMenu();
    void createRunMenu();
    void createToolBar();
    void createViewMenu();
    void createHelpMenu();
    QAction* add(QMenu* menu, const QString& objectName, const QString& text,
                 const QKeySequence& shortcut);

    QMainWindow* window_;
    QMenu* recentMenu_ = nullptr;
    QUndoGroup* undoGroup_ = nullptr;
};

} // namespace kiln::gui
