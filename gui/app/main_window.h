#pragma once

#include "app/project_controller.h"
#include "app/project_pages.h"
#include "common/background_job.h"

#include <QMainWindow>

class QStackedWidget;

namespace kiln::gui {

class ActionManager;
class EmbeddingSession;
class EmbeddingsView;
class JobController;
class LivePlots;
class Project;
class RunConfigForm;
class RunController;
class RunEstimate;
class RunHistoryView;
class StartPage;
class TrainingSession;

// The Kiln Studio window: the start page or the open project's pages, the menus and the status
// bar. It wires the controllers (Tiled-style) that do the work: ActionManager (the menus and
// toolbar), ProjectController (the project's life cycle), RunController (the commands that run
// something), RunEstimate (the form's run time) and JobController (the engine jobs, one at a
// time, with their progress).
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectController* projects() const { return projects_; }
    Project* project() const;
    RunHistoryView* runHistory() const { return pages_.runHistory; }
    RunConfigForm* runConfiguration() const { return pages_.runConfig; }
    LivePlots* livePlots() const;
    TrainingSession* session() const;
    EmbeddingSession* embeddingSession() const;
    EmbeddingsView* embeddingsView() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    // A project file or image folders dropped onto the window open (DroppedFiles).
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void connectActions();
    void connectPages();
    void connectProjects();
    void showProject(Project* project);
    // The GPUs, probed on a thread, into the status bar and the run form.
    void probeHardware();
    void restoreWindowState();
    void updateTitle();
    void updateActions();
    // Edit ▸ Undo acts on what the shown tab edits: Run History's runs, else the project.
    void updateUndoStack();

    QStackedWidget* stack_;
    StartPage* startPage_;
    ProjectPages pages_;
    ActionManager* actions_;
    JobController* jobs_;
    ProjectController* projects_;
    RunController* runs_;
    RunEstimate* estimate_;
    BackgroundJob hardwareJob_{this, QStringLiteral("hardware probe")};
};

} // namespace kiln::gui
